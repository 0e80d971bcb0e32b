#include "dataset/DevMap.h"

#include "common/Error.h"
#include "dataset/Csv.h"

#include <cstdlib>
#include <map>

namespace steerbench::dataset {

std::vector<DevMapRow> readDevMap(const std::string& path) {
  const auto rows = readCsvFile(path);
  if (rows.empty()) throw InputError(path + ": the CSV is empty; expected a DevMap header row");
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < rows[0].size(); ++i)
    col[rows[0][i]] = i;
  const char* required[] = {"benchmark", "dataset",  "comp",   "rational", "mem",         "localmem",    "coalesced",
                            "atomic",    "transfer", "wgsize", "oracle",   "runtime_cpu", "runtime_gpu", "src"};
  for (const char* r : required)
    if (!col.count(r))
      throw InputError(path + ": missing column '" + r +
                       "'; a DevMap-layout CSV needs: benchmark, dataset, comp, "
                       "rational, mem, localmem, coalesced, atomic, transfer, wgsize, oracle, runtime_cpu, "
                       "runtime_gpu, src");
  std::vector<DevMapRow> out;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const auto& row = rows[r];
    auto get = [&](const char* name) -> const std::string& {
      const std::size_t i = col[name];
      if (i >= row.size())
        throw InputError(path + ": row " + std::to_string(r + 1) + " has " + std::to_string(row.size()) +
                         " fields, too few for column '" + name + "'");
      return row[i];
    };
    auto num = [&](const char* name) {
      const std::string& s = get(name);
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      if (s.empty() || *end != '\0')
        throw InputError(path + ": row " + std::to_string(r + 1) + ", column '" + name + "': '" + s +
                         "' is not a number");
      return v;
    };
    DevMapRow d;
    d.benchmark = get("benchmark");
    d.dataset = get("dataset");
    d.comp = num("comp");
    d.rational = num("rational");
    d.mem = num("mem");
    d.localmem = num("localmem");
    d.coalesced = num("coalesced");
    d.atomic = num("atomic");
    d.transfer = num("transfer");
    d.wgsize = num("wgsize");
    d.oracle = get("oracle");
    d.runtimeCpu = num("runtime_cpu");
    d.runtimeGpu = num("runtime_gpu");
    d.src = get("src");
    out.push_back(std::move(d));
  }
  return out;
}

} // namespace steerbench::dataset

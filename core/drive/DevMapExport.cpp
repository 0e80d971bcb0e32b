#include "drive/DevMapExport.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "features/GreweFeatures.h"
#include "store/Workspace.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

namespace steerbench::drive {
namespace {

features::GreweCounts greweOf(const store::KernelRecord& k) {
  features::GreweAstCounter counter;
  clangfe::CompileRequest req;
  req.source = k.source;
  req.fileName = k.originFile.empty() ? "kernel.cl" : k.originFile;
  req.emitIR = false;
  req.observer = &counter;
  (void)clangfe::compile(req);
  for (const auto& [name, counts] : counter.kernels())
    if (name == k.name) return counts;
  return {};
}

std::string ms(double ns) { return formatNumber(ns / 1e6); }

} // namespace

ExportSummary exportDevMapCsv(const store::Workspace& ws, const std::string& path, const ExportOptions& options) {
  std::string csv = "benchmark,dataset,comp,rational,mem,localmem,coalesced,atomic,transfer,wgsize,oracle,"
                    "runtime_cpu,runtime_gpu,src,device_cpu,device_gpu,runtime_cpu_ci_low,runtime_cpu_ci_high,"
                    "runtime_gpu_ci_low,runtime_gpu_ci_high,outcome,label_status,spec\n";
  ExportSummary summary;
  std::map<std::int64_t, std::pair<store::KernelRecord, features::GreweCounts>> kernels;
  for (const auto& c : ws.driveCases()) {
    std::vector<const store::Workspace::DriveMeasurementRecord*> measured;
    for (const auto& d : c.devices)
      if (d.outcome == "PASS" && d.total.n > 0) measured.push_back(&d);
    if (c.outcome != "PASS" || measured.size() < 2) {
      ++summary.skipped;
      continue;
    }
    // Roles: a GPU and a CPU when both types are present; else the run's order.
    const store::Workspace::DriveMeasurementRecord *cpu = nullptr, *gpu = nullptr;
    for (const auto* d : measured) {
      if (!gpu && d->deviceType == "GPU") gpu = d;
      if (!cpu && d->deviceType != "GPU") cpu = d;
    }
    if (!gpu || !cpu) {
      cpu = measured[0];
      gpu = measured[1];
    }
    // The oracle and its status are the exported pair's own: with a third
    // device the case's label may name neither of them.
    const bool cpuFaster = cpu->total.mean <= gpu->total.mean;
    const auto* best = cpuFaster ? cpu : gpu;
    const auto* other = cpuFaster ? gpu : cpu;
    const bool separate = best->total.n > 1 && other->total.n > 1 && best->total.ciHigh < other->total.ciLow;
    const std::string pairStatus = separate ? "significant" : "AMBIGUOUS";
    if (options.significantOnly && !separate) {
      ++summary.skipped;
      continue;
    }
    auto it = kernels.find(c.kernelId);
    if (it == kernels.end()) {
      auto k = ws.kernel(c.kernelId);
      if (!k) {
        ++summary.skipped;
        continue;
      }
      it = kernels.emplace(c.kernelId, std::make_pair(*k, greweOf(*k))).first;
    }
    const auto& [k, g] = it->second;
    csv += csvField("steerbench-" + std::to_string(c.kernelId) + "-" + c.kernelName) + "," +
           csvField("g" + std::to_string(c.globalSize) + "-l" + std::to_string(c.localSize)) + "," +
           formatNumber(g.comp) + "," + formatNumber(g.rational) + "," + formatNumber(g.mem) + "," +
           formatNumber(g.localmem) + "," + formatNumber(g.coalesced) + "," + formatNumber(g.atomic) + "," +
           std::to_string(c.transferBytes) + "," + std::to_string(c.localSize) + "," + (cpuFaster ? "CPU" : "GPU") +
           "," + ms(cpu->total.mean) + "," + ms(gpu->total.mean) + "," + csvField(k.source) + "," +
           csvField(cpu->device) + "," + csvField(gpu->device) + "," + ms(cpu->total.ciLow) + "," +
           ms(cpu->total.ciHigh) + "," + ms(gpu->total.ciLow) + "," + ms(gpu->total.ciHigh) + "," + c.outcome + "," +
           pairStatus + "," + csvField(c.specHash) + "\n";
    ++summary.rows;
  }
  const std::string tmp = path + ".part";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw InputError("cannot write " + path + ": " + std::strerror(errno));
  const bool wrote = std::fwrite(csv.data(), 1, csv.size(), f) == csv.size();
  const int err = errno;
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed) {
    std::remove(tmp.c_str());
    throw InputError("cannot write " + path + ": " + std::strerror(wrote ? errno : err) +
                     " (nothing was written; free some space and export again)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw InputError("cannot write " + path + ": " + ec.message());
  }
  return summary;
}

} // namespace steerbench::drive

#include "cli/FeatureOutput.h"

#include "common/TextFormat.h"
#include "features/GreweFeatures.h"

namespace steerbench::cli {
namespace {

/// The rows a file contributes: kernels with a vector in every requested space.
struct Row {
  const features::FileMeasurement* file;
  std::string kernel;
  std::vector<const features::KernelVector*> vectors; ///< one per space
  bool fromErrors = false;
};

std::vector<Row> rowsOf(const std::vector<features::FileMeasurement>& results, bool allowErrors) {
  std::vector<Row> rows;
  for (const auto& m : results) {
    if (!m.ok() && !allowErrors) continue;
    for (const auto& k : m.kernels) {
      Row r{&m, k, {}, false};
      for (const auto& s : m.spaces) {
        const features::KernelVector* found = nullptr;
        for (const auto& v : s.kernels)
          if (v.kernel == k) found = &v;
        if (!found) break;
        r.vectors.push_back(found);
        r.fromErrors = r.fromErrors || found->fromErrors;
      }
      if (r.vectors.size() == m.spaces.size() && !m.spaces.empty()) rows.push_back(std::move(r));
    }
  }
  return rows;
}

bool withDerived(const OutputOptions& o, const features::FeatureSpace* s) {
  return o.transfer && o.wgsize && s->name == "grewe";
}

/// F1 and F3 from a Grewe vector (comp, rational, mem, localmem, ...).
std::pair<double, double> derived(const std::vector<double>& g, const OutputOptions& o) {
  features::GreweCounts c;
  c.comp = g[0];
  c.mem = g[2];
  c.localmem = g[3];
  return {features::greweF1(c, *o.transfer), features::greweF3(c, *o.wgsize)};
}

} // namespace

void writeFeatureCsv(std::ostream& out, const std::vector<features::FileMeasurement>& results,
                     const std::vector<const features::FeatureSpace*>& spaces, const OutputOptions& options) {
  const bool prefixed = spaces.size() > 1;
  out << "file,kernel";
  for (const auto* s : spaces) {
    for (const auto& d : s->dimensions)
      out << "," << csvField(prefixed ? s->name + "." + d : d);
    if (withDerived(options, s)) out << (prefixed ? ",grewe.F1,grewe.F3" : ",F1,F3");
  }
  if (options.allowErrors) out << ",from_errors";
  out << "\n";
  for (const auto& r : rowsOf(results, options.allowErrors)) {
    out << csvField(r.file->path) << "," << csvField(r.kernel);
    for (std::size_t i = 0; i < spaces.size(); ++i) {
      for (double v : r.vectors[i]->values)
        out << "," << formatNumber(v);
      if (withDerived(options, spaces[i])) {
        auto [f1, f3] = derived(r.vectors[i]->values, options);
        out << "," << formatNumber(f1) << "," << formatNumber(f3);
      }
    }
    if (options.allowErrors) out << "," << (r.fromErrors ? 1 : 0);
    out << "\n";
  }
}

void writeFeatureJson(std::ostream& out, const std::vector<features::FileMeasurement>& results,
                      const std::vector<const features::FeatureSpace*>& spaces, const OutputOptions& options) {
  out << "[";
  bool first = true;
  for (const auto& r : rowsOf(results, options.allowErrors)) {
    out << (first ? "\n" : ",\n") << "  {\"file\": " << jsonString(r.file->path)
        << ", \"kernel\": " << jsonString(r.kernel) << ", \"from_errors\": " << (r.fromErrors ? "true" : "false");
    first = false;
    for (std::size_t i = 0; i < spaces.size(); ++i) {
      const auto* s = spaces[i];
      out << ", " << jsonString(s->name) << ": {\"version\": " << s->version;
      const auto& vals = r.vectors[i]->values;
      for (std::size_t d = 0; d < vals.size(); ++d)
        out << ", " << jsonString(s->dimensions[d]) << ": " << formatNumber(vals[d]);
      if (withDerived(options, s)) {
        auto [f1, f3] = derived(vals, options);
        out << ", \"F1\": " << formatNumber(f1) << ", \"F3\": " << formatNumber(f3);
      }
      out << "}";
    }
    out << "}";
  }
  out << (first ? "]\n" : "\n]\n");
}

} // namespace steerbench::cli

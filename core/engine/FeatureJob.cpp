#include "engine/FeatureJob.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "store/Workspace.h"

#include <atomic>
#include <mutex>

namespace steerbench::engine {

std::string featureSpecJson(const features::MeasureOptions& options) {
  std::string s =
      "{\"app\":" + jsonString(kAppVersion) + ",\"llvm\":" + jsonString(kLlvmVersion) +
      ",\"triple\":\"spir64-unknown-unknown\",\"opt\":\"-O1\",\"cl_std\":" + jsonString(options.compile.clStd) +
      ",\"defines\":[";
  for (std::size_t i = 0; i < options.compile.defines.size(); ++i)
    s += (i ? "," : "") + jsonString(options.compile.defines[i]);
  s += "],\"include_dirs\":[";
  for (std::size_t i = 0; i < options.compile.includeDirs.size(); ++i)
    s += (i ? "," : "") + jsonString(options.compile.includeDirs[i]);
  s += "]}";
  return s;
}

namespace {

std::string flagsText(const clangfe::CompileOptions& o) {
  std::string s = "-cl-std=" + o.clStd;
  for (const auto& d : o.defines)
    s += " -D" + d;
  for (const auto& i : o.includeDirs)
    s += " -I" + i;
  return s;
}

void storeFile(store::Workspace& ws, features::FileMeasurement& m, const FeatureJobOptions& options,
               const std::string& spec) {
  ws.transaction([&] {
    for (const auto& kernel : m.kernels) {
      store::KernelRecord rec;
      rec.name = kernel;
      rec.source = m.source;
      rec.originFile = m.path;
      rec.flags = flagsText(options.measure.compile);
      const auto id = ws.addKernel(rec);
      for (const auto& space : m.spaces) {
        for (const auto& v : space.kernels) {
          if (v.kernel != kernel) continue;
          ws.putFeatures({id, space.space->name, space.space->version, v.values, v.fromErrors, spec});
        }
      }
    }
  });
}

} // namespace

std::vector<features::FileMeasurement> runFeatureJob(const std::vector<std::string>& paths,
                                                     const FeatureJobOptions& options) {
  std::vector<features::FileMeasurement> results(paths.size());
  std::atomic<std::size_t> done{0};
  std::mutex progressMutex;
  parallelFor(
      paths.size(), options.jobs,
      [&](std::size_t i) {
        results[i] = features::measureFile(paths[i], options.measure);
        const std::size_t d = ++done;
        if (options.progress) {
          std::lock_guard<std::mutex> lock(progressMutex);
          options.progress(d, paths.size());
        }
      },
      options.cancel);
  for (std::size_t i = 0; i < paths.size(); ++i)
    if (results[i].path.empty()) {
      results[i].path = paths[i];
      results[i].error = paths[i] + ": not measured (cancelled)";
      results[i].cancelled = true;
    }
  if (options.workspace) {
    const std::string spec = featureSpecJson(options.measure);
    for (auto& m : results) {
      if (!m.ok()) continue;
      try {
        storeFile(*options.workspace, m, options, spec);
      } catch (const WorkspaceError& e) {
        m.error = m.path + ": not stored: " + e.what();
      }
    }
  }
  return results;
}

} // namespace steerbench::engine

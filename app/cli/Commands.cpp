#include "cli/Commands.h"

#include "cli/FeatureOutput.h"
#include "cli/Interrupt.h"

#include "common/Error.h"
#include "engine/FeatureJob.h"
#include "features/FeatureSpace.h"
#include "store/Workspace.h"

#include <iostream>
#include <optional>
#include <unistd.h>

namespace steerbench::cli {
namespace {

const char* kJobsHelp = "compile and extract on N threads";

void addCompileOptions(CommandLine& cl) {
  cl.option({"cl-std", 0, "VERSION", "OpenCL C version passed as -cl-std", false, "CL1.2"});
  cl.option({"define", 'D', "NAME[=VALUE]", "define a preprocessor macro", true});
  cl.option({"include-dir", 'I', "DIR", "search DIR for #include \"...\" after the file's own folder", true});
  cl.option({"jobs", 'j', "N", kJobsHelp, false, std::to_string(engine::hardwareJobs())});
  cl.option({"max-file-size", 0, "MB", "refuse source files larger than this", false, "4"});
}

features::MeasureOptions measureOptionsFrom(const CommandLine& cl) {
  features::MeasureOptions o;
  const std::string std = cl.value("cl-std");
  static const char* known[] = {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"};
  bool ok = false;
  for (const char* k : known) ok = ok || std == k;
  if (!ok) throw UsageError("--cl-std must be one of CL1.0, CL1.1, CL1.2, CL2.0, CL3.0, not '" + std + "'");
  o.compile.clStd = std;
  o.compile.defines = cl.values("define");
  o.compile.includeDirs = cl.values("include-dir");
  o.limits.maxBytes = std::size_t(cl.unsignedValue("max-file-size", 1, 1024)) << 20;
  return o;
}

std::vector<std::string> inputFiles(const CommandLine& cl) {
  if (cl.positionals().empty()) throw UsageError("no input files; give one or more .cl files");
  return cl.positionals();
}

/// Shows "[n/total]" on stderr when it is a terminal and the job is long.
std::function<void(std::size_t, std::size_t)> terminalProgress(std::size_t total) {
  if (total < 20 || !isatty(STDERR_FILENO)) return {};
  return [](std::size_t done, std::size_t all) {
    if (done == all || done % 10 == 0) std::cerr << "\r[" << done << "/" << all << "]" << (done == all ? "\n" : "") << std::flush;
  };
}

int runCompile(const CommandLine& cl) {
  engine::FeatureJobOptions job;
  job.measure = measureOptionsFrom(cl);
  job.jobs = cl.unsignedValue("jobs", 1, 256);
  job.measure.spaces = {&features::featureSpace("instcount")}; // a full compile, to -O1 IR
  job.progress = terminalProgress(cl.positionals().size());
  InterruptGuard interrupt;
  job.cancel = &interrupt.token();
  const auto results = engine::runFeatureJob(inputFiles(cl), job);
  int failed = 0;
  for (const auto& m : results) {
    for (const auto& d : m.diagnostics) std::cerr << clangfe::formatDiagnostic(d) << "\n";
    if (m.errorCount > m.diagnostics.size() && m.errorCount > 0)
      std::cerr << m.path << ": (" << m.errorCount << " errors in all; only the first are shown)\n";
    if (m.ok()) {
      std::cout << m.path << ": ok (" << m.kernels.size() << (m.kernels.size() == 1 ? " kernel" : " kernels") << ")\n";
    } else {
      ++failed;
      std::cout << m.path << ": FAILED: " << m.error << "\n";
    }
  }
  if (results.size() > 1)
    std::cout << (results.size() - failed) << " of " << results.size() << " files compiled\n";
  if (interrupt.token().cancelled()) std::cerr << "interrupted\n";
  return failed ? 1 : 0;
}

std::vector<const features::FeatureSpace*> spacesFrom(const std::string& s) {
  std::vector<const features::FeatureSpace*> out;
  if (s == "all") {
    for (const auto& sp : features::featureSpaces()) out.push_back(&sp);
    return out;
  }
  std::size_t start = 0;
  while (start <= s.size()) {
    const auto comma = s.find(',', start);
    const std::string name = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    try {
      out.push_back(&features::featureSpace(name));
    } catch (const InputError& e) {
      throw UsageError(std::string(e.what()) + ", or all");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

int runFeatures(const CommandLine& cl) {
  engine::FeatureJobOptions job;
  job.measure = measureOptionsFrom(cl);
  job.jobs = cl.unsignedValue("jobs", 1, 256);
  job.measure.spaces = spacesFrom(cl.value("space"));
  const std::string format = cl.value("format");
  if (format != "csv" && format != "json") throw UsageError("--format must be csv or json, not '" + format + "'");
  OutputOptions out;
  out.allowErrors = cl.has("allow-errors");
  if (cl.has("transfer") || cl.has("wgsize")) {
    if (!cl.has("transfer") || !cl.has("wgsize")) throw UsageError("--transfer and --wgsize go together (F1 and F3)");
    out.transfer = cl.unsignedValue("transfer", 0, 4000000000u);
    out.wgsize = cl.unsignedValue("wgsize", 1, 1u << 20);
  }
  std::optional<store::Workspace> ws;
  if (cl.has("workspace")) ws.emplace(store::Workspace::open(cl.value("workspace")));
  job.workspace = ws ? &*ws : nullptr;
  job.progress = terminalProgress(cl.positionals().size());
  InterruptGuard interrupt;
  job.cancel = &interrupt.token();

  const auto results = engine::runFeatureJob(inputFiles(cl), job);
  int failed = 0;
  for (const auto& m : results)
    if (!m.ok()) {
      ++failed;
      std::cerr << "steerbench-cli features: " << m.error << "\n";
    }
  if (format == "csv") writeFeatureCsv(std::cout, results, job.measure.spaces, out);
  else writeFeatureJson(std::cout, results, job.measure.spaces, out);
  if (ws)
    std::cerr << "stored " << (results.size() - failed) << " of " << results.size() << " files in " << ws->path()
              << "\n";
  if (interrupt.token().cancelled()) std::cerr << "interrupted\n";
  return failed ? 1 : 0;
}

} // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"compile", "compile OpenCL files in process and print their diagnostics",
       [] {
         CommandLine cl("compile", "Compile OpenCL C files with the in-process Clang 15 (spir64, -O1).", "FILE...",
                        "Prints every diagnostic as file:line:col: severity: message, then one line per file.\n"
                        "Exits 1 if any file fails to compile, is unreadable, or holds no kernel.");
         addCompileOptions(cl);
         return cl;
       },
       runCompile},
      {"features", "measure Grewe, InstCount and Autophase vectors of kernels",
       [] {
         CommandLine cl("features", "Measure the feature vectors of every kernel in the given files.", "FILE...",
                        "CSV has one row per kernel: file, kernel, then the space's dimensions (with\n"
                        "--space all, each column is prefixed by its space: grewe.comp, ...).\n"
                        "Spaces: grewe (comp rational mem localmem coalesced atomic F2 F4, from the AST),\n"
                        "instcount (70, -O1 IR), autophase (56, -O1 IR). Definitions: FEATURES.md.");
         cl.option({"space", 's', "SPACE", "grewe, instcount, autophase, a comma list, or all", false, "grewe"});
         cl.option({"format", 'f', "FORMAT", "csv or json", false, "csv"});
         cl.option({"workspace", 'w', "FILE", "also store kernels and vectors in this workspace (created if missing)"});
         cl.option({"transfer", 0, "BYTES", "host-device bytes; with --wgsize adds Grewe's F1 and F3 columns"});
         cl.option({"wgsize", 0, "N", "local work size; with --transfer adds F1 and F3"});
         cl.option({"allow-errors", 0, "", "also print Grewe vectors measured on the AST Clang recovers from "
                                            "files with errors, flagged in a from_errors column"});
         addCompileOptions(cl);
         return cl;
       },
       runFeatures},
  };
  return all;
}

} // namespace steerbench::cli

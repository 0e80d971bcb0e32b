#include "cli/Commands.h"

#include "cli/CampaignCommands.h"
#include "cli/FeatureOutput.h"
#include "cli/Interrupt.h"
#include "cli/ProgressBar.h"
#include "cli/ModelCommands.h"
#include "cli/SteerCommands.h"
#include "cli/DriveCommands.h"
#include "cli/EvaluateCommands.h"
#include "cli/ExploreCommands.h"

#include "common/Error.h"
#include "common/Paths.h"
#include "corpus/CorpusIngest.h"
#include "corpus/DebianPreset.h"
#include "engine/FeatureJob.h"
#include "features/FeatureSpace.h"
#include "source/SourceFile.h"
#include "steer/CleanCompile.h"
#include "steer/CleanKernelCheck.h"
#include "store/Workspace.h"

#include <filesystem>
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
  for (const char* k : known)
    ok = ok || std == k;
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
    if (done == all || done % 10 == 0)
      std::cerr << "\r[" << done << "/" << all << "]" << (done == all ? "\n" : "") << std::flush;
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
  int failed = 0, unclean = 0;
  const bool clean = cl.has("clean");
  std::optional<steer::ParentFindings> parent; // measured once, for every file
  if (cl.has("parent")) {
    if (!clean) throw UsageError("--parent judges the clean-compile rules: give it with --clean");
    parent = steer::parentFindings(source::readSourceFile(cl.value("parent")), steer::cleanRuleNames());
  }
  for (const auto& m : results) {
    for (const auto& d : m.diagnostics)
      std::cerr << clangfe::formatDiagnostic(d) << "\n";
    if (m.errorCount > m.diagnostics.size() && m.errorCount > 0)
      std::cerr << m.path << ": (" << m.errorCount << " errors in all; only the first are shown)\n";
    if (m.ok()) {
      std::cout << m.path << ": ok (" << m.kernels.size() << (m.kernels.size() == 1 ? " kernel" : " kernels") << ")";
      if (clean) {
        // The rules steering holds its candidates to, every one judged
        // alone (as a kernel without a parent) or against --parent, and the
        // dead-code check.
        const auto broken = steer::cleanKernelViolation(source::readSourceFile(m.path), steer::cleanRuleNames(),
                                                        parent ? &*parent : nullptr);
        std::cout << (broken.empty() ? "; clean" : "; unclean: " + broken);
        if (!broken.empty()) ++unclean;
      }
      std::cout << "\n";
    } else {
      ++failed;
      std::cout << m.path << ": FAILED: " << m.error << "\n";
    }
  }
  if (results.size() > 1) std::cout << (results.size() - failed) << " of " << results.size() << " files compiled\n";
  if (clean && results.size() > 1)
    std::cout << (results.size() - failed - unclean) << " of " << results.size() << " files clean\n";
  if (interrupt.token().cancelled()) std::cerr << "interrupted\n";
  return failed || unclean ? 1 : 0;
}

std::vector<const features::FeatureSpace*> spacesFrom(const std::string& s) {
  std::vector<const features::FeatureSpace*> out;
  if (s == "all") {
    for (const auto& sp : features::featureSpaces())
      out.push_back(&sp);
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
  if (format == "csv")
    writeFeatureCsv(std::cout, results, job.measure.spaces, out);
  else
    writeFeatureJson(std::cout, results, job.measure.spaces, out);
  if (ws)
    std::cerr << "stored " << (results.size() - failed) << " of " << results.size() << " files in " << ws->path()
              << "\n";
  if (interrupt.token().cancelled()) std::cerr << "interrupted\n";
  return failed ? 1 : 0;
}

std::string workspacePathFrom(const CommandLine& cl) {
  if (cl.has("workspace")) return cl.value("workspace");
  const std::string path = defaultWorkspacePath();
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  return path;
}

int runCorpusIngest(const CommandLine& cl) {
  corpus::CorpusIngestOptions o;
  o.pipeline.compile = measureOptionsFrom(cl).compile;
  o.pipeline.limits.maxBytes = std::size_t(cl.unsignedValue("max-file-size", 1, 1024)) << 20;
  o.pipeline.reconstruct = !cl.has("no-reconstruct");
  o.pipeline.maxTokens = cl.unsignedValue("max-tokens", 0, 1u << 30);
  o.jobs = cl.unsignedValue("jobs", 1, 256);
  o.referenceCsvs = cl.has("reference") ? cl.values("reference") : corpus::defaultReferenceCsvs();
  if (cl.has("no-reference")) o.referenceCsvs.clear();
  o.balance.familyCap = cl.unsignedValue("family-cap", 0, 1000000);
  const double share = cl.numberValue("max-package-share", 0, 1);
  if (!(share > 0)) throw UsageError("--max-package-share must be in (0, 1], e.g. 0.5");
  o.balance.maxPackageShare = share;

  std::vector<corpus::SourceInput> inputs;
  const std::string preset = cl.value("preset");
  if (!preset.empty()) {
    if (preset != "debian") throw UsageError("unknown preset '" + preset + "'; the only preset is debian");
    std::vector<std::string> missing;
    inputs = corpus::debianPresetSources(&missing, cl.value("debian-dir"));
    for (const auto& m : missing)
      if (m.rfind("src:", 0) == 0)
        std::cerr << "warning: Debian source package " << m.substr(4)
                  << " is not unpacked; run scripts/setup run (or scripts/fetch-debian-sources) to mine its C\n";
      else
        std::cerr << "warning: Debian package " << m
                  << " is neither installed nor unpacked; run scripts/setup run "
                     "(or scripts/fetch-debian-corpus) to get it\n";
  }
  for (const auto& p : cl.positionals()) {
    auto more = corpus::collectSources(p);
    inputs.insert(inputs.end(), more.begin(), more.end());
  }
  if (inputs.empty()) throw UsageError("nothing to ingest; give folders or .cl files, or --preset debian");

  const std::string wsPath = workspacePathFrom(cl);
  store::Workspace ws = store::Workspace::open(wsPath);
  std::cerr << "Ingesting " << inputs.size() << " files into " << wsPath << " on " << o.jobs << " threads"
            << (o.referenceCsvs.empty()
                    ? ""
                    : ", holding out kernels of " + std::to_string(o.referenceCsvs.size()) + " reference CSV(s)")
            << "\n";
  ProgressBar bar("ingest");
  o.progress = [&](std::size_t done, std::size_t total, double bytes) { bar.update(done, total, bytes); };
  InterruptGuard interrupt;
  o.cancel = &interrupt.token();
  const auto s = corpus::ingestCorpus(ws, inputs, o);
  std::cout << "files: " << s.files << " (" << s.skipped << " already ingested, " << s.filesRejected
            << " rejected)\nkernels found: " << s.kernelsFound << ", rejected: " << s.kernelsRejected << "\n";
  for (const auto& [stage, n] : s.rejectedAt)
    std::cout << "  rejected at " << stage << ": " << n << "\n";
  std::cout << "\n" << corpus::corpusReport(ws, false);
  if (s.cancelled) {
    std::cerr << "interrupted: the files done so far are stored; run the same command again to go on\n";
    return 130;
  }
  return 0;
}

int runCorpusStats(const CommandLine& cl) {
  const std::string format = cl.value("format");
  if (format != "text" && format != "json") throw UsageError("--format must be text or json");
  const std::string wsPath = workspacePathFrom(cl);
  store::Workspace ws = store::Workspace::open(wsPath, store::Workspace::Mode::OpenExisting);
  std::cout << corpus::corpusReport(ws, format == "json");
  return 0;
}

} // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"compile", "compile OpenCL files in process and print their diagnostics",
       [] {
         CommandLine cl("compile", "Compile OpenCL C files with the in-process Clang 15 (spir64, -O1).", "FILE...",
                        "Prints every diagnostic as file:line:col: severity: message, then one line per file.\n"
                        "Exits 1 if any file fails to compile, is unreadable, or holds no kernel (with --clean,\n"
                        "also if one breaks a clean-compile rule).");
         addCompileOptions(cl);
         cl.option({"clean", 0, "",
                    "also judge each file by steering's clean-compile rules (each judged alone, as for a kernel "
                    "without a parent) and its dead-code check; print the first rule broken"});
         cl.option({"parent", 0, "FILE",
                    "with --clean: judge the rules steering judges against a candidate's parent (identity-arithmetic, "
                    "number-condition, uniform-store, ...) against this kernel, the one the files were edited from: "
                    "only findings beyond its own count"});
         return cl;
       },
       runCompile},
      {"features", "measure Grewe, InstCount and Autophase vectors of kernels",
       [] {
         CommandLine cl("features", "Measure the feature vectors of every kernel in the given files.", "FILE...",
                        "CSV has one row per kernel: file, kernel, then the space's dimensions (with\n"
                        "--space all, each column is prefixed by its space: grewe.comp, ...).\n"
                        "Spaces: grewe (comp rational mem localmem coalesced atomic F2 F4, from the AST),\n"
                        "instcount (70, -O1 IR), autophase (56, -O1 IR). Definitions: docs/features.md.");
         cl.option({"space", 's', "SPACE", "grewe, instcount, autophase, a comma list, or all", false, "grewe"});
         cl.option({"format", 'f', "FORMAT", "csv or json", false, "csv"});
         cl.option({"workspace", 'w', "FILE", "also store kernels and vectors in this workspace (created if missing)"});
         cl.option({"transfer", 0, "BYTES", "host-device bytes; with --wgsize adds Grewe's F1 and F3 columns"});
         cl.option({"wgsize", 0, "N", "local work size; with --transfer adds F1 and F3"});
         cl.option({"allow-errors", 0, "",
                    "also print Grewe vectors measured on the AST Clang recovers from "
                    "files with errors, flagged in a from_errors column"});
         addCompileOptions(cl);
         return cl;
       },
       runFeatures},
      {"corpus ingest", "turn OpenCL code into a clean, compiling, deduplicated kernel corpus",
       [] {
         CommandLine cl("corpus ingest", "Ingest OpenCL code into the workspace's corpus.", "[PATH...]",
                        "Reads .cl files (folders recursively) and runs: read, inline includes, preprocess,\n"
                        "isolate kernels, reconstruct missing declarations, compile, rewrite identifiers,\n"
                        "format, dedupe, store. Files already ingested with the same options are skipped,\n"
                        "so an interrupted run goes on where it stopped. Bad files are counted, never fatal.");
         cl.option({"preset", 0, "NAME", "also ingest a preset: debian (the OpenCL code Debian packages ship)"});
         cl.option({"debian-dir", 0, "DIR", "where scripts/fetch-debian-corpus unpacked packages", false,
                    cacheDir() + "/debian"});
         cl.option({"workspace", 'w', "FILE", "the workspace", false, defaultWorkspacePath()});
         cl.option({"no-reconstruct", 0, "", "turn off type and constant reconstruction"});
         cl.option({"max-tokens", 0, "N", "reject isolated kernels longer than N tokens (0: no limit)", false, "12288"});
         cl.option({"reference", 0, "CSV",
                    "hold out kernels that appear in this DevMap-layout CSV "
                    "(default: ../shared's DevMap when present)",
                    true});
         cl.option({"no-reference", 0, "", "hold nothing out"});
         cl.option(
             {"family-cap", 0, "N", "at most N kernels of one template family in training (0: no cap)", false, "32"});
         cl.option({"max-package-share", 0, "F", "no package above this share of the training corpus", false, "0.5"});
         addCompileOptions(cl);
         return cl;
       },
       runCorpusIngest},
      {"corpus stats", "report what the corpus holds, stage by stage",
       [] {
         CommandLine cl("corpus stats",
                        "Report the corpus: counts per stage and package, compile rates with and\n"
                        "without reconstruction, token lengths, Grewe features, families.",
                        "", "");
         cl.option({"workspace", 'w', "FILE", "the workspace", false, defaultWorkspacePath()});
         cl.option({"format", 'f', "FORMAT", "text or json", false, "text"});
         return cl;
       },
       runCorpusStats},
      {"train", "train the [HOLE]-infilling model on the corpus (resumable)", trainCommandLine, runTrain},
      {"sample", "fill [HOLE]s with the trained model; compile, measure and store the samples", sampleCommandLine,
       runSample},
      {"model info", "print a model checkpoint's shape, step, hashes and recipe", modelInfoCommandLine, runModelInfo},
      {"model export", "write a checkpoint's model without optimizer state", modelExportCommandLine, runModelExport},
      {"devices", "list the OpenCL platforms and devices", devicesCommandLine, runDevices},
      {"drive", "run kernels on every device: check, time and label them", driveCommandLine, runDrive},
      {"export csv", "write labelled drive results as a DevMap-layout CSV", exportCsvCommandLine, runExportCsv},
      {"steer", "steer generated kernels toward a target feature vector (beam search)", steerCommandLine, runSteer},
      {"runs", "list the steering runs", runsCommandLine, runRuns},
      {"lineage", "print a steering run's path from seed to best, with a diff per step", lineageCommandLine,
       runLineage},
      {"evaluate grewe", "evaluate the Grewe et al. CPU/GPU decision tree on DevMap-layout data",
       evaluateGreweCommandLine, runEvaluateGrewe},
      {"explore", "active learning: steer to where a committee disagrees, drive and label what comes out",
       exploreCommandLine, runExplore},
      {"campaign plan", "plan a campaign: many targets, how to steer each, split into shards (and sbatch scripts)",
       campaignPlanCommandLine, runCampaignPlan},
      {"campaign run", "run a campaign's shards, one after the other or one per MPI rank (resumable)",
       campaignRunCommandLine, runCampaignRun},
      {"campaign status", "show how far each shard of a campaign is", campaignStatusCommandLine, runCampaignStatus},
      {"campaign merge", "merge a campaign's shards into one workspace", campaignMergeCommandLine, runCampaignMerge},
      {"workspace merge", "merge workspaces steered from the same corpus into one", workspaceMergeCommandLine,
       runWorkspaceMerge},
  };
  return all;
}

} // namespace steerbench::cli

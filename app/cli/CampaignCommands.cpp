// steerbench-cli campaign plan|run|status|merge and workspace merge: many
// targets steered in shards (one after the other, as MPI ranks or as a Slurm
// job array), then merged into one workspace. docs/cluster.md.
#include "cli/CampaignCommands.h"

#include "cli/Interrupt.h"
#include "cli/ModelCommands.h"
#include "cli/MpiJob.h"
#include "cli/SteerCommands.h"

#include "campaign/Campaign.h"
#include "campaign/ShardRun.h"
#include "common/AtomicFile.h"
#include "common/ContentHash.h"
#include "common/Error.h"
#include "common/Paths.h"
#include "common/TextFormat.h"
#include "model/Sampler.h"
#include "store/Workspace.h"
#include "store/WorkspaceMerge.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

namespace steerbench::cli {
namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

/// The running binary, for scripts that call it on other nodes.
std::string selfPath() {
  std::error_code ec;
  const auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("steerbench-cli") : p.string();
}

std::string shellQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void writeScript(const std::string& path, const std::string& text) {
  writeFileAtomically(path, text);
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
}

/// sbatch scripts: the shards as a job array, and a merge that waits for them.
void writeSlurm(const CommandLine& cl, const std::string& dir, const campaign::CampaignSpec& spec) {
  const std::string cli = shellQuoted(selfPath()), d = shellQuoted(dir);
  const std::string partition = cl.has("partition") ? "#SBATCH --partition=" + cl.value("partition") + "\n" : "";
  const unsigned cpus = cl.unsignedValue("cpus-per-task", 1, 1024);
  fs::create_directories(fs::path(dir) / "logs");
  writeScript((fs::path(dir) / "campaign.sbatch").string(),
              "#!/bin/bash\n"
              "# Steerbench campaign: one shard per array task (docs/cluster.md). Edit the #SBATCH lines\n"
              "# for your cluster. A task run again (requeued, or after a failure) resumes its shard.\n"
              "#SBATCH --job-name=steerbench-campaign\n"
              "#SBATCH --array=0-" + std::to_string(spec.shards - 1) + "\n" +
              "#SBATCH --ntasks=1\n"
              "#SBATCH --cpus-per-task=" + std::to_string(cpus) + "\n" +
              "#SBATCH --time=" + cl.value("time") + "\n" + partition +
              "#SBATCH --output=" + dir + "/logs/shard-%a.out\n"
              "set -euo pipefail\n"
              "exec " + cli + " campaign run " + d + " --shard \"$SLURM_ARRAY_TASK_ID\" --threads \"${SLURM_CPUS_PER_TASK:-1}\" --quiet\n");
  writeScript((fs::path(dir) / "merge.sbatch").string(),
              "#!/bin/bash\n"
              "# Steerbench campaign: merges the shards into " + dir + "/campaign.sbw once every shard has finished.\n"
              "#SBATCH --job-name=steerbench-merge\n"
              "#SBATCH --ntasks=1\n"
              "#SBATCH --cpus-per-task=1\n"
              "#SBATCH --time=01:00:00\n" + partition +
              "#SBATCH --output=" + dir + "/logs/merge.out\n"
              "set -euo pipefail\n"
              "exec " + cli + " campaign merge " + d + "\n");
  writeScript((fs::path(dir) / "submit.sh").string(),
              "#!/bin/sh\n"
              "# Submits the shards as a job array and the merge as a job that starts when all of them succeeded.\n"
              "set -e\n"
              "array=$(sbatch --parsable " + d + "/campaign.sbatch)\n"
              "array=${array%%;*}\n"
              "merge=$(sbatch --parsable --dependency=afterok:\"$array\" " + d + "/merge.sbatch)\n"
              "echo \"shards: job $array; merge: job ${merge%%;*} (runs when every shard has finished)\"\n");
}

} // namespace

int runCampaignPlan(const CommandLine& cl) {
  if (cl.positionals().size() != 1) throw UsageError("give one TARGETS file");
  if (!cl.has("out")) throw UsageError("give the campaign's folder with -o DIR");
  const std::string base = absolute(cl.value("workspace"));
  campaign::CampaignSpec spec;
  spec.targets = campaign::readTargets(cl.positionals()[0], cl.value("space"));
  if (cl.has("limit")) spec.targets.resize(std::min<std::size_t>(spec.targets.size(), cl.unsignedValue("limit", 1, 1u << 30)));
  spec.shards = int(cl.unsignedValue("shards", 1, 100000));
  if (std::size_t(spec.shards) > spec.targets.size())
    throw UsageError("--shards " + std::to_string(spec.shards) + ": more shards than the " +
                     std::to_string(spec.targets.size()) + " targets");
  spec.baseWorkspace = base;
  spec.checkpoint = absolute(checkpointFor(cl, base));
  spec.modelHash = sha256OfFile(spec.checkpoint);
  spec.steer.target = spec.targets[0];
  readSearchOptions(cl, spec.steer);
  spec.steer.nearest = int(cl.unsignedValue("nearest", 1, 100000));
  spec.steer.timeBudget = cl.numberValue("time-budget", 0, 1e9); // seconds, 0: none
  spec.steer.patience = int(cl.unsignedValue("patience", 0, 100000));
  spec.steer.seed = parseSeed(cl);
  spec.steer.batchSize = int(cl.unsignedValue("batch", 1, 4096));
  if (spec.steer.seeding == steer::Seeding::Given) throw UsageError("--seeding given is not for campaigns");
  spec.drive = cl.has("drive");
  for (std::size_t i = 0; i < spec.targets.size(); ++i)
    spec.specFor(i).validate();
  {
    const auto ws = store::Workspace::open(base, store::Workspace::Mode::OpenExisting);
    const auto corpus = store::corpusIdentity(ws);
    spec.corpusHash = corpus.hash;
    spec.corpusKernels = corpus.kernels;
  }
  const std::string dir = absolute(cl.value("out"));
  campaign::writeCampaign(dir, spec);
  if (cl.has("slurm")) writeSlurm(cl, dir, spec);
  std::cout << "campaign " << dir << ": " << spec.targets.size() << " targets in " << spec.shards << " shards ("
            << spec.corpusKernels << " corpus kernels of " << base << ")\n";
  for (int k = 0; k < spec.shards; ++k)
    std::cout << "  shard " << k << ": " << spec.shardTargets(k).size() << " targets -> "
              << campaign::shardWorkspace(dir, k) << "\n";
  std::cout << "run a shard:  steerbench-cli campaign run " << dir << " --shard K\n"
            << "on MPI ranks: mpirun -np N steerbench-cli campaign run " << dir << " --mpi\n";
  if (cl.has("slurm")) std::cout << "under Slurm:  " << dir << "/submit.sh\n";
  return 0;
}

namespace {

/// One line a shard: targets finished, the one being steered and how near
/// each run came.
void printStatus(std::ostream& out, const campaign::CampaignSpec& spec, const std::string& dir, bool perTarget) {
  std::size_t finished = 0, exact = 0, runnableExact = 0, started = 0;
  std::int64_t rows = 0, candidates = 0;
  std::vector<campaign::ShardStatus> shards;
  for (int k = 0; k < spec.shards; ++k)
    shards.push_back(campaign::shardStatus(spec, dir, k));
  if (perTarget) out << "shard  target  status     gens  nearest  runnable  labelled  time_s  origin\n";
  else out << "shard  targets  finished  exact  runnable-exact  now\n";
  for (const auto& s : shards) {
    started += s.started;
    std::size_t e = 0, re = 0;
    std::string now = s.started ? "done" : "not started";
    for (const auto& t : s.targets) {
      e += t.nearestProximity == 1.0;
      re += t.runnableProximity == 1.0;
      rows += t.labelledRows;
      candidates += t.candidates;
      if (t.status != "finished" && now == "done")
        now = t.run ? "target " + std::to_string(t.index) + " (" + t.status + ", generation " +
                          std::to_string(t.generations) + ", nearest " + formatPercent(t.nearestProximity) + ")"
                    : "target " + std::to_string(t.index) + " next";
      if (perTarget) {
        char line[256];
        std::snprintf(line, sizeof line, "%-6d %-7zu %-10s %4d  %-8s %-9s %-9lld %6.0f  ", s.shard, t.index,
                      t.status.empty() ? "-" : t.status.c_str(), t.generations, formatPercent(t.nearestProximity).c_str(),
                      formatPercent(t.runnableProximity).c_str(), (long long)t.labelledRows, t.elapsed);
        out << line << spec.targets[t.index].origin << "\n";
      }
    }
    finished += s.finished();
    exact += e;
    runnableExact += re;
    if (!perTarget) {
      char line[128];
      std::snprintf(line, sizeof line, "%-6d %-8zu %-9zu %-6zu %-15zu ", s.shard, s.targets.size(), s.finished(), e, re);
      out << line << now << "\n";
    }
  }
  out << "campaign: " << finished << " of " << spec.targets.size() << " targets finished, " << exact << " exact, "
      << runnableExact << " runnable-exact, " << rows << " labelled rows; " << candidates << " candidates; " << started
      << " of " << spec.shards << " shards started\n";
}

/// Merges every started shard into `out`; refuses an unfinished campaign unless `partial`.
int mergeCampaign(const campaign::CampaignSpec& spec, const std::string& dir, const std::string& out, bool partial) {
  std::vector<std::string> inputs;
  std::size_t unfinished = 0;
  for (int k = 0; k < spec.shards; ++k) {
    const auto s = campaign::shardStatus(spec, dir, k);
    unfinished += s.targets.size() - s.finished();
    if (s.started) inputs.push_back(campaign::shardWorkspace(dir, k));
  }
  if (unfinished && !partial)
    throw InputError(dir + ": " + std::to_string(unfinished) +
                     " targets are not finished (steerbench-cli campaign status " + dir +
                     "); finish them, or merge what there is with --partial");
  if (inputs.empty()) throw InputError(dir + ": no shard has started; nothing to merge");
  const auto reports = store::mergeWorkspaces(inputs, out);
  std::int64_t runs = 0, kernels = 0, cases = 0, there = 0;
  for (const auto& r : reports) {
    runs += r.steerRuns;
    kernels += r.kernels;
    cases += r.driveCases;
    there += r.alreadyThere;
  }
  std::cout << "merged " << inputs.size() << " shards into " << out << ": " << runs << " steering runs, " << kernels
            << " kernels and " << cases << " drive cases added";
  if (there) std::cout << " (" << there << " runs and cases were there already)";
  std::cout << "\n";
  return 0;
}

unsigned defaultThreads(bool mpi) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (const char* cpus = std::getenv("SLURM_CPUS_PER_TASK")) return std::max(1, std::atoi(cpus));
  if (!mpi) return 0;
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  const unsigned ranks = local ? unsigned(std::max(1, std::atoi(local))) : 1u;
  return std::max(1u, cores / ranks);
}

} // namespace

int runCampaignRun(const CommandLine& cl) {
  if (cl.positionals().size() != 1) throw UsageError("give the campaign's folder");
  const std::string dir = absolute(cl.positionals()[0]);
  const auto spec = campaign::loadCampaign(dir);
  const bool mpiMode = cl.has("mpi");
  if (mpiMode && cl.has("shard")) throw UsageError("--mpi chooses the shards by rank: give no --shard");
  std::vector<int> shards;
  for (const auto& v : cl.values("shard")) {
    char* end = nullptr;
    const long k = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end || k < 0 || k >= spec.shards)
      throw UsageError("--shard: expected a shard from 0 to " + std::to_string(spec.shards - 1) + ", got \"" + v + "\"");
    shards.push_back(int(k));
  }
  if (const char* n = std::getenv("OMPI_COMM_WORLD_SIZE"); n && std::atoi(n) > 1 && !mpiMode)
    throw UsageError(std::string("started by mpirun as ") + n +
                     " processes, which would all run the same shards: add --mpi to give each rank its own");
  std::unique_ptr<MpiJob> job;
  if (mpiMode) {
    job = std::make_unique<MpiJob>();
    for (int k = job->rank(); k < spec.shards; k += job->size())
      shards.push_back(k);
  } else if (shards.empty()) {
    for (int k = 0; k < spec.shards; ++k)
      shards.push_back(k);
  }
  const bool lead = !job || job->rank() == 0;
  const std::string who = job ? "rank " + std::to_string(job->rank()) + ": " : "";
  const int threads = cl.has("threads") ? int(cl.unsignedValue("threads", 0, 256)) : int(defaultThreads(mpiMode));
  const bool quiet = cl.has("quiet") || !lead;
  const double every = cl.numberValue("report-every", 0, 1e9); // seconds, 0: never

  // The lead reports the whole campaign now and then, from the workspaces.
  std::mutex m;
  std::condition_variable cv;
  bool stop = false;
  std::thread reporter;
  if (job && lead && every > 0)
    reporter = std::thread([&] {
      std::unique_lock lock(m);
      while (!cv.wait_for(lock, std::chrono::duration<double>(every), [&] { return stop; })) {
        try {
          printStatus(std::cerr, spec, dir, false);
        } catch (const std::exception& e) {
          std::cerr << "campaign status: " << e.what() << "\n";
        }
      }
    });
  auto stopReporter = [&] {
    if (!reporter.joinable()) return;
    {
      std::lock_guard lock(m);
      stop = true;
    }
    cv.notify_all();
    reporter.join();
  };

  InterruptGuard interrupt;
  bool cancelled = false;
  try {
    auto sampler = loadSampler(spec.checkpoint, threads);
    campaign::ShardOptions o;
    o.cancel = &interrupt.token();
    o.jobs = unsigned(threads);
    // Each line goes out in one write: ranks share the launcher's stderr.
    o.onMessage = [&](const std::string& msg) { std::cerr << (who + msg + "\n") << std::flush; };
    if (!quiet)
      o.onGeneration = [&](const steer::GenerationReport& g) {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.1f s", g.elapsed);
        std::ostringstream line;
        line << who << "run " << g.run << " generation " << g.generation << ": best "
             << (g.bestDistance >= 0 ? formatPercent(g.bestProximity) : std::string("-"));
        if (g.nearestDistance >= 0 && g.nearestDistance != g.bestDistance)
          line << " (nearest, not yet runnable, " << formatPercent(g.nearestProximity) << ")";
        line << ", " << g.compiled << "/" << g.candidates << " compile, " << secs << "\n";
        std::cerr << line.str() << std::flush;
      };
    for (const int k : shards) {
      const auto r = campaign::runShard(spec, dir, k, sampler, o);
      std::cout << who << "shard " << k << ": " << r.steered << " steered, " << r.resumed << " resumed, " << r.skipped
                << " finished before" << (spec.drive ? ", " + std::to_string(r.labelled) + " labelled" : "")
                << (r.cancelled ? "; interrupted" : "") << "\n";
      if (r.cancelled) {
        cancelled = true;
        break;
      }
    }
  } catch (const std::exception& e) {
    stopReporter();
    if (job) {
      std::cerr << "steerbench-cli campaign run: " << who << e.what() << "\n";
      std::cerr.flush();
      job->abort(1); // every rank ends; the same command resumes
    }
    throw;
  }
  if (cancelled) {
    stopReporter();
    std::cerr << who << "interrupted: every complete generation is stored; run the same command again to go on\n";
    if (job) job->abort(130);
    return 130;
  }
  if (job) {
    job->barrier(); // the reporter thread speaks while rank 0 waits
    stopReporter();
    if (!lead) return 0;
    printStatus(std::cout, spec, dir, false);
    return mergeCampaign(spec, dir, cl.has("out") ? absolute(cl.value("out")) : dir + "/campaign.sbw", false);
  }
  return 0;
}

CommandLine campaignPlanCommandLine() {
  CommandLine cl("campaign plan", "Plan a campaign: targets, how to steer each, and shards to run them in.",
                 "TARGETS",
                 "TARGETS is a CSV whose header names dimensions of --space (and optionally a 'name'\n"
                 "column; unnamed dimensions are 0), a DevMap-layout CSV (Grewe; each distinct kernel\n"
                 "once), or a JSON array of targets {\"space\", \"values\"}. Target i goes to shard\n"
                 "i mod --shards. Writes DIR/campaign.json, the spec every shard runs by: the targets,\n"
                 "the base workspace (each shard starts as a copy of it, DIR/shard-K.sbw), the model,\n"
                 "and the steering options below (as steer takes them; target i steers with seed\n"
                 "--seed + i). With --slurm, also DIR/campaign.sbatch (a job array over the shards),\n"
                 "DIR/merge.sbatch (the merge) and DIR/submit.sh (submits both, the merge after the\n"
                 "shards). docs/cluster.md.");
  cl.option({"out", 'o', "DIR", "the campaign's folder"});
  cl.option({"shards", 'n', "N", "shards to split the targets into", false, "1"});
  cl.option({"limit", 0, "N", "only the first N targets of the file"});
  cl.option({"workspace", 'w', "FILE", "the base workspace (its corpus seeds every run)", false, defaultWorkspacePath()});
  cl.option({"space", 's', "SPACE", "grewe, instcount or autophase", false, "grewe"});
  cl.option({"checkpoint", 0, "FILE", "the model (default: the workspace's, else the shipped default)"});
  addSearchOptions(cl);
  cl.option({"time-budget", 0, "SECONDS", "per target (0: none)", false, "600"});
  cl.option({"patience", 0, "N", "stop a target after N generations without a better best (0: never)", false, "0"});
  cl.option({"seed", 0, "N", "random seed of target 0 (target i: N + i)", false, "1"});
  cl.option({"batch", 0, "N", "rows the model infills together", false, "64"});
  cl.option({"drive", 0, "", "label each run's best at the end: drive it on every device at 4096 and 65536 work-items"});
  cl.option({"slurm", 0, "", "also write sbatch scripts for a job array and the merge"});
  cl.option({"partition", 0, "NAME", "with --slurm: the partition (default: the cluster's)"});
  cl.option({"time", 0, "D-HH:MM:SS", "with --slurm: time limit per shard", false, "1-00:00:00"});
  cl.option({"cpus-per-task", 0, "N", "with --slurm: cores per shard", false, "2"});
  return cl;
}

CommandLine campaignRunCommandLine() {
  CommandLine cl("campaign run", "Run shards of a campaign (one after the other, or one per MPI rank).", "DIR",
                 "Each shard steers its targets into DIR/shard-K.sbw, made on first use as a copy\n"
                 "of the base workspace. Run again after Ctrl-C, kill -9 or a failure, it skips the\n"
                 "finished targets and resumes the run that was cut short from its last complete\n"
                 "generation. Without --shard, every shard, one after the other. With --mpi, under\n"
                 "mpirun or srun: rank r runs shards r, r+N, ... (N ranks); rank 0 reports the campaign\n"
                 "every --report-every seconds and merges the shards into DIR/campaign.sbw (or -o)\n"
                 "when all are done. A rank that fails ends the job; the same command resumes it.");
  cl.option({"shard", 0, "K", "run shard K (repeatable)", true});
  cl.option({"mpi", 0, "", "one shard at a time per MPI rank, then merge on rank 0"});
  cl.option({"out", 'o', "FILE", "with --mpi: the merged workspace (default DIR/campaign.sbw)"});
  cl.option({"threads", 'j', "N", "model and compile threads (default: all cores; under MPI the node's cores shared "
                                  "by its ranks; under Slurm SLURM_CPUS_PER_TASK)"});
  cl.option({"report-every", 0, "SECONDS", "with --mpi: how often rank 0 reports the campaign (0: never)", false, "60"});
  cl.option({"quiet", 'q', "", "no progress line per generation"});
  return cl;
}

CommandLine campaignStatusCommandLine() {
  CommandLine cl("campaign status", "Show how far each shard of a campaign is.", "DIR",
                 "Reads the shards' workspaces (while they run, too): per shard its targets, how many\n"
                 "finished, exactly matched and matched by a kernel that passed the drive checks\n"
                 "(runnable-exact), and what it does now; --targets lists every target.");
  cl.option({"targets", 0, "", "one line per target: status, generations, nearest and runnable proximity"});
  return cl;
}

int runCampaignStatus(const CommandLine& cl) {
  if (cl.positionals().size() != 1) throw UsageError("give the campaign's folder");
  const auto dir = absolute(cl.positionals()[0]);
  printStatus(std::cout, campaign::loadCampaign(dir), dir, cl.has("targets"));
  return 0;
}

CommandLine campaignMergeCommandLine() {
  CommandLine cl("campaign merge", "Merge a campaign's shards into one workspace.", "DIR",
                 "Merges DIR/shard-*.sbw into DIR/campaign.sbw (or -o FILE), as workspace merge does.\n"
                 "Refuses while targets are unfinished, unless --partial.");
  cl.option({"out", 'o', "FILE", "the merged workspace (default DIR/campaign.sbw)"});
  cl.option({"partial", 0, "", "merge what the shards hold even though targets are unfinished"});
  return cl;
}

int runCampaignMerge(const CommandLine& cl) {
  if (cl.positionals().size() != 1) throw UsageError("give the campaign's folder");
  const auto dir = absolute(cl.positionals()[0]);
  return mergeCampaign(campaign::loadCampaign(dir), dir,
                       cl.has("out") ? absolute(cl.value("out")) : dir + "/campaign.sbw", cl.has("partial"));
}

CommandLine workspaceMergeCommandLine() {
  CommandLine cl("workspace merge", "Merge workspaces steered from the same corpus into one.", "WORKSPACE...",
                 "Copies every kernel (deduplicated by content and name), feature vector, steering run\n"
                 "with its candidates and lineage, drive case, sample, training and exploring run into\n"
                 "-o FILE (created when missing), remapping ids. Runs and cases keep the uid they were\n"
                 "made with, so merging the same input again adds nothing; a run merged before it\n"
                 "finished gives way to its longer copy. Refuses, writing nothing, an input of another\n"
                 "schema or another corpus. The inputs are only read.");
  cl.option({"out", 'o', "FILE", "the merged workspace"});
  return cl;
}

int runWorkspaceMerge(const CommandLine& cl) {
  if (cl.positionals().empty()) throw UsageError("name the workspaces to merge");
  if (!cl.has("out")) throw UsageError("give the merged workspace with -o FILE");
  const auto reports = store::mergeWorkspaces(cl.positionals(), cl.value("out"));
  for (const auto& r : reports) {
    std::cout << r.source << ": " << r.kernels << " kernels, " << r.steerRuns << " steering runs ("
              << r.candidates << " candidates), " << r.driveCases << " drive cases, " << r.samples << " samples, "
              << r.trainingRuns << " training runs, " << r.exploreRuns << " exploring runs added";
    if (r.steerRunsReplaced) std::cout << "; " << r.steerRunsReplaced << " shorter copies of runs replaced";
    if (r.alreadyThere) std::cout << "; " << r.alreadyThere << " runs and cases were there already";
    std::cout << "\n";
  }
  return 0;
}

} // namespace steerbench::cli

// steerbench-cli explore: active learning, one point or a batch of points per
// epoch; with --mpi the batch's points are steered and labelled on the ranks
// of an MPI job, each in its own copy of the workspace, and rank 0 merges
// what they made before the committee retrains (docs/active-learning.md).
#include "cli/ExploreCommands.h"

#include "cli/DriveCommands.h"
#include "cli/Interrupt.h"
#include "cli/ModelCommands.h"
#include "cli/MpiJob.h"
#include "cli/SteerCommands.h"

#include "common/Error.h"
#include "common/Json.h"
#include "common/Paths.h"
#include "common/TextFormat.h"
#include "drive/host/DriveJob.h"
#include "explore/Explorer.h"
#include "model/Sampler.h"
#include "store/Workspace.h"
#include "store/WorkspaceMerge.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace steerbench::cli {
namespace {

namespace fs = std::filesystem;

/// Rank r's copy of the workspace: WORKSPACE_DIR/STEM.ranks/rank-R.sbw.
std::string rankWorkspace(const std::string& ws, int rank) {
  const fs::path p(ws);
  return (p.parent_path() / (p.stem().string() + ".ranks") / ("rank-" + std::to_string(rank) + ".sbw")).string();
}

/// What a rank reports of one point it steered to and labelled: the run and
/// kernel by what survives a merge (uid, content), and the counts.
std::string outcomeJson(const store::Workspace& ws, std::size_t index, const explore::MemberOutcome& o) {
  const auto uid = o.steered.run ? ws.rows("SELECT uid FROM steer_runs WHERE id = " + std::to_string(o.steered.run))
                                   : std::vector<std::vector<std::string>>{};
  std::string hash, name;
  if (o.steered.bestKernelId)
    if (const auto k = ws.kernel(o.steered.bestKernelId)) {
      hash = k->contentHash;
      name = k->name;
    }
  json::Object out{{"index", std::int64_t(index)},
                   {"run_uid", uid.empty() ? std::string() : uid[0][0]},
                   {"kernel_hash", hash},
                   {"kernel_name", name},
                   {"cases", std::int64_t(o.cases)},
                   {"labels", std::int64_t(o.labelsAdded)},
                   {"proximity", o.steered.bestProximity},
                   {"stop", o.steered.stopReason},
                   {"status", o.steered.status}};
  return json::Value(std::move(out)).print();
}

/// Steers and labels the points of `specs` this rank takes (index % size == rank).
std::string steerShare(store::Workspace& ws, model::Sampler& sampler, const MpiJob& job,
                       const std::vector<steer::SteerSpec>& specs, const explore::ExploreSpec& spec,
                       const CancelToken* cancel) {
  std::string out = "[";
  for (std::size_t i = std::size_t(job.rank()); i < specs.size(); i += std::size_t(job.size())) {
    const auto o = explore::steerAndLabel(ws, sampler, specs[i], spec.drive, spec.includeAmbiguous, cancel);
    out += (out.size() > 1 ? "," : "") + outcomeJson(ws, i, o);
  }
  return out + "]";
}

/// A uid, content hash or kernel name as it may stand in a query: letters, digits and '_' only.
std::string plain(const std::string& s) {
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return "-";
  return s;
}

std::vector<steer::SteerSpec> specsFrom(const std::string& text) {
  std::vector<steer::SteerSpec> out;
  const auto root = json::parse(text);
  for (const auto& v : *root.getAsArray())
    out.push_back(steer::SteerSpec::fromJson(v.print(), "a batch's steering spec"));
  return out;
}

} // namespace

CommandLine exploreCommandLine() {
  CommandLine cl("explore", "Active learning: steer to where a committee of models disagrees, then label it.", "",
                 "Each epoch trains a committee (4 MLPs, 8 k-NN, 6 K-means; docs/active-learning.md) on the\n"
                 "workspace's labelled drive cases: Grewe F1 to F4 of each kernel at its transfer and\n"
                 "local size, labelled with the fastest device (significant labels only, unless\n"
                 "--include-ambiguous). It scores --points random points within the data's bounds by\n"
                 "vote entropy and steers to the highest (--active) or to a random one (--passive, for\n"
                 "comparison), drives the best kernel it reached on every device, and adds its labelled\n"
                 "cases before the next epoch. With --batch B, an epoch steers to B points: the most\n"
                 "disputed, then each time the disputed point farthest from those chosen. With --mpi\n"
                 "(under mpirun or srun), the batch's points are spread over the ranks, each steering\n"
                 "and driving in its own copy of the workspace (WORKSPACE_STEM.ranks/rank-R.sbw); rank 0\n"
                 "merges them back and retrains. Every epoch's committee, entropy, points, targets,\n"
                 "steering runs and new labels go to the workspace. Needs labelled cases from two\n"
                 "devices to start: drive some kernels first (steerbench-cli drive).");
  cl.option({"active", 0, "", "target the point of highest vote entropy (the default)"});
  cl.option({"passive", 0, "", "target a random point instead"});
  cl.option({"epochs", 'e', "N", "epochs", false, "5"});
  cl.option({"batch", 'b', "N", "points steered to per epoch, spread apart", false, "1"});
  cl.option({"mpi", 0, "", "spread each batch over the ranks of an MPI job (rank 0 keeps the workspace)"});
  cl.option({"points", 0, "N", "random points scored per epoch", false, "4096"});
  cl.option({"draw", 0, "uniform|log-uniform",
             "how the random points' counts are drawn between the labelled data's bounds: uniform in "
             "log(1 + count), which gives small kernels their share when a few large ones stretch the bounds, "
             "or uniform",
             false, "log-uniform"});
  cl.option({"include-ambiguous", 0, "", "also learn from AMBIGUOUS labels"});
  cl.option({"workspace", 'w', "FILE", "the workspace", false, defaultWorkspacePath()});
  cl.option({"checkpoint", 'o', "FILE", "the model (default: the workspace's, else the shipped default)"});
  addSearchOptions(cl);
  cl.option({"time-budget", 0, "SECONDS", "steering time per point", false, "120"});
  cl.option({"global-sizes", 'g', "N,...", "global sizes the steered kernel is driven at (and, unless "
                                           "--confirm-sizes is given, where its contenders are confirmed)",
             false, "4096,65536"});
  cl.option({"local-sizes", 'l', "N,...", "local sizes (0: the runtime chooses)", false, "64"});
  cl.option({"runs", 0, "N", "timed runs per device and size", false, "10"});
  cl.option({"seed", 0, "N", "random seed", false, "1"});
  cl.option({"threads", 'j', "N", "model (BLAS) and compile threads (default: all cores)", false, "0"});
  return cl;
}

int runExplore(const CommandLine& cl) {
  if (cl.has("active") && cl.has("passive")) throw UsageError("choose --active or --passive");
  const std::string wsPath = cl.value("workspace");
  const std::string ckpt = checkpointFor(cl, wsPath);
  const int threads = int(cl.unsignedValue("threads", 0, 256));
  explore::ExploreSpec spec;
  spec.active = !cl.has("passive");
  spec.epochs = int(cl.unsignedValue("epochs", 1, 100000));
  spec.batch = int(cl.unsignedValue("batch", 1, 100000));
  spec.points = int(cl.unsignedValue("points", 1, 10000000));
  spec.includeAmbiguous = cl.has("include-ambiguous");
  try {
    spec.draw = explore::parsePointDraw(cl.value("draw"));
  } catch (const InputError& e) {
    throw UsageError(std::string("--draw: ") + e.what());
  }
  spec.seed = parseSeed(cl);
  spec.steer.target.space = "grewe";
  readSearchOptions(cl, spec.steer);
  if (spec.steer.seeding == steer::Seeding::Given) throw UsageError("explore seeds from the corpus or the empty kernel");
  spec.steer.nearest = int(cl.unsignedValue("nearest", 1, 100000));
  spec.steer.timeBudget = cl.numberValue("time-budget", 1, 1e9); // seconds
  spec.steer.seed = spec.seed;
  spec.steer.jobs = unsigned(threads);
  spec.drive.globalSizes = sizeList(cl, "global-sizes", false);
  spec.drive.localSizes = sizeList(cl, "local-sizes", true);
  spec.drive.timedRuns = cl.unsignedValue("runs", 2, 100000);
  spec.drive.seed = spec.seed;
  // A contender is confirmed where the epoch's kernel will be driven, unless
  // told otherwise: a best that passed at other sizes may give no label.
  if (spec.steer.driveCheck && !cl.has("confirm-sizes")) spec.steer.confirmSizes = spec.drive.globalSizes;

  std::unique_ptr<MpiJob> job;
  if (cl.has("mpi")) job = std::make_unique<MpiJob>();
  const bool lead = !job || job->rank() == 0;
  const std::string who = job ? "rank " + std::to_string(job->rank()) + ": " : "";
  InterruptGuard interrupt;
  try {
    // Rank 0 copies the workspace for the other ranks (afresh for each run).
    if (job && lead && job->size() > 1) {
      const auto source = store::Workspace::open(wsPath, store::Workspace::Mode::OpenExisting);
      for (int r = 1; r < job->size(); ++r) {
        const auto copy = rankWorkspace(wsPath, r);
        fs::create_directories(fs::path(copy).parent_path());
        std::error_code ec;
        fs::remove(copy, ec);
        fs::remove(copy + "-wal", ec);
        fs::remove(copy + "-shm", ec);
        source.copyTo(copy);
      }
    }
    if (job) job->barrier();
    const std::string myPath = lead ? wsPath : rankWorkspace(wsPath, job->rank());
    auto ws = store::Workspace::open(myPath, lead ? store::Workspace::Mode::OpenOrCreate
                                                  : store::Workspace::Mode::OpenExisting);
    spec.drive.cacheDir = drive::poclCacheFor(myPath);
    auto sampler = loadSampler(ckpt, threads);

    if (!lead) {
      // The other ranks steer their share of each batch rank 0 sends, until it sends none.
      for (;;) {
        const auto batch = job->broadcast({});
        if (batch.empty()) return 0;
        (void)job->gather(steerShare(ws, sampler, *job, specsFrom(batch), spec, &interrupt.token()));
      }
    }

    explore::Explorer explorer(ws, sampler);
    // One write a line: ranks share the launcher's stderr.
    explorer.onMessage = [&](const std::string& m) { std::cerr << (who + m + "\n") << std::flush; };
    explorer.onEpoch = [](const explore::EpochReport& e) {
      std::cout << "epoch " << e.epoch << (e.member ? "." + std::to_string(e.member) : std::string()) << ": "
                << e.labelled << " labelled points, vote entropy " << formatNumber(e.entropy) << "; steering run "
                << e.steered.run << " reached proximity " << formatPercent(e.steered.bestProximity) << " ("
                << e.steered.stopReason << ")";
      if (e.steered.bestKernelId)
        std::cout << "; kernel #" << e.steered.bestKernelId << " driven: " << e.cases << " case(s), " << e.labelsAdded
                  << " labelled";
      std::cout << std::endl;
    };
    if (job)
      explorer.steerBatch = [&](const std::vector<steer::SteerSpec>& specs, const CancelToken* cancel) {
        std::string text = "[";
        for (const auto& s : specs)
          text += (text.size() > 1 ? "," : "") + s.toJson();
        text += "]";
        (void)job->broadcast(text);
        const auto reports = job->gather(steerShare(ws, sampler, *job, specs, spec, cancel));
        // What the other ranks made joins this workspace; then their reports are read here.
        std::vector<std::string> copies;
        for (int r = 1; r < job->size(); ++r)
          copies.push_back(rankWorkspace(wsPath, r));
        if (!copies.empty()) (void)store::mergeWorkspaces(copies, wsPath);
        std::vector<explore::MemberOutcome> out(specs.size());
        for (const auto& report : reports) {
          const auto parsed = json::parse(report);
          for (const auto& v : *parsed.getAsArray()) {
            const auto* o = v.getAsObject();
            const auto i = std::size_t(*o->getInteger("index"));
            auto& m = out.at(i);
            m.cases = std::size_t(*o->getInteger("cases"));
            m.labelsAdded = std::size_t(*o->getInteger("labels"));
            m.steered.bestProximity = o->find("proximity")->getAsNumber().value_or(0);
            m.steered.stopReason = o->getString("stop").value_or("");
            m.steered.status = o->getString("status").value_or("");
            const auto uid = plain(o->getString("run_uid").value_or(""));
            for (const auto& row : ws.rows("SELECT id FROM steer_runs WHERE uid = '" + uid + "'"))
              m.steered.run = std::stoll(row[0]);
            const auto hash = plain(o->getString("kernel_hash").value_or(""));
            const auto name = plain(o->getString("kernel_name").value_or(""));
            if (hash != "-" && !hash.empty())
              for (const auto& row : ws.rows("SELECT id FROM kernels WHERE content_hash = '" + hash + "' AND name = '" +
                                             name + "'"))
                m.steered.bestKernelId = std::stoll(row[0]);
          }
        }
        return out;
      };
    const auto run = explorer.run(spec, &interrupt.token());
    if (job) (void)job->broadcast({}); // the other ranks stop
    std::cout << (spec.active ? "active" : "passive") << " learning run " << run << " stored in " << wsPath << "\n";
  } catch (const std::exception& e) {
    if (job) {
      std::cerr << "steerbench-cli explore: " << who << e.what() << "\n";
      std::cerr.flush();
      job->abort(1);
    }
    throw;
  }
  if (interrupt.token().cancelled()) {
    std::cerr << "interrupted: the epochs done are stored\n";
    if (job) job->abort(130);
    return 130;
  }
  return 0;
}

} // namespace steerbench::cli

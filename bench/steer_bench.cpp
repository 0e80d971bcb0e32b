// bench-steer: steering toward DevMap's benchmark kernels.
//
// Targets are DevMap kernels (cgo17-amd.csv: 256 distinct benchmark kernels
// over 7 suites), taken round-robin over the suites in an order fixed by
// --seed, skipping any whose vector some seedable corpus kernel already has
// (distance 0). In the Grewe space the vectors are the CSV's own columns (F2
// and F4 derived); in the IR spaces each kernel's `src` is measured.
// Per target it prints the relative proximity of the seeds' nearest (generation
// 0), of the run's nearest clean candidate and whether it matched exactly, of
// its best runnable candidate (one that passed the contenders' checks:
// no dead counts in its -O1 IR, PASS in the drive worker) and whether that
// matched exactly, the contenders checked and passed, the generations used,
// candidates per second and the wall time; then the totals (exact,
// runnable and runnable-exact shares, median proximities, candidates per
// second, median and largest time).
//
// --ablation runs every target six ways on the same budget: the default
// (nearest-kernel seeds, swaps on, grammar guard, compiler checks, directed
// holes and renames as given), empty seeding, swaps off, infills without the grammar
// guard, infills without compiler checks, and the other hole placement (half
// the holes directed, with renames, if the default has none, else none), and combining
// infills the other way (16 a generation if the default has none, else none).
// Each run also reports the share of its infills (generations 1 and later)
// that compile, and the combined candidates (compiled/tried:steps of the
// best's lineage that were combined), the generation that found the best,
// and how often the beam started again from the seeds; and, per variant,
// how many runnable bests call no work-item function (every work-item does
// the same work) and the time pointer aliases took.
//
// The bench steers on a scratch copy of the workspace (it never writes to
// yours); seeds come only from the corpus roles (train, capped, user).
//
// Usage: bench-steer [--space grewe|instcount|autophase] [--targets 40] [--time-budget 600]
//                    [--depth 100000] [--width 16] [--candidates 4] [--temperature 0.8] [--hole 0-3]
//                    [--directed-holes 0.5] [--rename-holes 1] [--escalate-after 0] [--restarts 0] [--redraws 0] [--combine 16] [--combine-greedy 0] [--aliases 4] [--alias-seeds 0] [--max-per-vector 4] [--reseed-after 100] [--reseed-draw 0|1] [--fill-insertions 0|1] [--clean-seeds 0|1] [--guide-logits 1] [--patience 0]
//                    [--max-new-tokens 8] [--endhole-bias 4] [--endhole-ramp 0] [--unguarded] [--untyped] [--no-calls] [--unchecked] [--context 64] [--nearest 32] [--seed-package-share 0.75] [--repairs 0] [--lineage-checks 0] [--package-failures 1] [--seed 1] [--ablation]
//                    [--seeding nearest|empty|generated|auto] (generated: a model trained with conditions, told each target;
//                    auto: generated where the nearest corpus kernel is below --generated-below proximity, else nearest)
//                    [--generated-below 0]
//                    [--seed-near 0.8] (generated seeds held to the target, and sampled clean; 0: the conditions alone)
//                    [--seed-lean 0] (held generated seeds lean toward the counts they lack, steer::heldLean; 0: none)
//                    [--seed-restarts 3] (seeds from the model given up start again, at least this many times)
//                    [--seed-local 0.5] (this share of them starts from a local buffer, for a target with localmem)
//                    [--workspace FILE] [--checkpoint FILE] [--devmap CSV] [--threads 0] [--csv FILE]
//                    [--keep-bests DIR] (each run's best kernel as DIR/VARIANT-NN.cl, to drive them)
//                    [--keep-workspace FILE] (the scratch copy, every run and its checks, kept as FILE)
//                    [--only 1,5,...] (run only these of the chosen targets, by their place in the list)
//                    [--target-seed N] (the seed that chooses the targets; by default --seed's: repeated runs of
//                    the same targets with --seed 2, 3 give --target-seed 1)
//                    [--allow RULE,...|all] (clean-compile rules not enforced) [--no-drive-check] [--check-timeout 5] [--confirm-timeout 20]
//                    [--confirm-sizes 4096,65536|none] (after the quick check, every device at these sizes)
//                    [--race-check 0] (after the confirmation, the checks once more in Oclgrind at N work-items)
//                    [--failing-members 0] (beam members from lineages that failed the checks, at most; -1: any)
//                    [--seeds-refill 0|1] (places failing lineages would fill go to seeds outside them)
//                    [--also-aliases N] (every target also run with N aliases a generation, right after the default)
//                    [--parallel-seeds 0|1] [--also-parallel-seeds 0|1] (the same for seeds that call no work-item function)
//        bench-steer --summarise FILE [--summarise FILE ...]
//                    (no run: the totals of the targets in these --csv files, as for a run taken in parts with --only)
#include "common/Paths.h"
#include "common/TextFormat.h"
#include "engine/FeatureTable.h"
#include "features/Distance.h"
#include "model/Sampler.h"
#include "model/Trainer.h"
#include "steer/BeamSearch.h"
#include "steer/Combining.h"
#include "steer/Lineage.h"
#include "steer/PointerAliases.h"
#include "steer/SeedChoice.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

using namespace steerbench;

namespace {

std::string suiteOf(const std::string& benchmark) {
  for (const char* s : {"amd-app-sdk", "nvidia", "parboil", "polybench", "rodinia", "shoc", "npb"})
    if (benchmark.rfind(s, 0) == 0) return s;
  return benchmark.substr(0, benchmark.find('-'));
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// "k (p%)": k of n targets.
std::string shareOf(int k, double n) {
  char b[32];
  std::snprintf(b, sizeof b, "%d (%.0f%%)", k, 100.0 * k / std::max(1.0, n));
  return b;
}

/// The median of proximities where a target without one counts below any
/// (-1e9): "none" when that is the median.
std::string medianProximity(const std::vector<double>& p) {
  const double m = median(p);
  if (m < -1) return "none";
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100 * m);
  return b;
}

struct Outcome {
  double seedProximity = NAN, proximity = NAN, seconds = 0;
  bool exact = false;          ///< the nearest clean candidate is an exact match
  double runnableProximity = NAN; ///< the best runnable candidate (NAN: none)
  bool runnable = false, runnableExact = false;
  std::size_t checked = 0, passed = 0, unclean = 0;
  /// Exact candidates (distance 0) a clean-compile rule refused, by rule; and
  /// whether the run had an exact candidate only among refused ones.
  std::map<std::string, std::size_t> exactRefused;
  bool exactOnlyUnclean = false;
  std::map<std::string, std::size_t> checkOutcomes; ///< contenders' outcomes
  double sampling = 0;         ///< seconds of generations 1 and later
  int generations = 0;
  std::size_t candidates = 0, compiled = 0; ///< infills of generations 1 and later
  std::size_t combined = 0, combinedCompiled = 0; ///< combined candidates (SteerSpec::combine)
  int combinedSteps = 0; ///< steps of the best's lineage that were combined candidates
  int aliasSteps = 0;    ///< ... and aliases (SteerSpec::aliases)
  bool oneWorkItem = false; ///< the runnable best calls no work-item function: every work-item does the same
  std::size_t aliased = 0, aliasedCompiled = 0; ///< aliases made, and of them compiled
  double aliasSeconds = 0;                      ///< of `sampling`, making and measuring them
  int reseeds = 0;       ///< times the beam started again from the seeds (SteerSpec::reseedAfter)
  std::string seeded;    ///< what auto seeding chose, and why (empty: not auto)
  int found = 0;         ///< the generation of the best candidate
  std::string stop;
};

/// --summarise: the totals of runs already made, read from their --csv files
/// (one target a line; a target in several files counts once, its last line).
/// For a measurement taken in parts (--only) with the same build and options:
/// the parts' files give the figures of the whole. Candidates per second is
/// the median of the targets' own rates, the only one their lines hold.
int summarise(const std::vector<std::string>& files) {
  struct Line {
    std::string variant, target;
    double seedP = NAN, bestP = NAN, runP = NAN, rate = 0, seconds = 0;
    bool exact = false, runnableExact = false;
  };
  std::map<std::pair<std::string, std::string>, Line> lines; // (variant, target)
  std::vector<std::string> order;                             // variants as first seen
  for (const auto& file : files) {
    std::ifstream in(file);
    if (!in) {
      std::fprintf(stderr, "bench-steer: cannot read %s\n", file.c_str());
      return 1;
    }
    // Columns are found by the header's names, so a CSV with columns added
    // or moved is still read.
    std::map<std::string, std::size_t> column;
    auto fields = [](const std::string& text) {
      std::vector<std::string> f;
      for (std::size_t at = 0; at <= text.size();) {
        const auto comma = std::min(text.find(',', at), text.size());
        f.push_back(text.substr(at, comma - at));
        at = comma + 1;
      }
      return f;
    };
    const std::vector<std::string> wanted = {"variant", "target", "seed_proximity", "proximity", "exact",
                                             "runnable_proximity", "runnable_exact", "candidates_per_s", "seconds"};
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
      if (text.empty()) continue;
      const auto f = fields(text);
      if (text.rfind("variant,", 0) == 0) {
        column.clear();
        for (std::size_t i = 0; i < f.size(); ++i) column[f[i]] = i;
        for (const auto& w : wanted)
          if (!column.count(w)) {
            std::fprintf(stderr, "bench-steer: %s:%d: no column \"%s\" (not a CSV of bench-steer's --csv)\n",
                         file.c_str(), n, w.c_str());
            return 1;
          }
        continue;
      }
      if (column.empty() || f.size() != column.size()) {
        std::fprintf(stderr, "bench-steer: %s:%d: %zu fields where bench-steer's --csv header has %zu\n", file.c_str(),
                     n, f.size(), column.size());
        return 1;
      }
      auto at = [&](const char* name) -> const std::string& { return f[column.at(name)]; };
      Line l;
      l.variant = at("variant");
      l.target = at("target");
      l.seedP = std::strtod(at("seed_proximity").c_str(), nullptr);
      l.bestP = std::strtod(at("proximity").c_str(), nullptr);
      l.exact = at("exact") == "1";
      l.runP = std::strtod(at("runnable_proximity").c_str(), nullptr); // "nan": no runnable candidate
      l.runnableExact = at("runnable_exact") == "1";
      l.rate = std::strtod(at("candidates_per_s").c_str(), nullptr);
      l.seconds = std::strtod(at("seconds").c_str(), nullptr);
      if (std::find(order.begin(), order.end(), l.variant) == order.end()) order.push_back(l.variant);
      lines[{l.variant, l.target}] = l;
    }
  }
  if (lines.empty()) {
    std::fprintf(stderr, "bench-steer: no targets in the files given\n");
    return 1;
  }
  std::printf("%-14s %8s %10s %10s %15s %14s %14s %16s %14s %12s %10s\n", "variant", "targets", "exact", "runnable",
              "runnable-exact", "median seeds", "median best", "median runnable", "median cand/s", "median time",
              "max time");
  for (const auto& variant : order) {
    std::vector<double> seedP, bestP, runP, rates, secs;
    int exact = 0, runnable = 0, runnableExact = 0;
    for (const auto& [key, l] : lines) {
      if (key.first != variant) continue;
      seedP.push_back(std::isnan(l.seedP) ? -1e9 : l.seedP);
      bestP.push_back(std::isnan(l.bestP) ? -1e9 : l.bestP);
      runP.push_back(std::isnan(l.runP) ? -1e9 : l.runP); // none: below any
      rates.push_back(l.rate);
      secs.push_back(l.seconds);
      exact += l.exact;
      runnable += !std::isnan(l.runP);
      runnableExact += l.runnableExact;
    }
    const double n = double(secs.size());
    std::printf("%-14s %8zu %10s %10s %15s %13.1f%% %13.1f%% %16s %14.1f %11.1fs %9.1fs\n", variant.c_str(),
                secs.size(), shareOf(exact, n).c_str(), shareOf(runnable, n).c_str(), shareOf(runnableExact, n).c_str(),
                100 * median(seedP), 100 * median(bestP), medianProximity(runP).c_str(), median(rates), median(secs),
                *std::max_element(secs.begin(), secs.end()));
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is printed, also into a file
  std::string spaceName = "grewe", wsPath = defaultWorkspacePath(), ckpt,
              csv = std::string(STEERBENCH_DEVMAP_DIR) + "/cgo17-amd.csv", csvOut, keepBests, keepWorkspace;
  int targets = 40, threads = 0;
  bool ablation = false;
  int alsoAliases = -1; ///< also run every target with this many aliases a generation (-1: not)
  int alsoParallelSeeds = -1; ///< also run every target with SteerSpec::parallelSeeds so (-1: not)
  std::optional<unsigned long long> targetSeed; // --target-seed: the targets' draw apart from the runs'
  std::set<int> only; // --only: the chosen targets to run, by their 1-based place in the list
  std::vector<std::string> summaries; // --summarise: CSV files of earlier runs, totalled instead of a run
  steer::SteerSpec base;
  base.width = 16;
  base.candidatesPerMember = 4;
  base.temperature = 0.8;
  base.seeding = steer::Seeding::Nearest; // the bench's figures were measured so; --seeding auto as steer does
  base.holeMin = 0;
  base.holeMax = 3;
  base.maxNewTokens = 8;
  base.endHoleBias = 4;
  for (int i = 1; i < argc; ++i) {
    auto arg = [&](const char* name) { return !std::strcmp(argv[i], name) && i + 1 < argc; };
    if (arg("--space")) spaceName = argv[++i];
    else if (arg("--targets")) targets = std::atoi(argv[++i]);
    else if (arg("--time-budget")) base.timeBudget = std::atof(argv[++i]);
    else if (arg("--depth")) base.depth = std::atoi(argv[++i]);
    else if (arg("--width")) base.width = std::atoi(argv[++i]);
    else if (arg("--candidates")) base.candidatesPerMember = std::atoi(argv[++i]);
    else if (arg("--temperature")) base.temperature = std::atof(argv[++i]);
    else if (arg("--hole")) std::sscanf(argv[++i], "%d-%d", &base.holeMin, &base.holeMax);
    else if (arg("--directed-holes")) base.directedHoles = std::atof(argv[++i]);
    else if (arg("--rename-holes")) base.renameHoles = std::atoi(argv[++i]) != 0;
    else if (arg("--max-new-tokens")) base.maxNewTokens = std::atoi(argv[++i]);
    else if (arg("--escalate-after")) base.escalateAfter = std::atoi(argv[++i]);
    else if (arg("--restarts")) base.restarts = std::atoi(argv[++i]);
    else if (arg("--redraws")) base.redraws = std::atoi(argv[++i]);
    else if (arg("--combine")) base.combine = std::atoi(argv[++i]);
    else if (arg("--combine-greedy")) base.combineGreedy = std::atoi(argv[++i]);
    else if (arg("--aliases")) base.aliases = std::atoi(argv[++i]);
    else if (arg("--alias-seeds")) base.aliasSeeds = std::atoi(argv[++i]) != 0;
    else if (arg("--max-per-vector")) base.maxPerVector = std::atoi(argv[++i]);
    else if (arg("--failing-members")) base.failingMembers = std::atoi(argv[++i]);
    else if (arg("--seeds-refill")) base.seedsRefill = std::atoi(argv[++i]) != 0;
    else if (arg("--repairs")) base.repairs = std::atoi(argv[++i]) != 0;
    else if (arg("--lineage-checks")) base.lineageChecks = std::atoi(argv[++i]) != 0;
    else if (arg("--package-failures")) base.packageFailures = std::atoi(argv[++i]) != 0;
    else if (arg("--reseed-after")) base.reseedAfter = std::atoi(argv[++i]);
    else if (arg("--reseed-draw")) base.reseedDraw = std::atoi(argv[++i]) != 0;
    else if (arg("--fill-insertions")) base.fillInsertions = std::atoi(argv[++i]) != 0;
    else if (arg("--clean-seeds")) base.cleanSeeds = std::atoi(argv[++i]) != 0;
    else if (arg("--seed-near")) base.seedNear = std::atof(argv[++i]);
    else if (arg("--seed-lean")) base.seedLean = std::atof(argv[++i]);
    else if (arg("--seed-restarts")) base.seedRestarts = std::atoi(argv[++i]);
    else if (arg("--seed-local")) base.seedLocal = std::atof(argv[++i]);
    else if (arg("--guide-logits")) base.guideLogits = std::atof(argv[++i]);
    else if (arg("--only")) {
      for (std::string list = argv[++i]; !list.empty();) {
        const auto comma = list.find(',');
        only.insert(std::atoi(list.substr(0, comma).c_str()));
        list = comma == std::string::npos ? "" : list.substr(comma + 1);
      }
    }
    else if (arg("--patience")) base.patience = std::atoi(argv[++i]);
    else if (arg("--endhole-bias")) base.endHoleBias = std::atof(argv[++i]);
    else if (arg("--endhole-ramp")) base.endHoleRamp = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--unguarded")) base.guard = false;
    else if (!std::strcmp(argv[i], "--untyped")) base.guardTypes = false;
    else if (!std::strcmp(argv[i], "--no-calls")) base.guardCalls = false;
    else if (!std::strcmp(argv[i], "--unchecked")) base.check = false;
    else if (arg("--context")) base.context = std::atoi(argv[++i]);
    else if (arg("--nearest")) base.nearest = std::atoi(argv[++i]);
    else if (arg("--seed-package-share")) base.seedPackageShare = std::atof(argv[++i]);
    else if (arg("--swap")) base.swapProbability = std::atof(argv[++i]);
    else if (arg("--seed")) base.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg("--target-seed")) targetSeed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg("--seeding")) {
      const std::string mode = argv[++i];
      base.seeding = mode == "empty"       ? steer::Seeding::Empty
                     : mode == "generated" ? steer::Seeding::Generated
                     : mode == "auto"      ? steer::Seeding::Auto
                                           : steer::Seeding::Nearest;
    }
    else if (arg("--generated-below")) base.generatedBelow = std::atof(argv[++i]);
    else if (arg("--workspace")) wsPath = argv[++i];
    else if (arg("--checkpoint")) ckpt = argv[++i];
    else if (arg("--devmap")) csv = argv[++i];
    else if (arg("--threads")) threads = std::atoi(argv[++i]);
    else if (arg("--csv")) csvOut = argv[++i];
    else if (arg("--keep-bests")) keepBests = argv[++i];
    else if (arg("--keep-workspace")) keepWorkspace = argv[++i];
    else if (arg("--allow")) {
      const std::string list = argv[++i];
      if (list == "all") base.cleanRules.clear(), base.deadCode = false;
      if (list.find("dead-code") != std::string::npos) base.deadCode = false;
      for (std::size_t at = 0; list != "all" && at <= list.size();) {
        const auto comma = std::min(list.find(',', at), list.size());
        base.cleanRules.erase(std::remove(base.cleanRules.begin(), base.cleanRules.end(), list.substr(at, comma - at)),
                              base.cleanRules.end());
        at = comma + 1;
      }
    }
    else if (!std::strcmp(argv[i], "--no-drive-check")) base.driveCheck = false;
    else if (arg("--check-timeout")) base.checkTimeout = std::atof(argv[++i]);
    else if (arg("--confirm-timeout")) base.confirmTimeout = std::atof(argv[++i]);
    else if (arg("--confirm-sizes")) {
      const std::string list = argv[++i];
      base.confirmSizes.clear();
      for (std::size_t at = 0; list != "none" && at < list.size();) {
        const auto comma = std::min(list.find(',', at), list.size());
        base.confirmSizes.push_back(std::strtoull(list.substr(at, comma - at).c_str(), nullptr, 10));
        at = comma + 1;
      }
    }
    else if (arg("--race-check")) base.raceCheckSize = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--ablation")) ablation = true;
    else if (arg("--also-aliases")) alsoAliases = std::atoi(argv[++i]);
    else if (arg("--also-parallel-seeds")) alsoParallelSeeds = std::atoi(argv[++i]);
    else if (arg("--parallel-seeds")) base.parallelSeeds = std::atoi(argv[++i]) != 0;
    else if (arg("--summarise")) summaries.push_back(argv[++i]);
    else {
      std::fprintf(stderr, "usage: see the comment at the top of bench/steer_bench.cpp\n");
      return 2;
    }
  }
  if (base.seeding != steer::Seeding::Generated && base.seeding != steer::Seeding::Auto)
    base.seedNear = 0; // nothing to hold, and the spec says so
  if (base.seedNear == 0) base.seedLean = 0; // no hold, no lean
  // How seeds from the model are held, leant and restarted, as the report says it.
  const std::string seedText =
      (base.seedNear > 0 ? " held at " + formatNumber(base.seedNear) +
                               (base.seedLean != 0 ? ", leaning " + formatNumber(base.seedLean) : std::string())
                         : std::string()) +
      (base.seedRestarts > 0 ? ", restarted up to " + std::to_string(base.seedRestarts) + " times" : std::string()) +
      (base.seedLocal > 0 ? ", " + formatNumber(base.seedLocal) + " of them from a local buffer when the target has localmem"
                          : std::string()) +
      (base.aliasSeeds ? ", nearest kernels ranked with buffer uses through aliases" : std::string());
  if (!summaries.empty()) return summarise(summaries);
  try {
    if (ckpt.empty()) ckpt = modelForWorkspace(wsPath);
    const auto& space = features::featureSpace(spaceName);
    // A scratch copy: steered kernels must not seed later targets.
    // With --keep-workspace it is that file, left in place to read the runs' records.
    const auto scratch = keepWorkspace.empty() ? std::filesystem::temp_directory_path() /
                                                     ("bench-steer-" + std::to_string(::getpid()) + ".sbw")
                                               : std::filesystem::path(keepWorkspace);
    { // a kept workspace of an earlier, killed run leaves its -wal and -shm: replayed onto the copy, they corrupt it
      std::error_code ec;
      for (const char* s : {"-wal", "-shm"})
        std::filesystem::remove(scratch.string() + s, ec);
    }
    std::filesystem::copy_file(wsPath, scratch, std::filesystem::copy_options::overwrite_existing);
    struct Cleanup {
      std::filesystem::path p;
      bool keep;
      ~Cleanup() {
        std::error_code ec;
        for (const char* s : {"", "-wal", "-shm"})
          if (!keep) std::filesystem::remove(p.string() + s, ec);
      }
    } cleanup{scratch, !keepWorkspace.empty()};
    auto ws = store::Workspace::open(scratch.string());
    model::Sampler sampler(ckpt, threads);
    base.jobs = unsigned(threads);
    std::printf("bench-steer: %s space; model %s (sha256 %s); BLAS %s\n", space.name.c_str(), sampler.describe().c_str(),
                sampler.modelHash().substr(0, 12).c_str(), model::useThreads(threads).c_str());
    std::printf("spec: width %d, %d candidates per member, depth %d, swap %.2f, temperature %.2f, holes %d-%d tokens (%.0f%% directed%s), "
                "infills up to %d tokens, escalation after %d stalled generations (0: none), %d restarts, %d redraws of an infill that rebuilds its hole, %d combined candidates a generation (and %d greedy), %d aliased, at most %d members a vector (0: any), reseed after %d stalled generations (0: never) %s, insertions %s, seeds from nothing sampled %s%s, guided infills %.1f (0: none), [ENDHOLE] bias %.1f (and %.1f a token written), %s, "
                "context %d tokens (0: all), %d nearest seeds (at most %.0f%% from one package), time budget %.0f s per target, patience %d generations (0: none), "
                "seed %llu; clean-compile rules: %s; contenders %s\n",
                base.width, base.candidatesPerMember, base.depth, base.swapProbability, base.temperature, base.holeMin,
                base.holeMax, 100 * base.directedHoles, base.renameHoles ? ", with renames" : "", base.maxNewTokens, base.escalateAfter, base.restarts, base.redraws, base.combine, base.combineGreedy, base.aliases, base.maxPerVector, base.reseedAfter, base.reseedDraw ? "drawing from the seeds" : "from generation 0's beam", base.fillInsertions ? "filled" : "may stay empty", base.cleanSeedsTaken() ? "clean" : "plain", seedText.c_str(), base.guideLogits, base.endHoleBias, base.endHoleRamp, (std::string(base.guard ? (base.guardTypes ? "grammar guard" : "grammar guard without types and scopes") : "unguarded") + (base.guard && base.guardCalls ? " with builtin calls" : "") + (base.check ? ", compiler checks" : ", unchecked")).c_str(), base.context, base.nearest, 100 * base.seedPackageShare, base.timeBudget,
                base.patience, (unsigned long long)base.seed,
                [&] {
                  std::string r;
                  for (const auto& n : base.cleanRules)
                    r += (r.empty() ? "" : ",") + n;
                  return (r.empty() ? std::string("none") : r) + (base.deadCode ? ", dead-code" : "");
                }().c_str(),
                base.driveCheck ? ("driven (PASS at 4096 work-items on one device, " + formatNumber(base.checkTimeout) +
                                   " s per request, then on every device at " + [&] {
                                     std::string r;
                                     for (const auto n : base.confirmSizes)
                                       r += (r.empty() ? "" : ",") + std::to_string(n);
                                     return r.empty() ? std::string("no more sizes") : r;
                                   }() + ", " + formatNumber(base.confirmTimeout) + " s per request" +
                                   (base.raceCheckSize ? ", then in Oclgrind at " + std::to_string(base.raceCheckSize)
                                                       : std::string()) +
                                   ") before they can be the best; seeds checked first until one passes; " +
                                   (base.failingMembers < 0 ? std::string("any number")
                                                            : std::to_string(base.failingMembers)) +
                                   " beam members from failing lineages" +
                                   (base.seedsRefill ? " (the rest from the seeds)" : "") + "; failing candidates " +
                                   (base.repairs ? "repaired" : "not repaired") + "; " +
                                   (base.lineageChecks ? "failing candidates' ancestors bisected and beam members checked while idle"
                                                      : "no lineage checked") +
                                   (base.packageFailures ? "; a failed seed speaks for its package's unchecked seeds" : ""))
                                      .c_str()
                                : "not checked: the nearest is the best");

    // Targets: distinct DevMap kernels, round-robin over the suites.
    const auto reference = engine::loadReferenceTable(csv, space, threads ? unsigned(threads) : engine::hardwareJobs());
    const auto corpus = engine::loadWorkspaceTable(ws, space);
    std::map<std::string, std::vector<std::size_t>> bySuite;
    std::mt19937_64 rng(targetSeed ? *targetSeed : base.seed);
    for (std::size_t r = 0; r < reference.size(); ++r)
      bySuite[suiteOf(reference.names[r])].push_back(r);
    for (auto& [suite, rows] : bySuite)
      std::shuffle(rows.begin(), rows.end(), rng);
    std::vector<std::size_t> chosen;
    std::size_t matched = 0;
    for (std::size_t round = 0; int(chosen.size()) < targets; ++round) {
      bool any = false;
      for (auto& [suite, rows] : bySuite) {
        if (round >= rows.size() || int(chosen.size()) >= targets) continue;
        any = true;
        const auto r = rows[round];
        bool exact = false;
        for (std::size_t c = 0; c < corpus.size() && !exact; ++c)
          exact = corpus.groups[c] != "held_out" && corpus.groups[c] != "steered" && corpus.groups[c] != "sample" &&
                  features::distance(corpus.rows[c], reference.rows[r]) == 0;
        if (exact) ++matched;
        else chosen.push_back(r);
      }
      if (!any) break;
    }
    std::printf("%zu targets from %zu distinct DevMap kernels (%zu not measurable in this space; drawn with seed %llu); "
                "%zu skipped for an exact match in the corpus\n\n",
                chosen.size(), reference.size() + reference.skipped, reference.skipped,
                (unsigned long long)(targetSeed ? *targetSeed : base.seed), matched);

    struct Variant {
      std::string name;
      steer::SteerSpec spec;
    };
    std::vector<Variant> variants = {{"default", base}};
    if (alsoAliases >= 0) { // right after the default on each target, so both meet the host alike
      auto other = base;
      other.aliases = alsoAliases;
      variants.push_back({"aliases " + std::to_string(alsoAliases), other});
    }
    if (alsoParallelSeeds >= 0) {
      auto other = base;
      other.parallelSeeds = alsoParallelSeeds != 0;
      variants.push_back({"parallel seeds " + std::to_string(alsoParallelSeeds), other});
    }
    if (ablation) {
      auto empty = base;
      empty.seeding = steer::Seeding::Empty;
      auto noswap = base;
      noswap.swapProbability = 0;
      variants.push_back({"empty seeds", empty});
      variants.push_back({"no swaps", noswap});
      auto unguarded = base;
      unguarded.guard = false;
      variants.push_back({"unguarded", unguarded});
      auto unchecked = base;
      unchecked.check = false;
      variants.push_back({"unchecked", unchecked});
      auto holes = base;
      holes.directedHoles = base.directedHoles > 0 ? 0 : 0.5;
      holes.renameHoles = holes.directedHoles > 0;
      variants.push_back({base.directedHoles > 0 ? "undirected" : "directed 0.5", holes});
      auto combining = base;
      combining.combine = base.combine > 0 ? 0 : 16;
      variants.push_back({base.combine > 0 ? "no combining" : "combine 16", combining});
    }
    std::vector<std::vector<Outcome>> results(variants.size());
    std::FILE* out = csvOut.empty() ? nullptr : std::fopen(csvOut.c_str(), "w");
    if (out)
      std::fprintf(out, "variant,target,suite,seed_proximity,proximity,exact,runnable_proximity,runnable_exact,checked,"
                        "passed,candidates_per_s,generations,seconds,stop\n");
    std::printf("%-14s %-50s %-10s %9s %9s %5s %9s %5s %7s %6s %4s %7s %8s %15s %5s %7s  %s\n", "variant", "target", "suite",
                "seeds", "nearest", "exact", "runnable", "exact", "checks", "cand/s", "gens", "time_s", "compile",
                "combined:steps", "found", "reseeds", "stop");
    for (std::size_t t = 0; t < chosen.size(); ++t) {
      if (!only.empty() && !only.count(int(t) + 1)) continue;
      const auto r = chosen[t];
      for (std::size_t v = 0; v < variants.size(); ++v) {
        auto spec = variants[v].spec;
        spec.target = {space.name, reference.rows[r], reference.names[r]};
        steer::BeamSearch search(ws, sampler);
        Outcome o;
        search.onGeneration = [&](const steer::GenerationReport& g) {
          if (g.generation == 0) o.seedProximity = g.nearestDistance < 0 ? NAN : g.nearestProximity;
          o.unclean += g.unclean;
          if (g.generation > 0) {
            o.sampling += g.seconds;
            o.candidates += g.candidates - g.combined - g.aliased; // the infills' own compile rate
            o.compiled += g.compiled - g.combinedCompiled - g.aliasedCompiled;
            o.combined += g.combined;
            o.combinedCompiled += g.combinedCompiled;
            o.aliased += g.aliased;
            o.aliasedCompiled += g.aliasedCompiled;
            o.aliasSeconds += g.aliasSeconds;
          }
          o.reseeds += g.reseeded ? 1 : 0;
        };
        search.onMessage = [&](const std::string& m) { // what --seeding auto chose, printed under the target
          if (m.rfind("seeds (auto)", 0) == 0) o.seeded = m;
        };
        const auto res = search.run(spec);
        // The nearest clean candidate: the best, unless another is nearer.
        const bool nearestIsBest = res.nearestId == 0;
        o.proximity = nearestIsBest ? (res.bestId ? res.bestProximity : NAN) : res.nearestProximity;
        o.exact = nearestIsBest ? res.bestId && res.bestDistance <= 1e-9 : res.nearestDistance <= 1e-9;
        o.runnable = spec.driveCheck && res.runnable;
        o.runnableProximity = o.runnable ? res.bestProximity : NAN;
        o.runnableExact = o.runnable && res.bestDistance <= 1e-9;
        o.oneWorkItem = o.runnable && !steer::callsAWorkItemFunction(res.bestText);
        o.checked = res.checked;
        o.passed = res.passed;
        {
          bool cleanExact = false, uncleanExact = false;
          // A text is checked once; later candidates with the same text get
          // its outcome copied, and are not counted again.
          std::set<std::string> checkedTexts;
          for (const auto& c : ws.steerCandidates(res.run)) {
            if (!c.checkOutcome.empty() && checkedTexts.insert(c.text).second) ++o.checkOutcomes[c.checkOutcome];
            if (!c.compiled || c.distance > 1e-9) continue;
            if (c.unclean.empty()) cleanExact = true;
            else {
              uncleanExact = true;
              ++o.exactRefused[c.unclean.substr(0, c.unclean.find(':'))];
            }
          }
          o.exactOnlyUnclean = uncleanExact && !cleanExact;
        }
        o.generations = res.generations;
        o.seconds = res.elapsed;
        o.stop = res.stopReason;
        if (const auto best = ws.steerCandidate(res.bestId)) {
          o.found = best->generation;
          // The best kernel, for bench-drive --sources: is it a benchmark?
          if (!keepBests.empty()) {
            std::filesystem::create_directories(keepBests);
            char name[64];
            std::snprintf(name, sizeof name, "/%s-%02zu.cl", variants[v].name.c_str(), t + 1);
            if (std::FILE* f = std::fopen((keepBests + name).c_str(), "w")) {
              std::fwrite(best->text.data(), 1, best->text.size(), f);
              std::fclose(f);
            }
          }
        }
        if (res.bestId)
          for (const auto& step : steer::lineage(ws, res.run, res.bestId)) {
            o.combinedSteps += steer::isCombined(step.origin) ? 1 : 0;
            o.aliasSteps += step.origin == steer::kAliasOrigin ? 1 : 0;
          }
        results[v].push_back(o);
        char comb[32];
        std::snprintf(comb, sizeof comb, "%zu/%zu:%d", o.combinedCompiled, o.combined, o.combinedSteps);
        if (o.aliasSteps) // steps of the best's lineage that were aliases
          std::snprintf(comb + std::strlen(comb), sizeof comb - std::strlen(comb), " al%d", o.aliasSteps);
        char checks[32];
        std::snprintf(checks, sizeof checks, "%zu/%zu", o.passed, o.checked);
        std::printf("%-14s %-50.50s %-10s %8.1f%% %8.1f%% %5s %8.1f%% %5s %7s %6.1f %4d %7.1f %7.1f%% %15s %5d %7d  %s\n",
                    variants[v].name.c_str(), reference.names[r].c_str(), suiteOf(reference.names[r]).c_str(),
                    100 * o.seedProximity, 100 * o.proximity, o.exact ? "yes" : "no", 100 * o.runnableProximity,
                    o.runnableExact ? "yes" : "no", checks, double(o.candidates + o.combined) / std::max(1e-9, o.sampling),
                    o.generations, o.seconds,
                    100.0 * double(o.compiled) / double(std::max<std::size_t>(1, o.candidates)), comb, o.found,
                    o.reseeds, o.stop.c_str());
        if (!o.seeded.empty()) std::printf("%-14s   %s\n", "", o.seeded.c_str());
        std::fflush(stdout);
        if (out)
          std::fprintf(out, "%s,%s,%s,%.6f,%.6f,%d,%.6f,%d,%zu,%zu,%.3f,%d,%.2f,%s\n", variants[v].name.c_str(),
                       reference.names[r].c_str(), suiteOf(reference.names[r]).c_str(), o.seedProximity, o.proximity,
                       int(o.exact), o.runnableProximity, int(o.runnableExact), o.checked, o.passed,
                       double(o.candidates + o.combined) / std::max(1e-9, o.sampling), o.generations, o.seconds,
                       o.stop.c_str());
        if (out) std::fflush(out); // a run stopped early keeps the targets it finished
      }
    }
    if (out) std::fclose(out);
    std::printf("\n%-14s %8s %10s %10s %15s %14s %14s %16s %9s %9s %12s %10s %18s\n", "variant", "targets", "exact",
                "runnable", "runnable-exact", "median seeds", "median best", "median runnable", "cand/s", "unclean",
                "median time", "max time", "infills compiling");
    for (std::size_t v = 0; v < variants.size(); ++v) {
      std::vector<double> seedP, bestP, runP, secs;
      int exact = 0, runnable = 0, runnableExact = 0;
      std::size_t candidates = 0, compiled = 0, made = 0, unclean = 0;
      double sampling = 0;
      for (const auto& o : results[v]) {
        candidates += o.candidates;
        compiled += o.compiled;
        made += o.candidates + o.combined;
        sampling += o.sampling;
        unclean += o.unclean;
        seedP.push_back(std::isnan(o.seedProximity) ? -1e9 : o.seedProximity);
        bestP.push_back(std::isnan(o.proximity) ? -1e9 : o.proximity);
        runP.push_back(std::isnan(o.runnableProximity) ? -1e9 : o.runnableProximity); // none: below any
        secs.push_back(o.seconds);
        exact += o.exact;
        runnable += o.runnable;
        runnableExact += o.runnableExact;
      }
      const double n = double(results[v].size());
      std::printf("%-14s %8zu %10s %10s %15s %13.1f%% %13.1f%% %16s %9.1f %9zu %11.1fs %9.1fs %9zu (%4.1f%%)\n",
                  variants[v].name.c_str(), results[v].size(), shareOf(exact, n).c_str(), shareOf(runnable, n).c_str(),
                  shareOf(runnableExact, n).c_str(), 100 * median(seedP), 100 * median(bestP),
                  medianProximity(runP).c_str(),
                  double(made) / std::max(1e-9, sampling), unclean, median(secs),
                  secs.empty() ? 0.0 : *std::max_element(secs.begin(), secs.end()), compiled,
                  100.0 * double(compiled) / double(std::max<std::size_t>(1, candidates)));
    }
    // What the rules and checks cost: exact candidates each rule refused (its
    // first broken rule), targets matched exactly only by refused candidates,
    // and how the contenders' checks ended.
    for (std::size_t v = 0; v < variants.size(); ++v) {
      std::map<std::string, std::size_t> refused, outcomes;
      int lost = 0;
      int runnable = 0, oneItem = 0, oneItemExact = 0;
      std::size_t aliased = 0, aliasedCompiled = 0;
      double aliasSeconds = 0, sampling = 0;
      for (const auto& o : results[v]) {
        for (const auto& [rule, n] : o.exactRefused)
          refused[rule] += n;
        for (const auto& [outcome, n] : o.checkOutcomes)
          outcomes[outcome] += n;
        lost += o.exactOnlyUnclean;
        runnable += o.runnable;
        oneItem += o.oneWorkItem;
        oneItemExact += o.oneWorkItem && o.runnableExact;
        aliased += o.aliased;
        aliasedCompiled += o.aliasedCompiled;
        aliasSeconds += o.aliasSeconds;
        sampling += o.sampling;
      }
      std::printf("\n%s: exact candidates refused by a clean-compile rule:", variants[v].name.c_str());
      if (refused.empty()) std::printf(" none");
      for (const auto& [rule, n] : refused)
        std::printf(" %s %zu;", rule.c_str(), n);
      std::printf("\n%s: targets whose only exact candidates were refused: %d\n", variants[v].name.c_str(), lost);
      std::printf("%s: runnable bests that call no work-item function (every work-item does the same work): %d of %d, "
                  "%d of them exact\n",
                  variants[v].name.c_str(), oneItem, runnable, oneItemExact);
      std::printf("%s: aliases made %zu (compiled %zu), %.1f s of the generations' %.1f s (%.1f%%)\n",
                  variants[v].name.c_str(), aliased, aliasedCompiled, aliasSeconds, sampling,
                  100 * aliasSeconds / std::max(1e-9, sampling));
      std::printf("%s: checks of contenders and lineages (distinct texts):", variants[v].name.c_str());
      if (outcomes.empty()) std::printf(" none");
      for (const auto& [outcome, n] : outcomes)
        std::printf(" %s %zu;", outcome.c_str(), n);
      std::printf("\n");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-steer: %s\n", e.what());
    return 1;
  }
  return 0;
}

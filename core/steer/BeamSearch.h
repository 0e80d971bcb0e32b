// Steering (ALGORITHMS.md, BenchPress 3.3): a beam search toward a target
// vector. Generation 0 is the seeds: the empty feed, the corpus kernels
// nearest the target, or kernels the user gives. Each later generation puts a
// hole of random position and length into every beam member, several times,
// lets the model infill all of them in one batch while the finished samples
// are compiled and measured on the other cores, and keeps the K nearest
// distinct kernels, each slot but the best swapped with probability p for a
// random lower-ranked one. Everything is stored as it completes (one
// transaction per generation), so a run can be cancelled or killed and
// resumed from its last complete generation with the same result.
//
// Torch-free interface; the sampler is used through model::Sampler.
#pragma once
#include "engine/ParallelFor.h"
#include "steer/Target.h"
#include "store/Workspace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace steerbench::model {
class Sampler;
}

namespace steerbench::steer {

enum class Seeding { Empty, Nearest, Given };

struct SeedKernel {
  std::string name; ///< where it came from, for people (a file name)
  std::string text;
};

struct SteerSpec {
  Target target;
  int width = 16;              ///< K: beam members kept per generation
  int candidatesPerMember = 4; ///< holes (and infills) per beam member and generation
  /// Stopping: depth, time budget and patience. One search plateaus within
  /// about 300 generations on Grewe targets, so by default a stalled beam
  /// starts again from the seeds (reseedAfter) until the time budget ends.
  int depth = 100000;          ///< generations after the seeds (the time budget ends a run first)
  double swapProbability = 0.15;
  double temperature = 0.8;  ///< 0.8 matched 20 of 40 Grewe targets at 30 s each, 0.5 matched 15 (README)
  int holeMin = 0;             ///< tokens a hole replaces: uniform in [holeMin, holeMax] ...
  int holeMax = 3;
  double holeMaxFraction = 0.25; ///< ... and at most this share of the member's tokens
  /// Share of holes aimed at the sites of a dimension that differs from the
  /// target (steer::directedHole); the rest go anywhere. Only spaces with a
  /// token-level reading (Grewe) have sites. Runs stored without it had
  /// none. 0.5 by default, with renames: on bench-steer's 40 Grewe targets
  /// (600 s each) the two gave 26 exact against 21 without (ScanLargeArrays,
  /// SP initialize2, FDTD3d, backprop and MatrixMul newly matched, none lost).
  double directedHoles = 0.5;
  /// Directed holes for a localmem or coalesced count that is too low are,
  /// half the time, renames: one token on the name of a subscript of the
  /// other kind (steer::directedHole). Runs stored without it had none.
  bool renameHoles = true;
  int maxNewTokens = 8;        ///< cap on the tokens one infill adds
  /// After this many generations without a better best, holes may replace
  /// twice as many tokens (holeMax) and infills add twice as many
  /// (maxNewTokens); after twice as many, four times. A better best goes
  /// back to the plain sizes. 0: never. Runs stored without it had none.
  int escalateAfter = 0;
  /// Infills given up, or still in error when the check's patience is
  /// spent, start again from their feed at most this many times
  /// (model::SampleOptions::restarts). Runs stored without it had none.
  int restarts = 0;
  /// Combined candidates per generation: two infills of the same beam member
  /// (from this generation, or one from the last kCombineWindow), applied
  /// together to the member when their spans do not overlap. Pairs are
  /// ranked by the distance their summed feature changes predict, and only
  /// those predicted nearer than the member are compiled (cheap next to
  /// sampling). Every token still comes from the model or a seed. 0: none.
  /// Runs stored without it had none. 16 by default: on the first 8 Grewe
  /// targets (bench-steer) it gave 3 exact matches and a median best
  /// proximity of 96.3%, against 2 and 92.8% without; every combined
  /// candidate compiles.
  int combine = 16;
  /// Greedy combined candidates per generation: for a beam member, the
  /// disjoint infills (this generation's and the window's) taken one at a
  /// time, each the one whose change brings the summed prediction nearest,
  /// while it comes nearer; applied together when that is more than two.
  /// The members whose sets predict the nearest kernels get one each. For
  /// targets many small steps away. 0: none. Runs stored without it had none.
  /// Off by default: with 4 on 6 of the first 8 Grewe targets (bench-steer)
  /// it was seldom used and matched no target that the default misses.
  int combineGreedy = 0;
  /// At most this many beam members share one feature vector; the rest of
  /// the beam goes to the nearest kernels of other vectors (filled with the
  /// capped ones only when there are too few). Without a cap the beam fills
  /// with rewordings of the best, which all stall together. 0: no cap. Runs
  /// stored without it had none. 4 by default: on 40 Grewe targets
  /// (bench-steer) it gave 13 exact and a median best proximity of 96.0%,
  /// against 12 and 94.7% without.
  int maxPerVector = 4;
  /// After this many generations without a better best in the beam, the
  /// beam starts again from the seeds (generation 0's beam; the empty feed
  /// when seeding is empty) and searches on with the run's later random
  /// draws, while the run keeps its best over every such search. Runs differ
  /// a lot with their random draws (a target stuck at 81.7% in one run was
  /// matched exactly in another), so a stalled search is worth a fresh try
  /// within the time budget. 0: never. Runs stored without it had none.
  /// 100 by default, with no patience: on the first 8 Grewe targets
  /// (bench-steer, 600 s each) it gave 4 exact and a median best proximity
  /// of 97.9%, against 2 and 93.3% with patience 300 and no reseeding.
  int reseedAfter = 100;
  /// A reseed draws its beam at random (width members, the generation's own
  /// random draws) from every distinct compiling seed of generation 0,
  /// instead of taking generation 0's beam again, so that each search starts
  /// from a different mix of seeds. Runs stored without it took the beam.
  /// Off by default: on the first 8 Grewe targets (bench-steer, 600 s each)
  /// it gave 2 exact and a median best proximity of 96.1%, against 4 and
  /// 97.9% with generation 0's beam.
  bool reseedDraw = false;
  /// An insertion (a hole that replaced no tokens) gets at least one token
  /// (model::SampleOptions::feedMinNewTokens): closed at once, it is its
  /// parent again, a candidate spent for nothing (about a sixth of all
  /// infills with the default [ENDHOLE] bias). Runs stored without it let
  /// insertions stay empty. Off by default: on the first 8 Grewe targets
  /// (bench-steer, 600 s each) it gave 3 exact and a median best proximity
  /// of 96.2%, against 4 and 97.9%; the three it matched, it matched sooner.
  bool fillInsertions = false;
  /// Guided infills: each infill's logits lean toward the tokens that move
  /// its member's features toward the target (steer::guideBias): this much
  /// is added to the logit of a token of each dimension the member has too
  /// little of, and taken from one it has too much of. Only spaces with a
  /// token-level reading (Grewe). 0: none. Runs stored without it had none.
  /// 1 by default: on the first 17 of bench-steer's 40 Grewe targets
  /// (600 s each) it gave 9 exact against 7 without, and matched spmv A,
  /// whose best had lacked one comparison after 31 reseeds, in 11 s; on all
  /// 40, 21 exact.
  double guideLogits = 1;
  double endHoleBias = 4;      ///< added to the [ENDHOLE] logit of infills (model::SampleOptions)
  bool guard = true;           ///< grammar-guided infills (model::SampleOptions::guard); runs stored without it had none
  bool check = true;           ///< compiler-checked statements (model::SampleOptions::check); runs stored without it had none
  int context = 64;            ///< tokens the model sees around a hole (0: as many as it takes)
  std::vector<double> scale;   ///< per-dimension scaling of distances (empty: none)
  Seeding seeding = Seeding::Nearest;
  int nearest = 32;            ///< corpus kernels seeded (Nearest)
  std::vector<std::string> seedRoles = {"train", "capped", "user"}; ///< kernel roles Nearest seeds from
  std::vector<SeedKernel> seeds; ///< Given
  /// Seconds over the whole run (0: none); the 10 minutes a target.
  /// A generation that the previous one's length says would end past it is
  /// not started.
  double timeBudget = 600;
  int patience = 0;            ///< stop after this many generations without a better best of the run (0: never)
  std::uint64_t seed = 1;
  int batchSize = 64;          ///< rows the model infills together (per stream)
  int streams = 0;             ///< batches infilled at once (model::SampleOptions::streams; 0: the sampler's defaultStreams(), stored as such; runs stored without it had 1)
  unsigned jobs = 0;           ///< compile threads (0: all cores)

  /// Everything that shapes the run, as JSON (stored with the run).
  [[nodiscard]] std::string toJson() const;
  /// Reads toJson()'s form. Throws InputError.
  [[nodiscard]] static SteerSpec fromJson(const std::string& json, const std::string& name);
};

/// One generation as it completes: what the plot and the progress line show.
struct GenerationReport {
  std::int64_t run = 0;
  int generation = 0;
  std::size_t candidates = 0, compiled = 0;       ///< all of the generation's candidates ...
  std::size_t combined = 0, combinedCompiled = 0; ///< ... of which combined infills (SteerSpec::combine)
  /// The run's best so far (over all its searches, reseeds included) and the beam's
  /// median; < 0: nothing compiled.
  double bestDistance = -1, bestProximity = 0, medianDistance = -1;
  double candidatesPerSecond = 0, seconds = 0, elapsed = 0;
  std::int64_t bestId = 0; ///< the run's best so far
  bool reseeded = false;   ///< the beam started again from the seeds (SteerSpec::reseedAfter)
  struct Point {
    std::int64_t id = 0, parent = 0;
    std::vector<double> values;
    double distance = 0;
    bool kept = false;
  };
  std::vector<Point> points; ///< the generation's compiled candidates
};

struct SteerResult {
  std::int64_t run = 0;
  std::string status;     ///< finished, cancelled
  std::string stopReason; ///< exact match, depth, time budget, patience, cancelled, no candidates
  int generations = 0;    ///< complete generations after the seeds
  double elapsed = 0;     ///< seconds over every session of the run
  std::int64_t bestId = 0; ///< the best candidate of the whole run
  std::string bestText;
  std::vector<double> bestValues;
  double bestDistance = -1, bestProximity = 0;
  std::int64_t bestKernelId = 0; ///< the best candidate as a workspace kernel (role "steered")
};

/// Generations since the best distance last fell: the trailing entries of
/// `bests` (the best after each generation, < 0 for none yet) that are no
/// better than the one before them, counting only entries from index `from`.
[[nodiscard]] int stalledGenerations(const std::vector<double>& bests, std::size_t from = 0);
/// Where the beam's current search began in a run whose beam had these
/// bests, one per generation: the generation of the last reseed
/// (SteerSpec::reseedAfter), or 0. Generation g reseeds when the beam's best
/// has not fallen for `reseedAfter` generations of the search it belongs to.
[[nodiscard]] std::size_t lastReseed(const std::vector<double>& bests, int reseedAfter);

/// Generations back (this one included) whose infills SteerSpec::combine pairs.
constexpr int kCombineWindow = 8;
/// The origin recorded for a combined candidate.
constexpr const char* kCombinedOrigin = "two infills combined";
/// The origin recorded for a candidate of SteerSpec::combineGreedy.
constexpr const char* kGreedyCombinedOrigin = "infills combined greedily";
/// Whether a candidate with this origin applies several infills at once.
[[nodiscard]] inline bool isCombined(const std::string& origin) {
  return origin == kCombinedOrigin || origin == kGreedyCombinedOrigin;
}

class BeamSearch {
public:
  /// Uses `workspace` (on this thread) and `sampler`, whose model must be
  /// the one a resumed run was started with.
  BeamSearch(store::Workspace& workspace, model::Sampler& sampler);

  std::function<void(const GenerationReport&)> onGeneration;
  std::function<void(const std::string&)> onMessage;

  /// Starts a run. Throws InputError for a bad spec (unknown space, a target
  /// of the wrong size, no seed that fits the model).
  SteerResult run(const SteerSpec& spec, const engine::CancelToken* cancel = nullptr);
  /// Goes on with a stored run from its last complete generation. Throws
  /// InputError for an unknown or finished run, or another model.
  SteerResult resume(std::int64_t run, const engine::CancelToken* cancel = nullptr);

private:
  SteerResult go(std::int64_t run, const SteerSpec& spec, const engine::CancelToken* cancel);
  /// go(), recording any failure in the run's status.
  SteerResult guarded(std::int64_t run, const SteerSpec& spec, const engine::CancelToken* cancel);
  store::Workspace& ws_;
  model::Sampler& sampler_;
};

/// One step of a lineage, seed first.
struct LineageStep {
  std::int64_t id = 0, parent = 0;
  int generation = 0;
  std::string origin, text, replaced, infill; ///< replaced: the parent's text the hole took out
  std::int64_t holeStart = -1, holeLength = 0;
  std::vector<double> values; ///< its features in the run's space
  double distance = -1;
};
/// The best candidate of a stored run so far: the first generation's beam
/// best of the smallest distance (0: nothing compiled yet).
[[nodiscard]] std::int64_t runBest(const store::Workspace& ws, std::int64_t run);
/// The same, from a run's generations as already read.
[[nodiscard]] std::int64_t runBest(const std::vector<store::Workspace::SteerGenerationRecord>& generations);
/// From the seed to candidate `id` (the run's best when 0).
[[nodiscard]] std::vector<LineageStep> lineage(const store::Workspace& ws, std::int64_t run, std::int64_t id = 0);

} // namespace steerbench::steer

// What shapes a steering run: the target, the beam, how holes are placed and
// filled, how infills are combined, when the beam reseeds and when the run
// stops. Stored with every run as JSON, so a run resumes, and can be
// repeated, exactly as it was started. docs/steering.md explains each field;
// the defaults were chosen on bench-steer (bench/results/bench-steer.md).
#pragma once
#include "steer/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::steer {

/// Where generation 0 comes from: samples of the empty kernel; the corpus
/// kernels nearest the target; kernels the user gave; or samples of the empty
/// kernel from a model told the target (Generated: a model trained with
/// conditions, in the Grewe space; docs/model.md).
enum class Seeding { Empty, Nearest, Given, Generated };

/// Seeds the model writes from the empty kernel (Empty, Generated), none from the corpus or the user.
[[nodiscard]] inline bool seedsFromTheModel(Seeding s) { return s == Seeding::Empty || s == Seeding::Generated; }

[[nodiscard]] const char* seedingName(Seeding s);

struct SeedKernel {
  std::string name; ///< where it came from, for people (a file name)
  std::string text;
};

/// Every clean-compile rule's name (SteerSpec::cleanRules' default).
[[nodiscard]] std::vector<std::string> defaultCleanRules();

struct SteerSpec {
  Target target;
  int width = 16;              ///< K: beam members kept per generation
  int candidatesPerMember = 4; ///< holes (and infills) per beam member and generation
  /// Generations after the seeds. A search plateaus long before the default,
  /// so the time budget ends a run first and a stalled beam reseeds
  /// (reseedAfter) until then.
  int depth = 100000;
  double swapProbability = 0.15; ///< each kept slot but the best is swapped for a lower-ranked candidate with this probability
  double temperature = 0.8;      ///< sampling temperature of infills
  int holeMin = 0;             ///< tokens a hole replaces: uniform in [holeMin, holeMax] ...
  int holeMax = 3;
  double holeMaxFraction = 0.25; ///< ... and at most this share of the member's tokens
  /// Share of holes aimed at the sites of a dimension that differs from the
  /// target (steer::directedHole); the rest go anywhere. Only spaces with a
  /// token-level reading (Grewe) have sites. Runs stored without it had none.
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
  /// An infill that rebuilds exactly the tokens its hole replaced (its
  /// member again, a wasted candidate) is drawn again at most this many
  /// times (model::SampleOptions::redraws). Off by default: a redraw starts
  /// the row again from its feed, which costs about what a new candidate
  /// costs, and with 4 steering found no more distinct compiling candidates
  /// (docs/steering.md). Runs stored without it had none.
  int redraws = 0;
  /// Combined candidates per generation: two infills of the same beam member
  /// (from this generation, or one from the last kCombineWindow), applied
  /// together to the member when their spans do not overlap. Pairs are
  /// ranked by the distance their summed feature changes predict, and only
  /// those predicted nearer than the member are compiled (cheap next to
  /// sampling). Every token still comes from the model or a seed. 0: none.
  /// Runs stored without it had none.
  int combine = 16;
  /// Greedy combined candidates per generation: for a beam member, the
  /// disjoint infills (this generation's and the window's) taken one at a
  /// time, each the one whose change brings the summed prediction nearest,
  /// while it comes nearer; applied together when that is more than two.
  /// The members whose sets predict the nearest kernels get one each. For
  /// targets many small steps away. 0: none. Runs stored without it had none.
  int combineGreedy = 0;
  /// Aliased candidates per generation (steer/PointerAliases.h): for the
  /// nearest beam members whose Grewe mem count is above the target's, the
  /// member with some of a buffer's uses through a pointer declared in the
  /// body, which lowers mem and changes nothing the kernel does. Only
  /// aliases whose vector (known before they are written) is nearer than
  /// their member are made; at most this many members are parsed a
  /// generation, each once while it stays in the beam. 0: none; no effect
  /// outside the Grewe space. Runs stored without it had none.
  int aliases = 4;
  /// Nearest seeding in the Grewe space ranks a corpus kernel by the
  /// distance it reaches with some buffer uses through aliases (as
  /// `aliases` makes them), and seeds with the kernel so aliased. Off by
  /// default: the seeds come nearer, the runs' bests do not on the whole
  /// (bench/results/bench-steer.md). Runs stored without it had none.
  bool aliasSeeds = false;
  /// At most this many beam members share one feature vector; the rest of
  /// the beam goes to the nearest kernels of other vectors (filled with the
  /// capped ones only when there are too few). Without a cap the beam fills
  /// with rewordings of the best, which all stall together. 0: no cap. Runs
  /// stored without it had none.
  int maxPerVector = 4;
  /// After this many generations without a better best in the beam, the
  /// beam starts again from the seeds (generation 0's beam; the empty feed
  /// when seeding is empty) and searches on with the run's later random
  /// draws, while the run keeps its best over every such search. Runs differ
  /// a lot with their random draws, so a stalled search is worth a fresh try
  /// within the time budget. 0: never. Runs stored without it had none.
  int reseedAfter = 100;
  /// A reseed draws its beam at random (width members, the generation's own
  /// random draws) from every distinct compiling seed of generation 0,
  /// instead of taking generation 0's beam again, so that each search starts
  /// from a different mix of seeds. Runs stored without it took the beam.
  bool reseedDraw = false;
  /// An insertion (a hole that replaced no tokens) gets at least one token
  /// (model::SampleOptions::feedMinNewTokens): closed at once, it is its
  /// parent again, a candidate spent for nothing. Runs stored without it let
  /// insertions stay empty.
  bool fillInsertions = false;
  /// Seeds written from nothing (`empty`, `generated`) are sampled clean:
  /// statements kept to the clean-compile rules a statement can break alone,
  /// and a whole kernel that breaks any of `cleanRules`, or whose counts
  /// stand on dead code, written on (steer::cleanKernelCheck). Runs stored
  /// without it sampled them with the plain checks. Seeds held to the
  /// target (`seedNear`) are sampled clean whatever this says.
  bool cleanSeeds = false;
  /// Seeds generated for the target (`generated`) are held to it
  /// (steer::targetCheck, on live counts) and sampled clean: a statement
  /// that takes their counts past where they can still come within this
  /// proximity is written again, a kernel short of it may not end, and one
  /// given up on the way ends at the longest clean kernel a checked
  /// statement left. 0: the conditions alone, as runs stored without it.
  double seedNear = 0.8;
  /// Held generated seeds (`seedNear`) lean toward the counts they still
  /// lack by this much (steer::heldLean: steering's guide read from the
  /// kernel each passed statement leaves). 0: none, as runs stored without it.
  double seedLean = 0;
  /// Seeds from the model (generated or from the empty feed) given up start
  /// again from their feed at least this many times (`restarts` when that
  /// is more), so that held seeds end at kernels that reach their counts;
  /// infills keep `restarts`. Runs stored without it had none.
  int seedRestarts = 3;
  /// Of the seeds from the model (generated or from the empty feed) for a
  /// target that asks for local memory (Grewe's localmem above 0), this
  /// share starts from a signature with a local buffer (HoleFeeds'
  /// kLocalBufferFeed) instead of `kernel void [HOLE]`: the model seldom
  /// writes one on its own, and an infill cannot add one. 0: none, as runs
  /// stored without it.
  double seedLocal = 0.5;
  /// Whether seeds are sampled clean: `cleanSeeds`, or held to a generated target.
  [[nodiscard]] bool cleanSeedsTaken() const { return cleanSeeds || (seeding == Seeding::Generated && seedNear > 0); }
  /// Guided infills: each infill's logits lean toward the tokens that move
  /// its member's features toward the target (steer::guideBias): this much
  /// is added to the logit of a token of each dimension the member has too
  /// little of, and taken from one it has too much of. Only spaces with a
  /// token-level reading (Grewe). 0: none. Runs stored without it had none.
  double guideLogits = 1;
  double endHoleBias = 4;      ///< added to the [ENDHOLE] logit of infills (model::SampleOptions)
  bool guard = true;           ///< grammar-guided infills (model::SampleOptions::guard); runs stored without it had none
  bool guardTypes = true;      ///< the guard's rules of types and scopes (model::SampleOptions::typeRules); runs stored without it had none
  bool guardCalls = true;      ///< the guard's rule of builtin calls (model::SampleOptions::typedArguments); runs stored without it had none
  bool check = true;           ///< compiler-checked statements (model::SampleOptions::check); runs stored without it had none
  int context = 64;            ///< tokens the model sees around a hole (0: as many as it takes)
  std::vector<double> scale;   ///< per-dimension scaling of distances (empty: none)
  Seeding seeding = Seeding::Nearest;
  int nearest = 32;            ///< corpus kernels seeded (Nearest)
  /// Nearest seeds: at most this share of them (rounded up) from one package,
  /// and their drive checks take the packages in turn (steer/SeedChoice.h).
  /// 1: the nearest, whatever their packages, checked nearest first. Runs
  /// stored without it took the nearest.
  double seedPackageShare = 0.75;
  std::vector<std::string> seedRoles = {"train", "capped", "user"}; ///< kernel roles Nearest seeds from
  std::vector<SeedKernel> seeds; ///< Given
  /// Seconds over the whole run (0: none). A generation that the previous
  /// one's length says would end past it is not started.
  double timeBudget = 600;
  /// Clean-compile rules a candidate must keep to be kept (steer/CleanCompile.h;
  /// default: every rule). Runs stored without them had none.
  std::vector<std::string> cleanRules = defaultCleanRules();
  /// A candidate can be the run's best only after it passes the drive
  /// worker's dynamic checks (steer::ContenderChecks): no dead code in its
  /// -O1 IR, then built, run twice on two inputs, outputs read back and
  /// compared, buffers guarded. Runs stored without it took the nearest
  /// candidate, runnable or not.
  bool driveCheck = true;
  /// A clean candidate that could enter the beam by its rank (one of the
  /// generation's `width` nearest, or nearer than the beam's farthest
  /// member) is compiled at -O1 too, and not kept when its counts stand on
  /// dead code (features::checkDeadCode): the search then builds on code
  /// that does work. Runs stored without it kept such candidates.
  bool deadCode = true;
  /// Seconds per request of a contender's quick check (CPU seconds: the
  /// checks run niced, at about a tenth of a core while the search runs, so
  /// each second here is up to ten on the clock). Every candidate that
  /// passed a quick check in five 120 s bench-steer runs passed it within 3 s
  /// on the clock, unniced; a kernel that hangs holds the checks for the
  /// whole limit (one run spent most of its checks on ten such).
  double checkTimeout = 5;
  /// Seconds per request of the confirmation, as `drive` allows (20 s), and
  /// counted as checkTimeout is. Runs stored without it had twice their checkTimeout.
  double confirmTimeout = 20;
  /// A contender that passes the quick check (one small size, one device) is
  /// then driven as `drive` labels: on every device at these global sizes
  /// (requests limited to confirmTimeout), and can be the best only when
  /// every case passes. Empty: the quick check alone. Runs stored without it
  /// had the quick check alone.
  std::vector<std::uint64_t> confirmSizes{4096, 65536};
  /// After the confirmation passes: one more run of the checks at this many
  /// work-items inside Oclgrind's simulator, whose race and memory checkers
  /// fail what PoCL's runs let through (ContenderCheckOptions::raceCheckSize;
  /// 0: none). Runs stored without it had none.
  std::uint64_t raceCheckSize = 0;
  /// The race check's size where it runs: it follows the confirmation, so
  /// without confirmation sizes there is none.
  [[nodiscard]] std::uint64_t raceCheckRuns() const { return confirmSizes.empty() ? 0 : raceCheckSize; }
  /// With drive checks: at most this many beam members come from a failing
  /// lineage (the member, or its nearest checked ancestor, failed the
  /// checks); the rest of the beam goes to lineages that passed or were not
  /// checked yet (filled with failing ones only when there are too few).
  /// Descendants inherit most failures (an index one below its buffer,
  /// output that ignores the input), so without a bound the beam fills with
  /// one failing lineage while the runnable ones die out, and candidates
  /// below a failed ancestor nearly never pass. 0: failing members only when
  /// too few others are left; -1: any number. Runs stored without it had no bound.
  int failingMembers = 0;
  /// With drive checks and failingMembers >= 0: when fewer members than the
  /// width are left outside failing lineages, the rest of the beam comes
  /// from the seeds (generation 0's beam) outside them, and a failing one
  /// only when none is left, not from the failing lineages. Where every
  /// candidate descends from one failed seed (a hash kernel that writes only
  /// on a match), the beam otherwise stays in its lineage to the end. Off by
  /// default; runs stored without it had none.
  bool seedsRefill = false;
  /// With drive checks: a candidate that fails them, nearer than the best,
  /// with an ancestor that passed (or a seed that passes once checked), is repaired:
  /// each of the edits between that ancestor and the first that failed is
  /// undone in it, one a repair (steer/Repairs.h), and the repairs join the
  /// next generation as candidates of that ancestor. Off by default: in
  /// bench-steer's runs no repair passed the checks, and they took checks
  /// from other contenders. Runs stored without it made none.
  bool repairs = false;
  /// With drive checks: the unchecked ancestors of a failing candidate are
  /// bisected to find the step that broke it, and while the checks are idle
  /// but for failing lineages the least known beam member is checked too
  /// (the quick check alone when farther than the best, so it can only tell
  /// its lineage whether it runs; fully, as a contender, when nearer). A
  /// contender's verdict marks only its own lineage, so siblings of an
  /// unchecked ancestor that broke were checked one by one; an ancestor's
  /// or a member's verdict marks all its descendants, and failing ones
  /// leave the beam (steer/LineageVerdicts.h). Off by default: in
  /// bench-steer's paired runs they did not bring more runnable exact
  /// matches. Runs stored without it checked neither.
  bool lineageChecks = false;
  /// With drive checks and nearest seeding: an unchecked seed of a package
  /// whose checked seeds all failed counts as a failing lineage, it and its
  /// descendants. A package's kernels share how they take their input and
  /// give their output (hashcat's write only when a hash matches, so none
  /// writes anything on the driver's inputs), so one failed seed speaks for
  /// its package's others until one of them passes. Runs stored without it
  /// presumed nothing.
  bool packageFailures = true;
  /// With nearest seeding: a corpus kernel that calls no work-item function
  /// (steer/SeedChoice.h: every work-item would do the same work) is no
  /// seed; it is measured and recorded as "one-work-item", as a kernel that
  /// breaks a clean-compile rule is. Runs stored without it took such seeds.
  bool parallelSeeds = true;
  /// With drive checks: a candidate whose text is a kernel the workspace
  /// has driven (any drive case) cannot be the best; it passes and stays a
  /// stepping stone. `explore` sets it, so that each epoch labels a kernel
  /// not labelled before: steered to targets far from every kernel, its
  /// runs had ended, epoch after epoch, on the same unchanged seed, driven
  /// again each time (one corpus kernel 7 times in 12 epochs), adding the
  /// same rows again. Runs stored without it took any.
  bool newKernels = false;
  int patience = 0;            ///< stop after this many generations without a better best of the run (0: never)
  std::uint64_t seed = 1;
  int batchSize = 64;          ///< rows the model infills together (per stream)
  int streams = 0;             ///< batches infilled at once (model::SampleOptions::streams; 0: the sampler's defaultStreams(), stored as such; runs stored without it had 1)
  unsigned jobs = 0;           ///< compile threads (0: all cores)

  /// Everything that shapes the run, as JSON (stored with the run).
  [[nodiscard]] std::string toJson() const;
  /// Reads toJson()'s form. Throws InputError.
  [[nodiscard]] static SteerSpec fromJson(const std::string& json, const std::string& name);
  /// Throws InputError naming what is out of range (dimensions of the target
  /// and the scale against the space, beam and hole sizes, probabilities).
  void validate() const;
};

} // namespace steerbench::steer

// Steering (docs/steering.md; BenchPress, section 3.3): a beam search toward
// a target vector. Generation 0 is the seeds: the empty feed, the corpus
// kernels nearest the target, or kernels the user gives. Each later
// generation puts a hole of random position and length into every beam
// member, several times (HoleFeeds), lets the model infill all of them in one
// batch while the finished samples are compiled and measured on the other
// cores (MeasurePool), adds combinations of infills (Combining), and keeps
// the K nearest distinct kernels (BeamSelection). Everything is stored as it
// completes (one transaction per generation), so a run can be cancelled or
// killed and resumed from its last complete generation with the same result.
//
// Torch-free interface; the sampler is used through model::Sampler.
#pragma once
#include "common/CancelToken.h"
#include "steer/SteerSpec.h"
#include "store/Workspace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace steerbench::model {
class Sampler;
}

namespace steerbench::steer {

/// One generation as it completes: what the plot and the progress line show.
struct GenerationReport {
  std::int64_t run = 0;
  int generation = 0;
  std::size_t candidates = 0, compiled = 0;       ///< all of the generation's candidates ...
  std::size_t combined = 0, combinedCompiled = 0; ///< ... of which combined infills (SteerSpec::combine)
  std::size_t aliased = 0, aliasedCompiled = 0;   ///< ... and aliases (SteerSpec::aliases)
  double aliasSeconds = 0;                        ///< of `seconds`, making and measuring the aliases
  /// The run's best so far (over all its searches, reseeds included; with
  /// drive checks, the nearest that passed them) and the beam's median; < 0:
  /// nothing yet.
  double bestDistance = -1, bestProximity = 0, medianDistance = -1;
  /// The nearest clean candidate, checked or not (< 0: none), and its proximity.
  double nearestDistance = -1, nearestProximity = 0;
  std::size_t unclean = 0;       ///< of the generation's compiled candidates, those a clean-compile rule refused
  std::size_t checksPending = 0; ///< contenders queued or being checked
  std::size_t checked = 0, passed = 0; ///< contenders checked so far in the run, and of them passed
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
  double elapsed = 0;     ///< seconds over the whole run, every resumed part included
  /// The best candidate of the whole run: with drive checks (SteerSpec::driveCheck),
  /// the nearest that passed them (0: none did).
  std::int64_t bestId = 0;
  std::string bestText;
  std::vector<double> bestValues;
  double bestDistance = -1, bestProximity = 0;
  std::int64_t bestKernelId = 0; ///< the best candidate as a workspace kernel (role "steered")
  bool runnable = false; ///< the best passed the contenders' checks
  /// The nearest clean candidate when it is not the best (0: it is, or none):
  /// what the run reached without a runnable kernel, and how its check ended
  /// (empty: not checked).
  std::int64_t nearestId = 0;
  std::string nearestText, nearestOutcome, nearestDetail;
  double nearestDistance = -1, nearestProximity = 0;
  std::size_t checked = 0, passed = 0; ///< contenders checked in this part of the run, and of them passed
  std::string checkDevice;              ///< where contenders ran their quick check
  std::vector<std::uint64_t> confirmSizes; ///< and were then confirmed, on every device (SteerSpec::confirmSizes)
  std::uint64_t raceCheckSize = 0;         ///< and then run in Oclgrind (SteerSpec::raceCheckSize)
};

class BeamSearch {
public:
  /// Uses `workspace` (on this thread) and `sampler`, whose model must be
  /// the one a resumed run was started with.
  BeamSearch(store::Workspace& workspace, model::Sampler& sampler);

  std::function<void(const GenerationReport&)> onGeneration;
  std::function<void(const std::string&)> onMessage;

  /// Starts a run. Throws InputError for a bad spec (unknown space, a target
  /// of the wrong size, no seed that fits the model).
  SteerResult run(const SteerSpec& spec, const CancelToken* cancel = nullptr);
  /// Goes on with a stored run from its last complete generation. Throws
  /// InputError for an unknown or finished run, or another model.
  SteerResult resume(std::int64_t run, const CancelToken* cancel = nullptr);

private:
  struct Run; ///< one run in progress (BeamSearch.cpp)
  SteerResult go(std::int64_t run, const SteerSpec& spec, const CancelToken* cancel);
  /// go(), recording any failure in the run's status.
  SteerResult guarded(std::int64_t run, const SteerSpec& spec, const CancelToken* cancel);
  store::Workspace& ws_;
  model::Sampler& sampler_;
};

} // namespace steerbench::steer

// Active learning (docs/active-learning.md, BenchPress 3.4). Each epoch trains the
// committee on the workspace's labelled drive cases (Grewe F1 to F4 of the
// kernel at the case's transfer and local size; label: the fastest device),
// draws random points within the labelled data's bounds, and steers to the
// one of highest vote entropy (active) or to the first drawn (passive, for
// comparison); with a batch, to several points spread apart (batchPicks). The
// best kernel steered to is driven on this machine's devices; its labelled
// cases join the set, and the next epoch retrains.
// Every epoch's committee, entropy, point, target, steering run and new
// labels are stored.
#pragma once
#include "drive/host/Driver.h"
#include "explore/Committee.h"
#include "steer/BeamSearch.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace steerbench::model {
class Sampler;
}
namespace steerbench::store {
class Workspace;
}

namespace steerbench::explore {

/// The committee's training set from stored drive cases.
struct LabelledSet {
  std::vector<LabelledPoint> points; ///< x = F1..F4
  std::vector<std::string> labels;   ///< device names; a point's label indexes this
  /// Per point: comp, rational, mem, localmem, coalesced, atomic, transfer, wgsize.
  std::vector<std::vector<double>> raw;
};
/// PASS cases with a significant label (or any label with `includeAmbiguous`)
/// whose kernel has Grewe features.
[[nodiscard]] LabelledSet labelledCases(const store::Workspace& ws, bool includeAmbiguous);

/// F1..F4 of raw (comp, rational, mem, localmem, coalesced, atomic, transfer, wgsize).
[[nodiscard]] std::vector<double> greweF1toF4(const std::vector<double>& raw);

/// A random point of the labelled data's feature box, with the committee's vote entropy there.
struct ScoredPoint {
  std::vector<double> raw; ///< comp, rational, mem, localmem, coalesced, atomic, transfer, wgsize
  double entropy = 0;
};
/// How the six counts of a random point are drawn between the labelled set's
/// bounds. Uniform: the plain box, where a few large kernels (comp in the
/// thousands) put most points far from every kernel. LogUniform: uniform in
/// log(1 + count), the scale the committee standardises its inputs in, so
/// small and large kernels get their share of points.
enum class PointDraw { Uniform, LogUniform };
[[nodiscard]] const char* pointDrawName(PointDraw d);
/// "uniform" or "log-uniform"; throws InputError otherwise.
[[nodiscard]] PointDraw parsePointDraw(const std::string& name);

/// `points` random points within the bounds of `set`: counts as `draw` says
/// (rounded), transfer log-uniform, the work-group size one of those seen; in
/// draw order.
[[nodiscard]] std::vector<ScoredPoint> scoreRandomPoints(const Committee& committee, const LabelledSet& set,
                                                         int points, std::uint64_t seed,
                                                         PointDraw draw = PointDraw::LogUniform);
/// The Grewe steering target of a raw point: its counts, F2 and F4 derived.
[[nodiscard]] std::vector<double> greweTargetOf(const std::vector<double>& raw);

/// Batch active learning: `batch` of the scored points, spread apart. Active:
/// the most disputed point, then, again and again, the point among the most
/// disputed share (the top quarter by vote entropy, at least `batch` of them)
/// farthest from those chosen (in F1..F4, each scaled by its spread in the
/// labelled set), so a batch is not `batch` neighbours of one point.
/// Passive: the first `batch` drawn. Indexes into `scored`.
[[nodiscard]] std::vector<std::size_t> batchPicks(const std::vector<ScoredPoint>& scored, const LabelledSet& set,
                                                  int batch, bool active);

/// One point of an epoch steered to and labelled.
struct MemberOutcome {
  steer::SteerResult steered;
  std::size_t cases = 0, labelsAdded = 0;
};

/// Steers to `spec`'s target in `ws` and drives the best kernel as `drive`
/// says: what an epoch does for each of its points. Labels count when
/// significant (or with `includeAmbiguous`).
MemberOutcome steerAndLabel(store::Workspace& ws, model::Sampler& sampler, const steer::SteerSpec& spec,
                            const drive::DriveOptions& drive, bool includeAmbiguous, const CancelToken* cancel);

/// explore's steering settings before its options: steer's defaults, with
/// SteerSpec::newKernels on, so that each point labels a kernel the
/// workspace has not driven.
[[nodiscard]] inline steer::SteerSpec exploreSteering() {
  steer::SteerSpec s;
  s.newKernels = true;
  return s;
}

struct ExploreSpec {
  bool active = true;
  int epochs = 5;
  int batch = 1;      ///< points steered to per epoch (batchPicks)
  int points = 4096;  ///< random points scored per epoch
  PointDraw draw = PointDraw::LogUniform; ///< how they are drawn
  std::uint64_t seed = 1;
  bool includeAmbiguous = false;
  steer::SteerSpec steer = exploreSteering(); ///< everything but the target (set per epoch)
  drive::DriveOptions drive; ///< how the steered kernel is driven
  [[nodiscard]] std::string toJson() const;
};

struct EpochReport {
  int epoch = 0;
  int member = 0;                ///< which of the epoch's points
  std::size_t labelled = 0;
  double entropy = 0;            ///< at the chosen point
  std::vector<double> point;     ///< raw, as greweF1toF4 takes it
  steer::Target target;
  steer::SteerResult steered;
  std::size_t cases = 0, labelsAdded = 0;
};

class Explorer {
public:
  Explorer(store::Workspace& workspace, model::Sampler& sampler);
  std::function<void(const EpochReport&)> onEpoch;
  std::function<void(const std::string&)> onMessage;
  /// Steers and labels an epoch's points (one spec each, target and seed
  /// set), leaving their runs, kernels and drive cases in this explorer's
  /// workspace, and returns their outcomes in order (kernel and run ids of
  /// this workspace). Unset: one after the other here, with steerAndLabel.
  /// Set by a caller that spreads them over processes.
  std::function<std::vector<MemberOutcome>(const std::vector<steer::SteerSpec>&, const CancelToken*)> steerBatch;
  /// Runs the epochs; returns the run's id. Throws InputError when the
  /// workspace has too few labelled cases to train a committee (it says
  /// how to make some: drive kernels first).
  std::int64_t run(const ExploreSpec& spec, const CancelToken* cancel = nullptr);

private:
  store::Workspace& ws_;
  model::Sampler& sampler_;
};

} // namespace steerbench::explore

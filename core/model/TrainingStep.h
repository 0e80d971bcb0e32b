// The passes of one training step (torch side; Trainer.cpp holds them).
#pragma once

#include "model/Datapoints.h"
#include "model/InfillModel.h"

#include <cstdint>
#include <vector>

namespace steerbench::model {

/// The forward and backward passes of one step over `points`, adding to the
/// model's gradients (zeroing them and the optimizer's step are the
/// caller's). The points, sorted by length, go through the model in groups
/// of similar length (lengthGroups), each padded only to its own longest;
/// each group's mean loss is weighted by its share of the step's labels, so
/// the gradients are those of one batch padded to the longest point, without
/// the padding's cost: a few long kernels no longer make every short one pay
/// for their length.
///
/// In data-parallel training each rank passes its share of the step's points
/// and the labels of the whole step (`stepLabels`): its losses are weighted
/// by their share of those, so the ranks' gradients (and losses) sum to the
/// step's. 0: the points are the whole step.
struct StepPasses {
  double loss = 0;          ///< mean over all the step's labels (NaN without labels); a rank's share of it
  std::int64_t tokens = 0;  ///< positions run, padding included
  std::int64_t labels = 0;  ///< of these points
};
StepPasses backwardInGroups(InfillModel& model, std::vector<Datapoint> points, std::int64_t stepLabels = 0);

/// Sorts datapoints by input length, shortest first (stable).
void sortByLength(std::vector<Datapoint>& points);

} // namespace steerbench::model

// Which seeds a run with `auto` seeding starts from. Steering edits its seeds
// a few tokens at a time, so a run ends near where its seeds begin: where the
// corpus has a kernel near the target, its nearest kernels are the best
// start; where it has none, kernels the model writes for the target
// (generated seeds, a model trained with conditions) start nearer. The rule
// reads the nearest kernel's proximity from the workspace's stored vectors,
// before any seed is compiled, and the run records what it chose and why
// (SteerSpec::seedingWhy). docs/steering.md gives the threshold's measurement.
#pragma once
#include "steer/SteerSpec.h"
#include "store/Workspace.h"

#include <string>

namespace steerbench::steer {

struct SeedingChoice {
  Seeding seeding = Seeding::Nearest;
  std::string why; ///< one line for people, with the proximity it was read from
};

/// The rule on its inputs: generated seeds when the nearest corpus kernel's
/// relative proximity is below `generatedBelow` (NAN: the corpus has no
/// kernel to seed from), the target is in the Grewe space and the model can
/// be told a target (`conditioned`); else the nearest corpus kernels.
[[nodiscard]] SeedingChoice chooseSeeding(double nearestProximity, double generatedBelow, bool greweSpace,
                                          bool conditioned);

/// The relative proximity to the spec's target of the nearest workspace
/// kernel whose role is one of the spec's seed roles, by the vectors the
/// workspace stores (features::relativeProximity with the spec's scale);
/// NAN when there is none. Thread: the workspace's.
[[nodiscard]] double nearestCorpusProximity(const store::Workspace& ws, const SteerSpec& spec);

} // namespace steerbench::steer

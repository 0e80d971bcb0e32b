// Which corpus kernels seed a steering run, and in which order their drive
// checks go (SteerSpec::seedPackageShare). The kernels nearest a target often
// come from one package whose kernels share one way of failing the dynamic
// checks (a password cracker's kernels write only when a hash matches, so
// every one of them ends NO_OUTPUT). A cap on one package's share of the
// seeds leaves room for other packages' kernels, and checking the packages in
// turn reaches them before the run's time is gone.
#pragma once

#include "model/Datapoints.h"

#include <cstddef>
#include <string>
#include <vector>

namespace steerbench::steer {

/// The most seeds one package may give a run of `nearest` seeds: `share` of
/// them rounded up, at least 1; `nearest` itself when share is 1 or more.
[[nodiscard]] int seedsPerPackage(int nearest, double share);

/// Whether a kernel asks which work-item runs it (model/Datapoints.h).
using model::callsAWorkItemFunction;

/// The reason recorded for a corpus kernel that is no seed under SteerSpec::parallelSeeds.
constexpr const char* kOneWorkItem = "one-work-item";

/// The order in which seeds, given nearest first with their packages, are
/// checked: each package's nearest seed, in the order they come, then each
/// package's second, and so on. A seed with no package is its own package.
[[nodiscard]] std::vector<std::size_t> packageTurns(const std::vector<std::string>& packages);

} // namespace steerbench::steer

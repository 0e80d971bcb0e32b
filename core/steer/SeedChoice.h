// Which corpus kernels seed a steering run, and in which order their drive
// checks go (SteerSpec::seedPackageShare). The kernels nearest a target often
// come from one package whose kernels share one way of failing the dynamic
// checks (a password cracker's kernels write only when a hash matches, so
// every one of them ends NO_OUTPUT). A cap on one package's share of the
// seeds leaves room for other packages' kernels, and checking the packages in
// turn reaches them before the run's time is gone.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace steerbench::steer {

/// The most seeds one package may give a run of `nearest` seeds: `share` of
/// them rounded up, at least 1; `nearest` itself when share is 1 or more.
[[nodiscard]] int seedsPerPackage(int nearest, double share);

/// Whether `text` asks which work-item runs it (get_global_id, get_local_id,
/// get_group_id or a linear id). A kernel that does not has every work-item
/// do the same work and store the same values: it passes the dynamic checks
/// but is a poor benchmark. The corpus's conformance tests are written so
/// (30% of the default corpus), and an edit keeps it (SteerSpec::parallelSeeds).
[[nodiscard]] bool callsAWorkItemFunction(const std::string& text);

/// The reason recorded for a corpus kernel that is no seed under SteerSpec::parallelSeeds.
constexpr const char* kOneWorkItem = "one-work-item";

/// The order in which seeds, given nearest first with their packages, are
/// checked: each package's nearest seed, in the order they come, then each
/// package's second, and so on. A seed with no package is its own package.
[[nodiscard]] std::vector<std::size_t> packageTurns(const std::vector<std::string>& packages);

} // namespace steerbench::steer

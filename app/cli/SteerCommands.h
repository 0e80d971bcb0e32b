// The steering commands: `steer` (a beam search toward a target), `runs` and
// `lineage` (what runs did, from seed to best), and the search options that
// explore and campaign plan share.
#pragma once
#include "cli/CommandLine.h"

#include <cstdint>

namespace steerbench::steer {
struct SteerSpec;
}

namespace steerbench::cli {

/// The beam search's own options (shared by steer, explore and campaign plan),
/// and reading them into a spec whose target is set.
void addSearchOptions(CommandLine& cl);
void readSearchOptions(const CommandLine& cl, steer::SteerSpec& spec);

[[nodiscard]] CommandLine steerCommandLine();
int runSteer(const CommandLine& cl);
[[nodiscard]] CommandLine runsCommandLine();
int runRuns(const CommandLine& cl);
[[nodiscard]] CommandLine lineageCommandLine();
int runLineage(const CommandLine& cl);

} // namespace steerbench::cli

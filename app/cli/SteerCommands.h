// The steering commands: `steer` (a beam search toward a target), `runs` and
// `lineage` (what runs did, from seed to best).
#pragma once
#include "cli/CommandLine.h"

namespace steerbench::cli {

[[nodiscard]] CommandLine steerCommandLine();
int runSteer(const CommandLine& cl);
[[nodiscard]] CommandLine runsCommandLine();
int runRuns(const CommandLine& cl);
[[nodiscard]] CommandLine lineageCommandLine();
int runLineage(const CommandLine& cl);
[[nodiscard]] CommandLine exploreCommandLine();
int runExplore(const CommandLine& cl);

} // namespace steerbench::cli

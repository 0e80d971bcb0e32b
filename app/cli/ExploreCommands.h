// steerbench-cli explore: active learning, a point or a batch of points per
// epoch, on one process or spread over the ranks of an MPI job.
#pragma once
#include "cli/CommandLine.h"

namespace steerbench::cli {

[[nodiscard]] CommandLine exploreCommandLine();
int runExplore(const CommandLine& cl);

} // namespace steerbench::cli

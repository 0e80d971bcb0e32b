// The `train` command (its own file: it is the CLI's only libtorch user).
#pragma once

#include "cli/CommandLine.h"

namespace steerbench::cli {
[[nodiscard]] CommandLine trainCommandLine();
int runTrain(const CommandLine& cl);
} // namespace steerbench::cli

// The model's commands, `train` and `sample` (their own file: the CLI's only libtorch users).
#pragma once

#include "cli/CommandLine.h"

namespace steerbench::cli {
[[nodiscard]] CommandLine trainCommandLine();
int runTrain(const CommandLine& cl);
[[nodiscard]] CommandLine sampleCommandLine();
int runSample(const CommandLine& cl);
[[nodiscard]] CommandLine modelInfoCommandLine();
int runModelInfo(const CommandLine& cl);
[[nodiscard]] CommandLine modelExportCommandLine();
int runModelExport(const CommandLine& cl);
} // namespace steerbench::cli

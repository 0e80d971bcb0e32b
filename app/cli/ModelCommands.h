// The model's commands, `train` and `sample` (their own file: the CLI's only libtorch users).
#pragma once

#include "cli/CommandLine.h"
#include "model/Sampler.h"

#include <string>

namespace steerbench::cli {
/// The model a command uses: --checkpoint when given, else the workspace's
/// own, else the shipped default. Throws InputError saying how to get one.
[[nodiscard]] std::string checkpointFor(const CommandLine& cl, const std::string& workspace);

/// Loads the sampler and says on stderr which BLAS, threads and model it uses.
[[nodiscard]] model::Sampler loadSampler(const std::string& checkpoint, int threads);

[[nodiscard]] CommandLine trainCommandLine();
int runTrain(const CommandLine& cl);
[[nodiscard]] CommandLine sampleCommandLine();
int runSample(const CommandLine& cl);
[[nodiscard]] CommandLine modelInfoCommandLine();
int runModelInfo(const CommandLine& cl);
[[nodiscard]] CommandLine modelExportCommandLine();
int runModelExport(const CommandLine& cl);
} // namespace steerbench::cli

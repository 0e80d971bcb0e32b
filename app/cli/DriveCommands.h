// The drive commands: `devices`, `drive` and `export csv`.
#pragma once

#include "cli/CommandLine.h"

namespace steerbench::cli {
[[nodiscard]] CommandLine devicesCommandLine();
int runDevices(const CommandLine& cl);
[[nodiscard]] CommandLine driveCommandLine();
int runDrive(const CommandLine& cl);
[[nodiscard]] CommandLine exportCsvCommandLine();
int runExportCsv(const CommandLine& cl);
} // namespace steerbench::cli

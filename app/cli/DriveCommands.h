// The drive commands: `devices`, `drive` and `export csv`.
#pragma once

#include "cli/CommandLine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::cli {

/// The comma list of sizes in option `name` (0 allowed for local sizes). Throws UsageError.
[[nodiscard]] std::vector<std::uint64_t> sizeList(const CommandLine& cl, const std::string& name, bool allowZero);
[[nodiscard]] CommandLine devicesCommandLine();
int runDevices(const CommandLine& cl);
[[nodiscard]] CommandLine driveCommandLine();
int runDrive(const CommandLine& cl);
[[nodiscard]] CommandLine exportCsvCommandLine();
int runExportCsv(const CommandLine& cl);
} // namespace steerbench::cli

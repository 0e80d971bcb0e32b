// The CLI's subcommands: each builds its CommandLine and runs on the parsed values.
#pragma once

#include "cli/CommandLine.h"

#include <functional>
#include <string>
#include <vector>

namespace steerbench::cli {

struct Command {
  std::string name;
  std::string summary;
  std::function<CommandLine()> makeCommandLine;
  std::function<int(const CommandLine&)> run; ///< returns the exit status
};

[[nodiscard]] const std::vector<Command>& commands();

} // namespace steerbench::cli

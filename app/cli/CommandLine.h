// A small argument parser for the CLI's subcommands, with generated --help.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace steerbench::cli {

/// A usage mistake; the CLI prints it with a pointer to --help and exits 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;      ///< long name without dashes, e.g. "space"
  char shortName = 0;    ///< e.g. 'D' for -DNAME / -D NAME
  std::string valueName; ///< empty for a flag
  std::string help;
  bool repeatable = false;
  std::string defaultValue;
};

/// `text` as a number in [min, max]; a UsageError naming `what` (an
/// option such as "--guide") otherwise.
[[nodiscard]] double parseNumber(const std::string& text, const std::string& what, double min, double max);

/// Text escaped for roff (man pages).
[[nodiscard]] std::string roffEscape(const std::string& text);

class CommandLine {
public:
  CommandLine(std::string command, std::string summary, std::string positionalName, std::string description);

  CommandLine& option(OptionSpec spec);

  /// Parses args (without the program and command names). Throws UsageError.
  void parse(const std::vector<std::string>& args);

  [[nodiscard]] bool has(const std::string& name) const;
  [[nodiscard]] std::string value(const std::string& name) const; ///< last value, or the default
  [[nodiscard]] const std::vector<std::string>& values(const std::string& name) const;
  [[nodiscard]] const std::vector<std::string>& positionals() const { return positionals_; }
  [[nodiscard]] unsigned unsignedValue(const std::string& name, unsigned min, unsigned max) const;
  /// The option's value as a number in [min, max] (parseNumber).
  [[nodiscard]] double numberValue(const std::string& name, double min, double max) const;

  [[nodiscard]] std::string help() const;
  /// The command's man page (roff, section 1), named steerbench-cli-WORDS.
  /// Machine-specific defaults (the user's workspace path, the core count)
  /// are written as what they stand for.
  [[nodiscard]] std::string manPage(const std::string& version) const;
  [[nodiscard]] const std::string& command() const { return command_; }
  [[nodiscard]] const std::string& summary() const { return summary_; }

private:
  const OptionSpec& find(const std::string& longName) const;
  const OptionSpec* findShort(char c) const;

  std::string command_, summary_, positionalName_, description_;
  std::vector<OptionSpec> specs_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positionals_;
};

/// --seed, a whole number (a UsageError otherwise).
[[nodiscard]] std::uint64_t parseSeed(const CommandLine& cl);

} // namespace steerbench::cli

// steerbench-cli: the headless front end. Argument parsing and printing only;
// the work is done by the core engine.
#include "cli/CommandLine.h"
#include "cli/Commands.h"

#include "common/Version.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace steerbench::cli;

namespace {

void printOverview() {
  std::cout << "Usage: steerbench-cli [--version] [--help] COMMAND [options] [args]\n\n"
               "Steerbench generates OpenCL kernels steered toward target feature vectors.\n"
               "This is its headless command line; `steerbench-cli COMMAND --help` explains each command.\n\n"
               "Commands:\n";
  std::size_t column = 0; // the longest name, and two spaces before the summaries
  for (const auto& c : commands())
    column = std::max(column, c.name.size());
  for (const auto& c : commands()) {
    std::string name = "  " + c.name;
    name.resize(column + 4, ' ');
    std::cout << name << c.summary << "\n";
  }
  std::cout << "\nExit status: 0 on success, 1 when any input failed, 2 on a usage error.\n"
               "`steerbench-cli --man [COMMAND]` prints the man page of the CLI or of a command.\n";
}

std::string manName(const std::string& command) {
  std::string n = command;
  for (char& c : n)
    if (c == ' ') c = '-';
  return n;
}

/// steerbench-cli(1): what the CLI is, its commands, and where their pages are.
std::string overviewMan() {
  std::ostringstream out;
  out << ".TH STEERBENCH-CLI 1 \"\" \"steerbench " << steerbench::kAppVersion << "\" \"Steerbench\"\n"
            << ".SH NAME\nsteerbench\\-cli \\- generate OpenCL kernels steered toward target feature vectors\n"
            << ".SH SYNOPSIS\n.B steerbench\\-cli\n[\\-\\-version] [\\-\\-help] \\fICOMMAND\\fR [options] [args]\n"
            << ".SH DESCRIPTION\nSteerbench learns from real OpenCL code, generates new compiling kernels, steers them "
               "toward the feature vectors you choose, runs them on the machine's OpenCL devices and exports "
               "labelled datasets. This is its headless command line; the workbench is\n.BR steerbench (1).\n"
            << ".SH COMMANDS\n";
  for (const auto& c : commands())
    out << ".TP\n.B " << roffEscape(c.name) << "\n" << roffEscape(c.summary) << ". See\n.BR steerbench\\-cli\\-"
              << roffEscape(manName(c.name)) << " (1).\n";
  out << ".SH FILES\n.TP\n.I ~/.local/share/steerbench/default.sbw\nThe default workspace (an SQLite file; "
               "$XDG_DATA_HOME is honoured).\n.TP\n.I /usr/share/steerbench/models/default.ckpt\nThe default model.\n"
            << ".SH EXIT STATUS\n0 on success, 1 when any input failed, 2 on a usage error.\n"
            << ".SH SEE ALSO\n.BR steerbench (1)\n";
  return out.str();
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    if (args.size() >= 2 && args[0] == "help")
      args = {args[1], "--help"};
    else {
      printOverview();
      return args.empty() ? 2 : 0;
    }
  }
  if (args[0] == "--man-pages" && args.size() == 2) { // packaging: every page into a folder
    auto write = [&](const std::string& name, const std::string& text) {
      std::ofstream out(args[1] + "/" + name + ".1");
      out << text;
      return bool(out);
    };
    bool ok = write("steerbench-cli", overviewMan());
    for (const auto& c : commands())
      ok = write("steerbench-cli-" + manName(c.name), c.makeCommandLine().manPage(steerbench::kAppVersion)) && ok;
    if (!ok) std::cerr << "steerbench-cli: cannot write the man pages into " << args[1] << "\n";
    return ok ? 0 : 1;
  }
  if (args[0] == "--man") {
    if (args.size() == 1) {
      std::cout << overviewMan();
      return 0;
    }
    std::string wanted;
    for (std::size_t i = 1; i < args.size(); ++i)
      wanted += (i > 1 ? " " : "") + args[i];
    for (const auto& c : commands())
      if (c.name == wanted || manName(c.name) == wanted) {
        std::cout << c.makeCommandLine().manPage(steerbench::kAppVersion);
        return 0;
      }
    std::cerr << "steerbench-cli: no command '" << wanted << "' for --man. Try 'steerbench-cli --help'.\n";
    return 2;
  }
  if (args[0] == "--version") {
    std::cout << "steerbench-cli " << steerbench::kAppVersion << " (LLVM/Clang " << steerbench::kLlvmVersion << ")\n";
    return 0;
  }
  for (const auto& c : commands()) {
    // Two-word commands ("corpus ingest") take two arguments.
    const bool twoWords = c.name.find(' ') != std::string::npos;
    const std::size_t words = twoWords ? 2 : 1;
    if (args.size() < words || c.name != (twoWords ? args[0] + " " + args[1] : args[0])) continue;
    CommandLine cl = c.makeCommandLine();
    try {
      cl.parse({args.begin() + long(words), args.end()});
      if (cl.has("help")) {
        std::cout << cl.help();
        return 0;
      }
      return c.run(cl);
    } catch (const UsageError& e) {
      std::cerr << "steerbench-cli " << c.name << ": " << e.what() << "\n"
                << "Try 'steerbench-cli " << c.name << " --help'.\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "steerbench-cli " << c.name << ": " << e.what() << "\n";
      return 1;
    }
  }
  for (const auto& c : commands())
    if (c.name.rfind(args[0] + " ", 0) == 0) {
      std::cerr << "steerbench-cli " << args[0] << ": give a subcommand:";
      for (const auto& d : commands())
        if (d.name.rfind(args[0] + " ", 0) == 0) std::cerr << " '" << d.name.substr(args[0].size() + 1) << "'";
      std::cerr << ". Try 'steerbench-cli --help'.\n";
      return 2;
    }
  std::cerr << "steerbench-cli: unknown command '" << args[0] << "'. Try 'steerbench-cli --help'.\n";
  return 2;
}

#include "cli/CommandLine.h"

#include "common/Paths.h"
#include "common/TextFormat.h"

#include <cctype>
#include <cstdlib>

namespace steerbench::cli {

CommandLine::CommandLine(std::string command, std::string summary, std::string positionalName, std::string description)
    : command_(std::move(command)), summary_(std::move(summary)), positionalName_(std::move(positionalName)),
      description_(std::move(description)) {
  option({"help", 'h', "", "show this help and exit"});
}

CommandLine& CommandLine::option(OptionSpec spec) {
  specs_.push_back(std::move(spec));
  return *this;
}

const OptionSpec& CommandLine::find(const std::string& longName) const {
  for (const auto& s : specs_)
    if (s.name == longName) return s;
  throw UsageError("unknown option --" + longName + " for '" + command_ + "'");
}

const OptionSpec* CommandLine::findShort(char c) const {
  for (const auto& s : specs_)
    if (s.shortName == c) return &s;
  return nullptr;
}

void CommandLine::parse(const std::vector<std::string>& args) {
  bool onlyPositionals = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (onlyPositionals || a.size() < 2 || a[0] != '-') {
      positionals_.push_back(a);
      continue;
    }
    if (a == "--") {
      onlyPositionals = true;
      continue;
    }
    const OptionSpec* spec = nullptr;
    std::string inlineValue;
    bool hasInline = false;
    if (a[1] == '-') {
      std::string name = a.substr(2);
      if (auto eq = name.find('='); eq != std::string::npos) {
        inlineValue = name.substr(eq + 1);
        name = name.substr(0, eq);
        hasInline = true;
      }
      spec = &find(name);
    } else {
      spec = findShort(a[1]);
      if (!spec) throw UsageError("unknown option " + a.substr(0, 2) + " for '" + command_ + "'");
      if (a.size() > 2) {
        inlineValue = a.substr(2);
        hasInline = true;
      }
    }
    auto& slot = values_[spec->name];
    if (!slot.empty() && !spec->repeatable && spec->valueName.empty())
      throw UsageError("--" + spec->name + " given twice");
    if (spec->valueName.empty()) {
      if (hasInline) throw UsageError("--" + spec->name + " takes no value");
      slot.push_back("1");
      continue;
    }
    if (hasInline) {
      slot.push_back(inlineValue);
    } else {
      if (i + 1 >= args.size()) throw UsageError("--" + spec->name + " needs a value (" + spec->valueName + ")");
      slot.push_back(args[++i]);
    }
  }
}

bool CommandLine::has(const std::string& name) const {
  auto it = values_.find(name);
  return it != values_.end() && !it->second.empty();
}

std::string CommandLine::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it != values_.end() && !it->second.empty()) return it->second.back();
  return find(name).defaultValue;
}

const std::vector<std::string>& CommandLine::values(const std::string& name) const {
  static const std::vector<std::string> none;
  auto it = values_.find(name);
  return it == values_.end() ? none : it->second;
}

unsigned CommandLine::unsignedValue(const std::string& name, unsigned min, unsigned max) const {
  const std::string v = value(name);
  char* end = nullptr;
  const unsigned long n = std::strtoul(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || v[0] == '-' || n < min || n > max)
    throw UsageError("--" + name + " must be a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", not '" + v + "'");
  return static_cast<unsigned>(n);
}

double parseNumber(const std::string& text, const std::string& what, double min, double max) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !(v >= min && v <= max))
    throw UsageError(what + ": expected a number in [" + formatNumber(min) + ", " + formatNumber(max) + "], got \"" +
                     text + "\"");
  return v;
}

std::uint64_t parseSeed(const CommandLine& cl) {
  const auto t = cl.value("seed");
  if (t.empty() || t.size() > 19 || t.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError("--seed: expected a whole number from 0 to 9999999999999999999, got \"" + t + "\"");
  return std::stoull(t);
}

double CommandLine::numberValue(const std::string& name, double min, double max) const {
  return parseNumber(value(name), "--" + name, min, max);
}

std::string CommandLine::help() const {
  std::string h = "Usage: steerbench-cli " + command_ + " [options]";
  if (!positionalName_.empty()) h += " " + positionalName_;
  h += "\n\n" + summary_ + "\n";
  if (!description_.empty()) h += "\n" + description_ + "\n";
  h += "\nOptions:\n";
  for (const auto& s : specs_) {
    std::string left = "  ";
    if (s.shortName)
      left += std::string("-") + s.shortName + ", ";
    else
      left += "    ";
    left += "--" + s.name;
    if (!s.valueName.empty()) left += " " + s.valueName;
    if (left.size() < 30)
      left.resize(30, ' ');
    else
      left += "\n" + std::string(30, ' ');
    h += left + s.help;
    if (!s.defaultValue.empty()) h += " (default: " + s.defaultValue + ")";
    if (s.repeatable) h += " [repeatable]";
    h += "\n";
  }
  return h;
}

std::string roffEscape(const std::string& text) { // for man pages: backslashes, dashes, leading dots
  std::string out;
  bool lineStart = true;
  for (const char c : text) {
    if (lineStart && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
    lineStart = c == '\n';
  }
  return out;
}

std::string CommandLine::manPage(const std::string& version) const {
  std::string page = command_;
  for (char& c : page)
    if (c == ' ') c = '-';
  std::string upper = "STEERBENCH-CLI-" + page;
  for (char& c : upper)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  std::string m = ".TH " + upper + " 1 \"\" \"steerbench " + version + "\" \"Steerbench\"\n";
  m += ".SH NAME\nsteerbench\\-cli\\-" + roffEscape(page) + " \\- " + roffEscape(summary_) + "\n";
  m += ".SH SYNOPSIS\n.B steerbench\\-cli " + roffEscape(command_) + "\n[options]";
  if (!positionalName_.empty()) m += " " + roffEscape(positionalName_);
  m += "\n.SH DESCRIPTION\n" + roffEscape(summary_) + "\n";
  if (!description_.empty()) {
    m += ".PP\n.nf\n" + roffEscape(description_) + "\n.fi\n";
  }
  m += ".SH OPTIONS\n";
  const std::string workspace = defaultWorkspacePath();
  for (const auto& s : specs_) {
    m += ".TP\n.B ";
    if (s.shortName) m += std::string("\\-") + s.shortName + ", ";
    m += "\\-\\-" + roffEscape(s.name);
    if (!s.valueName.empty()) m += " \\fI" + roffEscape(s.valueName) + "\\fR";
    m += "\n" + roffEscape(s.help);
    std::string def = s.defaultValue;
    if (!def.empty() && def == workspace) def = "$XDG_DATA_HOME/steerbench/default.sbw, or ~/.local/share/steerbench/default.sbw";
    else if (s.name == "jobs" && !def.empty()) def = "the number of cores";
    if (!def.empty()) m += " (default: " + roffEscape(def) + ")";
    if (s.repeatable) m += " [repeatable]";
    m += "\n";
  }
  m += ".SH EXIT STATUS\n0 on success, 1 when any input failed, 2 on a usage error.\n";
  m += ".SH SEE ALSO\n.BR steerbench\\-cli (1),\n.BR steerbench (1)\n";
  return m;
}

} // namespace steerbench::cli

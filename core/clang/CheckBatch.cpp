#include "clang/CheckBatch.h"

#include "clang/OpenCLFrontend.h"

#include <algorithm>
#include <cctype>

namespace steerbench::clangfe {

namespace {

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

/// The offset of the bracket that closes the one at `open`, or npos.
std::size_t matching(const std::string& s, std::size_t open, char o, char c) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++depth;
    else if (s[i] == c && --depth == 0) return i;
  }
  return std::string::npos;
}

/// What the k-th text's kernel name gets appended in a shared unit.
std::string renamedSuffix(std::size_t k) { return "__sb_check_" + std::to_string(k); }

} // namespace

std::optional<KernelName> batchableKernel(const std::string& s) {
  if (s.find_first_of("#\"'\\") != std::string::npos || s.find("/*") != std::string::npos ||
      s.find("//") != std::string::npos)
    return std::nullopt;
  std::size_t first = 0;
  while (first < s.size() && isSpace(s[first])) ++first;
  const bool kernel = s.compare(first, 7, "kernel ") == 0 || s.compare(first, 9, "__kernel ") == 0;
  const std::size_t open = s.find('(');
  if (!kernel || open == std::string::npos || s.find_first_of(";{}", first) < open) return std::nullopt;
  std::size_t end = open;
  while (end > first && isSpace(s[end - 1])) --end;
  std::size_t begin = end;
  while (begin > first && isWordChar(s[begin - 1])) --begin;
  if (begin == end || std::isdigit(static_cast<unsigned char>(s[begin])) != 0 ||
      s.compare(begin, end - begin, "__attribute__") == 0)
    return std::nullopt;
  const std::size_t close = matching(s, open, '(', ')');
  if (close == std::string::npos) return std::nullopt;
  std::size_t body = close + 1;
  while (body < s.size() && isSpace(s[body])) ++body;
  if (body >= s.size() || s[body] != '{') return std::nullopt;
  const std::size_t bodyEnd = matching(s, body, '{', '}');
  if (bodyEnd == std::string::npos) return std::nullopt;
  for (std::size_t i = bodyEnd + 1; i < s.size(); ++i)
    if (!isSpace(s[i])) return std::nullopt;
  // A kernel that names itself (a call of itself) would read another name.
  const std::string name = s.substr(begin, end - begin);
  for (std::size_t at = s.find(name, end); at != std::string::npos; at = s.find(name, at + 1))
    if (!isWordChar(s[at - 1]) && (at + name.size() >= s.size() || !isWordChar(s[at + name.size()]))) return std::nullopt;
  return KernelName{begin, end - begin};
}

std::vector<std::size_t> firstErrorOffsets(const std::vector<std::string>& sources,
                                           const std::vector<std::string>& warnings, std::size_t batch) {
  std::vector<std::size_t> out(sources.size(), std::string::npos);
  std::vector<char> alone(sources.size(), 1);
  std::vector<std::size_t> batchable;
  std::vector<KernelName> names;
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (const auto name = batchableKernel(sources[i])) {
      batchable.push_back(i);
      names.push_back(*name);
    }
  batch = std::max<std::size_t>(batch, 2);
  // Rounds over the batchable texts not yet judged, from `from` on.
  for (std::size_t from = 0; from + 1 < batchable.size();) {
    const std::size_t to = std::min(batchable.size(), from + batch);
    // One unit: each text on lines of its own, its kernel renamed so that
    // no two share a name; firstLine[k] is text from + k's first line (from 1).
    CompileRequest req;
    req.fileName = "check.cl";
    req.emitIR = false;
    req.options.warnings = warnings;
    req.options.errorLimit = 0;
    req.options.maxDiagnostics = 4096;
    std::vector<unsigned> firstLine;
    unsigned line = 1;
    for (std::size_t k = from; k < to; ++k) {
      const std::string& s = sources[batchable[k]];
      const KernelName& n = names[k];
      firstLine.push_back(line);
      req.source.append(s, 0, n.at + n.length);
      req.source += renamedSuffix(k - from);
      req.source.append(s, n.at + n.length);
      req.source += '\n';
      line += unsigned(std::count(s.begin(), s.end(), '\n')) + 1;
    }
    const CompileResult result = compile(req);
    // The first text with an error. The texts before it were compiled as
    // they would be alone: after the renamed kernels of texts without
    // errors, with no error yet; so was the text in error up to its first
    // error. From there on the unit no longer speaks for a text: the
    // parser's recovery can swallow the next text's tokens, and Clang skips
    // some analyses (uninitialized values, unreachable code) once an error
    // has occurred. So the texts after it go on to another round.
    std::size_t firstInError = to - from;
    const Diagnostic* firstError = nullptr; // the first reported on that text's lines
    bool attributed = !result.crashed() && result.diagnostics().size() < req.options.maxDiagnostics;
    for (const auto& d : result.diagnostics()) {
      if (d.severity != Severity::Error && d.severity != Severity::Fatal) continue;
      if (d.file != req.fileName || d.line == 0 || d.line >= line || d.severity == Severity::Fatal) {
        attributed = false;
        break;
      }
      const auto text = std::size_t(std::upper_bound(firstLine.begin(), firstLine.end(), d.line) - firstLine.begin()) - 1;
      if (text < firstInError) {
        firstInError = text;
        firstError = &d;
      }
    }
    if (!attributed || (!firstError && !result.succeeded())) break; // these and the rest alone
    for (std::size_t k = from; k < from + firstInError; ++k)
      alone[batchable[k]] = 0;
    if (!firstError) { // every text of the round is judged
      from = to;
      continue;
    }
    // The text in error: its first error's offset, in its own text.
    const std::size_t k = from + firstInError;
    const std::string& s = sources[batchable[k]];
    std::size_t offset = 0;
    for (unsigned l = firstLine[firstInError]; l < firstError->line; ++l)
      offset = s.find('\n', offset) + 1;
    offset += firstError->column > 0 ? firstError->column - 1 : 0;
    const std::size_t nameEnd = names[k].at + names[k].length,
                      renamed = renamedSuffix(firstInError).size();
    if (offset >= nameEnd) offset = offset >= nameEnd + renamed ? offset - renamed : nameEnd;
    out[batchable[k]] = std::min(s.size(), offset);
    alone[batchable[k]] = 0;
    from = k + 1;
  }
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (alone[i]) out[i] = firstErrorOffsetWith(sources[i], warnings);
  return out;
}

} // namespace steerbench::clangfe

#include "steer/HoleSites.h"

#include "model/SyntaxGuard.h"
#include "model/Tokenizer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace steerbench::steer {

namespace {

/// A lexeme: one word token, or a run of spelled characters.
struct Lexeme {
  std::string text;
  std::int64_t at = 0; ///< index of its first token
};

std::vector<Lexeme> lexemes(const model::Tokenizer& tok, const std::vector<int>& ids) {
  std::vector<Lexeme> out;
  bool inSpelled = false;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const int id = ids[i];
    if (id < model::Tokenizer::kMetaCount || id >= tok.size()) {
      inSpelled = false; // [SPACE] ends a spelled unit; other meta tokens are not code
      continue;
    }
    if (tok.isChar(id)) {
      if (!inSpelled) out.push_back({"", std::int64_t(i)});
      out.back().text += tok.text(id);
      inSpelled = true;
      continue;
    }
    inSpelled = false;
    const auto& t = tok.text(id);
    if (t == "\n") continue;
    out.push_back({t, std::int64_t(i)});
  }
  return out;
}

bool isIdentifier(const std::string& s) {
  return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_');
}

/// OpenCL C's scalar and vector type names, and declaration qualifiers.
bool isTypeWord(const std::string& s) {
  static const std::set<std::string> qualifiers = {"void", "const", "restrict", "volatile", "struct", "union", "enum",
                                                   "__global", "global", "__local", "local", "__constant", "constant",
                                                   "__private", "private"};
  if (qualifiers.count(s) || model::scalarTypes().count(s)) return true;
  std::size_t digits = s.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(s[digits - 1])))
    --digits;
  return digits < s.size() && model::scalarTypes().count(s.substr(0, digits)); // float4, uchar16, ...
}

/// Whether `+ - * &` after `previous` is binary: it follows a value (a name
/// that is not a type, a number, `)` or `]`), not a type (a pointer
/// declarator) or an operator (unary minus, a dereference, an address).
bool followsValue(const std::string& previous) {
  if (previous == ")" || previous == "]") return true;
  if (previous.empty()) return false;
  const auto c = static_cast<unsigned char>(previous[0]);
  if (std::isdigit(c) || c == '.') return true;
  return isIdentifier(previous) && !isTypeWord(previous) && previous != "return";
}

// Grewe's dimensions, in the space's order.
enum { kComp, kRational, kMem, kLocalMem, kCoalesced, kAtomic, kGreweCounts };

const std::set<std::string>& compOperators() {
  static const std::set<std::string> s = {"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<<=", ">>="};
  return s;
}
const std::set<std::string>& comparisons() {
  static const std::set<std::string> s = {"<", ">", "<=", ">=", "==", "!="};
  return s;
}
bool isAtomicName(const std::string& t) { return t.rfind("atomic_", 0) == 0 || t.rfind("atom_", 0) == 0; }

/// The names a kernel declares __global or __local: the last identifier
/// before the declarator ends (`,` `)` `;` `=` `[`); `declared` gets the
/// lexemes that declare them (not uses). A __global name declared inside a
/// body (`global float* row = a + i;`) is a variable, not a parameter: the
/// extractor counts its subscripts as coalesced but its uses not as mem.
struct PointerNames {
  std::set<std::string> global, globalVariables, local;
  std::set<std::size_t> declared;
};

PointerNames pointerNames(const std::vector<Lexeme>& lx) {
  PointerNames p;
  int depth = 0; // of braces: 0 in a parameter list
  for (std::size_t i = 0; i < lx.size(); ++i) {
    const auto& q = lx[i].text;
    if (q == "{") ++depth;
    if (q == "}" && depth > 0) --depth;
    const bool isGlobal = q == "__global" || q == "global";
    if (!isGlobal && q != "__local" && q != "local") continue;
    std::size_t name = lx.size();
    for (std::size_t j = i + 1; j < lx.size(); ++j) {
      const auto& t = lx[j].text;
      if (t == "," || t == ")" || t == ";" || t == "=" || t == "[") break;
      if (isIdentifier(t) && !isTypeWord(t)) name = j; // a cast `(global float*)` declares nothing
    }
    if (name == lx.size()) continue;
    (isGlobal ? (depth > 0 ? p.globalVariables : p.global) : p.local).insert(lx[name].text);
    p.declared.insert(name);
  }
  for (const auto& n : p.global)
    p.globalVariables.erase(n); // a parameter somewhere: its uses count
  return p;
}

HoleSites greweSites(const std::vector<Lexeme>& lx) {
  static const std::set<std::string> math = {"exp", "log", "sqrt"};
  HoleSites s;
  s.byDimension.assign(kGreweCounts + 2, {}); // comp .. atomic, then F2 and F4, which follow from the counts
  const auto [global, globalVariables, local, declared] = pointerNames(lx);
  for (std::size_t i = 0; i < lx.size(); ++i) {
    const auto& t = lx[i].text;
    const auto at = lx[i].at;
    const bool maybeUnary = t == "+" || t == "-" || t == "*" || t == "&";
    if ((compOperators().count(t) || math.count(t)) && (!maybeUnary || (i > 0 && followsValue(lx[i - 1].text))))
      s.byDimension[kComp].push_back(at);
    if (comparisons().count(t)) s.byDimension[kRational].push_back(at);
    if (isAtomicName(t)) s.byDimension[kAtomic].push_back(at);
    if (declared.count(i)) continue;
    const bool subscript = i + 1 < lx.size() && lx[i + 1].text == "[";
    // As the extractor reads them: mem counts uses of __global parameters
    // and __local names; subscripts count as coalesced on a __global name
    // (a parameter or a variable), as localmem on a __local one.
    if (global.count(t)) {
      s.byDimension[kMem].push_back(at);
      if (subscript) s.byDimension[kCoalesced].push_back(at);
    } else if (globalVariables.count(t)) {
      if (subscript) s.byDimension[kCoalesced].push_back(at);
    } else if (local.count(t)) {
      s.byDimension[kMem].push_back(at);
      if (subscript) s.byDimension[kLocalMem].push_back(at);
    }
  }
  return s;
}

} // namespace

HoleSites holeSites(const std::string& space, const model::Tokenizer& tok, const std::vector<int>& ids) {
  if (space == "grewe") return greweSites(lexemes(tok, ids));
  return {};
}

std::vector<std::vector<int>> vocabularyTokens(const std::string& space, const model::Tokenizer& tok) {
  if (space != "grewe") return {};
  std::vector<std::vector<int>> out(kGreweCounts + 2); // F2 and F4 have no tokens of their own
  for (int id = model::Tokenizer::kMetaCount; id < tok.size(); ++id) {
    if (tok.isChar(id)) continue;
    const auto& t = tok.text(id);
    if (compOperators().count(t)) out[kComp].push_back(id);
    if (comparisons().count(t)) out[kRational].push_back(id);
    if (isAtomicName(t)) out[kAtomic].push_back(id);
  }
  return out;
}

std::vector<std::vector<int>> dimensionTokens(std::vector<std::vector<int>> vocabulary, const model::Tokenizer& tok,
                                              const std::vector<int>& ids) {
  if (vocabulary.empty()) return vocabulary;
  const PointerNames names = pointerNames(lexemes(tok, ids));
  auto add = [&](const std::set<std::string>& set, std::initializer_list<int> dims) {
    for (const auto& name : set) {
      const auto e = tok.encode(name);
      if (e.size() != 1 || tok.isChar(e[0])) continue; // spelled: no token to lean on
      for (int d : dims)
        vocabulary[std::size_t(d)].push_back(e[0]);
    }
  };
  add(names.global, {kMem, kCoalesced});
  add(names.globalVariables, {kCoalesced}); // a subscript without a use of a parameter
  add(names.local, {kMem, kLocalMem});
  return vocabulary;
}

std::vector<std::vector<int>> dimensionTokens(const std::string& space, const model::Tokenizer& tok,
                                              const std::vector<int>& ids) {
  return dimensionTokens(vocabularyTokens(space, tok), tok, ids);
}

std::vector<std::pair<int, float>> guideBias(const std::vector<std::vector<int>>& tokens,
                                             const std::vector<double>& values, const std::vector<double>& target,
                                             double strength) {
  std::map<int, double> bias;
  const std::size_t dims = std::min({tokens.size(), values.size(), target.size()});
  for (std::size_t d = 0; d < dims; ++d) {
    if (values[d] == target[d]) continue;
    const double b = values[d] < target[d] ? strength : -strength;
    for (int id : tokens[d])
      bias[id] += b;
  }
  std::vector<std::pair<int, float>> out;
  for (const auto& [id, b] : bias)
    if (b != 0) out.emplace_back(id, float(b));
  return out;
}

bool directedHole(const HoleSites& sites, const std::vector<double>& values, const std::vector<double>& target,
                  const std::vector<double>& scale, std::int64_t n, std::int64_t holeMin, std::int64_t holeMax,
                  std::mt19937_64& rng, Hole& out, bool renames) {
  const std::size_t dims = std::min({sites.byDimension.size(), values.size(), target.size()});
  std::vector<double> weight(dims, 0.0);
  double total = 0;
  for (std::size_t d = 0; d < dims; ++d) {
    const double diff = (values[d] - target[d]) * (d < scale.size() ? scale[d] : 1.0);
    if (diff > 0 && sites.byDimension[d].empty()) continue; // nothing to take away
    // F2 and F4 (ratios of the counts) have no sites of their own: the counts move them.
    if (diff < 0 && sites.byDimension[d].empty() && d >= kGreweCounts) continue;
    weight[d] = std::fabs(diff);
    total += weight[d];
  }
  if (!(total > 0) || n <= 0) return false;
  const std::size_t d = std::discrete_distribution<std::size_t>(weight.begin(), weight.end())(rng);
  const auto& at = sites.byDimension[d];
  const bool tooMuch = values[d] > target[d];
  auto uniform = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  if (tooMuch) {
    const std::int64_t site = at[std::size_t(uniform(0, std::int64_t(at.size()) - 1))];
    const std::int64_t len = uniform(std::max<std::int64_t>(1, holeMin), std::max<std::int64_t>(1, holeMax));
    out.start = std::max<std::int64_t>(0, site - uniform(0, len - 1));
    out.length = std::min(len, n - out.start);
    return true;
  }
  if (renames && (d == kLocalMem || d == kCoalesced)) { // a name of the other count's subscripts, half the time
    const auto& other = sites.byDimension[d == kLocalMem ? kCoalesced : kLocalMem];
    if (uniform(0, 1) == 1 && !other.empty()) {
      out.start = other[std::size_t(uniform(0, std::int64_t(other.size()) - 1))];
      out.length = 1;
      return true;
    }
  }
  out.start = at.empty() ? uniform(0, n) : std::clamp<std::int64_t>(at[std::size_t(uniform(0, std::int64_t(at.size()) - 1))] + uniform(-2, 2), 0, n);
  out.length = std::min(uniform(holeMin, std::max(holeMin, holeMax)), n - out.start);
  return true;
}

} // namespace steerbench::steer

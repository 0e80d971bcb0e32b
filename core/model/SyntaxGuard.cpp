#include "model/SyntaxGuard.h"

#include "model/BuiltinSignatures.h"
#include "model/Tokenizer.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <string>

namespace steerbench::model {

namespace {

bool isRewrittenName(const std::string& w) {
  // sequenceName(): a..z, aa..zz (and A..Z, AA..ZZ for functions). Longer
  // ones only come after 702 declarations in one kernel.
  if (w.empty() || w.size() > 2) return false;
  const bool lower = std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  const bool upper = std::all_of(w.begin(), w.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  return (lower || upper) && w != "do" && w != "if";
}

/// Words after which a name is used, not declared.
const std::set<std::string>& notDeclarers() {
  static const std::set<std::string> s = {"return", "if",      "else",  "case",  "sizeof", "do",   "while",
                                          "for",    "switch",  "goto",  "break", "continue", "default", "true",
                                          "false",  "typedef"};
  return s;
}

} // namespace

const std::set<std::string>& scalarTypes() {
  static const std::set<std::string> s = {"char",  "uchar",     "short",    "ushort",    "int",      "uint",
                                          "long",  "ulong",     "float",    "double",    "half",     "bool",
                                          "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "unsigned", "signed"};
  return s;
}

SyntaxGuard::SyntaxGuard(const Tokenizer& tok, const BuiltinSignatures* builtins, bool types)
    : vocab_(tok.size()), types_(types) {
  kind_.assign(std::size_t(vocab_), Other);
  vectorWidth_.assign(std::size_t(vocab_), 0);
  number_.assign(std::size_t(vocab_), 0);
  builtin_.assign(std::size_t(vocab_), -1);
  arithmetic_.assign(std::size_t(vocab_), 0);
  qualifier_.assign(std::size_t(vocab_), 0);
  lowerName_.assign(std::size_t(vocab_), 0);
  scalarType_.assign(std::size_t(vocab_), 0);
  partner_.assign(std::size_t(vocab_), -1);
  constWord_.assign(std::size_t(vocab_), 0);
  floatType_.assign(std::size_t(vocab_), 0);
  int open[3] = {-1, -1, -1}, close[3] = {-1, -1, -1};
  const std::string opens = "([{", closes = ")]}";
  kind_[Tokenizer::kHole] = Hole;
  for (int v = Tokenizer::kMetaCount; v < vocab_; ++v) {
    const std::string& t = tok.text(v);
    if (tok.isChar(v)) {
      // The last character of a spelled name (perhaps a type's).
      const unsigned char c = static_cast<unsigned char>(t[0]);
      if (std::isalnum(c) || c == '_') kind_[std::size_t(v)] = Declarer;
      continue;
    }
    if (t == ";") semi_ = v;
    if (t == "&") ampersand_ = v;
    if (t == "~") tilde_ = v;
    if (t == "const" || t == "__const" || t == "constant" || t == "__constant") constWord_[std::size_t(v)] = 1;
    for (const char* w : {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--"})
      if (t == w) assignments_.push_back(v);
    for (const char* w : {"%", "<<", ">>", "&", "|", "^", "%=", "<<=", ">>=", "&=", "|=", "^="})
      if (t == w) integerOperators_.push_back(v);
    for (const char* w : {"*", "/", "*=", "/="})
      if (t == w) multiplicative_.push_back(v);
    for (const char* w : {"<", ">", "<=", ">=", "==", "!=", "&&", "||", "?"})
      if (t == w) tests_.push_back(v);
    if (t == "!") not_ = v;
    for (const char* w : {"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "<", ">", "<=", ">=", "==",
                          "!=", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "?", "!", "~"})
      if (t == w) operators_.push_back(v);
    if (t == "++" || t == "--") increments_.push_back(v);
    if (t == "+" || t == "-") arithmetic_[std::size_t(v)] = 1;
    for (const char* w : {"const", "__const", "volatile", "__volatile", "restrict", "__restrict"})
      if (t == w) qualifier_[std::size_t(v)] = 1;
    for (const char* w : {"*", "/", "%", "<<", ">>", "&", "|", "^"})
      if (t == w) arithmetic_[std::size_t(v)] = 2;
    for (const char* w : {"float", "double", "half"}) {
      const std::size_t n = std::strlen(w);
      if (t.compare(0, n, w) == 0 && (t.size() == n || t.find_first_not_of("0123456789", n) == std::string::npos))
        floatType_[std::size_t(v)] = 1;
    }
    if (std::isdigit(static_cast<unsigned char>(t[0])) || (t.size() > 1 && t[0] == '.' && std::isdigit(static_cast<unsigned char>(t[1])))) {
      const bool hex = t.size() > 1 && (t[1] == 'x' || t[1] == 'X');
      if (!hex && t.find_first_of(".eEfF") != std::string::npos) floatLiterals_.push_back(v);
    }
    if (t == ",") comma_ = v;
    if (t == "=") assign_ = v;
    if (t == "for") for_ = v;
    if ((std::isdigit(static_cast<unsigned char>(t[0])) ||
        (t.size() > 1 && t[0] == '.' && std::isdigit(static_cast<unsigned char>(t[1]))))) {
      // An integer 0 (0, 0u, 0x0) is a null pointer constant as well as a number.
      const bool zero = t.find_first_not_of("0xXuUlL.fF") == std::string::npos;
      number_[std::size_t(v)] = zero ? 2 : 1;
    }
    for (const char* w : {"16", "2", "3", "4", "8"}) {
      const std::size_t n = std::strlen(w);
      if (t.size() > n && t.compare(t.size() - n, n, w) == 0 && scalarTypes().count(t.substr(0, t.size() - n)) &&
          t.substr(0, t.size() - n) != "size_t") {
        vectorWidth_[std::size_t(v)] = std::uint8_t(std::atoi(w));
        break;
      }
    }
    if (builtins) {
      const auto it = builtins->overloads.find(t);
      if (it != builtins->overloads.end()) {
        builtin_[std::size_t(v)] = int(calls_.size());
        calls_.push_back(it->second);
      }
    }
    if (t == "do") do_ = v;
    if (t == "#") hash_ = v;
    if (t == "else") else_ = v;
    if (t.size() == 1 && opens.find(t[0]) != std::string::npos) {
      kind_[std::size_t(v)] = Open;
      open[opens.find(t[0])] = v;
    } else if (t.size() == 1 && closes.find(t[0]) != std::string::npos) {
      kind_[std::size_t(v)] = Close;
      close[closes.find(t[0])] = v;
    } else if (t == "*") {
      kind_[std::size_t(v)] = Star;
    } else if (t == "." || t == "->") {
      kind_[std::size_t(v)] = Member;
      (t == "." ? dot_ : arrow_) = v;
    } else if (isRewrittenName(t)) {
      kind_[std::size_t(v)] = Name;
      names_.push_back(v);
      lowerName_[std::size_t(v)] = t[0] >= 'a' && t[0] <= 'z';
    } else if ((std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_') && !notDeclarers().count(t)) {
      kind_[std::size_t(v)] = Declarer;
      scalarType_[std::size_t(v)] = scalarTypes().count(t) > 0;
    }
  }
  paren_ = open[0];
  bracket_ = open[1];
  brace_ = open[2];
  closeParen_ = close[0];
  closeBrace_ = close[2];
  for (int i = 0; i < 3; ++i)
    if (open[i] >= 0 && close[i] >= 0) {
      partner_[std::size_t(open[i])] = close[i];
      partner_[std::size_t(close[i])] = open[i];
      closes_.push_back(close[i]);
    } else {
      // A vocabulary without both of a pair cannot express it; leave it alone.
      if (open[i] >= 0) kind_[std::size_t(open[i])] = Other;
      if (close[i] >= 0) kind_[std::size_t(close[i])] = Other;
    }
}

namespace {

/// Scans brackets: pushes opens, pops matching closes. Returns false at a
/// mismatch; a close on an empty stack counts in `underflow` (and is
/// appended to `unmatched` when given).
template <class It, class KindOf, class PartnerOf>
bool scan(It begin, It end, std::vector<int>& stack, int& underflow, KindOf kindOf, PartnerOf partnerOf, int open,
          int close, std::vector<int>* unmatched = nullptr) {
  for (It it = begin; it != end; ++it) {
    const int k = kindOf(*it);
    if (k == open) {
      stack.push_back(*it);
    } else if (k == close) {
      if (stack.empty()) {
        ++underflow;
        if (unmatched) unmatched->push_back(*it);
      } else if (partnerOf(stack.back()) != *it)
        return false;
      else
        stack.pop_back();
    }
  }
  return true;
}

} // namespace

SyntaxGuard::Redirect SyntaxGuard::ban(const std::vector<int>& seq, bool hasStart, bool hasEnd,
                                       std::uint8_t* banned) const {
  const auto hole = std::find(seq.begin(), seq.end(), int(Tokenizer::kHole));
  if (hole == seq.end()) return {};
  Redirect redirect;
  const bool moreHoles = std::find(hole + 1, seq.end(), int(Tokenizer::kHole)) != seq.end();
  auto partnerOf = [&](int v) { return partner_[std::size_t(v)]; };
  auto kindFn = [this](int v) { return kindOf(v); }; // for scan

  // Rule 1: brackets.
  std::vector<int> stack;
  int underflow = 0;
  const bool prefixOk = scan(seq.begin(), hole, stack, underflow, kindFn, partnerOf, Open, Close) &&
                        !(hasStart && underflow > 0);
  if (prefixOk) {
    // A statement cannot end inside brackets but for a for loop's header.
    if (semi_ >= 0 && !stack.empty() && stack.back() != brace_) {
      const std::size_t open = innermostOpen(seq, std::size_t(hole - seq.begin()));
      const bool forHeader = seq[open] == paren_ && open > 0 && seq[open - 1] == for_;
      if (!forHeader) banned[semi_] = 1;
    }
    for (int v : closes_)
      if (stack.empty() ? hasStart : partner_[std::size_t(stack.back())] != v) banned[v] = 1;
    if (!moreHoles) {
      // Can the suffix be completed at all? (Its own mismatches, or opens it
      // leaves for an end it reaches, no infill can repair.)
      std::vector<int> alone, needs;
      int aloneUnder = 0;
      const bool suffixOk = scan(hole + 1, seq.end(), alone, aloneUnder, kindFn, partnerOf, Open, Close, &needs) &&
                            !(hasEnd && !alone.empty());
      if (suffixOk) {
        std::vector<int> whole = stack;
        int wholeUnder = 0;
        const bool ok = scan(hole + 1, seq.end(), whole, wholeUnder, kindFn, partnerOf, Open, Close) &&
                        !(hasStart && wholeUnder > 0) && !(hasEnd && !whole.empty());
        // What the text after the hole needs open (bottom to top, the
        // partners of its unmatched closes, last first).
        std::vector<int> need;
        for (auto it = needs.rbegin(); it != needs.rend(); ++it)
          need.push_back(partner_[std::size_t(*it)]);
        if (!ok) {
          banned[Tokenizer::kEndHole] = 1;
          // The bracket to write first. For a whole kernel, the open ones must
          // end up as the text after the hole needs them: close what differs,
          // then open what is missing. A window: close the innermost.
          std::size_t same = 0;
          while (same < stack.size() && same < need.size() && stack[same] == need[same])
            ++same;
          redirect.from = Tokenizer::kEndHole;
          if (!(hasStart && hasEnd) || stack.size() > same)
            redirect.to = stack.empty() ? -1 : partner_[std::size_t(stack.back())];
          else if (same < need.size())
            redirect.to = need[same];
          if (redirect.to < 0) redirect = {};
        }
        if (hasStart && hasEnd && stack.size() == 1 && !need.empty() && need.front() == stack.front()) {
          // The outermost bracket (a function's body or parameter list) is
          // one the text after the hole closes: closing it here would leave
          // the function, where nothing written could reopen it. The model
          // that wants to close it wants the function to end, which the text
          // after the hole does: when the hole may close, that probability
          // goes to [ENDHOLE].
          const int close = partner_[std::size_t(stack.front())];
          if (!banned[std::size_t(close)]) banned[std::size_t(close)] = ok ? 2 : 1;
          if (ok) redirect = {close, Tokenizer::kEndHole};
        }
      }
    }
  }

  // Rule 1 (operands): an operator, or a `++` or `--` that comes first, has an
  // operand after it, so no `)`, `]`, `;`, `,` or `}` (a `*` after a type
  // word declares a pointer: `(float *)` is left alone).
  if (types_ && hole != seq.begin()) {
    const int last = *(hole - 1);
    const int before = hole - 1 != seq.begin() ? *(hole - 2) : -1;
    const bool operand = endsOperand(before);
    bool needsOperand = std::find(operators_.begin(), operators_.end(), last) != operators_.end() &&
                        !(kindOf(last) == Star && (kindOf(before) == Declarer || kindOf(before) == Star));
    needsOperand = needsOperand || (std::find(increments_.begin(), increments_.end(), last) != increments_.end() && !operand);
    if (needsOperand)
      for (int v : {closeParen_, bracket_ >= 0 ? partner_[std::size_t(bracket_)] : -1, semi_, comma_, closeBrace_})
        if (v >= 0 && !banned[v]) banned[v] = 2;
  }

  // Rule 4: a builtin call's arguments.
  if (!calls_.empty() && comma_ >= 0 && closeParen_ >= 0 && paren_ >= 0) {
    banArguments(seq, std::size_t(hole - seq.begin()), hasStart, banned);
    if (!moreHoles && !banned[Tokenizer::kEndHole])
      banEndInCalls(seq, std::size_t(hole - seq.begin()), hasStart, banned);
  }

  // Rule 8: the hole closes only once every name the text after it uses has
  // been declared.
  if (types_ && hasStart && !banned[Tokenizer::kEndHole] &&
      usesUndeclared(seq, std::size_t(hole - seq.begin())))
    banned[Tokenizer::kEndHole] = 1;

  // Rule 3: what may follow a variable.
  if (hole != seq.begin() && kindOf(*(hole - 1)) == Name && lowerName_[std::size_t(*(hole - 1))] &&
      !(hole - 1 != seq.begin() && kindOf(*(hole - 2)) == Member)) {
    const int var = *(hole - 1);
    if (paren_ >= 0) banned[paren_] = 1;
    // Its declaration: the first time it follows a type word, with no `*`
    // between and no `[` after.
    for (auto it = seq.begin(); it != hole - 1; ++it) {
      if (*it != var || it == seq.begin()) continue;
      const int before = *(it - 1);
      if (kindOf(before) == Declarer || kindOf(before) == Star) {
        const bool scalar = kindOf(before) == Declarer && scalarType_[std::size_t(before)] && it + 1 != seq.end() &&
                            *(it + 1) != bracket_ && *(it + 1) != Tokenizer::kHole;
        if (scalar)
          for (int v : {bracket_, dot_, arrow_})
            if (v >= 0) banned[v] = 1;
        break;
      }
    }
  }

  if (!hasStart || hole == seq.begin()) return redirect;
  const auto at = std::size_t(hole - seq.begin());
  const auto declared = types_ ? declarations(seq, at) : std::vector<Declared>{};
  banNames(seq, at, declared, banned);
  if (types_) {
    banByType(seq, at, declared, banned); // after rule 2, which frees the names the sequence has
    banByStatement(seq, at, declared, banned);
  }
  return redirect;
}

const SyntaxGuard::Declared* SyntaxGuard::declaredAs(const std::vector<Declared>& declared, int name) {
  for (const Declared& d : declared)
    if (d.name == name) return &d;
  return nullptr;
}

void SyntaxGuard::banByStatement(const std::vector<int>& seq, std::size_t hole, const std::vector<Declared>& declared,
                                 std::uint8_t* banned) const {
  // The statement the hole is in: back to a `;`, `{` or `}` outside
  // brackets, or to the `(` of a for header. `nested`: the hole is inside a
  // bracket (a for header's parts are no statements).
  std::size_t start = !seq.empty() && seq[0] == Tokenizer::kStart ? 1 : 0;
  int depth = 0;
  for (std::size_t i = hole; i > start; --i) {
    const int t = seq[i - 1];
    const Kind k = kindOf(t);
    if (depth == 0 && (t == semi_ || t == brace_ || t == closeBrace_)) {
      start = i;
      break;
    }
    if (k == Close) ++depth;
    else if (k == Open && depth > 0) --depth;
    else if (k == Open && t == paren_ && i >= 2 && seq[i - 2] == for_) {
      start = i;
      break;
    }
  }
  const std::size_t open = innermostOpen(seq, hole);
  const bool nested = open != std::string::npos && seq[open] != brace_;
  if (start >= hole) return;
  auto ban = [&](int v) {
    if (v >= 0 && !banned[v]) banned[v] = 2;
  };
  auto isAssignment = [&](int t) { return std::find(assignments_.begin(), assignments_.end(), t) != assignments_.end(); };
  const bool declaration = kindOf(seq[start]) == Declarer;
  // The last `=` outside the statement's brackets, and whether a `,` came after it.
  std::size_t assign = std::string::npos;
  bool commaAfter = false, effect = false;
  depth = 0;
  for (std::size_t i = start; i < hole; ++i) {
    const int t = seq[i];
    if (kindOf(t) == Open) ++depth;
    else if (kindOf(t) == Close) depth = std::max(0, depth - 1);
    if (isAssignment(t)) effect = true;
    // A call: `(` after a word (a builtin, a helper) does something, or may.
    if (t == paren_ && i > start && (kindOf(seq[i - 1]) == Declarer || kindOf(seq[i - 1]) == Name)) effect = true;
    if (depth != 0) continue;
    if (t == comma_) commaAfter = true;
    if (assign_ >= 0 && t == assign_) {
      assign = i;
      commaAfter = false;
    }
  }
  // 7c: a variable is not read in its own initialiser (`int h = h + 1`).
  if (declaration && assign != std::string::npos && !commaAfter && assign > start && kindOf(seq[assign - 1]) == Name &&
      lowerName_[std::size_t(seq[assign - 1])])
    ban(seq[assign - 1]);
  // 5 (stores): the right side of an integer's `=`, outside brackets, takes
  // no floating-point operand (`d = a[f];`, `a[e] = f;` convert silently); a
  // cast's brackets lift this, as in a subscript.
  if (!nested && assign != std::string::npos && !commaAfter && assign > start) {
    auto find = [&](int name) { return declaredAs(declared, name); };
    const Declared* target = nullptr;
    bool element = false;
    const int before = seq[assign - 1];
    if (kindOf(before) == Name && lowerName_[std::size_t(before)]) {
      target = find(before); // `h = ...` or `int h = ...`
    } else if (bracket_ >= 0 && before == partner_[std::size_t(bracket_)] && kindOf(seq[start]) == Name &&
               start + 1 < assign && seq[start + 1] == bracket_ &&
               matchingClose(seq, start + 1, assign) == assign - 1) {
      target = find(seq[start]); // `a[i] = ...`
      element = true;
    }
    const bool integer = target && target->scalarBase && !target->floating && !target->vectorBase &&
                         (element ? (target->pointer && target->stars == 1 && !target->array) ||
                                        (target->array && !target->pointer)
                                  : !target->pointer && !target->array);
    if (integer) {
      for (int v : floatLiterals_)
        ban(v);
      for (const Declared& d : declared)
        if (d.floating && !d.vectorBase && (d.stars <= 1)) ban(d.name);
    }
  }
  if (nested || declaration) return;
  // 7a: no store of a value to where it came from (`a[i] = a[i];`).
  if (assign != std::string::npos && !commaAfter && assign > start && hole - assign - 1 == assign - start &&
      std::equal(seq.begin() + std::ptrdiff_t(start), seq.begin() + std::ptrdiff_t(assign),
                 seq.begin() + std::ptrdiff_t(assign + 1))) {
    ban(semi_);
    ban(comma_);
  }
  // 7b: an expression statement that begins with a variable does something
  // (an assignment, an increment, a call) before it ends (`c[e];`, `h < i;`,
  // the left side of a comma).
  if (!effect && kindOf(seq[start]) == Name && lowerName_[std::size_t(seq[start])]) {
    ban(semi_);
    ban(comma_);
  }
}

bool SyntaxGuard::usesUndeclared(const std::vector<int>& seq, std::size_t hole) const {
  if (hole == 0) return false; // no kernel start before it
  // The text after the hole, up to the next hole: most rows (an undirected
  // sample's) have none, or no name in it.
  std::size_t end = hole + 1;
  bool anyName = false;
  for (; end < seq.size() && seq[end] != Tokenizer::kHole; ++end) {
    if (seq[end] == hash_) return false; // a preprocessor line: its names are the macros'
    anyName = anyName || kindOf(seq[end]) == Name;
  }
  if (!anyName) return false;
  // The names the sequence has before the hole: declared there (or used,
  // which in code that compiles means declared, or an enumerator).
  std::vector<std::uint8_t> known(std::size_t(vocab_), 0);
  for (std::size_t i = 0; i < hole; ++i)
    if (kindOf(seq[i]) == Name) known[std::size_t(seq[i])] = 1;
  // The token before seq[i], the hole skipped: right after the hole, what
  // comes before a name is the infill's last word.
  auto previous = [&](std::size_t i) -> std::size_t { return i == hole + 1 ? hole - 1 : i - 1; };
  for (std::size_t i = hole + 1; i < end; ++i) {
    const int v = seq[i];
    if (kindOf(v) != Name || known[std::size_t(v)]) continue;
    std::size_t j = previous(i);
    if (kindOf(seq[j]) == Member) continue; // a field
    while (j > 0 && kindOf(seq[j]) == Star)
      j = previous(j);
    // Declared before its uses: after a type word, or a type's rewritten
    // name (`S * n`; a function's name is never followed by a name), or a
    // comma (`int h , i`; an argument too, which this takes for a
    // declaration rather than ban wrongly).
    const int before = seq[j];
    if (kindOf(before) == Declarer || (kindOf(before) == Name && !lowerName_[std::size_t(before)]) || before == comma_) {
      known[std::size_t(v)] = 1;
      continue;
    }
    return true; // used with no declaration before it: only the infill could declare it
  }
  return false;
}

void SyntaxGuard::banNames(const std::vector<int>& seq, std::size_t hole, const std::vector<Declared>& declared,
                           std::uint8_t* banned) const {
  // Rule 2: a name that appears nowhere may only be declared.
  std::size_t prev = hole - 1;
  bool star = false;
  while (prev > 0 && kindOf(seq[prev]) == Star) {
    --prev;
    star = true;
  }
  const int before = kindOf(seq[prev]);
  if (before == Member && !star) return; // a field
  // Rule 6: the variables the text after the hole declares, in the function
  // the hole is in (rewritten code declares each name once, so the infill may
  // neither declare them nor use them before their declaration).
  std::vector<int> later;
  if (types_) {
    int depth = openBraces(seq, hole);
    for (std::size_t i = hole + 1; i < seq.size() && seq[i] != Tokenizer::kHole; ++i) {
      if (seq[i] == brace_) ++depth;
      else if (seq[i] == closeBrace_ && --depth <= 0) break; // the function ends
      const int v = seq[i];
      if (kindOf(v) != Name || !lowerName_[std::size_t(v)]) continue;
      std::size_t j = i;
      while (j > hole + 1 && kindOf(seq[j - 1]) == Star)
        --j;
      if (j > hole + 1 && kindOf(seq[j - 1]) == Declarer &&
          std::none_of(declared.begin(), declared.end(), [&](const Declared& d) { return d.name == v; }))
        later.push_back(v);
    }
  }
  if (before == Declarer) {
    // A declaration. Rule 6: of a name not declared before or after.
    for (const Declared& d : declared)
      if (!banned[d.name]) banned[d.name] = 2;
    for (int v : later)
      if (!banned[v]) banned[v] = 2;
    return;
  }
  // No other rule bans a name: ban them all, then free those the sequence has.
  for (int v : names_)
    banned[v] = 1;
  for (int v : seq)
    if (kindOf(v) == Name) banned[v] = 0;
  // Rule 6: but for variables whose block has closed, or declared after the hole.
  for (const Declared& d : declared)
    if (!d.visible && std::none_of(declared.begin(), declared.end(), [&](const Declared& e) { return e.name == d.name && e.visible; }))
      banned[d.name] = 2;
  for (int v : later)
    if (!banned[v]) banned[v] = 2;
}

std::vector<SyntaxGuard::Declared> SyntaxGuard::declarations(const std::vector<int>& seq, std::size_t hole) const {
  std::vector<Declared> out;
  std::vector<std::size_t> scope;  // per declaration: the `{` its block opened at, or npos (top level)
  std::vector<std::size_t> header; // per declaration: the `(` of the for header it is in, or npos
  std::vector<std::size_t> braces, parens; // open `{`, and open `(` or `[`
  for (std::size_t i = 0; i < hole; ++i) {
    const int v = seq[i];
    const Kind k = kindOf(v);
    if (v == brace_) {
      braces.push_back(i);
    } else if (v == closeBrace_) {
      if (!braces.empty()) braces.pop_back();
    } else if (k == Open) {
      parens.push_back(i);
    } else if (k == Close) {
      if (parens.empty()) continue;
      const std::size_t open = parens.back();
      parens.pop_back();
      // A for header's declarations belong to the loop's block, when it has one.
      if (v == closeParen_ && i + 1 < hole && seq[i + 1] == brace_)
        for (std::size_t d = 0; d < out.size(); ++d)
          if (header[d] == open) scope[d] = i + 1;
    } else if (k == Name && lowerName_[std::size_t(v)] && i > 0 && kindOf(seq[i - 1]) != Member) {
      Declared d;
      d.name = v;
      std::size_t j = i;
      while (j > 0 && kindOf(seq[j - 1]) == Star) {
        --j;
        ++d.stars;
      }
      if (j == 0 || kindOf(seq[j - 1]) != Declarer) continue; // a use
      // The words before the name, nearest first: a qualifier before any `*`
      // is the variable's own; after one, what it points to.
      int starsPassed = 0;
      for (std::size_t w = i; w > 0; --w) {
        const int t = seq[w - 1];
        if (kindOf(t) == Star) ++starsPassed;
        else if (kindOf(t) != Declarer) break;
        else if (constWord_[std::size_t(t)]) (starsPassed == 0 ? d.readOnly : d.readOnlyElements) = true;
        else if (floatType_[std::size_t(t)]) d.floating = d.scalarBase = true;
        else if (scalarType_[std::size_t(t)] || vectorWidth_[std::size_t(t)]) d.scalarBase = true;
        if (kindOf(t) == Declarer && vectorWidth_[std::size_t(t)]) d.vectorBase = true;
      }
      d.pointer = d.stars > 0;
      d.array = i + 1 < hole && seq[i + 1] == bracket_;
      if (d.array && !d.pointer) d.readOnlyElements = d.readOnly;
      const bool inFor = !parens.empty() && seq[parens.back()] == paren_ && parens.back() > 0 && seq[parens.back() - 1] == for_;
      out.push_back(d);
      scope.push_back(braces.empty() ? std::string::npos : braces.back());
      header.push_back(inFor ? parens.back() : std::string::npos);
    }
  }
  for (std::size_t d = 0; d < out.size(); ++d)
    out[d].visible = scope[d] == std::string::npos || std::find(braces.begin(), braces.end(), scope[d]) != braces.end();
  return out;
}

void SyntaxGuard::banByType(const std::vector<int>& seq, std::size_t hole, const std::vector<Declared>& declared,
                            std::uint8_t* banned) const {
  auto find = [&](int name) { return declaredAs(declared, name); };
  // Marked 2, as rule 4: a type the model gets wrong is no sign it is lost.
  auto banAll = [&](const std::vector<int>& ids) {
    for (int v : ids)
      if (v >= 0 && !banned[v]) banned[v] = 2;
  };
  auto banFloats = [&] {
    banAll(floatLiterals_);
    for (const Declared& d : declared)
      if (d.floating && !d.pointer && !d.array && !banned[d.name]) banned[d.name] = 2;
  };
  if (hole == 0) return;
  const int last = seq[hole - 1];
  // The variable at seq[at], when it is used there (not declared, not a field).
  auto usedVariable = [&](std::size_t at) -> const Declared* {
    if (at == 0 || kindOf(seq[at]) != Name || !lowerName_[std::size_t(seq[at])] || kindOf(seq[at - 1]) == Member)
      return nullptr;
    std::size_t j = at;
    while (j > 0 && kindOf(seq[j - 1]) == Star) --j;
    if (j > 0 && kindOf(seq[j - 1]) == Declarer) return nullptr; // its declaration: `const int e = ...`
    return find(seq[at]);
  };
  const int closeBracket = bracket_ >= 0 ? partner_[std::size_t(bracket_)] : -1;
  // An operator only after an operand (`*` and `&` are unary elsewhere).
  auto afterOperand = [&](std::size_t at) {
    if (at == 0) return false;
    return endsOperand(seq[at - 1]);
  };
  auto isIn = [](const std::vector<int>& ids, int v) { return std::find(ids.begin(), ids.end(), v) != ids.end(); };
  // Where only a number fits: a subscript's start, after an arithmetic or
  // integer operator, and in a test (a comparison's side, `&&`, `||`, `!`).
  auto numberOnly = [&](std::size_t at) {
    const int t = seq[at];
    if (t == bracket_ || (t == not_ && not_ >= 0) || isIn(tests_, t)) return true;
    if (!isIn(integerOperators_, t) && !isIn(multiplicative_, t) && (tilde_ < 0 || t != tilde_)) return false;
    return (kindOf(t) != Star && t != ampersand_) || afterOperand(at);
  };
  if (const Declared* d = usedVariable(hole - 1)) {
    // After a variable.
    if (d->readOnly) banAll(assignments_);
    if ((d->pointer || d->array) && hole >= 2 && numberOnly(hole - 2)) {
      // A pointer where a number must be: only an element or a field of it.
      for (int v = 0; v < vocab_; ++v)
        if (v != bracket_ && (v != arrow_ || d->scalarBase) && !banned[v]) banned[v] = 2;
      if (!banned[Tokenizer::kEndHole]) banned[Tokenizer::kEndHole] = 2;
    }
    if (d->pointer || d->array) {
      banAll(integerOperators_);
      banAll(multiplicative_);
      banAll(tests_); // a buffer's address is neither compared nor tested
      if (d->scalarBase) banAll({dot_, arrow_}); // numbers have no fields
    } else if (d->floating) {
      banAll(integerOperators_);
    }
  } else if (last == closeBracket && closeBracket >= 0) {
    // After an element `a[...]` of a pointer or array of one level.
    const std::size_t open = innermostOpen(seq, hole - 1);
    if (open != std::string::npos && open >= 1 && seq[open] == bracket_) {
      const Declared* e = usedVariable(open - 1);
      if (e && ((e->pointer && e->stars == 1 && !e->array) || (e->array && !e->pointer))) {
        if (e->readOnlyElements) banAll(assignments_);
        if (e->floating) banAll(integerOperators_);
        if (e->scalarBase && !e->vectorBase) banAll({dot_, arrow_}); // a number's element has no fields
        if (e->vectorBase) banAll({arrow_});
      }
    }
  }
  // Operands: none floating in a subscript, nor after an integer operator.
  const std::size_t open = innermostOpen(seq, hole);
  const bool subscript = open != std::string::npos && seq[open] == bracket_;
  bool integerOperand = std::find(integerOperators_.begin(), integerOperators_.end(), last) != integerOperators_.end();
  if (integerOperand && last == ampersand_) integerOperand = afterOperand(hole - 1); // else `&` takes an address
  if (subscript || integerOperand) banFloats();
}

bool SyntaxGuard::endsOperand(int v) const {
  if (v < 0 || v >= vocab_) return false;
  const Kind k = kind_[std::size_t(v)];
  return k == Name || k == Close || number_[std::size_t(v)] != 0;
}

std::size_t SyntaxGuard::innermostOpen(const std::vector<int>& seq, std::size_t end) const {
  for (std::size_t at = end, depth = 0; at > 0;) {
    const int v = seq[--at];
    const Kind k = v >= 0 && v < vocab_ ? kind_[std::size_t(v)] : Other;
    if (k == Close) ++depth;
    else if (k == Open && depth-- == 0) return at;
  }
  return std::string::npos;
}

void SyntaxGuard::banArguments(const std::vector<int>& seq, std::size_t hole, bool hasStart,
                               std::uint8_t* banned) const {
  // The innermost bracket open at the hole: a `(` right after a builtin's name.
  const std::size_t open = innermostOpen(seq, hole);
  if (open == std::string::npos) return;
  const int call = builtinCallAt(seq, open);
  if (call < 0) return;
  // The arguments written so far; the last, at the hole, is being written.
  bool statementEnd = false;
  auto args = argumentRanges(seq, open, hole, &statementEnd);
  if (statementEnd) return; // broken text: not an argument list
  const std::size_t start = args.back().first;
  args.pop_back();
  std::vector<ArgShape> given;
  for (const auto& [from, to] : args)
    given.push_back(expressionShape(seq, from, to, hasStart));
  const bool writing = start < hole; // the argument at the hole has tokens
  const ArgShape current = writing ? expressionShape(seq, start, hole, hasStart) : ArgShape{};
  const std::size_t n = args.size();
  bool anyFits = false, comma = false, close = false;
  for (const auto& o : calls_[std::size_t(call)]) {
    const auto& params = o.params;
    if (params.size() < n) continue;
    bool ok = true;
    for (std::size_t i = 0; i < n && ok; ++i)
      ok = fits(given[i], params[i]);
    if (!ok) continue;
    anyFits = true;
    if (!writing) {
      close = close || (n == 0 && params.empty());
    } else if (params.size() > n && fits(current, params[n])) {
      comma = comma || params.size() > n + 1;
      close = close || params.size() == n + 1;
    }
  }
  // No overload takes what is already written: the text is beyond what this
  // rule knows (a macro, an extension); leave it alone.
  if (!anyFits) return;
  // Marked 2, not 1: a call the model would get wrong is no sign it is lost
  // (the sampler's patience counts rules 1 to 3 only).
  if (!comma && !banned[comma_]) banned[comma_] = 2;
  if (!close && !banned[closeParen_]) banned[closeParen_] = 2;
}

std::size_t SyntaxGuard::matchingClose(const std::vector<int>& seq, std::size_t open, std::size_t to) const {
  int depth = 0;
  for (std::size_t p = open; p < to; ++p) {
    const int v = seq[p];
    const Kind k = kindOf(v);
    if (k == Open) ++depth;
    else if (k == Close && --depth == 0) return partner_[std::size_t(v)] == seq[open] ? p : std::string::npos;
  }
  return std::string::npos;
}

void SyntaxGuard::declaredShapes(const std::vector<int>& seq, std::size_t before, int name, ArgShape& self,
                                 ArgShape& element) const {
  self = element = {};
  // Its declaration: the first time it follows a type word or a `*`.
  for (std::size_t p = 1; p < before; ++p) {
    if (seq[p] != name) continue;
    const int k = kindOf(seq[p - 1]);
    if (k != Star && k != Declarer) continue;
    std::size_t q = p - 1;
    int stars = 0;
    while (q > 0 && (kindOf(seq[q]) == Star || (seq[q] >= 0 && seq[q] < vocab_ && qualifier_[std::size_t(seq[q])]))) {
      stars += kindOf(seq[q]) == Star;
      --q;
    }
    const int word = seq[q];
    if (kindOf(word) != Declarer) return; // `a * b`: a use, not a declaration
    const ArgShape base = scalarType_[std::size_t(word)]             ? ArgShape{ArgShape::Scalar, 1}
                          : vectorWidth_[std::size_t(word)] != 0 ? ArgShape{ArgShape::Vector, vectorWidth_[std::size_t(word)]}
                                                                 : ArgShape{};
    const bool array = p + 1 < seq.size() && seq[p + 1] == bracket_;
    if (stars > 0 || array) self = {ArgShape::Pointer, 1};
    else self = base;
    // a[i]: the pointed-to or held type; one level only (`float** a`,
    // `float a[4][4]` and `float* a[4]` give arrays or pointers: unknown).
    bool oneLevel = stars + int(array) == 1;
    if (array) {
      const std::size_t end = matchingClose(seq, p + 1, seq.size());
      oneLevel = oneLevel && end != std::string::npos && !(end + 1 < seq.size() && seq[end + 1] == bracket_);
    }
    if (oneLevel) element = base;
    else if (stars == 0 && !array && base.kind == ArgShape::Vector) element = {ArgShape::Scalar, 1}; // a lane
    return;
  }
}

ArgShape SyntaxGuard::operandShape(const std::vector<int>& seq, std::size_t from, std::size_t to, bool hasStart,
                                   int depth) const {
  // A unary `+`, `-` or `~` keeps its operand's shape.
  while (from < to && (arithmetic_[std::size_t(seq[from])] == 1 || (tilde_ >= 0 && seq[from] == tilde_)))
    ++from;
  if (from >= to) return {};
  const int first = seq[from];
  if (to == from + 1) {
    if (number_[std::size_t(first)] == 1) return {ArgShape::Scalar, 1};
    if (!hasStart || kindOf(first) != Name || !lowerName_[std::size_t(first)]) return {};
    ArgShape self, element;
    declaredShapes(seq, from, first, self, element);
    return self;
  }
  if (first == paren_) {
    const std::size_t close = matchingClose(seq, from, to);
    if (close == std::string::npos) return {};
    if (close + 1 == to) return expressionShape(seq, from + 1, close, hasStart, depth + 1);
    // A cast: type words, qualifiers and `*`s only, and an operand after them.
    ArgShape cast;
    bool star = false;
    for (std::size_t p = from + 1; p < close; ++p) {
      const int v = seq[p];
      if (kindOf(v) == Star) star = true;
      else if (kindOf(v) != Declarer || builtin_[std::size_t(v)] >= 0) return {};
      else if (scalarType_[std::size_t(v)]) cast = {ArgShape::Scalar, 1};
      else if (vectorWidth_[std::size_t(v)]) cast = {ArgShape::Vector, vectorWidth_[std::size_t(v)]};
    }
    if (star) return {ArgShape::Pointer, 1};
    return cast;
  }
  if (from + 1 >= to) return {};
  const int next = seq[from + 1];
  if (next == paren_ && builtin_[std::size_t(first)] >= 0 && matchingClose(seq, from + 1, to) + 1 == to) {
    // A builtin's call: the overloads that fit its arguments must agree on the result.
    const auto args = callArguments(seq, from + 1, to - 1, hasStart, depth);
    std::optional<ArgShape> result;
    for (const auto& o : calls_[std::size_t(builtin_[std::size_t(first)])]) {
      if (!takes(o, args)) continue;
      if (result && !(*result == o.result)) return {};
      result = o.result;
    }
    return result.value_or(ArgShape{});
  }
  if (next == bracket_ && hasStart && kindOf(first) == Name && lowerName_[std::size_t(first)] &&
      matchingClose(seq, from + 1, to) + 1 == to) {
    ArgShape self, element;
    declaredShapes(seq, from, first, self, element);
    return element;
  }
  return {};
}

int SyntaxGuard::builtinCallAt(const std::vector<int>& seq, std::size_t open) const {
  if (open == 0 || open >= seq.size() || seq[open] != paren_) return -1;
  const int fn = seq[open - 1];
  if (fn < 0 || fn >= vocab_ || builtin_[std::size_t(fn)] < 0) return -1;
  if (open >= 2 && kindOf(seq[open - 2]) == Member) return -1; // a field that has a builtin's name
  return builtin_[std::size_t(fn)];
}

std::vector<std::pair<std::size_t, std::size_t>>
SyntaxGuard::argumentRanges(const std::vector<int>& seq, std::size_t open, std::size_t end, bool* statementEnd) const {
  std::vector<std::pair<std::size_t, std::size_t>> args;
  std::size_t start = open + 1;
  if (statementEnd) *statementEnd = false;
  for (std::size_t p = open + 1, depth = 0; p < end; ++p) {
    const Kind k = kindOf(seq[p]);
    if (k == Open) ++depth;
    else if (k == Close && depth > 0) --depth;
    else if (seq[p] == semi_ && depth == 0) {
      if (statementEnd) *statementEnd = true;
    } else if (seq[p] == comma_ && depth == 0) {
      args.emplace_back(start, p);
      start = p + 1;
    }
  }
  args.emplace_back(start, end);
  return args;
}

std::vector<ArgShape> SyntaxGuard::callArguments(const std::vector<int>& seq, std::size_t open, std::size_t close,
                                                bool hasStart, int depth) const {
  const auto ranges = argumentRanges(seq, open, close);
  std::vector<ArgShape> args;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const auto [from, to] = ranges[i];
    if (i + 1 < ranges.size() || from < to) // a last argument left empty (`f()`) is none
      args.push_back(expressionShape(seq, from, to, hasStart, depth + 1));
  }
  return args;
}

void SyntaxGuard::banEndInCalls(const std::vector<int>& seq, std::size_t hole, bool hasStart,
                                std::uint8_t* banned) const {
  // The builtin calls open at the hole, outermost first.
  std::vector<std::size_t> opens;
  for (std::size_t p = 0; p < hole; ++p) {
    const int k = kindOf(seq[p]);
    if (k == Open) opens.push_back(p);
    else if (k == Close && !opens.empty()) opens.pop_back();
  }
  std::vector<std::size_t> calls;
  for (std::size_t o : opens)
    if (builtinCallAt(seq, o) >= 0) calls.push_back(o);
  const bool callAfter = hole > 0 && hole + 1 < seq.size() && seq[hole + 1] == paren_ && seq[hole - 1] >= 0 &&
                         seq[hole - 1] < vocab_ && builtin_[std::size_t(seq[hole - 1])] >= 0;
  if (calls.empty() && !callAfter) return;
  // The kernel as it would be with the hole closed here.
  std::vector<int> joined(seq.begin(), seq.begin() + std::ptrdiff_t(hole));
  joined.insert(joined.end(), seq.begin() + std::ptrdiff_t(hole) + 1, seq.end());
  if (std::find(joined.begin(), joined.end(), int(Tokenizer::kHole)) != joined.end()) return;
  if (callAfter && builtinCallAt(joined, hole) >= 0) calls.push_back(hole);
  for (std::size_t open : calls) {
    const std::size_t close = matchingClose(joined, open, joined.size());
    if (close == std::string::npos) continue; // a window that ends before the call does
    const auto args = callArguments(joined, open, close, hasStart, 0);
    const auto& overloads = calls_[std::size_t(builtinCallAt(joined, open))];
    if (std::none_of(overloads.begin(), overloads.end(), [&](const Overload& o) { return takes(o, args); })) {
      banned[Tokenizer::kEndHole] = 2;
      return;
    }
  }
}

ArgShape SyntaxGuard::expressionShape(const std::vector<int>& seq, std::size_t from, std::size_t to, bool hasStart,
                                      int depth) const {
  if (from >= to || depth > 8) return {};
  // Split at the binary arithmetic operators outside brackets; anything
  // else there (a comparison, `?:`, an assignment, a member) is not followed.
  std::vector<ArgShape> shapes;
  bool additiveOnly = true, expectOperand = true;
  std::size_t start = from;
  int d = 0;
  for (std::size_t p = from; p < to; ++p) {
    const int v = seq[p];
    if (v < 0 || v >= vocab_) return {};
    const int k = kindOf(v);
    if (k == Open) {
      ++d;
      expectOperand = false;
      continue;
    }
    if (k == Close) {
      if (d-- == 0) return {};
      continue;
    }
    if (d > 0) continue;
    if (arithmetic_[std::size_t(v)] != 0 || (tilde_ >= 0 && v == tilde_)) {
      if (expectOperand) {
        if (arithmetic_[std::size_t(v)] == 1 || v == tilde_) continue; // unary
        return {};                                                     // `*p`, `&x`: not followed
      }
      if (v == tilde_) return {};
      additiveOnly = additiveOnly && arithmetic_[std::size_t(v)] == 1;
      shapes.push_back(operandShape(seq, start, p, hasStart, depth));
      start = p + 1;
      expectOperand = true;
      continue;
    }
    if (k != Name && k != Declarer && number_[std::size_t(v)] == 0) return {};
    expectOperand = false;
  }
  if (d != 0 || expectOperand) return {};
  shapes.push_back(operandShape(seq, start, to, hasStart, depth));
  if (shapes.size() == 1) return shapes[0];
  int pointers = 0, width = 0;
  for (const auto& s : shapes) {
    if (s.kind == ArgShape::Other) return {};
    if (s.kind == ArgShape::Pointer) ++pointers;
    if (s.kind == ArgShape::Vector) {
      if (width != 0 && width != s.width) return {};
      width = s.width;
    }
  }
  if (pointers > 0) // a pointer moved by numbers; anything else is no shape this rule knows
    return pointers == 1 && additiveOnly && width == 0 ? ArgShape{ArgShape::Pointer, 1} : ArgShape{};
  return width != 0 ? ArgShape{ArgShape::Vector, std::uint8_t(width)} : ArgShape{ArgShape::Scalar, 1};
}

bool SyntaxGuard::unbalanced(const std::vector<int>& seq) const {
  auto partnerOf = [&](int v) { return partner_[std::size_t(v)]; };
  auto kindFn = [this](int v) { return kindOf(v); }; // for scan
  std::vector<int> stack;
  int underflow = 0;
  return !scan(seq.begin(), seq.end(), stack, underflow, kindFn, partnerOf, Open, Close) || underflow > 0 ||
         !stack.empty();
}

bool SyntaxGuard::statementEnd(const std::vector<int>& seq, std::size_t end, std::string& closers) const {
  if (end == 0 || end > seq.size() || brace_ < 0 || partner_[std::size_t(brace_)] < 0) return false;
  const int last = seq[end - 1];
  if (last != semi_ && last != closeBrace_) return false;
  struct Opened {
    int id;
    bool block; ///< a brace that opens statements (not an initializer, struct or enum body)
    bool doBody;
  };
  std::vector<Opened> open;
  bool closedBlock = false;
  for (std::size_t i = 0; i < end; ++i) {
    const int v = seq[i];
    if (v < 0 || v >= vocab_ || v == Tokenizer::kStart) continue;
    if (kind_[std::size_t(v)] == Open) {
      const int before = i > 0 && seq[i - 1] != Tokenizer::kStart ? seq[i - 1] : -1;
      const bool block = v == brace_ && (before < 0 || before == closeParen_ || before == else_ || before == do_ ||
                                         before == semi_ || before == brace_ || before == closeBrace_);
      open.push_back({v, block, block && before == do_});
    } else if (kind_[std::size_t(v)] == Close) {
      if (open.empty() || partner_[std::size_t(open.back().id)] != v) return false;
      closedBlock = open.back().block && !open.back().doBody; // a do body still needs its while
      open.pop_back();
    }
  }
  if (last == closeBrace_ && !closedBlock) return false;
  closers.clear();
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if (!it->block) return false;
    closers += it->doBody ? "\n} while (0);" : "\n}";
  }
  return true;
}

int SyntaxGuard::openBraces(const std::vector<int>& seq, std::size_t end) const {
  int depth = 0;
  for (std::size_t i = 0; i < end && i < seq.size(); ++i) {
    if (seq[i] == brace_) ++depth;
    else if (seq[i] == closeBrace_ && depth > 0) --depth;
  }
  return depth;
}

} // namespace steerbench::model

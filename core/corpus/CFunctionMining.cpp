#include "corpus/CFunctionMining.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace steerbench::corpus {
namespace {

struct Tok {
  enum Kind { Ident, Number, Punct, String, Char, Directive } kind;
  std::string text;
};

bool identStart(char c) { return std::isalpha((unsigned char)c) || c == '_'; }
bool identChar(char c) { return std::isalnum((unsigned char)c) || c == '_'; }

// C tokens of `s`; comments and preprocessor lines (with their continuations) are skipped.
std::vector<Tok> lexC(const std::string& s) {
  std::vector<Tok> out;
  std::size_t i = 0;
  bool lineStart = true;
  static const char* puncts3[] = {"<<=", ">>=", "..."};
  static const char* puncts2[] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
                                  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"};
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      lineStart = true;
      ++i;
      continue;
    }
    if (std::isspace((unsigned char)c)) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const auto end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 2;
      continue;
    }
    if (c == '#' && lineStart) { // kept as one token: a function with a directive inside is not taken
      while (i < s.size() && s[i] != '\n') i += (s[i] == '\\' && i + 1 < s.size()) ? 2 : 1;
      out.push_back({Tok::Directive, "#"});
      continue;
    }
    lineStart = false;
    const std::size_t start = i;
    if (identStart(c)) {
      while (i < s.size() && identChar(s[i])) ++i;
      out.push_back({Tok::Ident, s.substr(start, i - start)});
    } else if (std::isdigit((unsigned char)c) || (c == '.' && i + 1 < s.size() && std::isdigit((unsigned char)s[i + 1]))) {
      const bool hex = c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X');
      ++i;
      while (i < s.size()) {
        const char p = s[i - 1];
        if (identChar(s[i]) || s[i] == '.')
          ++i;
        else if ((s[i] == '+' || s[i] == '-') && ((!hex && (p == 'e' || p == 'E')) || p == 'p' || p == 'P'))
          ++i;
        else
          break;
      }
      out.push_back({Tok::Number, s.substr(start, i - start)});
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < s.size() && s[i] != c && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, s.size());
      out.push_back({c == '"' ? Tok::String : Tok::Char, s.substr(start, i - start)});
    } else {
      std::size_t len = 1;
      for (const char* p : puncts3)
        if (s.compare(i, 3, p) == 0) len = 3;
      if (len == 1)
        for (const char* p : puncts2)
          if (s.compare(i, 2, p) == 0) len = 2;
      i += len;
      out.push_back({Tok::Punct, s.substr(start, len)});
    }
  }
  return out;
}

// The OpenCL C type of a C scalar type's words ("unsigned", "short"), or none.
std::optional<std::string> scalarType(const std::vector<std::string>& words, const ScalarTypedefs& typedefs) {
  static const std::map<std::string, std::string> fixed = {
      {"int8_t", "char"},    {"uint8_t", "uchar"},   {"int16_t", "short"}, {"uint16_t", "ushort"},
      {"int32_t", "int"},    {"uint32_t", "uint"},   {"int64_t", "long"},  {"uint64_t", "ulong"},
      {"size_t", "ulong"},   {"ssize_t", "long"},    {"float", "float"},   {"double", "double"},
      {"void", "void"},      {"uchar", "uchar"},     {"ushort", "ushort"}, {"uint", "uint"},
      {"ulong", "ulong"},    {"u_int8_t", "uchar"},  {"u_int16_t", "ushort"}, {"u_int32_t", "uint"},
      {"u_int64_t", "ulong"}};
  int unsignedCount = 0, signedCount = 0, longs = 0, shorts = 0, chars = 0, ints = 0;
  std::string named;
  for (const auto& w : words) {
    if (w == "unsigned") ++unsignedCount;
    else if (w == "signed") ++signedCount;
    else if (w == "long") ++longs;
    else if (w == "short") ++shorts;
    else if (w == "char") ++chars;
    else if (w == "int") ++ints;
    else if (!named.empty()) return std::nullopt;
    else if (auto f = fixed.find(w); f != fixed.end()) named = f->second;
    else if (auto t = typedefs.find(w); t != typedefs.end()) named = t->second;
    else return std::nullopt;
  }
  if (!named.empty()) {
    if (unsignedCount + signedCount + longs + shorts + chars + ints) return std::nullopt; // "long double", ...
    return named;
  }
  if (unsignedCount && signedCount) return std::nullopt;
  const std::string u = unsignedCount ? "u" : "";
  if (chars) return (shorts || longs || ints || chars > 1) ? std::nullopt : std::optional<std::string>(u + "char");
  if (shorts) return (longs || shorts > 1) ? std::nullopt : std::optional<std::string>(u + "short");
  if (longs) return longs > 2 ? std::nullopt : std::optional<std::string>(u + "long");
  if (ints > 1) return std::nullopt;
  if (ints || unsignedCount || signedCount) return u + "int";
  return std::nullopt;
}

bool storageWord(const std::string& w) {
  static const std::set<std::string> words = {"static", "inline", "__inline", "__inline__", "extern", "register",
                                              "FORCE_INLINE", "__forceinline", "always_inline"};
  return words.count(w) != 0;
}

bool restrictWord(const std::string& w) { return w == "restrict" || w == "__restrict" || w == "__restrict__"; }

// C math functions and common min/max macros, by the OpenCL builtin they become.
const std::map<std::string, std::string>& mathCalls() {
  static const std::map<std::string, std::string> m = [] {
    std::map<std::string, std::string> r;
    for (const char* f : {"sqrt", "fabs", "exp", "log", "log10", "pow", "sin", "cos", "tan", "asin", "acos", "atan",
                          "atan2", "sinh", "cosh", "tanh", "floor", "ceil", "fmod", "fmin", "fmax", "round", "trunc",
                          "rint", "exp2", "log2", "cbrt", "hypot", "copysign", "erf", "erfc", "lgamma", "tgamma",
                          "ldexp", "fma", "expm1", "log1p", "asinh", "acosh", "atanh", "fdim"}) {
      r[f] = f;
      r[std::string(f) + "f"] = f;
    }
    for (const char* f : {"abs", "labs", "llabs"}) r[f] = "abs";
    for (const char* f : {"MIN", "FFMIN", "min"}) r[f] = "min";
    for (const char* f : {"MAX", "FFMAX", "max"}) r[f] = "max";
    return r;
  }();
  return m;
}

// Names OpenCL C reserves (address spaces, types, common builtins): a C
// variable of that name gets a suffix.
bool reservedInOpenCL(const std::string& w) {
  static const std::set<std::string> words = {
      "global", "local", "constant", "private", "kernel", "half", "read_only", "write_only", "read_write",
      "uchar", "ushort", "uint", "ulong", "image1d_t", "image2d_t", "image3d_t", "sampler_t", "event_t", "bool2",
      "min", "max", "clamp", "dot", "length", "distance", "normalize", "cross", "select", "step", "sign", "mix",
      "degrees", "radians", "rotate", "upsample", "abs", "exp", "log", "pow", "sqrt", "sin", "cos", "tan", "round",
      "floor", "ceil", "fabs", "fmin", "fmax", "mad", "popcount", "clz", "any", "all", "bitselect", "shuffle",
      "vec_step", "barrier", "signbit", "isnan", "isinf", "nan", "fract", "rsqrt", "native_sin", "convert_int",
      "as_int", "as_float", "printf", "complex", "imaginary", "quad", "double2", "float2", "float4", "int2",
      "int4", "char2", "uchar4", "short2", "long2", "atomic_add", "atomic_inc", "get_global_id", "get_local_id"};
  return words.count(w) != 0;
}

bool bannedInBody(const Tok& t) {
  if (t.kind == Tok::String || t.kind == Tok::Directive) return true;
  if (t.kind == Tok::Punct) return t.text == "->" || t.text == "." || t.text == "..." || t.text == "##";
  if (t.kind != Tok::Ident) return false;
  static const std::set<std::string> words = {
      "goto",    "struct",  "union",  "enum",    "typedef", "static",  "asm",    "__asm__", "__asm",  "extern",
      "va_list", "va_arg",  "malloc", "calloc",  "realloc", "free",    "alloca", "assert",  "abort",  "exit",
      "setjmp",  "longjmp", "_Complex", "complex", "__int128", "__typeof__", "typeof", "_Generic", "__extension__",
      "volatile", "NULL",   "errno",  "__attribute__", "_Alignas", "_Atomic", "FILE",  "jmp_buf"};
  return words.count(t.text) != 0 || t.text.rfind("__builtin", 0) == 0 || t.text.rfind("_mm", 0) == 0;
}

bool keyword(const std::string& w) {
  static const std::set<std::string> words = {"if", "for", "while", "switch", "return", "sizeof", "do", "else",
                                              "case", "default", "break", "continue"};
  return words.count(w) != 0;
}

// Index of the bracket that closes the one at `open` (same kind), or npos.
std::size_t closing(const std::vector<Tok>& t, std::size_t open) {
  const std::string o = t[open].text;
  const std::string c = o == "(" ? ")" : o == "[" ? "]" : "}";
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].kind != Tok::Punct) continue;
    if (t[i].text == o) ++depth;
    else if (t[i].text == c && --depth == 0) return i;
  }
  return std::string::npos;
}

// Index of the ';' that ends the statement starting at `from` (brackets
// nested inside count), or the body's closing '}' when none does.
std::size_t statementEnd(const std::vector<Tok>& b, std::size_t from) {
  int depth = 0;
  std::size_t s = from;
  while (s + 1 < b.size() && !(depth == 0 && b[s].text == ";")) {
    if (b[s].text == "(" || b[s].text == "[" || b[s].text == "{") ++depth;
    if (b[s].text == ")" || b[s].text == "]" || b[s].text == "}") --depth;
    ++s;
  }
  return s;
}

struct Param {
  std::string name, type; // type: OpenCL scalar
  bool pointer = false, constPointee = false, restrictPointer = false;
};

std::optional<Param> parseParam(const std::vector<Tok>& t, const ScalarTypedefs& typedefs) {
  Param p;
  std::vector<std::string> words;
  std::size_t end = t.size();
  if (end >= 2 && t[end - 1].text == "]") { // a[] or a[N]: a pointer
    std::size_t open = end - 1;
    while (open > 0 && t[open].text != "[") --open;
    if (t[open].text != "[") return std::nullopt;
    p.pointer = true;
    end = open;
    if (end > 0 && t[end - 1].text == "]") return std::nullopt; // a[][N]
  }
  if (end == 0 || t[end - 1].kind != Tok::Ident) return std::nullopt;
  p.name = t[end - 1].text;
  for (std::size_t i = 0; i + 1 < end; ++i) {
    const auto& w = t[i];
    if (w.text == "*") {
      if (p.pointer) return std::nullopt; // pointers to pointers
      p.pointer = true;
    } else if (w.kind != Tok::Ident) {
      return std::nullopt;
    } else if (w.text == "const") {
      if (!p.pointer) p.constPointee = true; // a const after '*' makes a const pointer: dropped
    } else if (restrictWord(w.text)) {
      p.restrictPointer = p.pointer;
    } else if (storageWord(w.text)) {
    } else if (p.pointer) {
      return std::nullopt; // a word after '*'
    } else {
      words.push_back(w.text);
    }
  }
  const auto type = scalarType(words, typedefs);
  if (!type || *type == "void" || keyword(p.name) || typedefs.count(p.name)) return std::nullopt;
  p.type = *type;
  if (!p.pointer) p.constPointee = false;
  return p;
}

struct Function {
  std::string name, returnType;
  std::vector<Param> params;
  std::vector<Tok> body; // from '{' to '}', renamed
  std::set<std::string> calls; // functions of the file it calls
  bool ok = false;
};

std::string join(const std::vector<Tok>& t, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (!out.empty()) out += ' ';
    out += t[i].text;
  }
  return out;
}

std::string paramList(const std::vector<Param>& ps) {
  std::string out;
  for (const auto& p : ps) {
    if (!out.empty()) out += ", ";
    if (p.pointer)
      out += std::string("global ") + (p.constPointee ? "const " : "") + p.type + " *" +
             (p.restrictPointer ? "restrict " : "") + p.name;
    else
      out += p.type + " " + p.name;
  }
  return out;
}

std::string renamed(const std::string& w) { return reservedInOpenCL(w) ? w + "_v" : w; }

// The function's work as one loop over an index, for a variant with the index
// mapped to work-items: the body ends with `for (i = 0; i < N; i++) S` (or
// `int i = 0`, `++i`, `i += 1`) and S neither leaves the loop nor writes i.
std::optional<std::string> loopToWorkItems(const Function& f) {
  const auto& b = f.body;
  // The last top-level statement's start: walk the body's top level.
  std::size_t i = 1, lastFor = std::string::npos;
  while (i + 1 < b.size()) {
    if (b[i].text == "for" && i + 1 < b.size() && b[i + 1].text == "(") {
      lastFor = i;
      const std::size_t close = closing(b, i + 1);
      if (close == std::string::npos) return std::nullopt;
      std::size_t s = close + 1;
      if (s >= b.size() - 1) return std::nullopt;
      if (b[s].text == "{") {
        s = closing(b, s);
        if (s == std::string::npos) return std::nullopt;
        i = s + 1;
      } else {
        i = statementEnd(b, s) + 1;
      }
      continue;
    }
    lastFor = std::string::npos;
    if (b[i].text == "{") {
      const std::size_t c = closing(b, i);
      if (c == std::string::npos) return std::nullopt;
      i = c + 1;
      continue;
    }
    i = statementEnd(b, i) + 1;
  }
  if (lastFor == std::string::npos) return std::nullopt;
  const std::size_t open = lastFor + 1, close = closing(b, open);
  // Header: [T] i = 0 ; i < N ; i++ | ++i | i += 1
  std::vector<std::vector<Tok>> parts(1);
  for (std::size_t k = open + 1; k < close; ++k) {
    if (b[k].text == ";") parts.emplace_back();
    else parts.back().push_back(b[k]);
  }
  if (parts.size() != 3 || parts[0].size() < 3) return std::nullopt;
  const auto& init = parts[0];
  const std::size_t eq = init.size() - 2;
  if (init[eq].text != "=" || init[eq + 1].text != "0" || init[eq - 1].kind != Tok::Ident) return std::nullopt;
  const std::string var = init[eq - 1].text;
  std::string declared;
  std::vector<std::string> declaredWords;
  for (std::size_t k = 0; k + 1 < eq; ++k) {
    declared += init[k].text + " ";
    declaredWords.push_back(init[k].text);
  }
  if (!declaredWords.empty() && !scalarType(declaredWords, {})) return std::nullopt;
  const auto& cond = parts[1];
  if (cond.size() < 3 || cond[0].text != var || cond[1].text != "<") return std::nullopt;
  for (const auto& t : cond)
    if (t.text == "&&" || t.text == "||" || t.text == "," || t.text == "?") return std::nullopt;
  const auto& inc = parts[2];
  const bool step = (inc.size() == 2 && ((inc[0].text == var && inc[1].text == "++") ||
                                         (inc[0].text == "++" && inc[1].text == var))) ||
                    (inc.size() == 3 && inc[0].text == var && inc[1].text == "+=" && inc[2].text == "1");
  if (!step) return std::nullopt;
  // The iterations must be independent: the loop body may not leave early,
  // nor write a variable it does not declare itself (the index, an
  // accumulator, a pointer parameter it advances); writes through subscripts
  // and pointers are the work.
  static const std::set<std::string> assignments = {"=",  "++", "--", "+=", "-=", "*=", "/=",
                                                    "%=", "<<=", ">>=", "|=", "&=", "^="};
  static const std::set<std::string> scalarWords = {"char", "uchar", "short", "ushort", "int", "uint", "long",
                                                    "ulong", "float", "double", "unsigned", "signed", "const"};
  std::set<std::string> declaredInside;
  for (std::size_t k = close + 2; k + 1 < b.size(); ++k)
    if (b[k].kind == Tok::Ident && scalarWords.count(b[k - 1].text)) declaredInside.insert(b[k].text);
  for (std::size_t k = close + 1; k + 1 < b.size(); ++k) {
    const auto& t = b[k].text;
    if (t == "break" || t == "continue" || t == "return" || t == "goto") return std::nullopt;
    if (b[k].kind != Tok::Ident || declaredInside.count(t)) continue;
    const bool written = assignments.count(b[k + 1].text) || b[k - 1].text == "++" || b[k - 1].text == "--" ||
                         (b[k - 1].text == "&" && t == var);
    const bool throughPointer = b[k - 1].text == "*" && (b[k - 2].text == ";" || b[k - 2].text == "{" ||
                                                         b[k - 2].text == ")" || b[k - 2].text == "}");
    if (written && !throughPointer) return std::nullopt;
  }
  std::string out = "kernel void k_" + f.name + "_items(" + paramList(f.params) + ") {\n  " + join(b, 1, lastFor) +
                    (lastFor > 1 ? "\n  " : "") + (declared.empty() ? "" : declared) + var +
                    " = get_global_id(0);\n  if (" + join(cond, 0, cond.size()) + ") " + join(b, close + 1, b.size() - 1) +
                    "\n}\n";
  return out;
}

// `return E;` becomes `{ result_[get_global_id(0)] = (E); return; }`: each work-item its own result.
std::string resultKernel(const Function& f) {
  std::vector<Param> ps = f.params;
  Param out;
  out.name = "result_";
  out.type = f.returnType;
  out.pointer = true;
  ps.push_back(out);
  std::string body;
  const auto& b = f.body;
  for (std::size_t i = 1; i + 1 < b.size(); ++i) {
    if (b[i].text == "return" && i + 1 < b.size() && b[i + 1].text != ";") {
      const std::size_t e = statementEnd(b, i + 1);
      body += " { result_[get_global_id(0)] = (" + join(b, i + 1, e) + "); return; }";
      i = e;
      continue;
    }
    body += " " + b[i].text;
  }
  return "kernel void k_" + f.name + "_result(" + paramList(ps) + ") {" + body + "\n}\n";
}

} // namespace

void collectScalarTypedefs(const std::string& text, ScalarTypedefs& into) {
  const auto t = lexC(text);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].text != "typedef") continue;
    std::vector<std::string> words;
    std::size_t k = i + 1;
    for (; k < t.size() && t[k].kind == Tok::Ident; ++k) words.push_back(t[k].text);
    if (k >= t.size() || t[k].text != ";" || words.size() < 2) continue;
    const std::string name = words.back();
    words.pop_back();
    words.erase(std::remove_if(words.begin(), words.end(), [](const std::string& w) { return w == "const"; }),
                words.end());
    if (into.count(name)) continue;
    if (const auto type = scalarType(words, into); type && *type != "void") into[name] = *type;
  }
}

MinedFile mineCFunctions(const std::string& text, const ScalarTypedefs& typedefs) {
  MinedFile out;
  const auto t = lexC(text);
  std::vector<Function> functions;
  std::size_t headerStart = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto& k = t[i];
    if (k.kind == Tok::Directive || (k.kind == Tok::Punct && (k.text == ";" || k.text == "}"))) {
      headerStart = i + 1;
      continue;
    }
    if (k.text == "(" || k.text == "[") { // a top-level bracket: skip it whole
      const std::size_t c = closing(t, i);
      if (c == std::string::npos) break;
      i = c;
      continue;
    }
    if (k.text != "{") continue;
    const std::size_t end = closing(t, i);
    if (end == std::string::npos) break;
    // A function definition: words... NAME ( params ) {
    Function f;
    const std::size_t close = i - 1;
    if (i > headerStart + 2 && t[close].text == ")") {
      ++out.functions;
      std::size_t open = close;
      int depth = 0;
      for (std::size_t j = close + 1; j-- > headerStart;) {
        if (t[j].text == ")") ++depth;
        if (t[j].text == "(" && --depth == 0) {
          open = j;
          break;
        }
      }
      if (open > headerStart && open != close && t[open - 1].kind == Tok::Ident) {
        f.name = t[open - 1].text;
        std::vector<std::string> words;
        bool ok = !keyword(f.name);
        for (std::size_t j = headerStart; j + 1 < open && ok; ++j) {
          if (t[j].kind != Tok::Ident) ok = false; // pointer results, attributes, K&R declarations
          else if (!storageWord(t[j].text) && t[j].text != "const") words.push_back(t[j].text);
        }
        const auto type = ok ? scalarType(words, typedefs) : std::nullopt;
        if (type) {
          f.returnType = *type;
          // Parameters, split at top-level commas.
          std::vector<std::vector<Tok>> params(1);
          int d = 0;
          for (std::size_t j = open + 1; j < close; ++j) {
            if (t[j].text == "(" || t[j].text == "[") ++d;
            if (t[j].text == ")" || t[j].text == "]") --d;
            if (d == 0 && t[j].text == ",") params.emplace_back();
            else params.back().push_back(t[j]);
          }
          bool paramsOk = true;
          if (params.size() == 1 && (params[0].empty() || (params[0].size() == 1 && params[0][0].text == "void")))
            params.clear();
          for (const auto& p : params) {
            const auto parsed = parseParam(p, typedefs);
            if (!parsed) {
              paramsOk = false;
              break;
            }
            f.params.push_back(*parsed);
          }
          f.ok = paramsOk;
        }
      }
    }
    if (f.ok) {
      std::set<std::string> paramNames;
      for (auto& p : f.params) {
        paramNames.insert(p.name);
        p.name = renamed(p.name);
      }
      for (std::size_t j = i; j <= end && f.ok; ++j) {
        Tok tok = t[j];
        if (bannedInBody(tok)) f.ok = false;
        else if (tok.kind == Tok::Ident) {
          const bool call = j + 1 <= end && t[j + 1].text == "(";
          if (tok.text == "long" && j + 1 <= end && t[j + 1].text == "double") f.ok = false;
          if (call && !keyword(tok.text)) {
            if (const auto m = mathCalls().find(tok.text); m != mathCalls().end()) tok.text = m->second;
            else f.calls.insert(tok.text); // checked below: must be a mined function of this file
          } else if (!call) {
            if (const auto ty = typedefs.find(tok.text); ty != typedefs.end() && !paramNames.count(tok.text))
              tok.text = ty->second;
            else if (tok.text == "size_t")
              tok.text = "ulong";
            else
              tok.text = renamed(tok.text);
          }
          if (tok.text == "double") out.usesDouble = true;
        }
        f.body.push_back(tok);
      }
      for (const auto& p : f.params)
        out.usesDouble |= p.type == "double";
      out.usesDouble |= f.returnType == "double";
      functions.push_back(std::move(f));
    }
    i = end;
    headerStart = end + 1;
  }
  // Calls only to mined functions of this file (to a fixed point), none to itself.
  for (bool changed = true; changed;) {
    changed = false;
    std::set<std::string> okNames;
    for (const auto& f : functions)
      if (f.ok) okNames.insert(f.name);
    for (auto& f : functions)
      for (const auto& c : f.calls)
        if (f.ok && (!okNames.count(c) || c == f.name)) {
          f.ok = false;
          changed = true;
        }
  }
  std::set<std::string> seen;
  for (const auto& f : functions) {
    if (!f.ok || !seen.insert(f.name).second) continue; // an #ifdef's second definition: the first only
    if (std::count_if(f.body.begin(), f.body.end(), [](const Tok& t) { return t.text == ";"; }) == 0) continue;
    const std::string signature = f.returnType + " " + f.name + "(" + paramList(f.params) + ")";
    out.helpers.push_back(signature + " " + join(f.body, 0, f.body.size()) + "\n");
    if (f.returnType == "void") {
      out.kernels.push_back({f.name, "k_" + f.name, "body kept",
                             "kernel void k_" + f.name + "(" + paramList(f.params) + ") " +
                                 join(f.body, 0, f.body.size()) + "\n"});
      if (const auto items = loopToWorkItems(f))
        out.kernels.push_back({f.name, "k_" + f.name + "_items", "loop to work-items", *items});
    } else {
      out.kernels.push_back({f.name, "k_" + f.name + "_result", "result to memory", resultKernel(f)});
    }
  }
  return out;
}

std::string minedUnit(const MinedFile& file, const std::string& package, const std::string& sourcePath,
                      const std::string& license) {
  std::string out = "// Mined by Steerbench from the C source of Debian package " + package + " (" + license +
                    "): " + sourcePath + "\n";
  for (const auto& k : file.kernels)
    out += "//   " + k.name + ": " + k.function + ", " + k.transformation + "\n";
  if (file.usesDouble) out += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  // Prototypes first: C files call helpers defined further down.
  for (const auto& h : file.helpers)
    out += h.substr(0, h.find(") {") + 1) + ";\n";
  for (const auto& h : file.helpers) out += h;
  for (const auto& k : file.kernels) out += k.text;
  return out;
}

} // namespace steerbench::corpus

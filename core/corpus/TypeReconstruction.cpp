#include "corpus/TypeReconstruction.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>

namespace steerbench::corpus {
namespace {

/// A guess at a scalar type from an identifier's spelling (FLOAT_T, uint_t, idx_t, ...).
std::string scalarFor(const std::string& name) {
  std::string n;
  for (char c : name)
    n += char(std::tolower(static_cast<unsigned char>(c)));
  auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
  if (has("double") || has("f64") || has("dbl")) return "double";
  if (has("half") || has("f16")) return "half";
  if (has("uint") || has("unsigned") || has("u32") || has("word")) return "uint";
  if (has("ulong") || has("u64") || has("size")) return "ulong";
  if (has("long") || has("i64")) return "long";
  if (has("char") || has("byte") || has("u8")) return "uchar";
  if (has("short") || has("u16")) return "ushort";
  if (has("int") || has("idx") || has("index") || has("i32") || has("count") || has("bool")) return "int";
  return "float";
}

/// What reconstruction has inferred so far; renders as a prelude.
struct Model {
  std::vector<std::string> order;                                // names in the order first inferred
  std::map<std::string, std::string> scalarTypedef;              // name -> scalar
  std::map<std::string, std::vector<std::string>> structTypedef; // typedef struct { fields } name
  std::map<std::string, std::vector<std::string>> structTag;     // struct name { fields }
  std::set<std::string> constants;                               // enum { NAME = 16 }
  std::set<std::string> samplers;                                // constant sampler_t NAME
  std::map<std::string, std::vector<std::string>> functions;     // name -> parameter types
  std::set<std::string> known() const {
    std::set<std::string> k(order.begin(), order.end());
    return k;
  }

  std::string render() const {
    std::string out;
    auto fields = [](const std::vector<std::string>& fs) {
      std::string f;
      for (const auto& x : fs)
        f += " float " + x + ";";
      if (fs.empty()) f = " int _unused;";
      return f;
    };
    for (const auto& n : order) {
      if (auto it = structTag.find(n); it != structTag.end())
        out += "struct " + n + " {" + fields(it->second) + " };\n";
    }
    for (const auto& n : order) {
      if (auto it = scalarTypedef.find(n); it != scalarTypedef.end()) out += "typedef " + it->second + " " + n + ";\n";
      if (auto it = structTypedef.find(n); it != structTypedef.end())
        out += "typedef struct {" + fields(it->second) + " } " + n + ";\n";
    }
    for (const auto& n : order) {
      if (constants.count(n)) out += "enum { " + n + " = 16 };\n";
      if (samplers.count(n))
        out += "constant sampler_t " + n +
               " = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n";
    }
    for (const auto& n : order) {
      if (auto it = functions.find(n); it != functions.end()) {
        out += "float " + n + "(";
        for (std::size_t i = 0; i < it->second.size(); ++i)
          out += (i ? ", " : "") + it->second[i];
        if (it->second.empty()) out += "void";
        out += ");\n";
      }
    }
    return out;
  }

  std::vector<std::string> lines() const {
    std::vector<std::string> v;
    const std::string r = render();
    std::size_t p = 0;
    while (p < r.size()) {
      std::size_t e = r.find('\n', p);
      v.push_back(r.substr(p, e - p));
      p = e + 1;
    }
    return v;
  }
};

/// Number of arguments at the first call `name(` in `src`, or -1.
int arityAtFirstCall(const std::string& src, const std::string& name) {
  std::size_t pos = 0;
  while ((pos = src.find(name, pos)) != std::string::npos) {
    const bool startOk = pos == 0 || !(std::isalnum(static_cast<unsigned char>(src[pos - 1])) || src[pos - 1] == '_');
    std::size_t q = pos + name.size();
    while (q < src.size() && std::isspace(static_cast<unsigned char>(src[q])))
      ++q;
    if (startOk && q < src.size() && src[q] == '(') {
      int depth = 0, commas = 0;
      bool any = false;
      for (std::size_t i = q; i < src.size(); ++i) {
        const char c = src[i];
        if (c == '(' || c == '[' || c == '{')
          ++depth;
        else if (c == ')' || c == ']' || c == '}') {
          if (--depth == 0) return any ? commas + 1 : 0;
        } else if (c == ',' && depth == 1)
          ++commas;
        else if (depth >= 1 && !std::isspace(static_cast<unsigned char>(c)))
          any = true;
      }
      return -1;
    }
    pos += name.size();
  }
  return -1;
}

/// True when `name` is followed by a declarator somewhere (`name x`, `name *x`).
bool usedAsType(const std::string& src, const std::string& name) {
  const std::regex decl("(^|[^A-Za-z0-9_.>])" + name + "\\s*\\**\\s+\\**\\s*[A-Za-z_]\\w*\\s*([=;,\\[)])");
  return std::regex_search(src, decl);
}

} // namespace

Reconstruction reconstructDeclarations(const std::string& source, const std::string& name,
                                       const clangfe::CompileOptions& options, bool enabled, int maxRounds,
                                       clangfe::AstObserver* observer) {
  Reconstruction r;
  Model model;
  static const std::regex unknownType(R"(unknown type name '([A-Za-z_]\w*)')");
  static const std::regex undeclared(R"(use of undeclared identifier '([A-Za-z_]\w*)')");
  static const std::regex implicitFn(R"(implicit declaration of function '([A-Za-z_]\w*)')");
  static const std::regex notStruct(
      R"(member reference (?:base )?type '(?:(?:__global|__local|__constant|__private|__generic|const|volatile) )*([A-Za-z_]\w*)(?: \*)?'.* is not a (?:structure or union|pointer))");
  static const std::regex noMember(R"(no member named '([A-Za-z_]\w*)' in '(?:struct )?([A-Za-z_]\w*)')");
  static const std::regex incompleteStruct(
      R"(incomplete (?:definition of )?type '(?:(?:__global|__local|__constant|__private|__generic|const|volatile) )*struct ([A-Za-z_]\w*)')");
  static const std::regex paramType(R"(passing '([^']+)' to parameter of incompatible type 'float')");

  for (int round = 0; round < maxRounds; ++round) {
    const std::string prelude = model.render();
    clangfe::CompileRequest req;
    req.source = prelude.empty() ? source : prelude + "\n" + source;
    req.fileName = name;
    req.options = options;
    req.emitIR = false;
    req.observer = observer;
    const clangfe::CompileResult c = clangfe::compile(req);
    if (c.succeeded()) {
      r.compiled = true;
      r.compiledAsIs = round == 0;
      r.prelude = prelude;
      if (!prelude.empty()) r.added = model.lines();
      return r;
    }
    r.firstError = c.firstError();
    if (!enabled) return r;
    bool changed = false;
    auto learn = [&](const std::string& n) {
      if (std::find(model.order.begin(), model.order.end(), n) == model.order.end()) model.order.push_back(n);
    };
    for (const auto& d : c.diagnostics()) {
      if (d.severity != clangfe::Severity::Error && d.severity != clangfe::Severity::Fatal) continue;
      std::smatch m;
      const std::string& msg = d.message;
      if (std::regex_search(msg, m, unknownType)) {
        const std::string n = m[1];
        if (!model.known().count(n)) {
          learn(n);
          model.scalarTypedef[n] = scalarFor(n);
          changed = true;
        }
      } else if (std::regex_search(msg, m, implicitFn)) {
        const std::string n = m[1];
        if (!model.functions.count(n)) {
          learn(n);
          const int arity = std::max(0, arityAtFirstCall(source, n));
          model.functions[n] = std::vector<std::string>(std::size_t(arity), "float");
          changed = true;
        }
      } else if (std::regex_search(msg, m, undeclared) && arityAtFirstCall(source, m[1]) >= 0) {
        // OpenCL has no implicit declarations: a call to an unknown function
        // is an undeclared identifier followed by '('.
        const std::string n = m[1];
        if (!model.functions.count(n)) {
          learn(n);
          model.functions[n] = std::vector<std::string>(std::size_t(arityAtFirstCall(source, n)), "float");
          changed = true;
        }
      } else if (std::regex_search(msg, m, undeclared) && usedAsType(source, m[1])) {
        // `idx_t i = ...` at the start of a statement reads as an identifier.
        const std::string n = m[1];
        if (!model.known().count(n)) {
          learn(n);
          model.scalarTypedef[n] = scalarFor(n);
          changed = true;
        }
      } else if (std::regex_search(msg, m, undeclared)) {
        const std::string n = m[1];
        if (!model.known().count(n)) {
          learn(n);
          std::string lower;
          for (char ch : n)
            lower += char(std::tolower(static_cast<unsigned char>(ch)));
          // An integer where a sampler is expected trips Clang 15: declare a sampler.
          if (lower.find("sampler") != std::string::npos || lower.find("smp") != std::string::npos)
            model.samplers.insert(n);
          else
            model.constants.insert(n);
          changed = true;
        }
      } else if (std::regex_search(msg, m, notStruct)) {
        const std::string n = m[1];
        if (model.scalarTypedef.count(n)) { // we guessed a scalar; it is a struct
          model.scalarTypedef.erase(n);
          model.structTypedef[n];
          changed = true;
        }
      } else if (std::regex_search(msg, m, noMember)) {
        const std::string field = m[1], type = m[2];
        for (auto* map : {&model.structTypedef, &model.structTag}) {
          auto it = map->find(type);
          if (it != map->end() && std::find(it->second.begin(), it->second.end(), field) == it->second.end()) {
            it->second.push_back(field);
            changed = true;
          }
        }
      } else if (std::regex_search(msg, m, incompleteStruct)) {
        const std::string n = m[1];
        if (!model.structTag.count(n)) {
          learn(n);
          model.structTag[n];
          changed = true;
        }
      }
    }
    // A pointer (or vector) passed where a guessed prototype says float: the
    // note after the error points at that parameter in the prelude; take the
    // argument's type for it.
    for (std::size_t i = 0; i + 1 < c.diagnostics().size(); ++i) {
      const auto& d = c.diagnostics()[i];
      const auto& note = c.diagnostics()[i + 1];
      std::smatch m;
      if (!std::regex_search(d.message, m, paramType) || note.severity != clangfe::Severity::Note) continue;
      if (note.line == 0) continue;
      // The prelude line the note points at is a function declaration of ours.
      const auto lines = model.lines();
      if (note.line > lines.size()) continue;
      const std::string& declLine = lines[note.line - 1];
      for (auto& [fn, params] : model.functions) {
        if (declLine.rfind("float " + fn + "(", 0) != 0) continue;
        // Which parameter: count commas before the note's column.
        const std::size_t col = note.column ? note.column - 1 : 0;
        const std::size_t open = declLine.find('(');
        std::size_t index = 0;
        for (std::size_t k = open; k < col && k < declLine.size(); ++k)
          if (declLine[k] == ',') ++index;
        const std::string t = m[1];
        if (index < params.size() && params[index] != t) {
          params[index] = t;
          changed = true;
        }
      }
    }
    if (!changed) break; // every inference sets `changed`: nothing new to try
  }
  return r;
}

} // namespace steerbench::corpus

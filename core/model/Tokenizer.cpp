#include "model/Tokenizer.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "common/Version.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/JSON.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace steerbench::model {

struct Tokenizer::Index {
  std::unordered_map<std::string, int> words;
  std::array<int, 256> chars{};
};

namespace {

const char* const kMetaNames[Tokenizer::kMetaCount] = {"[PAD]",     "[START]", "[END]",   "[HOLE]",
                                                       "[ENDHOLE]", "[MASK]",  "[SPACE]", "[UNK]"};

// OpenCL C keywords, qualifiers and punctuators: always words.
const char* const kFixedWords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern", "float",
    "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
    "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool", "half",
    "uchar", "ushort", "uint", "ulong", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "true", "false", "kernel",
    "__kernel", "global", "__global", "local", "__local", "constant", "__constant", "private", "__private", "generic",
    "__generic", "read_only", "__read_only", "write_only", "__write_only", "read_write", "__read_write",
    "__attribute__", "pragma", "OPENCL", "EXTENSION", "enable", "disable", "define", "ifdef", "ifndef", "endif",
    "undef", "elif", "include",
    // punctuators
    "[", "]", "(", ")", "{", "}", ".", "->", "++", "--", "&", "*", "+", "-", "~", "!", "/", "%", "<<", ">>", "<", ">",
    "<=", ">=", "==", "!=", "^", "|", "&&", "||", "?", ":", ";", "...", "=", "*=", "/=", "%=", "+=", "-=", "<<=",
    ">>=", "&=", "^=", "|=", ",", "#", "##",
    // the end of a preprocessor line or a // comment
    "\n"};

clang::LangOptions openclLang() {
  clang::LangOptions lang;
  lang.OpenCL = 1;
  lang.OpenCLVersion = 120;
  lang.C99 = 1;
  lang.LineComment = 1;
  return lang;
}

/// One lexical unit of the text: its spelling and what kind it is.
struct Unit {
  std::string text;
  enum Kind { Identifier, Number, Literal, Punct, Comment, Newline, Hole } kind = Punct;
};

/// Lexes `text` (raw: no preprocessing) into units, with a Newline unit
/// around preprocessor lines and after // comments, and a Hole unit for
/// every literal "[HOLE]".
std::vector<Unit> lexUnits(const std::string& text) {
  std::vector<Unit> out;
  static const std::string holeMark = "[HOLE]";
  std::size_t from = 0;
  for (;;) {
    const std::size_t hole = text.find(holeMark, from);
    const std::string piece = text.substr(from, hole == std::string::npos ? std::string::npos : hole - from);
    static const clang::LangOptions lang = openclLang();
    clang::Lexer lex(clang::SourceLocation(), lang, piece.data(), piece.data(), piece.data() + piece.size());
    lex.SetCommentRetentionState(true);
    clang::Token tok;
    bool inDirective = false;
    for (;;) {
      const bool last = lex.LexFromRawLexer(tok);
      if (tok.is(clang::tok::eof)) break;
      if (inDirective && tok.isAtStartOfLine()) {
        out.push_back({"\n", Unit::Newline});
        inDirective = false;
      }
      if (tok.is(clang::tok::hash) && tok.isAtStartOfLine()) {
        if (!out.empty() && out.back().kind != Unit::Newline) out.push_back({"\n", Unit::Newline});
        inDirective = true;
      }
      // The lexer stands just after the token: its spelling is the bytes before.
      const std::string spelling(lex.getBufferLocation() - tok.getLength(), tok.getLength());
      Unit u{spelling, Unit::Punct};
      switch (tok.getKind()) {
      case clang::tok::raw_identifier: u.kind = Unit::Identifier; break;
      case clang::tok::numeric_constant: u.kind = Unit::Number; break;
      case clang::tok::comment: u.kind = Unit::Comment; break;
      default:
        if (tok.isLiteral()) u.kind = Unit::Literal;
        break;
      }
      out.push_back(u);
      if (u.kind == Unit::Comment && spelling.rfind("//", 0) == 0) out.push_back({"\n", Unit::Newline});
      if (last) break;
    }
    if (inDirective) out.push_back({"\n", Unit::Newline});
    if (hole == std::string::npos) break;
    out.push_back({holeMark, Unit::Hole});
    from = hole + holeMark.size();
  }
  return out;
}

/// Identifiers the OpenCL headers of Clang declare: builtin functions and types.
const std::set<std::string>& builtinNames() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    for (const char* header : {"opencl-c-base.h", "opencl-c.h"}) {
      std::ifstream in(std::string(kClangResourceDir) + "/include/" + header);
      std::stringstream s;
      s << in.rdbuf();
      for (const auto& u : lexUnits(s.str()))
        if (u.kind == Unit::Identifier && u.text.rfind("__", 0) != 0) out.insert(u.text);
    }
    return out;
  }();
  return names;
}

[[noreturn]] void bad(const std::string& name, const std::string& what) {
  throw InputError("tokenizer " + name + ": " + what);
}

} // namespace

void Tokenizer::index() {
  auto idx = std::make_shared<Index>();
  idx->chars.fill(kUnknown);
  for (int i = kMetaCount; i < firstChar_; ++i)
    idx->words.emplace(tokens_[std::size_t(i)], i);
  for (int i = firstChar_; i < size(); ++i)
    idx->chars[std::size_t(static_cast<unsigned char>(tokens_[std::size_t(i)][0]))] = i;
  index_ = std::move(idx);
}

Tokenizer Tokenizer::build(const std::vector<std::string>& kernels, const Options& options) {
  Tokenizer t;
  t.options_ = options;
  for (const char* m : kMetaNames)
    t.tokens_.emplace_back(m);
  std::set<std::string> words;
  for (const char* w : kFixedWords)
    if (words.insert(w).second) t.tokens_.emplace_back(w);
  std::map<std::string, unsigned> counts;
  std::set<unsigned char> bytes;
  for (int c = 0x20; c < 0x7f; ++c)
    bytes.insert(static_cast<unsigned char>(c));
  for (unsigned char c : {'\t', '\n', '\r'})
    bytes.insert(c);
  std::string all;
  for (const auto& k : kernels) {
    all += k;
    all += '\0';
    for (const auto& u : lexUnits(k)) {
      if (u.kind == Unit::Identifier || u.kind == Unit::Number) ++counts[u.text];
      for (unsigned char c : u.text)
        bytes.insert(c);
    }
  }
  t.corpusHash_ = sha256Hex(all);
  // Builtin names the corpus uses, then the most frequent other names and numbers.
  const auto& builtins = builtinNames();
  std::vector<std::pair<unsigned, std::string>> frequent;
  for (const auto& [text, n] : counts) {
    if (words.count(text)) continue;
    if (builtins.count(text))
      words.insert(text), t.tokens_.push_back(text);
    else if (n >= options.minCount)
      frequent.emplace_back(n, text);
  }
  std::stable_sort(frequent.begin(), frequent.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < frequent.size() && i < options.maxWords; ++i)
    t.tokens_.push_back(frequent[i].second);
  t.firstChar_ = int(t.tokens_.size());
  for (unsigned char c : bytes)
    t.tokens_.emplace_back(1, static_cast<char>(c));
  t.index();
  return t;
}

std::vector<int> Tokenizer::encode(const std::string& text) const {
  std::vector<int> ids;
  bool lastSpelled = false, afterHole = false;
  for (const auto& u : lexUnits(text)) {
    if (u.kind == Unit::Hole) {
      // A spelled unit next to a hole is kept apart from it, so that closing
      // the hole cannot glue the characters on its two sides together.
      if (lastSpelled) ids.push_back(kSpace);
      ids.push_back(kHole);
      lastSpelled = false;
      afterHole = true;
      continue;
    }
    if (u.kind != Unit::Comment && u.kind != Unit::Literal) {
      if (auto it = index_->words.find(u.text); it != index_->words.end()) {
        ids.push_back(it->second);
        lastSpelled = afterHole = false;
        continue;
      }
    }
    if (lastSpelled || afterHole) ids.push_back(kSpace); // two spelled units in a row stay apart
    for (unsigned char c : u.text)
      ids.push_back(index_->chars[c]);
    lastSpelled = true;
    afterHole = false;
  }
  return ids;
}

std::string Tokenizer::decode(const std::vector<int>& ids) const {
  std::string out;
  bool prevChar = false;
  auto separate = [&] {
    if (!out.empty() && out.back() != ' ' && out.back() != '\n') out += ' ';
  };
  for (int id : ids) {
    if (id < 0 || id >= size()) continue;
    if (id == kSpace) {
      out += ' ';
      prevChar = false;
    } else if (id == kHole || id == kEndHole || id == kUnknown) {
      separate();
      out += id == kUnknown ? std::string("?") : tokens_[std::size_t(id)];
      prevChar = false;
    } else if (id < kMetaCount) {
      continue;
    } else if (isChar(id)) {
      if (!prevChar) separate();
      out += tokens_[std::size_t(id)];
      prevChar = true;
    } else if (tokens_[std::size_t(id)] == "\n") {
      out += '\n';
      prevChar = false;
    } else {
      separate();
      out += tokens_[std::size_t(id)];
      prevChar = false;
    }
  }
  return out;
}

std::string Tokenizer::toJson() const {
  llvm::json::Array meta, words, chars;
  for (int i = 0; i < kMetaCount; ++i)
    meta.push_back(tokens_[std::size_t(i)]);
  for (int i = kMetaCount; i < firstChar_; ++i)
    words.push_back(tokens_[std::size_t(i)]);
  for (int i = firstChar_; i < size(); ++i)
    chars.push_back(std::int64_t(static_cast<unsigned char>(tokens_[std::size_t(i)][0])));
  llvm::json::Object root{{"format", "steerbench-tokenizer"},
                          {"version", kFormatVersion},
                          {"options", llvm::json::Object{{"min_count", std::int64_t(options_.minCount)},
                                                         {"max_words", std::int64_t(options_.maxWords)}}},
                          {"corpus_sha256", corpusHash_},
                          {"meta", std::move(meta)},
                          {"words", std::move(words)},
                          {"chars", std::move(chars)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  os.flush();
  return text + "\n";
}

Tokenizer Tokenizer::fromJson(const std::string& json, const std::string& name) {
  auto parsed = llvm::json::parse(json);
  if (!parsed) bad(name, "is not JSON (" + llvm::toString(parsed.takeError()) + ")");
  const auto* root = parsed->getAsObject();
  if (!root || root->getString("format") != llvm::StringRef("steerbench-tokenizer"))
    bad(name, "is not a Steerbench tokenizer (no \"format\": \"steerbench-tokenizer\")");
  const auto version = root->getInteger("version");
  if (!version || *version < 1) bad(name, "has no valid \"version\"");
  if (*version > kFormatVersion)
    bad(name, "was written by a newer Steerbench (format version " + std::to_string(*version) + ", this one reads " +
                  std::to_string(kFormatVersion) + "); update Steerbench or rebuild the tokenizer");
  const auto* meta = root->getArray("meta");
  const auto* words = root->getArray("words");
  const auto* chars = root->getArray("chars");
  if (!meta || !words || !chars) bad(name, "lacks its \"meta\", \"words\" or \"chars\" list");
  if (meta->size() != std::size_t(kMetaCount)) bad(name, "has " + std::to_string(meta->size()) + " meta tokens, expected 8");
  Tokenizer t;
  for (std::size_t i = 0; i < meta->size(); ++i) {
    const auto s = (*meta)[i].getAsString();
    if (!s || *s != kMetaNames[i]) bad(name, "meta token " + std::to_string(i) + " is not " + kMetaNames[i]);
    t.tokens_.push_back(s->str());
  }
  std::set<std::string> seen;
  for (const auto& w : *words) {
    const auto s = w.getAsString();
    if (!s || s->empty() || !seen.insert(s->str()).second) bad(name, "has an empty, duplicate or non-text word");
    t.tokens_.push_back(s->str());
  }
  t.firstChar_ = int(t.tokens_.size());
  std::set<std::int64_t> seenChars;
  for (const auto& c : *chars) {
    const auto v = c.getAsInteger();
    if (!v || *v < 0 || *v > 255 || !seenChars.insert(*v).second) bad(name, "has a bad character code");
    t.tokens_.emplace_back(1, static_cast<char>(*v));
  }
  if (const auto* o = root->getObject("options")) {
    t.options_.minCount = unsigned(o->getInteger("min_count").value_or(t.options_.minCount));
    t.options_.maxWords = unsigned(o->getInteger("max_words").value_or(t.options_.maxWords));
  }
  t.corpusHash_ = root->getString("corpus_sha256").value_or("").str();
  t.index();
  return t;
}

Tokenizer Tokenizer::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read tokenizer " + path + ": " + std::strerror(errno));
  std::stringstream s;
  s << in.rdbuf();
  return fromJson(s.str(), path);
}

void Tokenizer::save(const std::string& path) const {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << toJson();
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw InputError("cannot write tokenizer " + path + " (disk full or no permission?); nothing was changed");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw InputError("cannot write tokenizer " + path + ": " + ec.message());
}

std::string Tokenizer::hash() const { return sha256Hex(toJson()); }

bool sameTokens(const std::string& a, const std::string& b) {
  auto spellings = [](const std::string& text) {
    std::vector<std::string> out;
    for (auto& u : lexUnits(text))
      if (u.kind != Unit::Newline) out.push_back(std::move(u.text));
    return out;
  };
  return spellings(a) == spellings(b);
}

std::string tokenKey(const std::string& text) {
  std::string key;
  for (const auto& u : lexUnits(text)) {
    if (u.kind == Unit::Newline) continue;
    if (!key.empty()) key += ' ';
    key += u.text;
  }
  return key;
}

} // namespace steerbench::model

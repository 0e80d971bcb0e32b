#include "corpus/SourceFormatting.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>

#include <cctype>

namespace steerbench::corpus {

std::string canonicalKeywords(const std::string& text);

std::string formatSource(const std::string& input) {
  const std::string text = canonicalKeywords(input);
  clang::format::FormatStyle style = clang::format::getLLVMStyle();
  style.ColumnLimit = 100;
  style.SortIncludes = clang::format::FormatStyle::SI_Never;
  const auto replacements = clang::format::reformat(style, text, {clang::tooling::Range(0, unsigned(text.size()))});
  auto formatted = clang::tooling::applyAllReplacements(text, replacements);
  if (!formatted) {
    llvm::consumeError(formatted.takeError());
    return text;
  }
  return *formatted;
}

std::string foldWhitespace(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

} // namespace steerbench::corpus

#include "common/ContentHash.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>

#include <map>
#include <regex>
#include <set>

namespace steerbench::corpus {
namespace {
clang::LangOptions openclLang() {
  clang::LangOptions lang;
  lang.OpenCL = 1;
  lang.OpenCLVersion = 120;
  lang.C99 = 1;
  return lang;
}

template <class F> void forEachToken(const std::string& text, F&& f) {
  static const clang::LangOptions lang = openclLang();
  clang::Lexer lex(clang::SourceLocation(), lang, text.data(), text.data(), text.data() + text.size());
  clang::Token tok;
  for (;;) {
    const bool end = lex.LexFromRawLexer(tok);
    if (tok.isNot(clang::tok::eof)) f(tok);
    if (end || tok.is(clang::tok::eof)) break;
  }
}
} // namespace

/// One spelling for OpenCL's qualifiers: `__global` and `global` are the
/// same keyword, so the corpus always uses the short one.
std::string canonicalKeywords(const std::string& text) {
  static const std::map<std::string, std::string> shortName = {
      {"__kernel", "kernel"},         {"__global", "global"},        {"__local", "local"},
      {"__constant", "constant"},     {"__private", "private"},      {"__read_only", "read_only"},
      {"__write_only", "write_only"}, {"__read_write", "read_write"}};
  std::string out;
  std::size_t last = 0;
  forEachToken(text, [&](const clang::Token& tok) {
    if (tok.isNot(clang::tok::raw_identifier)) return;
    auto it = shortName.find(tok.getRawIdentifier().str());
    if (it == shortName.end()) return;
    const std::size_t at = std::size_t(tok.getRawIdentifier().data() - text.data());
    out.append(text, last, at - last);
    out += it->second;
    last = at + it->first.size();
  });
  out.append(text, last, std::string::npos);
  return out;
}

unsigned countTokens(const std::string& text) {
  unsigned n = 0;
  forEachToken(text, [&](const clang::Token&) { ++n; });
  return n;
}

std::string templateFamily(const std::string& text) {
  std::string skeleton;
  forEachToken(text, [&](const clang::Token& tok) {
    switch (tok.getKind()) {
    case clang::tok::raw_identifier: {
      // Type names are abstracted (piglit's per-type copies), other keywords kept.
      static const std::regex typeName(
          "(unsigned|signed|u?char|u?short|u?int|u?long|half|float|double|bool|size_t|ptrdiff_t)([0-9]+)?");
      const std::string name = tok.getRawIdentifier().str();
      static const std::set<std::string> keywords = {
          "if",       "else",       "for",     "while",     "do",       "switch", "case",     "default", "break",
          "continue", "return",     "goto",    "struct",    "union",    "enum",   "typedef",  "const",   "volatile",
          "restrict", "static",     "inline",  "kernel",    "__kernel", "global", "__global", "local",   "__local",
          "constant", "__constant", "private", "__private", "void",     "sizeof"};
      if (std::regex_match(name, typeName))
        skeleton += "T ";
      else if (keywords.count(name))
        skeleton += name + " ";
      else
        skeleton += "I ";
      break;
    }
    case clang::tok::numeric_constant: skeleton += "N "; break;
    case clang::tok::char_constant:
    case clang::tok::string_literal: skeleton += "S "; break;
    default: skeleton += std::string(clang::tok::getTokenName(tok.getKind())) + " ";
    }
  });
  return sha256Hex(skeleton).substr(0, 16);
}

} // namespace steerbench::corpus

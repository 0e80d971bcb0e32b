// The model's vocabulary: OpenCL C lexed with Clang's raw lexer into words
// (keywords, punctuators, builtin names, frequent identifiers and literals)
// and, for everything else, single characters. Saved as versioned JSON.
//
// Decoding joins words with spaces and glues consecutive characters, so a
// decoded kernel has the same tokens as the original, up to whitespace.
// Thread-safety: immutable after build/load; safe to share between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace steerbench::model {

class Tokenizer {
public:
  static constexpr int kFormatVersion = 1;

  struct Options {
    unsigned minCount = 20;  ///< identifiers and literals seen at least this often become words
    unsigned maxWords = 4000; ///< at most this many words from the corpus (most frequent first)
  };

  /// Builds a vocabulary from corpus kernels. The OpenCL keywords and
  /// punctuators are always words; builtin names (every identifier Clang's
  /// OpenCL headers declare) are words when the corpus uses them.
  [[nodiscard]] static Tokenizer build(const std::vector<std::string>& kernels, const Options& options);
  /// Reads a tokenizer saved by save(). Throws InputError naming the file
  /// and what is wrong (not JSON, another format, a newer version).
  [[nodiscard]] static Tokenizer load(const std::string& path);
  [[nodiscard]] static Tokenizer fromJson(const std::string& json, const std::string& name);
  /// Writes atomically (a temporary file renamed over the target).
  void save(const std::string& path) const;
  [[nodiscard]] std::string toJson() const;
  /// sha256 of toJson(): identifies the vocabulary in checkpoints and samples.
  [[nodiscard]] std::string hash() const;

  /// Token ids of an OpenCL C text. A literal "[HOLE]" in the text becomes
  /// the hole token. No [START]/[END] are added.
  [[nodiscard]] std::vector<int> encode(const std::string& text) const;
  /// The text of token ids; meta tokens other than [HOLE] and [ENDHOLE] are dropped.
  [[nodiscard]] std::string decode(const std::vector<int>& ids) const;

  [[nodiscard]] int size() const { return int(tokens_.size()); }
  [[nodiscard]] const std::string& text(int id) const { return tokens_.at(std::size_t(id)); }
  /// True for single-character tokens (glued to neighbouring characters).
  [[nodiscard]] bool isChar(int id) const { return id >= firstChar_; }
  [[nodiscard]] int wordCount() const { return firstChar_ - kMetaCount; }
  /// Cuts in token ids moved out of spelled lexemes (runs of character
  /// tokens): back to the lexeme's first token, or on past its last. Text
  /// decoded from part of a spelled lexeme lexes differently.
  [[nodiscard]] std::size_t lexemeStart(const std::vector<int>& ids, std::size_t at) const {
    while (splitsLexeme(ids, at))
      --at;
    return at;
  }
  [[nodiscard]] std::size_t lexemeEnd(const std::vector<int>& ids, std::size_t at) const {
    while (splitsLexeme(ids, at))
      ++at;
    return at;
  }
  /// True when a cut before ids[at] falls between two character tokens.
  [[nodiscard]] bool splitsLexeme(const std::vector<int>& ids, std::size_t at) const {
    return at > 0 && at < ids.size() && isChar(ids[at]) && isChar(ids[at - 1]);
  }
  [[nodiscard]] int charCount() const { return size() - firstChar_; }

  // Meta tokens, at fixed ids.
  static constexpr int kPad = 0, kStart = 1, kEnd = 2, kHole = 3, kEndHole = 4, kMask = 5, kSpace = 6, kUnknown = 7;
  static constexpr int kMetaCount = 8;

private:
  void index();
  std::vector<std::string> tokens_; ///< meta, then words, then characters
  int firstChar_ = kMetaCount;
  Options options_;
  std::string corpusHash_;
  struct Index;
  std::shared_ptr<const Index> index_;
};

/// True when both texts lex to the same token spellings (whitespace and
/// comments' layout aside): the round-trip criterion.
[[nodiscard]] bool sameTokens(const std::string& a, const std::string& b);

/// The token spellings of a text joined by single spaces: equal for two texts
/// exactly when sameTokens() holds (for sets of kernels, e.g. copy detection).
[[nodiscard]] std::string tokenKey(const std::string& text);

} // namespace steerbench::model

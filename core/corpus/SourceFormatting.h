// One consistent layout for corpus kernels (clang-format, LLVM style).
#pragma once

#include <string>

namespace steerbench::corpus {

/// Formats OpenCL C text; returns it unchanged if formatting fails. Thread-safe.
[[nodiscard]] std::string formatSource(const std::string& text);

/// Folds every run of whitespace to one space and trims: the text dedupe hashes.
[[nodiscard]] std::string foldWhitespace(const std::string& text);

} // namespace steerbench::corpus

namespace steerbench::corpus {
/// Number of OpenCL C tokens in `text` (raw lexing: no preprocessing).
[[nodiscard]] unsigned countTokens(const std::string& text);

/// A family key for near-duplicates: the token sequence with every
/// identifier and literal replaced by its kind, hashed. Kernels generated
/// from one template (piglit's per-type tests, hashcat's variants) share it.
[[nodiscard]] std::string templateFamily(const std::string& text);
} // namespace steerbench::corpus

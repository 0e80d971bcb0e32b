// Compiler checks of many small kernels for the price of few compiles.
//
// Sampling checks each statement a row ends by compiling the kernel so far
// (firstErrorOffsetWith), several rows a step. A compile's fixed cost (the
// compiler's start, the OpenCL header's precompiled AST) is most of a small
// kernel's check, so the texts that hold one kernel and nothing else are
// compiled together in one translation unit, each kernel renamed, and only
// a text that unit finds in error is compiled again alone for its verdict.
// The verdicts are those of firstErrorOffsetWith, text by text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace steerbench::clangfe {

/// firstErrorOffsetWith(source, warnings) of each source, in order. Texts
/// that batchableKernel accepts are compiled together (a translation unit
/// of up to `batch` of them); one whose lines hold an error there, and every
/// other text, is compiled alone. When the unit's outcome cannot be
/// attributed text by text (a fatal error, an error outside every text's
/// lines, more errors than were kept, a crash), all are compiled alone.
/// Thread-safe.
[[nodiscard]] std::vector<std::size_t> firstErrorOffsets(const std::vector<std::string>& sources,
                                                         const std::vector<std::string>& warnings = {},
                                                         std::size_t batch = 16);

/// Where a text's kernel name is (byte offset and length), when the text is
/// one kernel and nothing else, so that it can share a translation unit with
/// others under another name: `kernel` or `__kernel` first, the name before
/// the first `(`, the body's `{` right after the matching `)`, its matching
/// `}` last; no preprocessor line, comment, character or string literal, and
/// no `;` or brace before the parameters, and the name nowhere else. Otherwise none.
struct KernelName {
  std::size_t at = 0, length = 0;
};
[[nodiscard]] std::optional<KernelName> batchableKernel(const std::string& source);

} // namespace steerbench::clangfe

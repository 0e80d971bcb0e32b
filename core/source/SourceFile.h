// Reading OpenCL source files safely: size cap, binary and encoding checks.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace steerbench::source {

struct ReadLimits {
  /// Files larger than this are refused. Real kernels are far smaller; a huge
  /// file is almost always generated data or a mistake.
  std::size_t maxBytes = 4u << 20;
};

/// Reads `path` as OpenCL C text. Throws InputError, naming the file, when it
/// does not exist, is empty, is larger than `limits.maxBytes`, holds NUL
/// bytes (binary), or is not valid UTF-8. Thread-safe.
[[nodiscard]] std::string readSourceFile(const std::string& path, const ReadLimits& limits = {});

/// Checks text already in memory with the same rules as readSourceFile.
/// `name` is used in messages. Throws InputError.
void checkSourceText(std::string_view text, const std::string& name, const ReadLimits& limits = {});

/// Returns the byte offset of the first invalid UTF-8 sequence, or npos.
[[nodiscard]] std::size_t firstInvalidUtf8(std::string_view text);

} // namespace steerbench::source

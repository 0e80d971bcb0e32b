// SHA-256 content hashes, as lower-case hex, for sources and other blobs.
#pragma once

#include <string>
#include <string_view>

namespace steerbench {

/// Returns the SHA-256 of `bytes` as 64 lower-case hex digits. Thread-safe.
[[nodiscard]] std::string sha256Hex(std::string_view bytes);
/// The sha256 (lowercase hex) of a file's bytes; empty when it cannot be read.
[[nodiscard]] std::string sha256OfFile(const std::string& path);

} // namespace steerbench

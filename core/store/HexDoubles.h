// Feature vectors are stored as BLOBs of little-endian float64 values; the
// text queries of reports (Workspace::rows) read them through SQLite's
// hex(). This turns such text back into the numbers.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace steerbench::store {

/// The values of `hex`, the text SQLite's hex() gives for a BLOB of
/// little-endian float64 values (16 hex digits a value; a trailing partial
/// value is dropped). Throws std::invalid_argument on a non-hex digit.
inline std::vector<double> doublesFromHex(const std::string& hex) {
  std::vector<double> out(hex.size() / 16);
  for (std::size_t i = 0; i < out.size(); ++i) {
    unsigned char bytes[8];
    for (std::size_t b = 0; b < 8; ++b)
      bytes[b] = (unsigned char)std::stoi(hex.substr(16 * i + 2 * b, 2), nullptr, 16);
    std::memcpy(&out[i], bytes, 8);
  }
  return out;
}

} // namespace steerbench::store

// Small text encoders shared by the CLI and exports: CSV fields, JSON strings, numbers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>
#include <string_view>

namespace steerbench {

/// Quotes a CSV field when it holds a comma, quote or newline (RFC 4180).
[[nodiscard]] std::string csvField(std::string_view s);

/// A JSON string literal, with the quotes.
[[nodiscard]] std::string jsonString(std::string_view s);

/// Shortest text that reads back to the same double; integers print without ".0".
[[nodiscard]] std::string formatNumber(double v);
/// A share for people, to 0.1%: "100%" only when it is exactly 1 (0.99996
/// shows as 99.9%); "-" when it is not a number (none), "-inf" when minus infinity.
[[nodiscard]] std::string formatPercent(double share);
/// A JSON array of numbers, each as formatNumber writes it.
[[nodiscard]] std::string jsonNumbers(const std::vector<double>& values);
/// Sizes as a JSON array: [4096,65536].
[[nodiscard]] std::string jsonSizes(const std::vector<std::uint64_t>& values);

} // namespace steerbench

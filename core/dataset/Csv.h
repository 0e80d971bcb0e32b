// RFC 4180 CSV reading: quoted fields may hold commas, quotes and newlines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace steerbench::dataset {

using CsvRow = std::vector<std::string>;

/// Parses all of `text`. Throws InputError naming `name` and the line of an
/// unterminated quoted field.
[[nodiscard]] std::vector<CsvRow> parseCsv(std::string_view text, const std::string& name);

/// Reads and parses the file at `path`. Throws InputError.
[[nodiscard]] std::vector<CsvRow> readCsvFile(const std::string& path);

} // namespace steerbench::dataset

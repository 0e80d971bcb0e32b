// The workspace schema: its identity and the migrations between versions.
#pragma once

#include <cstdint>
#include <vector>

namespace steerbench::store {

/// PRAGMA application_id of every workspace: "STBW" in ASCII.
inline constexpr std::int32_t kApplicationId = 0x53544257;

/// migrations()[i] upgrades a workspace from schema i to i + 1; the current
/// schema version is migrations().size(). Append only: never edit a
/// migration that has shipped.
[[nodiscard]] const std::vector<const char*>& migrations();

} // namespace steerbench::store

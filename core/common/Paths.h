// Where Steerbench keeps things on this machine (XDG base directories).
#pragma once

#include <string>

namespace steerbench {

/// $XDG_DATA_HOME/steerbench, or ~/.local/share/steerbench.
[[nodiscard]] std::string dataDir();
/// $XDG_CACHE_HOME/steerbench, or ~/.cache/steerbench.
[[nodiscard]] std::string cacheDir();
/// The default workspace: dataDir()/default.sbw.
[[nodiscard]] std::string defaultWorkspacePath();

/// The folder of the DevMap reference CSVs: $STEERBENCH_DEVMAP_DIR, else the
/// source checkout's ../shared/data/devmap. Empty when neither exists.
[[nodiscard]] std::string devmapDir();
} // namespace steerbench

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

} // namespace steerbench

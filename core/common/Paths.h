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

/// The default model the project ships: $STEERBENCH_MODEL when set, else
/// PREFIX/share/steerbench/models/default.ckpt beside an installed binary,
/// else the source checkout's resources/models/default.ckpt. Empty when none exists.
[[nodiscard]] std::string defaultModelPath();
/// The model a workspace trains: WORKSPACE_DIR/STEM.model.ckpt (may not exist).
[[nodiscard]] std::string workspaceModelPath(const std::string& workspace);
/// The model to sample with for a workspace: its own when trained, else the
/// default model. Empty when there is neither.
[[nodiscard]] std::string modelForWorkspace(const std::string& workspace);

/// The folder of the DevMap reference CSVs: $STEERBENCH_DEVMAP_DIR, else the
/// source checkout's ../shared/data/devmap. Empty when neither exists.
[[nodiscard]] std::string devmapDir();
} // namespace steerbench

// What the engine thread owns: the open workspace (the one writer) and
// caches of what it read. Touched only on the engine thread.
#pragma once

#include "engine/FeatureTable.h"
#include "model/Sampler.h"
#include "store/Workspace.h"

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace steerbench::ui {

struct EngineState {
  std::unique_ptr<store::Workspace> workspace;
  /// Reference layers by (CSV path, space), measured once.
  std::map<std::pair<std::string, std::string>, engine::FeatureTable> references;
  /// Reference CSVs that failed to load, with the message (reported once).
  std::map<std::string, std::string> referenceErrors;
  /// The model used to fill holes, and the checkpoint it came from (loaded once).
  std::unique_ptr<model::Sampler> sampler;
  std::string samplerCheckpoint;
  /// Set when the window closes: long work that has no job token checks it.
  const CancelToken* shutdown = nullptr;

  /// The open workspace; throws WorkspaceError when none is open.
  store::Workspace& ws();
};

} // namespace steerbench::ui

// What the engine thread owns: the open workspace (the one writer) and
// caches of what it read. Touched only on the engine thread.
#pragma once

#include "engine/FeatureTable.h"
#include "model/Sampler.h"
#include "store/Workspace.h"

#include <cstdint>
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
  /// The sampler of `checkpoint`, loaded once and kept while the file is
  /// unchanged (training writes it: the next call loads it again). Throws
  /// InputError for a checkpoint that cannot be read.
  model::Sampler& samplerFor(const std::string& checkpoint);
  /// Set when the window closes: long work that has no job token checks it.
  const CancelToken* shutdown = nullptr;

  /// The open workspace; throws WorkspaceError when none is open.
  store::Workspace& ws();

private:
  std::unique_ptr<model::Sampler> sampler_;
  std::string samplerCheckpoint_;
  std::int64_t samplerStamp_ = 0; ///< the checkpoint's modification time when it was loaded
};

} // namespace steerbench::ui

#include "EngineState.h"

#include "common/Error.h"

#include <filesystem>

namespace steerbench::ui {

store::Workspace& EngineState::ws() {
  if (!workspace) throw WorkspaceError("no workspace is open; open or create one first (File menu)");
  return *workspace;
}

model::Sampler& EngineState::samplerFor(const std::string& checkpoint) {
  std::error_code ec;
  const auto time = std::filesystem::last_write_time(checkpoint, ec);
  const std::int64_t stamp = ec ? 0 : std::int64_t(time.time_since_epoch().count());
  if (!sampler_ || samplerCheckpoint_ != checkpoint || samplerStamp_ != stamp) {
    sampler_.reset(); // the old model's memory goes before the new one loads
    sampler_ = std::make_unique<model::Sampler>(checkpoint, 0);
    samplerCheckpoint_ = checkpoint;
    samplerStamp_ = stamp;
  }
  return *sampler_;
}

} // namespace steerbench::ui

// Reading what a checkpoint says, and exporting a model, without including libtorch.
#pragma once

#include "model/ModelConfig.h"

#include <cstdint>
#include <string>

namespace steerbench::model {
/// What a checkpoint says about itself, besides the weights.
struct CheckpointInfo {
  static constexpr int kFormatVersion = 1;
  ModelConfig config;
  std::string tokenizerJson; ///< the whole tokenizer, so a checkpoint stands alone
  std::string tokenizerHash;
  std::string corpusHash;
  std::int64_t step = 0;
  std::string rngState;     ///< the trainer's RNG, as text
  std::string recipe;       ///< JSON: command, seed, objective, ... (what made it)
};

/// Reads the info of a checkpoint. Throws InputError naming the file when it
/// is not a Steerbench checkpoint, is truncated or corrupt, or is newer.
[[nodiscard]] CheckpointInfo readCheckpointInfo(const std::string& path);

/// The tokenizer JSON stored in a checkpoint. Throws InputError like readCheckpointInfo.
[[nodiscard]] std::string checkpointTokenizerJson(const std::string& path);
/// The recipe stored in a checkpoint (the spec of the run that made it; may be empty).
[[nodiscard]] std::string checkpointRecipe(const std::string& path);

/// What a checkpoint says about itself, for people: shape, step, hashes, recipe.
struct CheckpointSummary {
  std::string config;        ///< ModelConfig::describe()
  std::string configJson;
  std::int64_t step = 0, parameters = 0;
  bool hasOptimizer = false; ///< a training checkpoint (resumable), not an exported model
  std::string tokenizerHash, corpusHash, recipe;
  std::string fileSha256;    ///< of the whole file: the model hash samples record
};
[[nodiscard]] CheckpointSummary summarizeCheckpoint(const std::string& path);

/// Writes the model of checkpoint `in` to `out` without the optimizer state
/// (a third of the size), keeping config, tokenizer, corpus hash, step and
/// recipe. The result samples like `in` but cannot resume training.
void exportModel(const std::string& in, const std::string& out);
} // namespace steerbench::model

// Reading what a checkpoint says without including libtorch.
#pragma once

#include <string>

namespace steerbench::model {
/// The tokenizer JSON stored in a checkpoint. Throws InputError like readCheckpointInfo.
[[nodiscard]] std::string checkpointTokenizerJson(const std::string& path);
} // namespace steerbench::model

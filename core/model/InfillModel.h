// The BERT-style infilling encoder in libtorch, and its checkpoints.
// Includes torch: keep this header out of Qt code and widely included files.
#pragma once

#include "model/InfillModelInfo.h"
#include "model/ModelConfig.h"
#include "model/PackedProduct.h"

#include <torch/torch.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace steerbench::model {

/// A decoder's keys and values, per layer [slots, heads, positions, head
/// size]: a slot holds one sequence (a sampling row), written up to where
/// `InfillModelImpl::decode` last wrote it. Heads before positions: a
/// query reads one head's keys and values as one block.
struct KeyValueCache {
  std::vector<torch::Tensor> keys, values;
};

/// A decoder's weights packed for the decode step's products (PackedProduct.h):
/// per layer the attention's input and output projections and the two
/// feed-forward layers, and the head. A copy of the weights at packing time:
/// made by InfillModelImpl::packForDecoding once a sampler is set up.
struct DecodeWeights {
  struct Layer {
    PackedWeights inProjection, outProjection, feedForward1, feedForward2;
  };
  std::vector<Layer> layers;
  PackedWeights head;
};

/// Token and position embeddings, a stack of post-norm Transformer layers
/// (ReLU, no dropout: both measured to cost much on this CPU build), and a
/// head over the vocabulary. An encoder's layers attend both ways; a
/// decoder's (ModelConfig::Arch::Decoder) attend to earlier positions only.
class InfillModelImpl : public torch::nn::Module {
public:
  explicit InfillModelImpl(const ModelConfig& config);
  /// ids: [batch, length] int64; padding: [batch, length] bool, true at
  /// [PAD] positions (may be undefined). Returns logits [batch, length, vocab].
  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& padding = {});
  /// The last layer's output [batch, length, hidden], before the head.
  /// Without grad mode (sampling, validation) an encoder runs ATen's fused
  /// encoder layers. A decoder's padding goes at the end of a row, which no
  /// earlier position reads.
  torch::Tensor encode(const torch::Tensor& ids, const torch::Tensor& padding = {});
  /// The encoder's output at one position per row, [batch, hidden]: what
  /// encode(ids, padding) holds at [b, at[b]] (at: [batch] int64), for less
  /// work. Inference only: the last layer reads every position but computes
  /// its query, feed-forward and norms for `at` alone (sampling needs the
  /// hole's state only; that is 10/12 of the last layer's products saved).
  torch::Tensor encodeAt(const torch::Tensor& ids, const torch::Tensor& padding, const torch::Tensor& at);
  /// A decoder's cache for `slots` sequences of up to `positions` tokens
  /// (0 or more than maxLength: maxLength). A caller whose rows stay short
  /// (steering's windows and 8-token infills) asks for fewer: the cache is
  /// made, and zeroed, for every call of the sampler.
  [[nodiscard]] KeyValueCache makeCache(std::int64_t slots, std::int64_t positions = 0) const;
  /// Decoder inference with a cache: for each row b, the tokens ids[b]
  /// ([batch, n] int64) at positions from[b] .. from[b] + n - 1 of the
  /// sequence in cache slot slots[b] ([batch] int64 each). Their keys and
  /// values are written to the cache, and each attends to the slot's
  /// positions up to its own (what was written there before from[b] is the
  /// sequence's start). Returns [batch, n, hidden]: what encode() gives at
  /// those positions for the whole sequence (tst_infillmodel checks it).
  /// With `packed` (this model's packForDecoding()), its products use the
  /// packed weights: the same values up to rounding, in less time.
  torch::Tensor decode(const torch::Tensor& ids, const torch::Tensor& slots, const torch::Tensor& from,
                       KeyValueCache& cache, const DecodeWeights* packed = nullptr);
  /// The head over hidden states [..., hidden] -> logits [..., vocab]. Sampling
  /// applies it at the hole positions only (a fifth of the work at this size).
  torch::Tensor logits(const torch::Tensor& hidden, const DecodeWeights* packed = nullptr);
  /// The weights of decode's products and the head, packed (a decoder's).
  [[nodiscard]] DecodeWeights packForDecoding();
  [[nodiscard]] const ModelConfig& config() const { return config_; }
  [[nodiscard]] std::int64_t parameterCount() const;

private:
  torch::Tensor embed(const torch::Tensor& ids);
  torch::Tensor embedAt(const torch::Tensor& ids, const torch::Tensor& positions);
  torch::Tensor encodeFused(torch::Tensor x, const torch::Tensor& padding, std::size_t layers);
  ModelConfig config_;
  torch::nn::Embedding tokens_{nullptr}, positions_{nullptr};
  torch::nn::LayerNorm norm_{nullptr};
  torch::nn::TransformerEncoder encoder_{nullptr};
  torch::nn::Linear head_{nullptr};
};
TORCH_MODULE(InfillModel);

/// Held while a model is made: its initial weights come from libtorch's
/// global generator, which the trainer seeds just before. Training in the
/// GUI runs beside other threads that make models (Fill holes, model info).
[[nodiscard]] std::mutex& modelInitMutex();

/// Writes weights, optimizer state (when given) and info to `path`
/// atomically (a temporary file renamed over it). Throws InputError when the
/// file cannot be written; an existing checkpoint is then left as it was.
void saveCheckpoint(const std::string& path, InfillModel& model, torch::optim::Optimizer* optimizer,
                    const CheckpointInfo& info);


/// Loads weights (and optimizer state, when given) into `model`, whose
/// config must equal the checkpoint's; with `tokenizerHash` non-empty, the
/// checkpoint's tokenizer must be that one. Throws InputError naming the file
/// and what does not match.
CheckpointInfo loadCheckpoint(const std::string& path, InfillModel& model, torch::optim::Optimizer* optimizer,
                              const std::string& tokenizerHash = {});

/// Fine-tuning's start: as loadCheckpoint without an optimizer, except that
/// `model` may have more condition tokens than the checkpoint (a model taught
/// conditions from one without), and more positions (a model taught longer
/// kernels): the checkpoint's weights are copied over, the new tokens keep
/// their initial embeddings, and each new position starts as the
/// checkpoint's last one.
CheckpointInfo loadWeightsForFineTuning(const std::string& path, InfillModel& model, const std::string& tokenizerHash);

} // namespace steerbench::model

#include "model/InfillModel.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "model/VectorMath.h"

#include <cmath>
#include <filesystem>
#include <limits>

namespace steerbench::model {

std::mutex& modelInitMutex() {
  static std::mutex m;
  return m;
}

InfillModelImpl::InfillModelImpl(const ModelConfig& config) : config_(config) {
  config.validate();
  tokens_ = register_module("tokens", torch::nn::Embedding(config.vocab + config.conditions, config.hidden));
  positions_ = register_module("positions", torch::nn::Embedding(config.maxLength, config.hidden));
  norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({config.hidden})));
  auto layer = torch::nn::TransformerEncoderLayer(torch::nn::TransformerEncoderLayerOptions(config.hidden, config.heads)
                                                      .dim_feedforward(config.ffn)
                                                      .dropout(0.0)
                                                      .activation(torch::kReLU));
  encoder_ = register_module("encoder", torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(layer, config.layers)));
  head_ = register_module("head", torch::nn::Linear(config.hidden, config.vocab));
}

torch::Tensor InfillModelImpl::forward(const torch::Tensor& ids, const torch::Tensor& padding) {
  return head_(encode(ids, padding));
}

torch::Tensor InfillModelImpl::embed(const torch::Tensor& ids) {
  const auto length = ids.size(1);
  TORCH_CHECK(length <= config_.maxLength, "sequence of ", length, " tokens, over the model's ", config_.maxLength);
  auto positions = torch::arange(length, ids.options().dtype(torch::kLong)).unsqueeze(0);
  return norm_(tokens_(ids) + positions_(positions)); // [B, T, H]
}

torch::Tensor InfillModelImpl::embedAt(const torch::Tensor& ids, const torch::Tensor& positions) {
  return norm_(tokens_(ids) + positions_(positions));
}

torch::Tensor InfillModelImpl::encode(const torch::Tensor& ids, const torch::Tensor& padding) {
  auto x = embed(ids);
  if (config_.decoder()) {
    // Position t attends to 0..t. No key padding: padding ends a row, after
    // every position that matters, and masking it would leave the padded
    // positions' own rows with nothing to attend to.
    const auto T = ids.size(1);
    auto causal = torch::full({T, T}, -std::numeric_limits<float>::infinity(), x.options()).triu(1);
    return encoder_->forward(x.transpose(0, 1), causal, torch::Tensor()).transpose(0, 1);
  }
  if (!torch::GradMode::is_enabled()) return encodeFused(x, padding, encoder_->layers->size());
  x = x.transpose(0, 1);                                // [T, B, H]: this libtorch has no batch_first
  x = encoder_->forward(x, /*src_mask=*/torch::Tensor(), padding.defined() ? padding : torch::Tensor());
  return x.transpose(0, 1); // [B, T, H]
}

torch::Tensor InfillModelImpl::encodeAt(const torch::Tensor& ids, const torch::Tensor& padding,
                                        const torch::Tensor& at) {
  TORCH_CHECK(!torch::GradMode::is_enabled(), "encodeAt is for inference");
  TORCH_CHECK(!config_.decoder(), "encodeAt is for an encoder");
  const std::size_t layers = encoder_->layers->size();
  auto x = encodeFused(embed(ids), padding, layers - 1); // [B, T, H]
  // The last layer, as torch::nn::TransformerEncoderLayer computes it
  // (post-norm, ReLU), with queries at `at` only.
  auto& l = *encoder_->layers[layers - 1]->as<torch::nn::TransformerEncoderLayerImpl>();
  const std::int64_t B = x.size(0), T = x.size(1), H = config_.hidden, heads = config_.heads, d = H / heads;
  const auto rows = torch::arange(B, at.options());
  auto xh = x.index({rows, at}); // [B, H]
  const auto& w = l.self_attn->in_proj_weight;
  const auto& b = l.self_attn->in_proj_bias;
  using torch::indexing::Slice;
  auto q = torch::addmm(b.index({Slice(0, H)}), xh, w.index({Slice(0, H)}).t());              // [B, H]
  auto kv = torch::addmm(b.index({Slice(H, 3 * H)}), x.reshape({B * T, H}), w.index({Slice(H, 3 * H)}).t());
  kv = kv.view({B, T, 2, heads, d});
  auto k = kv.select(2, 0).permute({0, 2, 3, 1});                                             // [B, heads, d, T]
  auto v = kv.select(2, 1).transpose(1, 2);                                                   // [B, heads, T, d]
  auto scores = torch::matmul(q.view({B, heads, 1, d}), k) / std::sqrt(double(d));           // [B, heads, 1, T]
  if (padding.defined()) scores = scores.masked_fill(padding.view({B, 1, 1, T}), -std::numeric_limits<float>::infinity());
  auto attended = torch::matmul(torch::softmax(scores, -1), v).view({B, H});                  // [B, H]
  auto y = l.norm1(xh + l.self_attn->out_proj(attended));
  return l.norm2(y + l.linear2(torch::relu(l.linear1(y))));
}

KeyValueCache InfillModelImpl::makeCache(std::int64_t slots, std::int64_t positions) const {
  KeyValueCache c;
  const std::int64_t heads = config_.heads, d = config_.hidden / config_.heads;
  const std::int64_t P = positions > 0 ? std::min<std::int64_t>(positions, config_.maxLength) : config_.maxLength;
  for (std::size_t i = 0; i < encoder_->layers->size(); ++i) {
    c.keys.push_back(torch::zeros({slots, heads, P, d}));
    c.values.push_back(torch::zeros({slots, heads, P, d}));
  }
  return c;
}

namespace {

/// Scaled dot-product attention of each query q[b, t] ([B, n, heads, d],
/// contiguous) over its cache slot's keys and values ([slots, heads,
/// positions, d]) at positions 0 .. its own. Written as loops for a step of
/// one token a row: its products are one query against a few hundred keys
/// per head, and batched matrix products spend far more in one BLAS call per
/// row and head than in the arithmetic (measured: half the sampling time).
/// A prefill of many positions takes the batched products instead. The
/// loops are attendOneHead (VectorMath.h), at the CPU's vector width.
torch::Tensor attendCached(const torch::Tensor& q, const torch::Tensor& keys, const torch::Tensor& values,
                           const std::vector<std::int64_t>& slotOf, const std::vector<std::int64_t>& positionOf) {
  TORCH_CHECK(keys.is_contiguous() && values.is_contiguous() && q.scalar_type() == torch::kFloat);
  const std::int64_t rows = q.size(0) * q.size(1), heads = q.size(2), d = q.size(3), P = keys.size(2);
  auto out = torch::empty_like(q);
  const float* qp = q.data_ptr<float>();
  const float* kp = keys.data_ptr<float>();
  const float* vp = values.data_ptr<float>();
  float* op = out.data_ptr<float>();
  std::vector<float> w(static_cast<std::size_t>(P));
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t slot = slotOf[std::size_t(r)], last = positionOf[std::size_t(r)];
    for (std::int64_t h = 0; h < heads; ++h)
      attendOneHead(qp + (r * heads + h) * d, kp + (slot * heads + h) * P * d, vp + (slot * heads + h) * P * d,
                    std::size_t(last + 1), std::size_t(d), w.data(), op + (r * heads + h) * d);
  }
  return out;
}

PackedWeights packLinear(const torch::Tensor& weight, const torch::Tensor& bias) {
  const auto w = weight.detach().to(torch::kFloat).contiguous();
  const auto b = bias.defined() ? bias.detach().to(torch::kFloat).contiguous() : torch::Tensor();
  return PackedWeights(w.data_ptr<float>(), b.defined() ? b.data_ptr<float>() : nullptr, std::size_t(w.size(0)),
                       std::size_t(w.size(1)));
}

/// x [..., inputs] W^T + b with the packed weights: [..., outputs].
torch::Tensor applyPacked(const PackedWeights& w, const torch::Tensor& x) {
  const auto in = x.to(torch::kFloat).contiguous();
  TORCH_CHECK(in.size(-1) == std::int64_t(w.inputs()), "packed product: ", in.size(-1), " inputs, expected ",
              w.inputs());
  auto shape = in.sizes().vec();
  shape.back() = std::int64_t(w.outputs());
  auto y = torch::empty(shape, in.options());
  w.apply(in.data_ptr<float>(), std::size_t(in.numel() / in.size(-1)), y.data_ptr<float>());
  return y;
}

} // namespace

DecodeWeights InfillModelImpl::packForDecoding() {
  DecodeWeights packed;
  for (std::size_t i = 0; i < encoder_->layers->size(); ++i) {
    auto& l = *encoder_->layers[i]->as<torch::nn::TransformerEncoderLayerImpl>();
    packed.layers.push_back({packLinear(l.self_attn->in_proj_weight, l.self_attn->in_proj_bias),
                             packLinear(l.self_attn->out_proj->weight, l.self_attn->out_proj->bias),
                             packLinear(l.linear1->weight, l.linear1->bias),
                             packLinear(l.linear2->weight, l.linear2->bias)});
  }
  packed.head = packLinear(head_->weight, head_->bias);
  return packed;
}

torch::Tensor InfillModelImpl::logits(const torch::Tensor& hidden, const DecodeWeights* packed) {
  return packed ? applyPacked(packed->head, hidden) : head_(hidden);
}

torch::Tensor InfillModelImpl::decode(const torch::Tensor& ids, const torch::Tensor& slots, const torch::Tensor& from,
                                      KeyValueCache& cache, const DecodeWeights* packed) {
  TORCH_CHECK(config_.decoder(), "decode is for a decoder");
  TORCH_CHECK(!torch::GradMode::is_enabled(), "decode is for inference");
  const std::int64_t B = ids.size(0), n = ids.size(1), H = config_.hidden, heads = config_.heads, d = H / heads;
  const auto positions = from.view({B, 1}) + torch::arange(n, from.options()).view({1, n}); // [B, n]
  const std::int64_t visible = positions.max().item<std::int64_t>() + 1;
  TORCH_CHECK(visible <= config_.maxLength, "position ", visible - 1, " is past the model's ", config_.maxLength);
  TORCH_CHECK(cache.keys.empty() || visible <= cache.keys.front().size(2), "position ", visible - 1,
              " is past the cache's ", cache.keys.front().size(2));
  const auto slotOf = slots.view({B, 1}).expand({B, n}).contiguous();
  const auto at = positions.contiguous();
  const std::vector<std::int64_t> slotList(slotOf.data_ptr<std::int64_t>(), slotOf.data_ptr<std::int64_t>() + B * n),
      positionList(at.data_ptr<std::int64_t>(), at.data_ptr<std::int64_t>() + B * n);
  auto x = embedAt(ids, positions); // [B, n, H]
  for (std::size_t i = 0; i < encoder_->layers->size(); ++i) {
    // As torch::nn::TransformerEncoderLayer computes it (post-norm, ReLU),
    // with the keys and values of earlier positions read from the cache.
    auto& l = *encoder_->layers[i]->as<torch::nn::TransformerEncoderLayerImpl>();
    const DecodeWeights::Layer* p = packed ? &packed->layers.at(i) : nullptr;
    auto qkv = (p ? applyPacked(p->inProjection, x)
                  : torch::nn::functional::linear(x, l.self_attn->in_proj_weight, l.self_attn->in_proj_bias))
                   .view({B, n, 3, heads, d});
    using torch::indexing::Slice;
    // Advanced indices at dimensions 0 and 2 take values [B, n, heads, d].
    cache.keys[i].index_put_({slotOf, Slice(), positions}, qkv.select(2, 1));
    cache.values[i].index_put_({slotOf, Slice(), positions}, qkv.select(2, 2));
    torch::Tensor attended;
    if (n == 1) {
      attended = attendCached(qkv.select(2, 0).contiguous(), cache.keys[i], cache.values[i], slotList, positionList)
                     .view({B, n, H});
    } else {
      // Several positions a row (a prefill): batched products pay off.
      const auto k = cache.keys[i].narrow(2, 0, visible).index_select(0, slots);   // [B, heads, V, d]
      const auto v = cache.values[i].narrow(2, 0, visible).index_select(0, slots); // [B, heads, V, d]
      const auto q = qkv.select(2, 0).transpose(1, 2);                             // [B, heads, n, d]
      // Key position j is hidden from the query at position p when j > p.
      const auto hidden = torch::arange(visible, from.options()).view({1, 1, 1, visible}) > positions.view({B, 1, n, 1});
      auto scores = torch::matmul(q, k.transpose(2, 3)) / std::sqrt(double(d)); // [B, heads, n, V]
      scores = scores.masked_fill(hidden, -std::numeric_limits<float>::infinity());
      attended = torch::matmul(torch::softmax(scores, -1), v).transpose(1, 2).reshape({B, n, H});
    }
    if (p) {
      auto y = l.norm1(x + applyPacked(p->outProjection, attended));
      x = l.norm2(y + applyPacked(p->feedForward2, torch::relu(applyPacked(p->feedForward1, y))));
    } else {
      auto y = l.norm1(x + l.self_attn->out_proj(attended));
      x = l.norm2(y + l.linear2(torch::relu(l.linear1(y))));
    }
  }
  return x;
}

torch::Tensor InfillModelImpl::encodeFused(torch::Tensor x, const torch::Tensor& padding, std::size_t layers) {
  // Inference only: ATen's fused encoder layer (the kernel behind PyTorch's
  // "fast path"), batch-first, with the same weights and the same post-norm
  // ReLU arithmetic as torch::nn::TransformerEncoderLayer. The C++ module
  // composes attention from many small ops; this is one call per layer.
  // tst_infillmodel checks both paths agree.
  const c10::optional<torch::Tensor> mask =
      padding.defined() && padding.any().item<bool>() ? c10::optional<torch::Tensor>(padding) : c10::nullopt;
  const c10::optional<std::int64_t> maskType = mask ? c10::optional<std::int64_t>(1) : c10::nullopt; // key padding
  for (std::size_t i = 0; i < layers; ++i) {
    auto& l = *encoder_->layers[i]->as<torch::nn::TransformerEncoderLayerImpl>();
    x = at::_transformer_encoder_layer_fwd(x, config_.hidden, config_.heads, l.self_attn->in_proj_weight,
                                           l.self_attn->in_proj_bias, l.self_attn->out_proj->weight,
                                           l.self_attn->out_proj->bias, /*use_gelu=*/false, /*norm_first=*/false,
                                           l.norm1->options.eps(), l.norm1->weight, l.norm1->bias, l.norm2->weight,
                                           l.norm2->bias, l.linear1->weight, l.linear1->bias, l.linear2->weight,
                                           l.linear2->bias, mask, maskType);
  }
  return x;
}

std::int64_t InfillModelImpl::parameterCount() const {
  std::int64_t n = 0;
  for (const auto& p : parameters())
    n += p.numel();
  return n;
}

namespace {

std::string infoJson(const CheckpointInfo& info) {
  // Plain fields as one JSON object; strings are escaped by the archive's own storage.
  return std::string("{\"format\":\"steerbench-checkpoint\",\"version\":") + std::to_string(CheckpointInfo::kFormatVersion) +
         ",\"step\":" + std::to_string(info.step) + "}";
}

void writeString(torch::serialize::OutputArchive& a, const std::string& key, const std::string& value) {
  a.write(key, c10::IValue(value));
}

std::string readString(torch::serialize::InputArchive& a, const std::string& key, const std::string& path) {
  c10::IValue v;
  if (!a.try_read(key, v) || !v.isString())
    throw InputError("checkpoint " + path + " lacks \"" + key + "\"; it is not a complete Steerbench checkpoint");
  return v.toStringRef();
}

} // namespace

void saveCheckpoint(const std::string& path, InfillModel& model, torch::optim::Optimizer* optimizer,
                    const CheckpointInfo& info) {
  torch::serialize::OutputArchive archive;
  model->save(archive);
  if (optimizer) {
    torch::serialize::OutputArchive opt;
    optimizer->save(opt);
    archive.write("optimizer", opt);
  }
  writeString(archive, "steerbench.format", infoJson(info));
  writeString(archive, "steerbench.config", info.config.toJson());
  writeString(archive, "steerbench.tokenizer", info.tokenizerJson);
  writeString(archive, "steerbench.tokenizer_sha256", info.tokenizerHash);
  writeString(archive, "steerbench.corpus_sha256", info.corpusHash);
  writeString(archive, "steerbench.step", std::to_string(info.step));
  writeString(archive, "steerbench.rng", info.rngState);
  writeString(archive, "steerbench.recipe", info.recipe);
  const std::string tmp = path + ".tmp";
  try {
    archive.save_to(tmp);
  } catch (const std::exception& e) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw InputError("cannot write checkpoint " + path + " (disk full or no permission?); the previous one is kept: " +
                     e.what());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw InputError("cannot write checkpoint " + path + ": " + ec.message());
}

namespace {

CheckpointInfo readInfo(torch::serialize::InputArchive& a, const std::string& path) {
  const std::string format = readString(a, "steerbench.format", path);
  if (format.find("\"steerbench-checkpoint\"") == std::string::npos)
    throw InputError("checkpoint " + path + " is not a Steerbench checkpoint");
  const auto v = format.find("\"version\":");
  const int version = v == std::string::npos ? 0 : std::atoi(format.c_str() + v + 10);
  if (version > CheckpointInfo::kFormatVersion)
    throw InputError("checkpoint " + path + " was written by a newer Steerbench (format " + std::to_string(version) +
                     "); update Steerbench");
  CheckpointInfo info;
  info.config = ModelConfig::fromJson(readString(a, "steerbench.config", path), "checkpoint " + path);
  info.tokenizerJson = readString(a, "steerbench.tokenizer", path);
  info.tokenizerHash = readString(a, "steerbench.tokenizer_sha256", path);
  info.corpusHash = readString(a, "steerbench.corpus_sha256", path);
  info.step = std::atoll(readString(a, "steerbench.step", path).c_str());
  info.rngState = readString(a, "steerbench.rng", path);
  info.recipe = readString(a, "steerbench.recipe", path);
  return info;
}

void openArchive(torch::serialize::InputArchive& a, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError("checkpoint " + path + " does not exist");
  try {
    a.load_from(path);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    throw InputError("checkpoint " + path + " is corrupt or truncated (" + what.substr(0, what.find('\n')) +
                     "); train again or use another checkpoint");
  }
}

} // namespace

CheckpointInfo readCheckpointInfo(const std::string& path) {
  torch::serialize::InputArchive a;
  openArchive(a, path);
  return readInfo(a, path);
}

CheckpointInfo loadCheckpoint(const std::string& path, InfillModel& model, torch::optim::Optimizer* optimizer,
                              const std::string& tokenizerHash) {
  torch::serialize::InputArchive a;
  openArchive(a, path);
  CheckpointInfo info = readInfo(a, path);
  if (!(info.config == model->config()))
    throw InputError("checkpoint " + path + " is for a model with " + info.config.describe() + ", not " +
                     model->config().describe());
  if (!tokenizerHash.empty() && info.tokenizerHash != tokenizerHash)
    throw InputError("checkpoint " + path + " was trained with another tokenizer (sha256 " +
                     info.tokenizerHash.substr(0, 12) + ", expected " + tokenizerHash.substr(0, 12) + ")");
  try {
    model->load(a);
    if (optimizer) {
      torch::serialize::InputArchive opt;
      if (!a.try_read("optimizer", opt))
        throw InputError("checkpoint " + path + " holds no optimizer state; it cannot resume training");
      optimizer->load(opt);
    }
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    throw InputError("checkpoint " + path + " does not fit the model (" + what.substr(0, what.find('\n')) + ")");
  }
  return info;
}

CheckpointInfo loadWeightsForFineTuning(const std::string& path, InfillModel& model, const std::string& tokenizerHash) {
  const CheckpointInfo saved = readCheckpointInfo(path);
  const ModelConfig& to = model->config();
  ModelConfig same = to;
  same.conditions = saved.config.conditions;
  same.maxLength = saved.config.maxLength;
  const bool grows = saved.config.conditions < to.conditions || saved.config.maxLength < to.maxLength;
  if (!grows || saved.config.conditions > to.conditions || saved.config.maxLength > to.maxLength ||
      !(saved.config == same))
    return loadCheckpoint(path, model, nullptr, tokenizerHash);
  InfillModel from = [&] {
    std::lock_guard lock(modelInitMutex());
    return InfillModel(saved.config);
  }();
  CheckpointInfo info = loadCheckpoint(path, from, nullptr, tokenizerHash);
  torch::NoGradGuard ng;
  const auto source = from->named_parameters();
  for (auto& p : model->named_parameters()) {
    const torch::Tensor& w = source[p.key()];
    const auto known = w.size(0), rows = p.value().size(0);
    if (p.key() == "tokens.weight") {
      p.value().narrow(0, 0, known).copy_(w); // the vocabulary's rows; the conditions' stay as drawn
    } else if (p.key() == "positions.weight") {
      // The positions it knows; past them, its last: a decoder's causal
      // mask already orders the tokens, and training tells the new ones apart.
      p.value().narrow(0, 0, known).copy_(w);
      if (rows > known) p.value().narrow(0, known, rows - known).copy_(w[known - 1].expand({rows - known, w.size(1)}));
    } else
      p.value().copy_(w);
  }
  return info;
}

} // namespace steerbench::model

#include "model/InfillModelInfo.h"

namespace steerbench::model {
std::string checkpointTokenizerJson(const std::string& path) { return readCheckpointInfo(path).tokenizerJson; }
std::string checkpointRecipe(const std::string& path) { return readCheckpointInfo(path).recipe; }
} // namespace steerbench::model

namespace steerbench::model {

CheckpointSummary summarizeCheckpoint(const std::string& path) {
  torch::serialize::InputArchive a;
  openArchive(a, path);
  const CheckpointInfo info = readInfo(a, path);
  CheckpointSummary s;
  s.config = info.config.describe();
  s.configJson = info.config.toJson();
  s.step = info.step;
  s.tokenizerHash = info.tokenizerHash;
  s.corpusHash = info.corpusHash;
  s.recipe = info.recipe;
  torch::serialize::InputArchive opt;
  s.hasOptimizer = a.try_read("optimizer", opt);
  s.parameters = [&] {
    std::lock_guard lock(modelInitMutex());
    return InfillModel(info.config)->parameterCount();
  }();
  s.fileSha256 = sha256OfFile(path);
  return s;
}

void exportModel(const std::string& in, const std::string& out) {
  const auto info = readCheckpointInfo(in);
  InfillModel m = [&] {
    std::lock_guard lock(modelInitMutex());
    return InfillModel(info.config);
  }();
  (void)loadCheckpoint(in, m, nullptr);
  saveCheckpoint(out, m, nullptr, info);
}

} // namespace steerbench::model

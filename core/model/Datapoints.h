// Training datapoints for [HOLE] infilling (docs/model.md): spans of a kernel
// replaced by [HOLE], each labelled with the first token it hid (or
// [ENDHOLE] for an empty span), optionally with masked-token labels too.
// Plain C++, no torch: the trainer turns them into tensors.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace steerbench::model {

class Tokenizer;

struct DatapointOptions {
  unsigned minHoles = 1, maxHoles = 1;  ///< holes per sequence, uniform in [min, max]
  double maxSpanFraction = 0.9;         ///< a hole hides at most this share of the kernel
  double maskProbability = 0.0;         ///< other tokens replaced by [MASK] and labelled (0: off)
  /// Share of datapoints that are one hole from a random start to the end
  /// (the task of undirected sampling, "kernel void [HOLE]": the spans above
  /// never hide more than maxSpanFraction of a kernel).
  double continuationProbability = 0.0;
  /// Share of datapoints, among kernels that fit whole, that hide all but the
  /// kernel's first wholeKernelHead tokens: exactly the row of undirected
  /// sampling ("kernel void [HOLE]" between [START] and [END]). A continuation
  /// starts anywhere, so it rarely asks for a whole kernel; and only kernels
  /// that fit the window ever end in [END], so without these rows the model
  /// learns whole kernels mostly from short ones (0: off, draws unchanged).
  double wholeKernelProbability = 0.0;
  unsigned wholeKernelHead = 2;
  /// Share of holes (not continuations) that hide at most shortHoleTokens
  /// tokens, uniform in [0, shortHoleTokens]: the holes steering makes. Long
  /// spans alone almost never label [ENDHOLE], so a model trained only on
  /// them rarely closes a small hole (0: off, the stream of draws unchanged).
  double shortHoleProbability = 0.0;
  unsigned shortHoleTokens = 8;
  unsigned maxLength = 256;             ///< sequences are cut to this many tokens, [START] and [END] included
  /// When set, a hole's ends move out of spelled lexemes (runs of this
  /// tokenizer's character tokens), so that a hole covers whole lexemes, as a
  /// [HOLE] written in text does. The draws are unchanged. Null (training):
  /// a hole may start or end inside a literal.
  const Tokenizer* wholeLexemes = nullptr;
};

/// One training sequence: inputs and a label per position (kIgnore where
/// there is nothing to predict).
struct Datapoint {
  static constexpr int kIgnore = -100;
  std::vector<int> inputs;
  std::vector<int> labels;
  [[nodiscard]] int labelCount() const;
};

/// Makes a datapoint from a kernel's token ids (without [START]/[END]).
/// A kernel longer than maxLength allows is seen through a window at a
/// random offset, with [START] only when the window starts the kernel and
/// [END] only when it ends it. Hole starts and lengths are drawn from `rng`:
/// a start uniform over the window, a length uniform in [0, maxSpanFraction x
/// length / holes]; holes do not overlap. Deterministic for a given rng state.
[[nodiscard]] Datapoint makeDatapoint(const std::vector<int>& kernel, const DatapointOptions& options,
                                      std::mt19937_64& rng);

/// Sampling weights that balance a training set by package: each kernel of
/// a package with n kernels weighs n^(power - 1), so the packages' shares go
/// as n^power (power 1: every kernel alike, as without weights; 0.5: a
/// package with 4 times the kernels gets twice the share; 0: every package
/// alike). An empty package name is a package of its own.
[[nodiscard]] std::vector<double> packageWeights(const std::vector<std::string>& packages, double power);

/// Feature richness of a kernel from its Grewe vector (comp, rational, mem,
/// localmem, coalesced, atomic, ...): comp + mem + localmem + coalesced +
/// atomic, saturated at kRichnessCap so the largest kernels, which the model
/// sees only as windows of maxLength tokens, do not take over the draw.
inline constexpr double kRichnessCap = 32;
[[nodiscard]] double featureRichness(const std::vector<double>& grewe);

/// Multiplies each weight by (1 + richness)^power (weights empty: every
/// kernel starts at 1). A kernel without a Grewe vector counts as richness 0.
/// Power 0.5 with the cap halves piglit-like one-line tests' share against
/// kernels of 30 or more counts.
void weighByRichness(std::vector<double>& weights, const std::vector<std::vector<double>>& grewe, double power);

/// Whether a kernel accesses local memory: its Grewe localmem (the fourth
/// count) is above 0. False without a vector.
[[nodiscard]] inline bool usesLocalMemory(const std::vector<double>& grewe) {
  return grewe.size() > 3 && grewe[3] > 0;
}

/// Multiplies the weight of each kernel that accesses local memory
/// (usesLocalMemory) by `factor` (weights empty: every kernel starts at 1).
/// Few training kernels use local memory and the model seldom writes it
/// well, where many benchmark kernels (reductions, stencils, tiled
/// products) do; this shows it more of them.
void weighLocalMemory(std::vector<double>& weights, const std::vector<std::vector<double>>& grewe, double factor);

/// Whether `text` asks which work-item runs it (get_global_id, get_local_id,
/// get_group_id or a linear id). A kernel that does not has every work-item
/// do the same work and store the same values: it passes the dynamic checks
/// but is a poor benchmark. The corpus's conformance tests are written so
/// (30% of the default corpus), and an edit keeps it (SteerSpec::parallelSeeds).
[[nodiscard]] bool callsAWorkItemFunction(const std::string& text);

/// Multiplies the weight of each kernel that asks no work-item function
/// (`asksNoWorkItem`, one flag a kernel: !callsAWorkItemFunction) by
/// `factor` (weights empty: every kernel starts at 1). A model trained on the corpus as it is writes such kernels in
/// about two undirected samples of five, because the conformance tests are
/// a third of what it reads; below 1 it sees fewer of them.
void weighOneWorkItem(std::vector<double>& weights, const std::vector<bool>& asksNoWorkItem, double factor);

/// The decoder's datapoint (fill-in-the-middle): the holes drawn as for
/// makeDatapoint (window, starts and lengths; maskProbability is not used),
/// then the sequence `[START] context [END] [MASK] middle [ENDHOLE]`, where
/// the context is the window with each span replaced by [HOLE] and the
/// middle is what the first hole hid. Labels are next tokens: every position
/// with `labelContext` (training: the decoder learns the kernels as well as
/// the infill), else the middle and [ENDHOLE] alone (validation: the
/// sampling task). [HOLE] and [MASK] are never labels. `suffixFirst`: the
/// context after the first hole comes first, `[HOLE] rest [END] [MASK]
/// [START] before middle [ENDHOLE]` (ModelConfig::suffixFirst), so that the
/// middle continues the text before the hole.
/// True when makeFimDatapoint shows a kernel of `kernelTokens` whole (no
/// window), with `conditionTokens` condition tokens before it.
[[nodiscard]] bool fitsFimWindow(std::size_t kernelTokens, const DatapointOptions& options,
                                 std::size_t conditionTokens = 0);

/// `condition`: condition tokens (Conditioning.h) that start the row, as
/// sampling with a target puts them; never labels, and the window is that
/// much shorter.
[[nodiscard]] Datapoint makeFimDatapoint(const std::vector<int>& kernel, const DatapointOptions& options,
                                         std::mt19937_64& rng, bool labelContext, bool suffixFirst = false,
                                         const std::vector<int>& condition = {});

} // namespace steerbench::model

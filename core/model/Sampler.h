// Batched [HOLE] infilling (docs/model.md): read the logits at each row's
// first [HOLE], sample with temperature; [ENDHOLE] closes the hole,
// anything else is inserted before it. Finished rows are refilled from a
// queue so the batch stays full. Torch-free interface (pimpl).
#pragma once

#include "engine/ParallelFor.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace steerbench::model {

class Tokenizer;

struct SampleOptions {
  /// Rows sampled together per stream. The decoder's step reads all its
  /// weights once a batch, so wider batches share that cost (docs/model.md,
  /// "Threads and streams"); its cache holds a slot per row.
  int batchSize = 128;
  double temperature = 0.8;  ///< <= 0: always the most likely token
  /// Nucleus sampling: draw only among the most likely tokens whose
  /// probabilities (at `temperature`) sum to at least this (1: all tokens).
  double topP = 1.0;
  int maxNewTokens = 512;    ///< per sample, over all its holes
  /// A length floor: until a row has written this many tokens, it may not
  /// close its hole nor, in a feed that holds the kernel's start, the
  /// kernel's outermost block. 0: the model decides.
  int minNewTokens = 0;
  /// A length floor per feed (one entry per feed; empty: every feed has
  /// minNewTokens). The beam search gives an insertion, a hole that
  /// replaced nothing, a floor of 1: closed at once it is its parent again.
  std::vector<std::uint8_t> feedMinNewTokens;
  /// Per feed (one entry per feed, or empty: none), logit biases added to
  /// the feed's rows before sampling: (token, bias) pairs. The beam search
  /// leans an infill toward the tokens its target needs more of
  /// (steer::guideBias). The guard and the floors still apply after them.
  std::vector<std::vector<std::pair<int, float>>> feedTokenBias;
  /// Added to the logit of the brace that closes the kernel's outermost
  /// block, in a feed that holds the kernel's start (a soft length prior:
  /// < 0 writes longer kernels, where minNewTokens forbids short ones).
  /// 0 samples the model as trained.
  double closeBias = 0.0;
  /// Feature conditioning (Conditioning.h): the Grewe counts (comp,
  /// rational, mem, localmem, coalesced, atomic) every row is asked to write
  /// toward. Only for a model trained with conditions (train --conditions);
  /// empty: none, the model samples as without them.
  std::vector<double> target;
  /// Per feed (one entry per feed, or empty: `target` for all), the counts
  /// its rows are asked for; an empty entry asks for nothing. When given,
  /// `target` is not used.
  std::vector<std::vector<double>> feedTargets;
  std::uint64_t seed = 1;
  /// Added to the [ENDHOLE] logit before sampling (a length prior: > 0 closes
  /// holes sooner). 0 samples the model as trained.
  double endHoleBias = 0.0;
  /// Added to the [ENDHOLE] logit once more for each token the row has
  /// written (a length prior that grows: an infill that runs long closes at
  /// its next chance instead of running into maxNewTokens, where it is lost).
  /// 0: a flat prior, endHoleBias alone.
  double endHoleRamp = 0.0;
  /// A hole whose infill's last this many tokens are the first ones after
  /// the hole closes where they start (they are dropped): the model has begun
  /// to write the text that follows the hole, instead of ending the hole.
  /// Only in a feed with one hole and at least this many tokens after it,
  /// and the length floor kept. 0: never.
  int closeOnRepeat = 2;
  /// Grammar-guided infilling (SyntaxGuard): tokens that cannot lead to a
  /// kernel that compiles (a mismatched bracket, closing a hole that leaves
  /// brackets open, using a name never declared) are never sampled.
  bool guard = true;
  /// With the guard: a builtin call's `,` and `)` only where an overload of
  /// the builtin takes that many arguments of those shapes, and a hole
  /// inside a call closed only where the arguments after it fit one
  /// (SyntaxGuard rule 4, from Clang's declarations of the builtins). Off
  /// by default, on for holes that have text after them (steering, *Fill
  /// holes*, `sample` with such a feed: fillsBetweenText): there it raises
  /// the compile rate of infills; undirected samples it does not help
  /// (bench-generate --typed; bench/results/bench-generate.md).
  bool typedArguments = false;
  /// With the guard: its rules of types and scopes (SyntaxGuard rules 5 and
  /// 6: read-only variables, floats and pointers where integers must be,
  /// names out of scope or declared twice; and rule 1's operands). On by
  /// default; off only to measure what they give (bench-generate --untyped).
  bool typeRules = true;
  /// A row whose most likely token the guard has banned this many times has
  /// left what the model knows: it is given up (an incomplete sample) rather
  /// than run on to the token limit. 0: never.
  int guardPatience = 6;
  /// Compiler-checked statements: given the kernel text up to a row's hole
  /// each time the row ends a statement (with its open blocks closed), the
  /// byte offset of the text's first error, or std::string::npos (e.g.
  /// clangfe::firstErrorOffset). A statement with an error in what the model
  /// wrote is taken back and sampled again; an error in the feed's own text
  /// ends the checks for that row. Only for feeds that hold the kernel's
  /// start. In a feed that also holds its end, closing the last hole checks
  /// the whole kernel: an error from the hole on takes the last statement
  /// (or an infill without one) back and keeps the hole open, at most
  /// `checkPatience` times, after which the hole closes as it is. Called from
  /// `checkJobs` threads at once. Empty: no checks.
  std::function<std::size_t(const std::string&)> check;
  /// `check`'s verdicts for several texts at once, in order (for example
  /// clangfe::firstErrorOffsets, which compiles small kernels together:
  /// fewer compiler starts). When set, the texts of a step that `check`
  /// would judge go to it together instead of one by one; it must give
  /// exactly `check`'s verdicts. Empty: `check` alone.
  std::function<std::vector<std::size_t>(const std::vector<std::string>&)> checkMany;
  /// Sampling toward counts (steer::targetCheck), with `check`: for a row
  /// asked for counts (`target`, `feedTargets`) whose feed ends at its hole
  /// (so that the checked text is the whole kernel so far), its statements'
  /// check given those counts, called instead of `check`. Besides `check`'s
  /// verdicts it may answer kShortOfTarget: the text is fine, but its counts
  /// are not yet near enough, so the row may not close its hole nor its
  /// kernel's outermost block (as under the length floor) until a later
  /// statement's check answers std::string::npos. Such a row starts short;
  /// given up on the way (a limit, a patience), it ends as the longest
  /// kernel a checked statement left, blocks closed (Sample::cut), that
  /// `wholeCheck` passes when there is one (a kernel breaking a clean rule
  /// is no place to end); with none that does, it is not complete. Empty: rows
  /// with a target are checked by `check` and close when the model wishes.
  std::function<std::size_t(const std::string&, const std::vector<double>&)> targetCheck;
  static constexpr std::size_t kShortOfTarget = std::size_t(-2);
  /// With `targetCheck`: logit biases for a held row from the kernel a
  /// statement check passed and the row's target (steer::heldLean), added
  /// to the row's logits until its next passed statement, so that it leans
  /// toward the counts it still lacks. Called from the check threads, right
  /// after that statement's check. Empty: none.
  std::function<std::vector<std::pair<int, float>>(const std::string&, const std::vector<double>&)> heldLean;
  bool checkWhole = true; ///< also check the whole kernel as its last hole closes (see `check`)
  /// The whole kernel's check, when it should judge more than a statement
  /// can: a variable nothing uses, a store every work-item makes to one
  /// element (steer::cleanKernelCheck). Same contract as `check`; an offset
  /// from the hole on keeps the hole open. Empty: `check`.
  std::function<std::size_t(const std::string&)> wholeCheck;
  /// A held row's kernel (see `targetCheck`) rewritten as it ends, before
  /// `wholeCheck` judges it and it is returned (features::pruneDeadDeclarations:
  /// the declarations that do no work go; the last statement goes back when
  /// the tidied kernel fails `wholeCheck`). Empty: as written.
  std::function<std::string(const std::string&)> tidy;
  /// `tidy` rewrites every complete sample of a whole-kernel feed (both true
  /// ends), not only held rows, before `wholeCheck` judges it.
  bool tidyAll = false;
  /// Whether `tidy` rewrites a row's complete sample: a held row's, or with
  /// `tidyAll` any whose feed has both true ends.
  [[nodiscard]] bool tidies(bool holdsTarget, bool hasStart, bool hasEnd) const {
    return tidy && (holdsTarget || (tidyAll && hasStart && hasEnd));
  }
  /// A text checked before in the same call gets its verdict again without
  /// calling `check` (rememberedChecks), which must then be a function of
  /// the text alone, as a compiler is. false: every check is a call.
  bool rememberChecks = true;
  /// A statement's first error takes it back only to the token the error is
  /// at, keeping what came before; a second takes all of it back. false: all
  /// of it every time.
  bool resumeAtError = true;
  /// A row is given up (an incomplete sample) after this many statements
  /// taken back.
  int checkPatience = 8;
  /// A sample that would end incomplete (given up by the guard's or the
  /// checks' patience, or cut by a limit), or whose last hole would close
  /// with the checks' patience spent and the kernel still in error, starts
  /// again from its feed, at most this many times; the last try ends as it
  /// ends. A fresh draw where the model lost its way, at the cost of the
  /// tokens it wrote. 0: never (each sample gets one try).
  int restarts = 0;
  /// Per feed (one entry per feed, or empty: none), the tokens its hole
  /// replaced, for a feed with one hole: a fill that rebuilds them exactly
  /// (the feed's own kernel again, a wasted sample) is drawn again from the
  /// feed, at most `redraws` times, after which it is kept. An empty entry:
  /// the hole replaced nothing, so an empty fill is the copy.
  std::vector<std::vector<int>> feedReplaced;
  int redraws = 4;
  unsigned checkJobs = 0; ///< 0: all cores (shared by the streams)
  /// A decoder's products with its weights packed once (PackedProduct.h;
  /// on CPUs with AVX2 or AVX-512); false: libtorch's, which repack them at
  /// every step. They round differently in the last bits, which seldom
  /// changes a draw.
  bool packedProducts = true;
  /// Independent batches sampled at once, each of `batchSize` rows on one
  /// core; the results depend on the stream count as on the seed. 0:
  /// Sampler::defaultStreams().
  int streams = 0;
  /// Per feed: which true ends of a kernel it holds (kStartEnd bits). A
  /// window cut out of a longer kernel has no [START] or [END] at a cut side,
  /// as in training. Empty: every feed is a whole kernel.
  std::vector<std::uint8_t> feedEnds;
  static constexpr std::uint8_t kHasStart = 1, kHasEnd = 2;
};

struct Sample {
  std::size_t index = 0;     ///< its place in the call's queue (0 .. count-1)
  std::size_t feed = 0;      ///< index of the feed it came from
  std::string text;          ///< decoded, holes filled
  std::vector<int> ids;      ///< tokens, [START]/[END] excluded (of the window, for a windowed feed)
  int newTokens = 0;
  int holeAt = 0;            ///< where the feed's first [HOLE] was in `ids` (its infill starts there)
  bool complete = false;     ///< every hole closed by [ENDHOLE] (not cut by a limit), or `cut`
  /// Held to a target (SampleOptions::targetCheck) and given up on the way:
  /// the kernel as a checked statement left it, blocks closed.
  bool cut = false;
  int restarts = 0;          ///< times it started again from its feed (SampleOptions::restarts)
  int redraws = 0;           ///< times its fill rebuilt what the hole replaced and was drawn again
};

/// Whether some feed has text after one of its holes (an infill, not a
/// kernel written from its start to its end), where
/// SampleOptions::typedArguments pays.
[[nodiscard]] bool fillsBetweenText(const std::vector<std::string>& feeds);

class Sampler {
public:
  /// Loads the model and tokenizer of a checkpoint; `threads` 0 = all cores.
  /// Throws InputError for a missing, corrupt or mismatched checkpoint.
  Sampler(const std::string& checkpoint, int threads);
  ~Sampler();
  Sampler(Sampler&&) noexcept;
  Sampler& operator=(Sampler&&) noexcept;

  [[nodiscard]] const Tokenizer& tokenizer() const;
  /// sha256 of the checkpoint file: recorded with every sample.
  [[nodiscard]] const std::string& modelHash() const { return modelHash_; }
  [[nodiscard]] std::string describe() const;
  /// The streams SampleOptions::streams = 0 stands for: one per thread this
  /// sampler was given, when OpenBLAS has its own pool; else 1. Fixed when
  /// the sampler is made, so other samplers' threads do not change it.
  [[nodiscard]] int defaultStreams() const { return defaultStreams_; }
  /// The longest sequence the model takes, [START] and [END] included.
  [[nodiscard]] int maxLength() const;
  /// A fill-in-the-middle decoder (else an encoder).
  [[nodiscard]] bool decoder() const;
  /// Trained with conditions: can be told a target (SampleOptions::target).
  [[nodiscard]] bool conditioned() const;
  /// The options this model samples best with, as measured
  /// (bench/results/bench-generate.md): a decoder draws from the nucleus of
  /// 0.9 and starts a sample given up again up to 3 times (without them its
  /// undirected samples compile about 60%, with them over 95%); an encoder
  /// samples with SampleOptions' own defaults.
  [[nodiscard]] SampleOptions recommendedOptions() const;

  /// `count` samples, taking the feeds in turn. Each feed's text must hold at
  /// least one [HOLE]. `done` is called on the calling thread as each sample
  /// finishes (with several streams, in queue order). Returns them in queue
  /// order. Stops early when `cancel` is set.
  std::vector<Sample> sample(const std::vector<std::string>& feeds, int count, const SampleOptions& options,
                             const std::function<void(const Sample&)>& done = {},
                             const CancelToken* cancel = nullptr);

  struct Impl;
  /// For tests: a sampler over a model built in memory.
  explicit Sampler(std::unique_ptr<Impl> impl);
  [[nodiscard]] Impl& impl() { return *impl_; }

private:
  /// One stream's share of the queue (samples stream, stream + streams, ...).
  std::vector<Sample> sampleStream(const std::vector<std::vector<int>>& encoded, int count, int stream, int streams,
                                   const SampleOptions& options, const std::function<void(const Sample&)>& done,
                                   const CancelToken* cancel, const CancelToken* stop = nullptr);

  std::unique_ptr<Impl> impl_;
  std::string modelHash_;
  int defaultStreams_ = 1;
};

} // namespace steerbench::model

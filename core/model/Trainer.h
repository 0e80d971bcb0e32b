// Training the infilling encoder on a corpus (torch-free interface: the CLI
// and the GUI include it; libtorch stays in Trainer.cpp).
//
// Hole datapoints are made on the fly; a step's datapoints run in groups of
// similar length, each padded to its own longest (TrainingStep.h); AdamW
// with linear warmup and decay; a train/validation split by kernel; atomic
// checkpoints every N steps, from which training resumes (after kill -9 too);
// deterministic for a seed and thread count.
#pragma once

#include "engine/ParallelFor.h"
#include "model/Datapoints.h"
#include "model/ModelConfig.h"
#include "model/TrainingRanks.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace steerbench::model {

class Tokenizer;

struct TrainOptions {
  ModelConfig model;             ///< vocab is taken from the tokenizer
  DatapointOptions data;         ///< the objective: holes per sequence, masked tokens (an encoder's only);
                                 ///< a decoder gets makeFimDatapoint's sequences of the same holes
  int batchSize = 16;
  int steps = 2000;              ///< total optimizer steps
  double learningRate = 5e-4;    ///< peak
  int warmupSteps = 100;         ///< linear warmup to the peak, then linear decay to 0 at `steps`
  double weightDecay = 0.01;
  double validationFraction = 0.05; ///< kernels held out for validation (by kernel, chosen by content hash;
                                    ///< at least one when the corpus has two or more)
  int validateEvery = 100;
  int validationSequences = 128; ///< fixed validation datapoints: one hole each, no masking (the sampling task),
                                 ///< whatever the training objective, so objectives compare on one scale
  int checkpointEvery = 100;
  std::uint64_t seed = 1;
  int threads = 0;               ///< libtorch threads (0: all cores)
  std::string checkpoint;        ///< file written every checkpointEvery steps and at the end
  /// Fine-tuning: a new run (no checkpoint yet) starts from this checkpoint's
  /// weights, with its shape and tokenizer, a new optimizer and its own
  /// warmup and decay over `steps`. Ignored when resuming.
  std::string initFrom;
  /// Fine-tuning: positions for the new model, more than the starting
  /// model's (its position table grows; see loadWeightsForFineTuning);
  /// 0 keeps them.
  int positions = 0;
  /// A decoder's reading order (ModelConfig::suffixFirst: true reads the
  /// suffix first). Unset: prefix first for a new model, the starting model's
  /// for a fine-tune; a resumed run keeps its own (and refuses another).
  std::optional<bool> suffixFirst;
  std::string recipe;            ///< JSON stored in the checkpoint: the command and corpus that made it
  /// Balance by package (TrainingSession): packages are drawn in proportion
  /// to their kernel counts to this power (1: every kernel alike; 0.5: the
  /// square root, so the largest package no longer dominates).
  double packageBalance = 1.0;
  /// Balance by feature richness (TrainingSession): each kernel's draw is
  /// multiplied by (1 + richness)^this (featureRichness; 0: off).
  double richness = 0;
  /// Each kernel that accesses local memory is drawn this many times as
  /// often (TrainingSession, weighLocalMemory; 1: off).
  double localMemory = 1;
  /// Each kernel that asks no work-item function is drawn this many times as
  /// often (TrainingSession, weighOneWorkItem; 1: off).
  double oneWorkItem = 1;
  /// One weight per kernel given to train() (empty: every kernel alike): a
  /// training kernel is drawn with probability proportional to its weight
  /// (packageWeights). Validation kernels are held out as without weights.
  std::vector<double> kernelWeights;
  /// Feature conditioning (a decoder's; Conditioning.h): this share of the
  /// training rows that show their whole kernel (no window) starts with its
  /// kernel's condition tokens, the rest with none, so the model learns to write toward counts it is told and still
  /// samples without them. > 0 gives the model condition tokens
  /// (ModelConfig::conditions). 0: off.
  double conditionShare = 0;
  /// One Grewe vector per kernel given to train() (TrainingSession), for the
  /// condition tokens; a kernel with an empty one gets none.
  std::vector<std::vector<double>> kernelFeatures;
  /// Data-parallel training: with more than one rank, every rank draws the
  /// whole step (batchSize points per rank, world × batchSize in all, the
  /// stream one process at that batch draws), runs its share, and the
  /// gradients are summed over the ranks (DataParallel) before each rank's
  /// identical optimizer step. Rank 0 validates and writes checkpoints; a
  /// checkpoint resumes on any number of ranks.
  TrainingRanks ranks;
  double rendezvousTimeout = 600; ///< seconds the ranks wait for each other (at the start and at each step)
};

struct TrainProgress {
  std::int64_t step = 0, steps = 0;
  double loss = 0;               ///< mean over the labels of this step's batch
  double validationLoss = -1;    ///< < 0 when not measured at this step
  double tokensPerSecond = 0;    ///< input tokens processed, including padding: what the model computes on
  double labelsPerSecond = 0;
  double elapsedSeconds = 0, etaSeconds = 0; ///< wall time of this process's training, and what is left
  double cpuSeconds = 0;         ///< CPU time of the process (all threads) since training started here
  bool checkpointed = false;
};

struct TrainResult {
  std::int64_t startStep = 0;    ///< > 0 when resumed from the checkpoint
  std::int64_t step = 0;
  double lastLoss = 0, lastValidationLoss = -1;
  bool cancelled = false;
  std::size_t trainKernels = 0, validationKernels = 0;
  std::int64_t parameters = 0;
};

/// Trains (or resumes, when options.checkpoint exists and matches) on
/// `kernels`. `progress` is called on the calling thread after every step.
/// Throws InputError for an unusable corpus or checkpoint.
TrainResult train(const Tokenizer& tokenizer, const std::vector<std::string>& kernels, const TrainOptions& options,
                  const std::function<void(const TrainProgress&)>& progress, const CancelToken* cancel);

/// True for the kernels training holds out for validation (by content hash):
/// the benches evaluate infilling on these.
[[nodiscard]] bool isValidationKernel(const std::string& kernel, double fraction);

/// Spreads the model's work over `threads` cores (0: all). With OpenBLAS,
/// its own pool gets them and libtorch's OpenMP pool keeps one thread (two
/// pools on the same cores slow each other down); with another BLAS,
/// libtorch's pool gets them. Returns the thread count.
int applyThreads(int threads);

/// The threads applyThreads gave OpenBLAS's own pool (0: no such pool).
[[nodiscard]] int blasPoolThreads();

/// While it lives, OpenBLAS's pool has one thread, so that several threads
/// can each run their own products on a core of their own (the sampler's
/// streams); then it gets back what it had. Does nothing without such a pool.
class BlasThreadsForStreams {
public:
  BlasThreadsForStreams();
  ~BlasThreadsForStreams();
  BlasThreadsForStreams(const BlasThreadsForStreams&) = delete;
  BlasThreadsForStreams& operator=(const BlasThreadsForStreams&) = delete;

private:
  int had_ = 0;
};

/// applyThreads(threads), then the BLAS this process runs on ("OpenBLAS ...",
/// "BLIS", "reference BLAS") with its thread counts.
[[nodiscard]] std::string useThreads(int threads);

} // namespace steerbench::model

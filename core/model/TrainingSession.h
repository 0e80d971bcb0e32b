// One training run of a workspace's model, as the CLI and the GUI start it
// (torch-free: the trainer's arithmetic stays in Trainer.cpp).
//
// Preparing reads the workspace's training kernels, takes the tokenizer from
// the checkpoint when resuming (else builds one and saves it beside the
// checkpoint), and records the run with its spec. Progress is then stored
// step by step, with wall and CPU time counted on from the earlier
// invocations of the same run (a resumed run keeps its clock).
#pragma once

#include "model/Tokenizer.h"
#include "model/Trainer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::store {
class Workspace;
}

namespace steerbench::model {

class TrainingSession {
public:
  /// `options.checkpoint` must be set. Throws InputError when the workspace
  /// has no training kernels or the checkpoint cannot be read.
  TrainingSession(store::Workspace& ws, TrainOptions options, unsigned maxWords);

  /// The steerbench-cli command that makes the same run (less -w and -o):
  /// stored in the spec and in the checkpoint's recipe.
  [[nodiscard]] static std::string command(const TrainOptions& options, unsigned maxWords);

  /// The options a checkpoint's recipe (a run's spec) was trained with, over
  /// `base` for what it does not say: resuming goes on with the same objective,
  /// batch, seed and schedule. The checkpoint path stays `base`'s.
  [[nodiscard]] static TrainOptions optionsFromRecipe(const std::string& recipe, TrainOptions base);

  [[nodiscard]] bool resuming() const { return resuming_; }
  [[nodiscard]] const Tokenizer& tokenizer() const { return tokenizer_; }
  [[nodiscard]] const TrainOptions& options() const { return options_; }
  [[nodiscard]] std::int64_t runId() const { return run_; }
  [[nodiscard]] const std::string& spec() const { return spec_; }
  [[nodiscard]] std::size_t kernelCount() const { return kernels_.size(); }
  /// What training draws, with the balance weights: weighted medians of the
  /// kernels' comp, mem and tokens, the largest package's share and the
  /// share of kernels that access local memory.
  [[nodiscard]] const std::string& drawSummary() const { return drawSummary_; }

  /// Trains (any thread). See model::train.
  TrainResult train(const std::function<void(const TrainProgress&)>& progress, const CancelToken* cancel) const;
  /// Stores a step's progress in the run (the workspace's writer thread).
  void record(store::Workspace& ws, const TrainProgress& p) const;
  /// Marks the run done, or stopped when cancelled.
  void finish(store::Workspace& ws, const TrainResult& result) const;

private:
  TrainOptions options_;
  std::vector<std::string> kernels_;
  Tokenizer tokenizer_;
  bool resuming_ = false;
  std::string spec_;
  std::string drawSummary_;
  std::int64_t run_ = 0;
  double elapsedBefore_ = 0, cpuBefore_ = 0;
};

} // namespace steerbench::model

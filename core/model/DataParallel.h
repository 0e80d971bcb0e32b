// Data-parallel training's communication (Trainer.cpp only): the ranks of
// TrainingRanks meet at rank 0's TCP store and sum tensors with libtorch's
// c10d over Gloo (TCP), so it runs under mpirun, srun or by hand alike.
#pragma once
#include "model/TrainingRanks.h"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace steerbench::model {

class DataParallel {
public:
  /// Joins the other ranks (waiting for them up to `timeoutSeconds`). Throws
  /// InputError saying where it waited when they do not come.
  DataParallel(const TrainingRanks& ranks, double timeoutSeconds);
  ~DataParallel();
  DataParallel(const DataParallel&) = delete;
  DataParallel& operator=(const DataParallel&) = delete;

  [[nodiscard]] const TrainingRanks& ranks() const { return ranks_; }
  /// Sums each tensor over the ranks, in place (every rank gets the sum).
  void sum(std::vector<torch::Tensor>& tensors);
  /// Sums the gradients of `parameters` over the ranks, in one flat buffer.
  void sumGradients(const std::vector<torch::Tensor>& parameters);

private:
  struct Group;
  TrainingRanks ranks_;
  std::unique_ptr<Group> group_;
};

} // namespace steerbench::model

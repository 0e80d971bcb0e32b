#include "model/DataParallel.h"

#include "common/Error.h"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>

namespace steerbench::model {

struct DataParallel::Group {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> gloo;
};

DataParallel::DataParallel(const TrainingRanks& ranks, double timeoutSeconds)
    : ranks_(ranks), group_(std::make_unique<Group>()) {
  const auto timeout = std::chrono::milliseconds(std::int64_t(timeoutSeconds * 1000));
  const std::string where = ranks.masterAddr + ":" + std::to_string(ranks.masterPort);
  try {
    c10d::TCPStoreOptions so;
    so.port = std::uint16_t(ranks.masterPort);
    so.isServer = ranks.rank == 0;
    so.numWorkers = std::size_t(ranks.world);
    so.waitWorkers = true;
    so.timeout = timeout;
    group_->store = c10::make_intrusive<c10d::TCPStore>(ranks.masterAddr, so);
    auto options = c10d::ProcessGroupGloo::Options::create(timeout);
    options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    group_->gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(group_->store, ranks.rank, ranks.world, options);
  } catch (const std::exception& e) {
    throw InputError("rank " + std::to_string(ranks.rank) + " of " + std::to_string(ranks.world) +
                     " could not meet the others at " + where + " (MASTER_ADDR:MASTER_PORT; rank 0 listens there): " +
                     e.what());
  }
}

DataParallel::~DataParallel() = default;

void DataParallel::sum(std::vector<torch::Tensor>& tensors) {
  for (auto& t : tensors) {
    std::vector<torch::Tensor> one{t};
    group_->gloo->allreduce(one)->wait();
  }
}

void DataParallel::sumGradients(const std::vector<torch::Tensor>& parameters) {
  std::vector<torch::Tensor> grads;
  for (const auto& p : parameters)
    grads.push_back(p.grad().defined() ? p.grad().reshape(-1) : torch::zeros({p.numel()}, p.options()));
  std::vector<torch::Tensor> flat{torch::cat(grads)};
  group_->gloo->allreduce(flat)->wait();
  std::int64_t at = 0;
  for (const auto& p : parameters) {
    const auto n = p.numel();
    if (p.grad().defined()) p.mutable_grad().copy_(flat[0].slice(0, at, at + n).view_as(p));
    else p.mutable_grad() = flat[0].slice(0, at, at + n).view_as(p).clone();
    at += n;
  }
}

} // namespace steerbench::model

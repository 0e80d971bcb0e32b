#include "model/TrainingSession.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "model/InfillModelInfo.h"
#include "store/Workspace.h"

#include <cstdlib>
#include <filesystem>

namespace steerbench::model {

std::string TrainingSession::command(const TrainOptions& o, unsigned maxWords) {
  return "steerbench-cli train --steps " + std::to_string(o.steps) + " --batch " + std::to_string(o.batchSize) +
         " --layers " + std::to_string(o.model.layers) + " --hidden " + std::to_string(o.model.hidden) + " --heads " +
         std::to_string(o.model.heads) + " --ffn " + std::to_string(o.model.ffn) + " --max-length " +
         std::to_string(o.model.maxLength) + " --lr " + formatNumber(o.learningRate) + " --warmup " +
         std::to_string(o.warmupSteps) + " --holes " + std::to_string(o.data.minHoles) + "-" +
         std::to_string(o.data.maxHoles) + " --mask " + formatNumber(o.data.maskProbability) + " --seed " +
         std::to_string(o.seed) + " --threads " + std::to_string(o.threads) + " --validate-every " +
         std::to_string(o.validateEvery) + " --checkpoint-every " + std::to_string(o.checkpointEvery) +
         " --max-words " + std::to_string(maxWords);
}

TrainingSession::TrainingSession(store::Workspace& ws, TrainOptions options, unsigned maxWords)
    : options_(std::move(options)) {
  if (options_.checkpoint.empty()) throw InputError("training needs a checkpoint path");
  for (const auto& row : ws.rows("SELECT source FROM kernels WHERE role = 'train' ORDER BY id"))
    kernels_.push_back(row[0]);
  if (kernels_.empty())
    throw InputError(ws.path() + " holds no training kernels; build the corpus first (steerbench-cli corpus ingest)");

  // Resuming uses the checkpoint's own tokenizer; a new run builds one.
  const std::string& ckpt = options_.checkpoint;
  std::error_code ec;
  resuming_ = std::filesystem::exists(ckpt, ec);
  if (resuming_) {
    tokenizer_ = Tokenizer::fromJson(checkpointTokenizerJson(ckpt), "checkpoint " + ckpt);
  } else {
    Tokenizer::Options to;
    to.maxWords = maxWords;
    tokenizer_ = Tokenizer::build(kernels_, to);
    tokenizer_.save(ckpt + ".tokenizer.json");
  }
  options_.model.vocab = tokenizer_.size();

  const auto& o = options_;
  spec_ = "{\"command\":\"train\",\"app_version\":" + jsonString(kAppVersion) + ",\"invocation\":" +
          jsonString(command(options_, maxWords)) + ",\"model\":" + o.model.toJson() + ",\"steps\":" + std::to_string(o.steps) +
          ",\"batch\":" + std::to_string(o.batchSize) + ",\"lr\":" + formatNumber(o.learningRate) +
          ",\"warmup\":" + std::to_string(o.warmupSteps) + ",\"holes\":" +
          jsonString(std::to_string(o.data.minHoles) + "-" + std::to_string(o.data.maxHoles)) +
          ",\"mask\":" + formatNumber(o.data.maskProbability) + ",\"seed\":" + std::to_string(o.seed) +
          ",\"threads\":" + std::to_string(o.threads) + ",\"max_words\":" + std::to_string(maxWords) +
          ",\"tokenizer_sha256\":" + jsonString(tokenizer_.hash()) + ",\"training_kernels\":" +
          std::to_string(kernels_.size()) + "}";
  options_.recipe = spec_;
  run_ = resuming_ ? ws.trainingRunFor(ckpt) : 0;
  if (!run_) run_ = ws.addTrainingRun(ckpt, spec_);
  ws.setTrainingStatus(run_, "running");
  for (const auto& row : ws.rows("SELECT coalesce(max(elapsed_s), 0), coalesce(max(cpu_s), 0) FROM training_steps "
                                 "WHERE run_id = " + std::to_string(run_))) {
    elapsedBefore_ = std::atof(row[0].c_str());
    cpuBefore_ = std::atof(row[1].c_str());
  }
}

TrainResult TrainingSession::train(const std::function<void(const TrainProgress&)>& progress,
                                   const engine::CancelToken* cancel) const {
  return model::train(tokenizer_, kernels_, options_, progress, cancel);
}

void TrainingSession::record(store::Workspace& ws, const TrainProgress& p) const {
  ws.addTrainingStep(run_, p.step, p.loss, p.validationLoss, p.tokensPerSecond, p.labelsPerSecond,
                     elapsedBefore_ + p.elapsedSeconds, cpuBefore_ + p.cpuSeconds);
}

void TrainingSession::finish(store::Workspace& ws, const TrainResult& result) const {
  ws.setTrainingStatus(run_, result.cancelled ? "stopped" : "done");
}

} // namespace steerbench::model

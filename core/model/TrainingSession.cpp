#include "model/TrainingSession.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "model/Conditioning.h"
#include "model/Datapoints.h"
#include "model/InfillModelInfo.h"
#include "store/HexDoubles.h"
#include "store/Workspace.h"

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <map>
#include <cstdlib>
#include <optional>
#include <type_traits>
#include <filesystem>

namespace steerbench::model {

namespace {

// The weighted median of values (weights empty: all alike).
double weightedMedian(const std::vector<double>& values, const std::vector<double>& weights) {
  std::vector<std::pair<double, double>> v;
  double total = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    v.emplace_back(values[i], weights.empty() ? 1.0 : weights[i]);
    total += v.back().second;
  }
  std::sort(v.begin(), v.end());
  double acc = 0;
  for (const auto& [x, w] : v)
    if ((acc += w) >= total / 2) return x;
  return 0;
}

std::string describeDraw(const std::vector<double>& weights, const std::vector<std::string>& packages,
                         const std::vector<double>& tokens, const std::vector<std::vector<double>>& grewe,
                         const std::vector<bool>& asksNoWorkItem) {
  if (packages.empty()) return {};
  std::vector<double> comp, mem;
  for (const auto& g : grewe) {
    comp.push_back(g.size() > 2 ? g[0] : 0);
    mem.push_back(g.size() > 2 ? g[2] : 0);
  }
  std::map<std::string, double> share;
  double total = 0, local = 0, oneItem = 0;
  for (std::size_t i = 0; i < packages.size(); ++i) {
    const double w = weights.empty() ? 1.0 : weights[i];
    share[packages[i]] += w;
    total += w;
    if (i < grewe.size() && usesLocalMemory(grewe[i])) local += w;
    if (i < asksNoWorkItem.size() && asksNoWorkItem[i]) oneItem += w;
  }
  const auto largest = std::max_element(share.begin(), share.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
  return "median comp " + formatNumber(weightedMedian(comp, weights)) + ", mem " +
         formatNumber(weightedMedian(mem, weights)) + ", " + formatNumber(weightedMedian(tokens, weights)) +
         " tokens; largest package " + (largest->first.empty() ? "(none)" : largest->first) + " " +
         std::to_string(int(100 * largest->second / total + 0.5)) + "%; local memory in " +
         std::to_string(int(100 * local / total + 0.5)) + "%; no work-item function in " +
         std::to_string(int(100 * oneItem / total + 0.5)) + "%";
}

/// A number field of a spec we wrote ourselves (flat keys; the model's are
/// unique too). nullopt when absent.
std::optional<double> number(const std::string& json, const char* key) {
  const std::string k = std::string("\"") + key + "\":";
  const auto at = json.find(k);
  if (at == std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(json.c_str() + at + k.size(), &end);
  if (end == json.c_str() + at + k.size()) return std::nullopt;
  return v;
}

/// A string field of a spec we wrote ourselves (no escapes in the values read
/// here: hashes). Empty when absent.
std::string text(const std::string& json, const char* key) {
  const std::string k = std::string("\"") + key + "\":\"";
  const auto at = json.find(k);
  if (at == std::string::npos) return {};
  const auto end = json.find('"', at + k.size());
  return end == std::string::npos ? std::string() : json.substr(at + k.size(), end - at - k.size());
}

} // namespace

TrainOptions TrainingSession::optionsFromRecipe(const std::string& recipe, TrainOptions o) {
  auto take = [&](const char* key, auto& field) {
    if (const auto v = number(recipe, key)) field = static_cast<std::remove_reference_t<decltype(field)>>(*v);
  };
  take("steps", o.steps);
  take("batch", o.batchSize);
  take("lr", o.learningRate);
  take("warmup", o.warmupSteps);
  take("mask", o.data.maskProbability);
  take("continuation", o.data.continuationProbability);
  take("short_holes", o.data.shortHoleProbability);
  take("whole", o.data.wholeKernelProbability);
  take("condition_share", o.conditionShare);
  take("package_balance", o.packageBalance);
  take("richness", o.richness);
  take("local_memory", o.localMemory);
  take("one_work_item", o.oneWorkItem);
  take("seed", o.seed);
  take("threads", o.threads);
  take("validate_every", o.validateEvery);
  take("checkpoint_every", o.checkpointEvery);
  take("layers", o.model.layers);
  take("hidden", o.model.hidden);
  take("heads", o.model.heads);
  take("ffn", o.model.ffn);
  take("max_length", o.model.maxLength);
  if (recipe.find("\"model\":") != std::string::npos) // a recipe without "arch" made an encoder
    o.model.arch = recipe.find("\"arch\":\"decoder\"") != std::string::npos ? ModelConfig::Arch::Decoder
                                                                             : ModelConfig::Arch::Encoder;
  if (recipe.find("\"fim_order\":\"spm\"") != std::string::npos) o.suffixFirst = true;
  const std::string holes = "\"holes\":\"";
  if (const auto at = recipe.find(holes); at != std::string::npos) {
    unsigned lo = 0, hi = 0;
    if (std::sscanf(recipe.c_str() + at + holes.size(), "%u-%u", &lo, &hi) == 2 && lo >= 1 && hi >= lo) {
      o.data.minHoles = lo;
      o.data.maxHoles = hi;
    }
  }
  return o;
}

std::string TrainingSession::command(const TrainOptions& o, unsigned maxWords) {
  return "steerbench-cli train --steps " + std::to_string(o.steps) + " --batch " + std::to_string(o.batchSize) +
         (o.model.decoder() ? std::string(" --arch decoder") + (o.model.suffixFirst ? " --fim-order spm" : "") : "") + " --layers " + std::to_string(o.model.layers) + " --hidden " + std::to_string(o.model.hidden) + " --heads " +
         std::to_string(o.model.heads) + " --ffn " + std::to_string(o.model.ffn) + " --max-length " +
         std::to_string(o.model.maxLength) + " --lr " + formatNumber(o.learningRate) + " --warmup " +
         std::to_string(o.warmupSteps) + " --holes " + std::to_string(o.data.minHoles) + "-" +
         std::to_string(o.data.maxHoles) + " --mask " + formatNumber(o.data.maskProbability) + " --continuation " +
         formatNumber(o.data.continuationProbability) +
         (o.data.shortHoleProbability > 0 ? " --short-holes " + formatNumber(o.data.shortHoleProbability) : "") +
         (o.data.wholeKernelProbability > 0 ? " --whole " + formatNumber(o.data.wholeKernelProbability) : "") +
         (o.conditionShare > 0 ? " --conditions " + formatNumber(o.conditionShare) : "") +
         (o.packageBalance != 1.0 ? " --balance " + formatNumber(o.packageBalance) : "") +
         (o.richness != 0 ? " --richness " + formatNumber(o.richness) : "") +
         (o.localMemory != 1 ? " --local-memory " + formatNumber(o.localMemory) : "") +
         (o.oneWorkItem != 1 ? " --one-work-item " + formatNumber(o.oneWorkItem) : "") +
         " --seed " +
         std::to_string(o.seed) + " --threads " + std::to_string(o.threads) + " --validate-every " +
         std::to_string(o.validateEvery) + " --checkpoint-every " + std::to_string(o.checkpointEvery) +
         " --max-words " + std::to_string(maxWords) + (o.initFrom.empty() ? "" : " --init-from " + o.initFrom);
}

TrainingSession::TrainingSession(store::Workspace& ws, TrainOptions options, unsigned maxWords)
    : options_(std::move(options)) {
  if (options_.checkpoint.empty()) throw InputError("training needs a checkpoint path");
  std::vector<std::string> packages;
  std::vector<std::vector<double>> grewe; // the newest stored Grewe vector of each kernel (empty: none)
  std::vector<double> tokens;
  for (const auto& row : ws.rows("SELECT source, package, tokens, (SELECT hex(vals) FROM feature_vectors WHERE kernel_id = "
                                 "k.id AND space = 'grewe' ORDER BY space_version DESC LIMIT 1) "
                                 "FROM kernels k WHERE role = 'train' ORDER BY id")) {
    kernels_.push_back(row[0]);
    packages.push_back(row[1]);
    tokens.push_back(std::atof(row[2].c_str()));
    grewe.push_back(store::doublesFromHex(row[3]));
  }
  if (options_.packageBalance != 1.0) options_.kernelWeights = packageWeights(packages, options_.packageBalance);
  if (options_.richness != 0) weighByRichness(options_.kernelWeights, grewe, options_.richness);
  if (options_.localMemory != 1) weighLocalMemory(options_.kernelWeights, grewe, options_.localMemory);
  std::vector<bool> asksNoWorkItem;
  for (const auto& k : kernels_)
    asksNoWorkItem.push_back(!callsAWorkItemFunction(k));
  if (options_.oneWorkItem != 1) weighOneWorkItem(options_.kernelWeights, asksNoWorkItem, options_.oneWorkItem);
  drawSummary_ = describeDraw(options_.kernelWeights, packages, tokens, grewe, asksNoWorkItem);
  if (options_.conditionShare > 0) options_.kernelFeatures = grewe;
  if (kernels_.empty())
    throw InputError(ws.path() + " holds no training kernels; build the corpus first (steerbench-cli corpus ingest)");

  // Resuming uses the checkpoint's own tokenizer; a new run builds one.
  const std::string& ckpt = options_.checkpoint;
  std::error_code ec;
  resuming_ = std::filesystem::exists(ckpt, ec);
  std::string initFromHash;
  const bool fineTuning = !options_.initFrom.empty();
  if (resuming_ || fineTuning) {
    // The run's own checkpoint when resuming (a fine-tuning run's starting model need not exist any more: its
    // hash is in the recipe), else the starting model: the tokenizer, and for fine-tuning the shape.
    const std::string& source = resuming_ ? ckpt : options_.initFrom;
    const CheckpointInfo from = readCheckpointInfo(source);
    tokenizer_ = Tokenizer::fromJson(from.tokenizerJson, "checkpoint " + source);
    if (fineTuning) {
      const int positions = options_.positions;
      options_.model = from.config; // checked again when the weights load
      if (positions && !resuming_) {
        if (positions < from.config.maxLength)
          throw InputError("--max-length " + std::to_string(positions) + ": the starting model has " +
                           std::to_string(from.config.maxLength) +
                           " positions; a fine-tune can add positions, not take them away");
        options_.model.maxLength = positions;
      }
      initFromHash = resuming_ ? text(from.recipe, "init_from_sha256") : sha256OfFile(source);
    }
    if (resuming_ && options_.suffixFirst && *options_.suffixFirst != from.config.suffixFirst)
      throw InputError("checkpoint " + ckpt + " was trained reading " +
                       (from.config.suffixFirst ? "the suffix first (spm)" : "the prefix first (psm)") +
                       "; resume it with that order");
    if (resuming_) options_.model.suffixFirst = from.config.suffixFirst;
    if (resuming_) {
      // The draw's weights decide which kernels the rest of the run sees; a
      // resume with others would continue another run under this one's recipe.
      // The recipe read as the GUI reads it, over the defaults (which it leaves out).
      const TrainOptions recorded = optionsFromRecipe(from.recipe, TrainOptions{});
      const struct {
        const char* option;
        double given, recorded;
      } draws[] = {{"--balance", options_.packageBalance, recorded.packageBalance},
                   {"--richness", options_.richness, recorded.richness},
                   {"--local-memory", options_.localMemory, recorded.localMemory},
                   {"--one-work-item", options_.oneWorkItem, recorded.oneWorkItem}};
      for (const auto& d : draws)
        if (std::abs(d.recorded - d.given) > 1e-9)
          throw InputError("checkpoint " + ckpt + " was trained with " + d.option + " " + formatNumber(d.recorded) +
                           "; resume it with the same (given: " + formatNumber(d.given) + ")");
    }
    if (!resuming_ && options_.ranks.lead()) tokenizer_.save(ckpt + ".tokenizer.json");
  } else {
    Tokenizer::Options to;
    to.maxWords = maxWords;
    tokenizer_ = Tokenizer::build(kernels_, to);
    if (options_.ranks.lead()) tokenizer_.save(ckpt + ".tokenizer.json");
  }
  options_.model.vocab = tokenizer_.size();
  if (options_.conditionShare > 0) options_.model.conditions = conditionTokenCount(); // as train() makes it
  if (!resuming_ && options_.suffixFirst) options_.model.suffixFirst = *options_.suffixFirst;

  const auto& o = options_;
  spec_ = "{\"command\":\"train\",\"app_version\":" + jsonString(kAppVersion) + ",\"invocation\":" +
          jsonString(command(options_, maxWords)) + ",\"model\":" + o.model.toJson() + ",\"steps\":" + std::to_string(o.steps) +
          ",\"batch\":" + std::to_string(o.batchSize) + ",\"lr\":" + formatNumber(o.learningRate) +
          ",\"warmup\":" + std::to_string(o.warmupSteps) + ",\"holes\":" +
          jsonString(std::to_string(o.data.minHoles) + "-" + std::to_string(o.data.maxHoles)) +
          ",\"mask\":" + formatNumber(o.data.maskProbability) + ",\"continuation\":" +
          formatNumber(o.data.continuationProbability) + ",\"short_holes\":" +
          formatNumber(o.data.shortHoleProbability) +
          (o.data.wholeKernelProbability > 0 ? ",\"whole\":" + formatNumber(o.data.wholeKernelProbability) : std::string()) +
          (o.conditionShare > 0 ? ",\"condition_share\":" + formatNumber(o.conditionShare) : std::string()) +
          (o.packageBalance != 1.0 ? ",\"package_balance\":" + formatNumber(o.packageBalance) : std::string()) +
          (o.richness != 0 ? ",\"richness\":" + formatNumber(o.richness) : std::string()) +
          (o.localMemory != 1 ? ",\"local_memory\":" + formatNumber(o.localMemory) : std::string()) +
          (o.oneWorkItem != 1 ? ",\"one_work_item\":" + formatNumber(o.oneWorkItem) : std::string()) +
          (o.ranks.world > 1 ? ",\"ranks\":" + std::to_string(o.ranks.world) : std::string()) +
          ",\"seed\":" + std::to_string(o.seed) +
          ",\"threads\":" + std::to_string(o.threads) + ",\"validate_every\":" + std::to_string(o.validateEvery) +
          ",\"checkpoint_every\":" + std::to_string(o.checkpointEvery) + ",\"max_words\":" + std::to_string(maxWords) +
          (o.initFrom.empty() ? std::string()
                              : ",\"init_from\":" + jsonString(std::filesystem::path(o.initFrom).filename().string()) +
                                    ",\"init_from_sha256\":" + jsonString(initFromHash)) +
          ",\"tokenizer_sha256\":" + jsonString(tokenizer_.hash()) + ",\"training_kernels\":" +
          std::to_string(kernels_.size()) + "}";
  options_.recipe = spec_;
  if (!options_.ranks.lead()) return; // rank 0 records the run (the others train and stay quiet)
  run_ = resuming_ ? ws.trainingRunFor(ckpt) : 0;
  if (run_)
    ws.setTrainingSpec(run_, spec_); // it may go on for more steps than it started with
  else
    run_ = ws.addTrainingRun(ckpt, spec_);
  ws.setTrainingStatus(run_, "running");
  for (const auto& row : ws.rows("SELECT coalesce(max(elapsed_s), 0), coalesce(max(cpu_s), 0) FROM training_steps "
                                 "WHERE run_id = " + std::to_string(run_))) {
    elapsedBefore_ = std::atof(row[0].c_str());
    cpuBefore_ = std::atof(row[1].c_str());
  }
}

TrainResult TrainingSession::train(const std::function<void(const TrainProgress&)>& progress,
                                   const CancelToken* cancel) const {
  return model::train(tokenizer_, kernels_, options_, progress, cancel);
}

void TrainingSession::record(store::Workspace& ws, const TrainProgress& p) const {
  if (!run_) return; // not rank 0
  ws.addTrainingStep(run_, p.step, p.loss, p.validationLoss, p.tokensPerSecond, p.labelsPerSecond,
                     elapsedBefore_ + p.elapsedSeconds, cpuBefore_ + p.cpuSeconds);
}

void TrainingSession::finish(store::Workspace& ws, const TrainResult& result) const {
  if (!run_) return; // not rank 0
  ws.setTrainingStatus(run_, result.cancelled ? "stopped" : "done");
}

} // namespace steerbench::model

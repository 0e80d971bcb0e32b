#include "model/Trainer.h"

#include "model/DataParallel.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "model/Conditioning.h"
#include "model/InfillModel.h"
#include "model/LengthGroups.h"
#include "model/Tokenizer.h"
#include "model/TrainingStep.h"

#include <chrono>
#include <ctime>

#include <atomic>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace steerbench::model {
namespace {

struct Batch {
  torch::Tensor ids, labels, padding;
  std::int64_t tokens = 0, labelCount = 0;
};

/// Pads a set of datapoints to their own longest sequence.
Batch collate(const std::vector<Datapoint>& points) {
  std::size_t longest = 0;
  for (const auto& p : points)
    longest = std::max(longest, p.inputs.size());
  const auto b = std::int64_t(points.size()), t = std::int64_t(longest);
  auto ids = torch::full({b, t}, Tokenizer::kPad, torch::kLong);
  auto labels = torch::full({b, t}, Datapoint::kIgnore, torch::kLong);
  auto ia = ids.accessor<std::int64_t, 2>();
  auto la = labels.accessor<std::int64_t, 2>();
  Batch out;
  for (std::int64_t r = 0; r < b; ++r) {
    const auto& p = points[std::size_t(r)];
    for (std::size_t c = 0; c < p.inputs.size(); ++c) {
      ia[r][std::int64_t(c)] = p.inputs[c];
      la[r][std::int64_t(c)] = p.labels[c];
    }
    out.labelCount += p.labelCount();
  }
  out.tokens = b * t;
  out.padding = ids.eq(Tokenizer::kPad);
  out.ids = ids;
  out.labels = labels;
  return out;
}

/// Mean cross-entropy over the labelled positions. The head runs at those
/// positions only (holes and masked tokens, a small share of the batch): at
/// hidden 192 it would otherwise be about 40% of a step's arithmetic.
torch::Tensor lossOf(InfillModel& model, const Batch& batch) {
  const auto hidden = model->encode(batch.ids, batch.padding); // [B, T, H]
  const auto labelled = batch.labels.ne(Datapoint::kIgnore);
  return torch::nn::functional::cross_entropy(model->logits(hidden.index({labelled})), batch.labels.index({labelled}));
}

} // namespace

void sortByLength(std::vector<Datapoint>& points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const Datapoint& a, const Datapoint& b) { return a.inputs.size() < b.inputs.size(); });
}

StepPasses backwardInGroups(InfillModel& model, std::vector<Datapoint> points, std::int64_t stepLabels) {
  sortByLength(points);
  StepPasses out;
  for (const auto& p : points) out.labels += p.labelCount();
  const std::int64_t labels = stepLabels > 0 ? stepLabels : out.labels;
  if (labels == 0) {
    out.loss = std::numeric_limits<double>::quiet_NaN(); // as a mean over no labels is
    return out;
  }
  double sum = 0;
  const auto groups =
      lengthGroups(points.size(), [&](std::size_t i) { return points[i].inputs.size(); }, double(model->config().maxLength));
  for (const auto& [first, last] : groups) {
    const Batch b = collate({points.begin() + std::ptrdiff_t(first), points.begin() + std::ptrdiff_t(last)});
    if (b.labelCount == 0) continue;
    const auto loss = lossOf(model, b);
    (loss * (double(b.labelCount) / double(labels))).backward();
    sum += loss.item<double>() * double(b.labelCount);
    out.tokens += b.tokens;
  }
  out.loss = sum / double(labels);
  return out;
}

namespace {

double learningRateAt(const TrainOptions& o, std::int64_t step) {
  if (step < o.warmupSteps) return o.learningRate * double(step + 1) / double(o.warmupSteps);
  const double left = double(o.steps - step) / double(std::max<std::int64_t>(1, o.steps - o.warmupSteps));
  return o.learningRate * std::max(0.0, left);
}

/// The split by kernel: the first 32 bits of the kernel's sha256 (hex) pick its bucket.
bool inValidationBucket(const std::string& sha256, double fraction) {
  const unsigned bucket = unsigned(std::stoul(sha256.substr(0, 8), nullptr, 16) % 10000u);
  return bucket < unsigned(fraction * 10000);
}

double processCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

std::string rngText(const std::mt19937_64& rng) {
  std::ostringstream s;
  s << rng;
  return s.str();
}

} // namespace

bool isValidationKernel(const std::string& kernel, double fraction) {
  return inValidationBucket(sha256Hex(kernel), fraction);
}

namespace {

/// Where libtorch's sgemm_ comes from (the real file behind the alternatives
/// link), and that library's openblas_set_num_threads if it has one.
struct BlasLibrary {
  std::string path;
  void (*setThreads)(int) = nullptr;
};

BlasLibrary findBlasLibrary() {
  // libtorch calls the system libblas.so.3's sgemm_: ask the dynamic linker
  // which library that symbol comes from. (Being mapped proves nothing:
  // Debian's liblapack.so.3 may pull in OpenBLAS while libblas.so.3 is the
  // reference implementation.)
  BlasLibrary lib;
  void* sgemm = dlsym(RTLD_DEFAULT, "sgemm_");
  Dl_info info{};
  if (!sgemm || !dladdr(sgemm, &info) || !info.dli_fname) return lib;
  std::error_code ec; // /lib/.../libblas.so.3 is an alternatives link: name what it points at
  const auto real = std::filesystem::canonical(info.dli_fname, ec);
  lib.path = ec ? std::string(info.dli_fname) : real.string();
  if (void* handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) {
    lib.setThreads = reinterpret_cast<void (*)(int)>(dlsym(handle, "openblas_set_num_threads"));
    dlclose(handle);
  }
  return lib;
}

/// Looked up once: the process's BLAS does not change.
const BlasLibrary& blasLibrary() {
  static const BlasLibrary lib = findBlasLibrary();
  return lib;
}

std::atomic<int> poolThreads{0}; ///< what applyThreads gave OpenBLAS's pool

} // namespace

int blasPoolThreads() { return poolThreads.load(); }

BlasThreadsForStreams::BlasThreadsForStreams() : had_(poolThreads.load()) {
  if (had_ > 1) blasLibrary().setThreads(1);
}

BlasThreadsForStreams::~BlasThreadsForStreams() {
  if (had_ > 1) blasLibrary().setThreads(had_);
}

int applyThreads(int threads) {
  const int n = threads > 0 ? threads : int(engine::hardwareJobs());
  const BlasLibrary& lib = blasLibrary();
  if (lib.setThreads) {
    poolThreads.store(n);
    // OpenBLAS runs the matrix products on its own n threads. libtorch's
    // OpenMP pool stays at one thread: two pools on the same cores made
    // OpenMP's waiting threads spin while OpenBLAS worked (sampling 2.8x and
    // training 1.3x slower on 2 cores; docs/model.md, "Threads and streams").
    lib.setThreads(n);
    torch::set_num_threads(1);
    return n;
  }
  torch::set_num_threads(n); // a BLAS without its own pool: libtorch's threads are the only ones
  return n;
}

std::string useThreads(int threads) {
  const int n = applyThreads(threads);
  const BlasLibrary& lib = blasLibrary();
  const std::string& from = lib.path;
  std::string blas;
  if (from.find("openblas") != std::string::npos)
    blas = "OpenBLAS";
  else if (from.find("blis") != std::string::npos)
    blas = "BLIS";
  else if (from.find("/blas/libblas") != std::string::npos)
    blas = "reference BLAS (slow: install libopenblas0-pthread)";
  else
    blas = from.empty() ? std::string("an unknown BLAS") : "the BLAS in " + from;
  if (blas == "OpenBLAS")
    if (const char* core = std::getenv("OPENBLAS_CORETYPE"); core && *core) blas += std::string(" (OPENBLAS_CORETYPE=") + core + ")";
  if (lib.setThreads)
    return blas + ", " + std::to_string(n) + " BLAS thread(s), " + std::to_string(torch::get_num_threads()) +
           " libtorch thread(s)";
  return blas + ", " + std::to_string(torch::get_num_threads()) + " libtorch thread(s)";
}

TrainResult train(const Tokenizer& tokenizer, const std::vector<std::string>& kernels, const TrainOptions& options,
                  const std::function<void(const TrainProgress&)>& progress, const CancelToken* cancel) {
  TrainOptions o = options;
  o.model.vocab = tokenizer.size();
  o.model.validate();
  o.data.maxLength = unsigned(o.model.maxLength);
  if (o.steps < 1 || o.batchSize < 1) throw InputError("training needs at least one step and a batch of one");
  if (o.conditionShare > 0) {
    if (!o.model.decoder()) throw InputError("conditions need a decoder (--arch decoder)");
    if (o.kernelFeatures.size() != kernels.size())
      throw std::invalid_argument("TrainOptions::kernelFeatures must have one vector per kernel");
    o.model.conditions = conditionTokenCount();
  }
  (void)applyThreads(o.threads);

  // Split by kernel, by content hash: stable however the corpus is ordered.
  if (!o.kernelWeights.empty() && o.kernelWeights.size() != kernels.size())
    throw std::invalid_argument("TrainOptions::kernelWeights must have one weight per kernel");
  std::vector<std::vector<int>> trainSet, validationSet;
  std::vector<double> trainWeights;
  std::vector<std::vector<int>> trainConditions; // per training kernel (empty: none)
  std::string corpusText;
  std::string lowestHash;
  std::size_t lowest = 0;
  for (std::size_t ki = 0; ki < kernels.size(); ++ki) {
    const std::string& k = kernels[ki];
    const std::string hash = sha256Hex(k);
    corpusText += hash;
    auto ids = tokenizer.encode(k);
    if (ids.size() < 2) continue;
    const bool held = inValidationBucket(hash, o.validationFraction);
    if (!held && (lowestHash.empty() || hash < lowestHash)) {
      lowestHash = hash;
      lowest = trainSet.size();
    }
    if (!held) trainWeights.push_back(o.kernelWeights.empty() ? 1.0 : o.kernelWeights[ki]);
    if (!held)
      trainConditions.push_back(o.conditionShare > 0 && o.kernelFeatures[ki].size() >= kConditionNames.size()
                                    ? conditionTokens(o.kernelFeatures[ki], o.model.vocab)
                                    : std::vector<int>());
    (held ? validationSet : trainSet).push_back(std::move(ids));
  }
  // A corpus too small for the fraction to hold out anything still gets a
  // validation curve: its kernel of lowest hash (a corpus of dozens, not the default one).
  if (validationSet.empty() && o.validationFraction > 0 && trainSet.size() >= 2) {
    validationSet.push_back(std::move(trainSet[lowest]));
    trainSet.erase(trainSet.begin() + std::ptrdiff_t(lowest));
    trainWeights.erase(trainWeights.begin() + std::ptrdiff_t(lowest));
    trainConditions.erase(trainConditions.begin() + std::ptrdiff_t(lowest));
  }
  if (trainSet.empty()) throw InputError("no training kernels: the corpus is empty (build it first)");
  const std::string corpusHash = sha256Hex(corpusText);

  TrainResult result;
  result.trainKernels = trainSet.size();
  result.validationKernels = validationSet.size();

  InfillModel model = [&] {
    std::lock_guard lock(modelInitMutex());
    torch::manual_seed(o.seed);
    return InfillModel(o.model);
  }();
  result.parameters = model->parameterCount();
  torch::optim::AdamW optimizer(model->parameters(),
                                torch::optim::AdamWOptions(o.learningRate).weight_decay(o.weightDecay));
  std::mt19937_64 rng(o.seed);
  std::int64_t step = 0;

  CheckpointInfo info;
  info.config = o.model;
  info.tokenizerJson = tokenizer.toJson();
  info.tokenizerHash = tokenizer.hash();
  info.corpusHash = corpusHash;
  info.recipe = o.recipe;
  std::error_code ec;
  if (!o.checkpoint.empty() && std::filesystem::exists(o.checkpoint, ec)) {
    const auto saved = loadCheckpoint(o.checkpoint, model, &optimizer, info.tokenizerHash);
    if (saved.corpusHash != corpusHash)
      throw InputError("checkpoint " + o.checkpoint +
                       " was trained on another corpus; give a new --checkpoint path to start a new model");
    std::istringstream r(saved.rngState);
    r >> rng;
    if (!r) throw InputError("checkpoint " + o.checkpoint + " has an unreadable RNG state");
    step = saved.step;
    result.startStep = step;
  } else if (!o.initFrom.empty()) {
    // The weights only: a new optimizer and schedule (and new condition tokens, when asked for).
    loadWeightsForFineTuning(o.initFrom, model, info.tokenizerHash);
  }

  // A fixed validation set (its own RNG, so it is the same on resume): the
  // task sampling does, one hole and nothing masked, whatever the objective.
  std::vector<Datapoint> validation;
  {
    DatapointOptions task = o.data;
    task.minHoles = task.maxHoles = 1;
    task.maskProbability = 0;
    task.continuationProbability = 0;
    task.shortHoleProbability = 0; // validation losses stay comparable across objectives
    std::mt19937_64 vrng(o.seed ^ 0x5eedull);
    for (int i = 0; i < o.validationSequences && !validationSet.empty(); ++i)
      validation.push_back(o.model.decoder()
                               ? makeFimDatapoint(validationSet[std::size_t(i) % validationSet.size()], task, vrng, false,
                                                  o.model.suffixFirst)
                               : makeDatapoint(validationSet[std::size_t(i) % validationSet.size()], task, vrng));
    // Its batches of similar length: little padding (the mean is over labels, whatever the order).
    sortByLength(validation);
  }
  auto validate = [&]() {
    if (validation.empty()) return -1.0;
    torch::NoGradGuard ng;
    model->eval();
    double sum = 0;
    std::int64_t labels = 0;
    for (std::size_t i = 0; i < validation.size(); i += std::size_t(o.batchSize)) {
      std::vector<Datapoint> chunk(validation.begin() + std::ptrdiff_t(i),
                                   validation.begin() + std::ptrdiff_t(std::min(validation.size(), i + std::size_t(o.batchSize))));
      const auto b = collate(chunk);
      sum += lossOf(model, b).item<double>() * double(b.labelCount);
      labels += b.labelCount;
    }
    model->train();
    return labels ? sum / double(labels) : -1.0;
  };

  auto save = [&]() {
    if (o.checkpoint.empty() || !o.ranks.lead()) return;
    info.step = step;
    info.rngState = rngText(rng);
    saveCheckpoint(o.checkpoint, model, &optimizer, info);
  };

  // The other ranks, when training runs in several processes.
  std::unique_ptr<DataParallel> parallel;
  if (o.ranks.world > 1) parallel = std::make_unique<DataParallel>(o.ranks, o.rendezvousTimeout);

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const double cpuStart = processCpuSeconds();
  model->train();
  // Without weights, the uniform draw training always made (the same data stream as before weights existed).
  std::uniform_int_distribution<std::size_t> pickUniform(0, trainSet.size() - 1);
  std::discrete_distribution<std::size_t> pickWeighted(trainWeights.begin(), trainWeights.end());
  auto pick = [&](std::mt19937_64& r) { return o.kernelWeights.empty() ? pickUniform(r) : pickWeighted(r); };
  while (step < o.steps) {
    // Every rank stops at the same step (a signal reaches them at different times).
    bool stop = cancel && cancel->cancelled();
    if (parallel) {
      std::vector<torch::Tensor> flag{torch::tensor({stop ? 1.0 : 0.0}, torch::kFloat64)};
      parallel->sum(flag);
      stop = flag[0].item<double>() > 0;
    }
    if (stop) {
      save();
      result.cancelled = true;
      break;
    }
    const auto t0 = Clock::now();
    std::vector<Datapoint> points;
    // Every rank draws the whole step's points (the same stream as one
    // process at the whole batch), then takes its share of them.
    for (int i = 0; i < o.batchSize * o.ranks.world; ++i) {
      const std::size_t k = pick(rng);
      if (!o.model.decoder()) {
        points.push_back(makeDatapoint(trainSet[k], o.data, rng));
        continue;
      }
      // Only a row that shows its whole kernel gets its counts: a window's
      // text may hold none of them. Without conditions, no draw: the data
      // stream is as it was before they existed.
      const bool conditioned = o.conditionShare > 0 && !trainConditions[k].empty() &&
                               fitsFimWindow(trainSet[k].size(), o.data, trainConditions[k].size()) &&
                               std::bernoulli_distribution(o.conditionShare)(rng);
      points.push_back(makeFimDatapoint(trainSet[k], o.data, rng, true, o.model.suffixFirst,
                                        conditioned ? trainConditions[k] : std::vector<int>()));
    }
    for (auto& group : optimizer.param_groups())
      static_cast<torch::optim::AdamWOptions&>(group.options()).lr(learningRateAt(o, step));
    optimizer.zero_grad();
    StepPasses passes;
    if (parallel) {
      std::int64_t stepLabels = 0;
      for (const auto& p : points) stepLabels += p.labelCount();
      sortByLength(points); // a share of every length for each rank
      std::vector<Datapoint> mine;
      for (std::size_t i = std::size_t(o.ranks.rank); i < points.size(); i += std::size_t(o.ranks.world))
        mine.push_back(std::move(points[i]));
      passes = backwardInGroups(model, std::move(mine), stepLabels);
      parallel->sumGradients(model->parameters());
      std::vector<torch::Tensor> figures{torch::tensor({std::isnan(passes.loss) ? 0.0 : passes.loss,
                                                        double(passes.tokens), double(passes.labels)},
                                                       torch::kFloat64)};
      parallel->sum(figures);
      passes.loss = stepLabels ? figures[0][0].item<double>() : std::numeric_limits<double>::quiet_NaN();
      passes.tokens = std::int64_t(figures[0][1].item<double>());
      passes.labels = std::int64_t(figures[0][2].item<double>());
    } else {
      passes = backwardInGroups(model, std::move(points));
    }
    optimizer.step();
    ++step;
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();

    TrainProgress p;
    p.step = step;
    p.steps = o.steps;
    p.loss = passes.loss;
    p.tokensPerSecond = double(passes.tokens) / seconds;
    p.labelsPerSecond = double(passes.labels) / seconds;
    p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    p.cpuSeconds = processCpuSeconds() - cpuStart;
    p.etaSeconds = p.elapsedSeconds / double(step - result.startStep) * double(o.steps - step);
    // Rank 0 validates and writes the checkpoints (every rank holds the same model).
    if (o.ranks.lead() && (step % o.validateEvery == 0 || step == o.steps)) p.validationLoss = validate();
    if (step % o.checkpointEvery == 0 || step == o.steps) {
      save();
      p.checkpointed = !o.checkpoint.empty() && o.ranks.lead();
    }
    result.lastLoss = p.loss;
    if (p.validationLoss >= 0) result.lastValidationLoss = p.validationLoss;
    if (progress) progress(p);
  }
  result.step = step;
  return result;
}

} // namespace steerbench::model

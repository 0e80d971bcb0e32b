// The Grewe et al. CPU/GPU mapping heuristic, evaluated as the literature
// does (docs/evaluation.md): a decision tree on F1 to
// F4 of DevMap-layout rows, cross-validated, scored by accuracy, by
// precision, recall and specificity with GPU as the positive class, and by
// speedup over static mapping (one device for every row).
#pragma once

#include "heuristic/DecisionTree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::dataset {
struct DevMapRow;
}

namespace steerbench::heuristic {

/// The tree's classes, as DevMap's `oracle` column names them.
enum Device : int { kCpu = 0, kGpu = 1 };
[[nodiscard]] const char* deviceName(int device); ///< "CPU" or "GPU"

enum class FeatureSet {
  Grewe,   ///< F1..F4, as Grewe et al. and DeepTune
  Extended ///< F1..F4 plus the raw counts, transfer and wgsize (CLgen's extension, without its branch count)
};
[[nodiscard]] std::vector<std::string> featureNames(FeatureSet set);
[[nodiscard]] const char* featureSetName(FeatureSet set); ///< "grewe" or "extended"

struct MappingCase {
  std::string benchmark; ///< suite-version-program-kernel
  std::string dataset;
  std::string program; ///< suite-version-program: what leave-one-benchmark-out holds out
  std::vector<double> features;
  int oracle = kCpu;
  double runtimeCpu = 0, runtimeGpu = 0;
  [[nodiscard]] double runtime(int device) const { return device == kGpu ? runtimeGpu : runtimeCpu; }
};

/// F1 = transfer/(comp+mem), F2 = coalesced/mem, F3 = (localmem/mem) x wgsize,
/// F4 = comp/mem; a zero denominator gives 0 (docs/features.md).
[[nodiscard]] std::vector<double> greweFeatures(const dataset::DevMapRow& row, FeatureSet set);
/// One case per row. The oracle is the faster runtime (DevMap's `oracle`
/// column always agrees; a row where it does not, or whose runtimes are not
/// positive, throws InputError naming `source` and the row).
[[nodiscard]] std::vector<MappingCase> mappingCases(const std::vector<dataset::DevMapRow>& rows, FeatureSet set,
                                                    const std::string& source);
/// "devmap-amd" and "devmap-nvidia" name DevMap's CSVs (in devmapDir());
/// anything else is a path. Throws InputError when DevMap is not on this machine.
[[nodiscard]] std::string dataSetPath(const std::string& name);
/// Reads a DevMap-layout CSV (by dataSetPath) into cases. Throws InputError.
[[nodiscard]] std::vector<MappingCase> readMappingCases(const std::string& name, FeatureSet set);

/// "npb-3.3-BT-add" -> "npb-3.3-BT": the benchmark without its kernel.
[[nodiscard]] std::string programOf(const std::string& benchmark);

enum class Protocol {
  KFold,                ///< stratified k-fold with a fixed seed
  LeaveOneBenchmarkOut, ///< one fold per program (all its kernels and datasets)
  TrainTest             ///< train on one set, test on another
};
[[nodiscard]] const char* protocolName(Protocol p); ///< "kfold", "lobo", "train-test"

struct EvaluationSpec {
  Protocol protocol = Protocol::KFold;
  int folds = 10;
  std::uint64_t seed = 204; ///< DeepTune's seed (with it, stratifiedFolds gives DeepTune's folds)
  TreeOptions tree;
  int staticDevice = -1; ///< -1: the device fastest on most test rows (ties: GPU)
  /// One line of JSON: everything above, for the record.
  [[nodiscard]] std::string json() const;
};

struct Metrics {
  std::size_t cases = 0;
  std::size_t truePositives = 0, falsePositives = 0, trueNegatives = 0, falseNegatives = 0; ///< GPU positive
  double accuracy = 0;
  double precision = 0, recall = 0, specificity = 0; ///< NaN when undefined (no predicted or no actual positives/negatives)
  int staticDevice = kCpu;
  double staticAccuracy = 0;
  double speedupMean = 0, speedupGeomean = 0; ///< runtime(static) / runtime(predicted), over cases
  double oracleMean = 0, oracleGeomean = 0;   ///< runtime(static) / runtime(oracle)
};

/// Per program: how the heuristic's predictions pay off there.
struct ProgramResult {
  std::string program;
  std::size_t cases = 0;
  double accuracy = 0, speedupMean = 0, oracleMean = 0;
};

struct Evaluation {
  std::vector<int> predicted; ///< per test case
  std::vector<int> fold;      ///< per test case (0 for train-test)
  Metrics metrics;
  std::vector<ProgramResult> programs; ///< sorted by program
  std::size_t trainingCases = 0;       ///< per fold on average (augmentation included)
};

/// The device fastest on most cases (ties: GPU).
[[nodiscard]] int staticDeviceOf(const std::vector<MappingCase>& cases);
/// Fold of each case, stratified: each fold holds each class in proportion.
/// The split is scikit-learn 0.18's StratifiedKFold(shuffle=True,
/// random_state=seed) (0.21's too), numpy's RNG included, because DeepTune's
/// published DevMap numbers came from it: with seed 204 this reproduces them
/// exactly. Throws InputError when k < 2, k exceeds every class's cases (as
/// scikit-learn does), or seed >= 2^32.
[[nodiscard]] std::vector<int> stratifiedFolds(const std::vector<int>& labels, int k, std::uint64_t seed);
/// Fold of each case: one fold per program, in order of first appearance.
[[nodiscard]] std::vector<int> programFolds(const std::vector<MappingCase>& cases);

/// Fills accuracy, precision, recall and specificity from the confusion
/// counts (NaN where a denominator is 0). metricsOf does; so can code that
/// pools counts over several evaluations.
void deriveRates(Metrics& m);

[[nodiscard]] Metrics metricsOf(const std::vector<MappingCase>& cases, const std::vector<int>& predicted,
                                int staticDevice);
[[nodiscard]] std::vector<ProgramResult> programResults(const std::vector<MappingCase>& cases,
                                                        const std::vector<int>& predicted, int staticDevice);

/// Cross-validates on `data` (KFold or LeaveOneBenchmarkOut): every fold's
/// tree trains on the other folds plus all of `augment`, and is tested on
/// its own fold of `data` only. Throws InputError when an added row is also
/// a row of `data` (it would be trained and tested on).
[[nodiscard]] Evaluation crossValidate(const std::vector<MappingCase>& data, const std::vector<MappingCase>& augment,
                                       const EvaluationSpec& spec);
/// Trains on `train` plus `augment` and tests on `test`.
[[nodiscard]] Evaluation trainTest(const std::vector<MappingCase>& train, const std::vector<MappingCase>& augment,
                                   const std::vector<MappingCase>& test, const EvaluationSpec& spec);

} // namespace steerbench::heuristic

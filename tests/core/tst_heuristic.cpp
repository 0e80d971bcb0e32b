// The Grewe et al. heuristic: the CART tree on splits checked by hand, the
// metrics on hand-made cases, the fold stratification and leave-one-out
// grouping, and augmentation staying out of the test folds.
#include "common/Error.h"
#include "dataset/DevMap.h"
#include "heuristic/DecisionTree.h"
#include "heuristic/DeviceMapping.h"
#include "heuristic/PairedTest.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>

using namespace steerbench;
using namespace steerbench::heuristic;

namespace {

MappingCase makeCase(const std::string& benchmark, std::vector<double> f, double cpu, double gpu) {
  MappingCase c;
  c.benchmark = benchmark;
  c.program = programOf(benchmark);
  c.features = std::move(f);
  c.runtimeCpu = cpu;
  c.runtimeGpu = gpu;
  c.oracle = gpu < cpu ? kGpu : kCpu;
  return c;
}

} // namespace

class TestHeuristic : public QObject {
  Q_OBJECT

private slots:
  void oneFeatureSplitsMidwayBetweenTheClasses() {
    std::vector<std::vector<double>> x;
    std::vector<int> y;
    for (int i = 1; i <= 10; ++i) {
      x.push_back({double(i)});
      y.push_back(i <= 5 ? 0 : 1);
    }
    const auto tree = DecisionTree::fit(x, y, 2, {5, 1});
    QCOMPARE(tree.nodes()[0].feature, 0);
    QCOMPARE(tree.nodes()[0].threshold, 5.5); // midway between 5 and 6
    QCOMPARE(tree.depth(), 1);
    QCOMPARE(tree.leaves(), std::size_t(2));
    QCOMPARE(tree.predict({5.5}), 0); // x <= threshold goes left
    QCOMPARE(tree.predict({5.6}), 1);
  }

  // 16 samples, 8 per class. Feature 0 splits them (0,3 | 8,5): weighted
  // child entropy 3*0 + 13*H(8/13) = 12.496 bits. Feature 1 splits them
  // (1,5 | 7,3): 6*H(1/6) + 10*H(7/10) = 3.900 + 8.813 = 12.713 bits. Entropy
  // picks feature 0, though Gini impurity would pick feature 1 (6.154 vs 5.867).
  void entropyNotGiniChoosesTheSplit() {
    std::vector<std::vector<double>> x;
    std::vector<int> y;
    for (int i = 0; i < 8; ++i) { // class 1
      x.push_back({i < 3 ? 0.0 : 1.0, i < 5 ? 0.0 : 1.0});
      y.push_back(1);
    }
    for (int i = 0; i < 8; ++i) { // class 0
      x.push_back({1.0, i < 1 ? 0.0 : 1.0});
      y.push_back(0);
    }
    const auto tree = DecisionTree::fit(x, y, 2, {1, 1});
    QCOMPARE(tree.nodes()[0].feature, 0);
    QCOMPARE(tree.nodes()[0].threshold, 0.5);
    const auto& left = tree.nodes()[std::size_t(tree.nodes()[0].left)];
    const auto& right = tree.nodes()[std::size_t(tree.nodes()[0].right)];
    QCOMPARE(left.counts, (std::vector<std::size_t>{0, 3}));
    QCOMPARE(right.counts, (std::vector<std::size_t>{8, 5}));
    QCOMPARE(left.majority, 1);
    QCOMPARE(right.majority, 0);
  }

  void minSamplesPerLeafIsKept() {
    // The pure split (after the 2nd sample) would leave 2 in a leaf; with at
    // least 3 per leaf the best allowed threshold is after the 3rd: (2,1 | 0,3).
    std::vector<std::vector<double>> x{{1}, {2}, {3}, {4}, {5}, {6}};
    std::vector<int> y{0, 0, 1, 1, 1, 1};
    const auto tree = DecisionTree::fit(x, y, 2, {5, 3});
    QCOMPARE(tree.nodes()[0].threshold, 3.5);
    for (const auto& n : tree.nodes())
      if (n.feature < 0) QVERIFY(n.counts[0] + n.counts[1] >= 3);
    // Fewer than 2 x min samples: no split at all.
    const auto leaf = DecisionTree::fit({{1}, {2}, {3}, {4}, {5}}, {0, 0, 1, 1, 1}, 2, {5, 3});
    QCOMPARE(leaf.leaves(), std::size_t(1));
    QCOMPARE(leaf.predict({1}), 1); // majority 3 to 2
  }

  void depthLimitAndTiesGoToTheLowerClass() {
    std::vector<std::vector<double>> x;
    std::vector<int> y;
    for (int i = 0; i < 64; ++i) {
      x.push_back({double(i)});
      y.push_back(i % 2); // alternating: needs many splits
    }
    const auto tree = DecisionTree::fit(x, y, 2, {3, 1});
    QCOMPARE(tree.depth(), 3);
    const auto stump = DecisionTree::fit({{1}, {2}}, {1, 0}, 2, {0, 1});
    QCOMPARE(stump.predict({1}), 0); // one each: the lower class
  }

  void constantFeaturesNeverSplit() {
    const auto tree = DecisionTree::fit({{7, 1}, {7, 2}, {7, 3}, {7, 4}}, {0, 0, 1, 1}, 2, {5, 1});
    QCOMPARE(tree.nodes()[0].feature, 1);
    QCOMPARE(tree.nodes()[0].threshold, 2.5);
  }

  void badTrainingDataIsRefused() {
    QVERIFY_THROWS_EXCEPTION(InputError, (void)DecisionTree::fit({}, {}, 2));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)DecisionTree::fit({{1}, {1, 2}}, {0, 1}, 2));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)DecisionTree::fit({{1}}, {2}, 2));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)DecisionTree::fit({{1}, {std::nan("")}}, {0, 1}, 2));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)DecisionTree::fit({{1}, {INFINITY}}, {0, 1}, 2));
    const auto tree = DecisionTree::fit({{0, 1}, {0, 2}}, {0, 1}, 2, {5, 1});
    QVERIFY_THROWS_EXCEPTION(InputError, (void)tree.predict({0})); // the tree splits on feature 1
  }

  // scikit-learn rounds X to float32: values that differ only beyond float
  // precision are one value, and no threshold falls between them.
  void featuresAreComparedAsFloats() {
    // In double, a and b differ by far more than the 1e-7 that counts as equal;
    // in float (spacing 6e-5 near 1000) they are one value.
    const double a = 1000.0, b = 1000.0 + 1e-5;
    const auto tree = DecisionTree::fit({{a}, {b}, {2000.0}}, {0, 1, 1}, 2, {5, 1});
    QCOMPARE(tree.nodes()[0].threshold, 1500.0); // between 1000 and 2000, not between a and b
  }

  void pairedComparisonsByHand() {
    // Ten splits, a ahead on every one by 1 to 10: W+ = 55 of 55; the
    // normal approximation with continuity correction gives z = 27 / sqrt(96.25).
    std::vector<double> a, b;
    for (int i = 1; i <= 10; ++i) {
      a.push_back(1.0 + i);
      b.push_back(1.0);
    }
    auto r = heuristic::comparePaired(a, b);
    QCOMPARE(r.n, std::size_t(10));
    QCOMPARE(r.wins, std::size_t(10));
    QCOMPARE(r.wPlus, 55.0);
    QVERIFY(std::fabs(r.z - 2.752094833763178) < 1e-9);
    QVERIFY(std::fabs(r.pWilcoxon - 0.005921537024148713) < 1e-9);
    QCOMPARE(r.pSign, 2.0 / 1024);
    QCOMPARE(r.meanDifference, 5.5);
    // Ties in |d| take their mean rank (1.5, 3.5, 6.5), and a zero is dropped.
    a = {1, 1, 2, -3, 4, 4, 5, -6, 7, 8, 9, -2, 0};
    b.assign(a.size(), 0.0);
    r = heuristic::comparePaired(a, b);
    QCOMPARE(r.wins, std::size_t(9));
    QCOMPARE(r.losses, std::size_t(3));
    QCOMPARE(r.wPlus, 60.5);
    QVERIFY(std::fabs(r.z - 1.649279649302598) < 1e-9);
    QVERIFY(std::fabs(r.pWilcoxon - 0.09909035686726166) < 1e-9);
    QVERIFY(std::fabs(r.pSign - 0.14599609375) < 1e-12);
    QCOMPARE(r.medianDifference, 2.0); // of all 13, the zero included
    // Swapping the arms mirrors the test.
    const auto back = heuristic::comparePaired(b, a);
    QCOMPARE(back.losses, std::size_t(9));
    QVERIFY(std::fabs(back.z + r.z) < 1e-12 && std::fabs(back.pWilcoxon - r.pWilcoxon) < 1e-12);
    // Nothing to tell apart, and arms of different sizes.
    r = heuristic::comparePaired({1, 2}, {1, 2});
    QCOMPARE(r.pWilcoxon, 1.0);
    QCOMPARE(r.pSign, 1.0);
    QVERIFY_THROWS_EXCEPTION(InputError, (void)heuristic::comparePaired({1, 2}, {1}));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)heuristic::comparePaired({1, std::nan("")}, {1, 2}));
  }

  // Four cases by hand, static mapping CPU:
  //   a: oracle GPU (cpu 4, gpu 1), predicted GPU  -> TP, speedup 4/1 = 4
  //   b: oracle GPU (cpu 2, gpu 1), predicted CPU  -> FN, speedup 2/2 = 1
  //   c: oracle CPU (cpu 1, gpu 2), predicted GPU  -> FP, speedup 1/2 = 0.5
  //   d: oracle CPU (cpu 1, gpu 4), predicted CPU  -> TN, speedup 1
  // accuracy 2/4, precision 1/2, recall 1/2, specificity 1/2; mean speedup
  // 6.5/4 = 1.625, geomean (4 x 1 x 0.5 x 1)^(1/4) = 2^(1/4); oracle speedups
  // 4, 2, 1, 1: mean 2, geomean 8^(1/4).
  void metricsByHand() {
    const std::vector<MappingCase> cases{makeCase("s-1-p-a", {}, 4, 1), makeCase("s-1-p-b", {}, 2, 1),
                                         makeCase("s-1-q-c", {}, 1, 2), makeCase("s-1-q-d", {}, 1, 4)};
    const std::vector<int> predicted{kGpu, kCpu, kGpu, kCpu};
    const Metrics m = metricsOf(cases, predicted, kCpu);
    QCOMPARE(m.truePositives, std::size_t(1));
    QCOMPARE(m.falseNegatives, std::size_t(1));
    QCOMPARE(m.falsePositives, std::size_t(1));
    QCOMPARE(m.trueNegatives, std::size_t(1));
    QCOMPARE(m.accuracy, 0.5);
    QCOMPARE(m.precision, 0.5);
    QCOMPARE(m.recall, 0.5);
    QCOMPARE(m.specificity, 0.5);
    QCOMPARE(m.staticAccuracy, 0.5);
    QCOMPARE(m.speedupMean, 1.625);
    QVERIFY(std::abs(m.speedupGeomean - std::pow(2.0, 0.25)) < 1e-12);
    QCOMPARE(m.oracleMean, 2.0);
    QVERIFY(std::abs(m.oracleGeomean - std::pow(8.0, 0.25)) < 1e-12);
    // Per program: p holds a and b (speedups 4 and 1), q holds c and d.
    const auto programs = programResults(cases, predicted, kCpu);
    QCOMPARE(programs.size(), std::size_t(2));
    QCOMPARE(programs[0].program, std::string("s-1-p"));
    QCOMPARE(programs[0].speedupMean, 2.5);
    QCOMPARE(programs[1].speedupMean, 0.75);
    // Nothing predicted GPU: precision is undefined, not 0 or 1.
    const Metrics none = metricsOf(cases, {kCpu, kCpu, kCpu, kCpu}, kCpu);
    QVERIFY(std::isnan(none.precision));
    QCOMPARE(none.recall, 0.0);
    QCOMPARE(none.speedupMean, 1.0);
    QCOMPARE(staticDeviceOf(cases), kGpu); // two each: ties go to GPU
  }

  void foldsAreStratifiedAndSeeded() {
    std::vector<int> labels;
    for (int i = 0; i < 103; ++i)
      labels.push_back(i < 37 ? 1 : 0); // 37 of one class, 66 of the other
    const auto folds = stratifiedFolds(labels, 10, 7);
    QCOMPARE(folds.size(), labels.size());
    std::map<int, std::map<int, int>> perFold; // fold -> label -> count
    for (std::size_t i = 0; i < labels.size(); ++i)
      ++perFold[folds[i]][labels[i]];
    QCOMPARE(int(perFold.size()), 10);
    std::size_t smallest = 1000, largest = 0;
    for (auto& [fold, counts] : perFold) {
      QVERIFY(counts[1] == 3 || counts[1] == 4); // 37 over 10 folds
      QVERIFY(counts[0] == 6 || counts[0] == 7); // 66 over 10 folds
      smallest = std::min(smallest, std::size_t(counts[0] + counts[1]));
      largest = std::max(largest, std::size_t(counts[0] + counts[1]));
    }
    QVERIFY(largest - smallest <= 2); // each class's extra cases go to the first folds
    QCOMPARE(stratifiedFolds(labels, 10, 7), folds);  // the seed decides
    QVERIFY(stratifiedFolds(labels, 10, 8) != folds); // another seed, another split
    QVERIFY_THROWS_EXCEPTION(InputError, (void)stratifiedFolds(labels, 1, 7));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)stratifiedFolds({0, 1}, 3, 7));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)stratifiedFolds(labels, 10, 1ULL << 32));
    // k above every class's size is refused (as scikit-learn does); above one class's, that class is spread thin.
    QVERIFY_THROWS_EXCEPTION(InputError, (void)stratifiedFolds({0, 0, 1, 1}, 3, 7));
    const auto thin = stratifiedFolds({0, 0, 0, 1}, 3, 7);
    QCOMPARE(std::set<int>(thin.begin(), thin.begin() + 3).size(), std::size_t(3)); // class 0: one per fold
  }

  // scikit-learn's split, checked against numpy by hand: RandomState(0) draws
  // MT19937 words 2357136044, 2546248239, 3071714933, ...; shuffling
  // arange(4) takes j = word & 3 while j <= i, for i = 3, 2, 1.
  void foldsFollowScikitLearn() {
    std::mt19937 mt(0);
    QCOMPARE(std::uint32_t(mt()), 2357136044u); // numpy.random.RandomState(0).randint(2**32) is the same word
    // Four cases of one class, 4 folds: KFold over shuffle(arange(4)).
    // i=3: 2357136044 & 3 = 0 -> swap(3, 0): [3,1,2,0]
    // i=2: 2546248239 & 3 = 3 > 2, rejected; 3071714933 & 3 = 1 -> swap(2, 1): [3,2,1,0]
    // i=1: the next word & 1 decides; fold f holds order[f].
    std::mt19937 words(0);
    std::vector<std::uint32_t> w(8);
    for (auto& x : w)
      x = std::uint32_t(words());
    std::vector<std::size_t> order{0, 1, 2, 3};
    std::swap(order[3], order[w[0] & 3]);
    QCOMPARE(w[1] & 3, 3u);
    std::swap(order[2], order[w[2] & 3]);
    std::swap(order[1], order[w[3] & 1]);
    const auto folds = stratifiedFolds({1, 1, 1, 1}, 4, 0);
    for (std::size_t f = 0; f < 4; ++f)
      QCOMPARE(folds[order[f]], int(f));
  }

  void leaveOneBenchmarkOutHoldsOutWholePrograms() {
    QCOMPARE(programOf("npb-3.3-BT-add"), std::string("npb-3.3-BT"));
    QCOMPARE(programOf("amd-app-sdk-3.0-BitonicSort-bitonicSort"), std::string("amd-app-sdk-3.0-BitonicSort"));
    // Program p is always GPU, q always CPU, with the same feature value:
    // holding out p leaves only CPU examples, so p is mispredicted; a model
    // that had seen p's own rows (k-fold) gets them right.
    std::vector<MappingCase> data;
    for (int i = 0; i < 12; ++i) {
      data.push_back(makeCase("s-1-p-k" + std::to_string(i), {1.0}, 2, 1));
      data.push_back(makeCase("s-1-q-k" + std::to_string(i), {1.0 + (i % 2)}, 1, 2));
    }
    const auto folds = programFolds(data);
    QCOMPARE(std::set<int>(folds.begin(), folds.end()).size(), std::size_t(2));
    EvaluationSpec lobo;
    lobo.protocol = Protocol::LeaveOneBenchmarkOut;
    lobo.tree = {5, 1};
    const Evaluation e = crossValidate(data, {}, lobo);
    for (std::size_t i = 0; i < data.size(); ++i)
      if (data[i].program == "s-1-p") QCOMPARE(e.predicted[i], kCpu);
    QCOMPARE(e.trainingCases, std::size_t(12));
  }

  void augmentationTrainsButIsNeverTested() {
    // 20 suite cases whose GPU rows all have F = 5; the augment rows teach
    // "F = 5 is CPU", so every GPU suite case flips to CPU when they are added.
    std::vector<MappingCase> data, augment;
    for (int i = 0; i < 20; ++i)
      data.push_back(i % 2 ? makeCase("s-1-g-k" + std::to_string(i), {5.0}, 2, 1)
                           : makeCase("s-1-c-k" + std::to_string(i), {1.0}, 1, 2));
    for (int i = 0; i < 40; ++i)
      augment.push_back(makeCase("gen-1-x-k" + std::to_string(i), {5.0}, 1, 2));
    EvaluationSpec spec;
    spec.folds = 5;
    spec.tree = {5, 1};
    const Evaluation plain = crossValidate(data, {}, spec);
    QCOMPARE(plain.metrics.accuracy, 1.0);
    QCOMPARE(plain.metrics.cases, std::size_t(20));
    const Evaluation more = crossValidate(data, augment, spec);
    QCOMPARE(more.metrics.cases, std::size_t(20)); // the test folds hold suite rows only
    QCOMPARE(more.metrics.recall, 0.0);
    QCOMPARE(more.trainingCases, std::size_t(16 + 40));
    // Rows of the evaluated data among the added ones: refused (they would be tested on after training).
    std::vector<MappingCase> leaky(augment);
    leaky.push_back(data[3]);
    try {
      (void)crossValidate(data, leaky, spec);
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("1 added row(s) are also rows of the evaluated data"), e.what());
    }
    // Train on one set, test on another.
    const Evaluation tt = trainTest(data, {}, augment, spec);
    QCOMPARE(tt.metrics.cases, std::size_t(40));
    QCOMPARE(tt.metrics.specificity, 0.0); // all predicted GPU
  }

  void devMapRowsBecomeGreweFeatures() {
    dataset::DevMapRow r;
    r.benchmark = "s-1-p-k";
    r.comp = 30;
    r.mem = 10;
    r.coalesced = 5;
    r.localmem = 2;
    r.transfer = 800;
    r.wgsize = 64;
    r.oracle = "GPU";
    r.runtimeCpu = 3;
    r.runtimeGpu = 1;
    const auto f = greweFeatures(r, FeatureSet::Grewe);
    QCOMPARE(f, (std::vector<double>{800.0 / 40.0, 0.5, 0.2 * 64, 3.0}));
    QCOMPARE(greweFeatures(r, FeatureSet::Extended).size(), std::size_t(12));
    r.mem = 0;
    r.comp = 0;
    QCOMPARE(greweFeatures(r, FeatureSet::Grewe), (std::vector<double>{0, 0, 0, 0})); // zero denominators give 0
    r.line = 7;
    r.oracle = "CPU"; // but the GPU is faster
    try {
      (void)mappingCases({r}, FeatureSet::Grewe, "x.csv");
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("x.csv: line 7"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestHeuristic)
#include "tst_heuristic.moc"

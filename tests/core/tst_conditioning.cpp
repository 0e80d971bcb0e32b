// Feature conditioning: condition tokens from Grewe counts, in datapoints,
// checkpoints and sampling; a tiny decoder trained on two clusters of
// kernels writes toward the cluster it is asked for.
// torch first: Qt's keywords are off in this file (QT_NO_KEYWORDS).
#include "model/InfillModel.h"

#include "TinyCheckpoint.h"

#include "common/Error.h"
#include "model/Conditioning.h"
#include "model/Datapoints.h"
#include "model/Sampler.h"
#include "model/Tokenizer.h"
#include "model/Trainer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <random>
#include <set>

using namespace steerbench;
using namespace steerbench::model;

namespace {

ModelConfig tinyDecoder(int vocab, int conditions) {
  ModelConfig c = tinycheckpoint::tiny(vocab);
  c.arch = ModelConfig::Arch::Decoder;
  c.suffixFirst = true;
  c.conditions = conditions;
  return c;
}

using tinycheckpoint::infoFor;

} // namespace

class TestConditioning : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void countsFallInHalfOctaveBins() {
    QCOMPARE(conditionBin(0), 0);
    QCOMPARE(conditionBin(1), 1);
    QCOMPARE(conditionBin(3), 3);
    QCOMPARE(conditionBin(4), 4);
    QCOMPARE(conditionBin(5), 4);
    QCOMPARE(conditionBin(6), 5);
    QCOMPARE(conditionBin(60), 11);  // 48-63
    QCOMPARE(conditionBin(64), 12);
    QCOMPARE(conditionBin(5000), kConditionBins - 1);
    QCOMPARE(conditionBin(0.4), 0); // rounded
    for (int b = 0; b < kConditionBins; ++b)
      QCOMPARE(conditionBin(conditionBinFloor(b)), b);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)conditionBinFloor(kConditionBins));
  }

  void aVectorIsOneTokenPerCountAfterTheVocabulary() {
    const std::vector<double> grewe{60, 0, 12, 0, 3, 1, 0.5, 7}; // comp .. atomic, then F2 and F4 (ignored)
    const auto ids = conditionTokens(grewe, 1000);
    const std::vector<int> want{1000 + 0 * kConditionBins + 11, 1000 + 1 * kConditionBins + 0,
                                1000 + 2 * kConditionBins + 7,  1000 + 3 * kConditionBins + 0,
                                1000 + 4 * kConditionBins + 3,  1000 + 5 * kConditionBins + 1};
    QCOMPARE(ids, want);
    for (int id : ids)
      QVERIFY(id >= 1000 && id < 1000 + conditionTokenCount());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)conditionTokens({1, 2, 3}, 1000));
  }

  void targetsAreReadAndNamedBack() {
    const auto v = parseConditionTarget("comp=60,mem=12");
    QCOMPARE(v, (std::vector<double>{60, 0, 12, 0, 0, 0}));
    QCOMPARE(describeConditionTarget(v), std::string("comp=60,mem=12"));
    QCOMPARE(describeConditionTarget({0, 0, 0, 0, 0, 0}), std::string("0"));
    QCOMPARE(parseConditionTarget("atomic=2")[5], 2.0);
    for (const char* bad : {"", "comp", "comp=", "comp=-1", "comp=x", "flops=3", "comp=1,comp=2", "comp=inf"})
      QVERIFY_THROWS_EXCEPTION(InputError, (void)parseConditionTarget(bad));
  }

  void targetsSpreadAroundAVectorAndOverAGrid() {
    const std::vector<double> t{100, 0, 20, 0, 0, 0};
    const auto spread = spreadTargets(t, 0.2, 50, 3);
    QCOMPARE(spread.size(), std::size_t(50));
    std::set<double> comps;
    for (const auto& v : spread) {
      QVERIFY(v[0] >= 80 && v[0] <= 120 && v[2] >= 16 && v[2] <= 24);
      QCOMPARE(v[1], 0.0);
      comps.insert(v[0]);
    }
    QVERIFY(comps.size() > 10);
    QCOMPARE(spreadTargets(t, 0.2, 50, 3), spread); // seeded
    QCOMPARE(spreadTargets(t, 0, 2, 3), (std::vector<std::vector<double>>{t, t}));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)spreadTargets(t, 1.5, 2, 3));

    // 2 x 2 cells over comp 0-400 and mem 0-100, atomic from the base.
    const auto grid = gridTargets("comp=0:400,mem=0:100", 2, {0, 0, 0, 0, 0, 3});
    const std::vector<std::vector<double>> want{
        {100, 0, 25, 0, 0, 3}, {100, 0, 75, 0, 0, 3}, {300, 0, 25, 0, 0, 3}, {300, 0, 75, 0, 0, 3}};
    QCOMPARE(grid, want);
    QCOMPARE(gridTargets("comp=0:400,mem=0:100", 8, {}).size(), std::size_t(64));
    // Counts in proportion to an axis, named before or after it.
    const auto followed = gridTargets("coalesced=mem*0.5,comp=0:400,mem=0:100,rational=comp*0.12", 2, {});
    const std::vector<std::vector<double>> wantFollowed{
        {100, 12, 25, 0, 13, 0}, {100, 12, 75, 0, 38, 0}, {300, 36, 25, 0, 13, 0}, {300, 36, 75, 0, 38, 0}};
    QCOMPARE(followed, wantFollowed);
    for (const char* bad : {"comp=0:400", "comp=0:400,mem=0:100,atomic=0:1", "comp=0:400,comp=0:10", "comp=400:0,mem=0:1",
                            "comp=0-400,mem=0:100", "flops=0:4,mem=0:1", "comp=:4,mem=0:1",
                            "comp=0:400,mem=0:100,coalesced=atomic*2", "comp=0:400,mem=0:100,coalesced=mem*-1",
                            "comp=0:400,mem=0:100,coalesced=mem*", "comp=0:400,mem=0:100,mem=comp*2",
                            "comp=0:400,mem=0:100,coalesced=flops*1"})
      QVERIFY_THROWS_EXCEPTION(InputError, (void)gridTargets(bad, 8, {}));
  }

  void aConditionedRowStartsWithItsTokensAndNeverLabelsThem() {
    const std::vector<int> kernel{100, 101, 102, 103, 104, 105, 106, 107, 108, 109};
    DatapointOptions o;
    o.maxLength = 64;
    o.wholeKernelProbability = 1;
    const std::vector<int> condition{500, 520, 540, 560, 580, 600};
    std::mt19937_64 a(5), b(5);
    const Datapoint plain = makeFimDatapoint(kernel, o, a, true, true);
    const Datapoint cond = makeFimDatapoint(kernel, o, b, true, true, condition);
    QCOMPARE(cond.inputs.size(), plain.inputs.size() + condition.size());
    QVERIFY(std::equal(condition.begin(), condition.end(), cond.inputs.begin()));
    QVERIFY(std::equal(plain.inputs.begin(), plain.inputs.end(), cond.inputs.begin() + 6));
    for (std::size_t t = 0; t < condition.size(); ++t)
      QCOMPARE(cond.labels[t], Datapoint::kIgnore);
    QVERIFY(std::equal(plain.labels.begin(), plain.labels.end(), cond.labels.begin() + 6));
    QCOMPARE(cond.labelCount(), plain.labelCount());
  }

  void conditionsRoundTripThroughCheckpoints() {
    QTemporaryDir dir;
    const std::string plainPath = dir.filePath(QStringLiteral("plain.ckpt")).toStdString();
    const std::string condPath = dir.filePath(QStringLiteral("cond.ckpt")).toStdString();
    torch::manual_seed(3);
    InfillModel plain(tinyDecoder(40, 0));
    saveCheckpoint(plainPath, plain, nullptr, infoFor(tinyDecoder(40, 0)));

    // A model taught conditions starts from one without: the same weights, more token rows.
    InfillModel cond(tinyDecoder(40, conditionTokenCount()));
    const auto tokens = cond->named_parameters()["tokens.weight"];
    QCOMPARE(tokens.size(0), std::int64_t(40 + conditionTokenCount()));
    const auto drawn = tokens.narrow(0, 40, conditionTokenCount()).clone();
    (void)loadWeightsForFineTuning(plainPath, cond, "abc123");
    torch::NoGradGuard ng;
    auto ids = torch::tensor({3, 10, 2, 5, 1, 11}, torch::kLong).unsqueeze(0);
    QVERIFY(torch::equal(plain->forward(ids), cond->forward(ids)));
    QVERIFY(torch::equal(tokens.narrow(0, 40, conditionTokenCount()), drawn));

    // Its checkpoint keeps the conditions; loading it into a model without them is refused.
    saveCheckpoint(condPath, cond, nullptr, infoFor(cond->config()));
    QCOMPARE(readCheckpointInfo(condPath).config.conditions, conditionTokenCount());
    InfillModel again(tinyDecoder(40, conditionTokenCount()));
    (void)loadCheckpoint(condPath, again, nullptr, "abc123");
    auto withCondition = torch::tensor({40 + 3, 40 + 20, 3, 10, 2, 5, 1, 11}, torch::kLong).unsqueeze(0);
    QVERIFY(torch::equal(again->forward(withCondition), cond->forward(withCondition)));
    QCOMPARE(again->forward(withCondition).size(2), std::int64_t(40)); // the head never writes a condition
    InfillModel without(tinyDecoder(40, 0));
    QVERIFY_THROWS_EXCEPTION(InputError, (void)loadCheckpoint(condPath, without, nullptr, "abc123"));
  }

  void aModelTrainedOnTwoClustersWritesTowardTheOneAskedFor() {
    // Cluster A: atomics on ints; cluster B: arithmetic on floats. Each row
    // starts "kernel void A(global", so the condition alone can say which.
    std::vector<std::string> kernels;
    std::vector<std::vector<double>> features;
    const std::vector<double> atomics{1, 0, 0, 0, 0, 2, 0, 0}, arithmetic{3, 0, 2, 0, 1, 0, 0, 0};
    for (int i = 1; i <= 12; ++i) {
      kernels.push_back("kernel void A(global int* a) { atomic_inc(a); atomic_add(a, " + std::to_string(i) + "); }");
      features.push_back(atomics);
      kernels.push_back("kernel void A(global float* a) { a[" + std::to_string(i) + "] = a[0] * 2.0f + 1.0f; }");
      features.push_back(arithmetic);
    }
    Tokenizer::Options to;
    to.minCount = 1;
    const auto tok = Tokenizer::build(kernels, to);
    QTemporaryDir dir;
    TrainOptions o;
    o.model = tinyDecoder(0, 0);
    o.model.layers = 2;
    o.model.hidden = 32;
    o.model.ffn = 64;
    o.model.maxLength = 48;
    o.suffixFirst = true;
    o.data.minHoles = o.data.maxHoles = 1;
    o.data.wholeKernelProbability = 1; // every row is undirected sampling's
    o.steps = 250;
    o.batchSize = 16;
    o.learningRate = 3e-3;
    o.warmupSteps = 20;
    o.validationFraction = 0;
    o.validateEvery = 1000;
    o.checkpointEvery = 1000;
    o.threads = 1;
    o.conditionShare = 0.8;
    o.kernelFeatures = features;
    o.checkpoint = dir.filePath(QStringLiteral("two.ckpt")).toStdString();
    (void)train(tok, kernels, o, {}, nullptr);
    QCOMPARE(readCheckpointInfo(o.checkpoint).config.conditions, conditionTokenCount());

    Sampler sampler(o.checkpoint, 1);
    SampleOptions so;
    so.maxNewTokens = 40;
    so.seed = 7;
    auto atomicShare = [&](const std::vector<double>& target) {
      so.target = target;
      int n = 0;
      for (const auto& s : sampler.sample({"kernel void [HOLE]"}, 24, so))
        n += s.text.find("atomic") != std::string::npos;
      return n;
    };
    const int askedA = atomicShare(atomics), askedB = atomicShare(arithmetic);
    QVERIFY2(askedA >= 18 && askedB <= 6,
             qPrintable(QString("samples with atomics: %1 of 24 asked for A, %2 of 24 asked for B").arg(askedA).arg(askedB)));
    // Each feed its own target, in one batch.
    so.target.clear();
    so.feedTargets = {atomics, arithmetic};
    int byFeed[2] = {0, 0};
    for (const auto& s : sampler.sample({"kernel void [HOLE]", "kernel void [HOLE]"}, 48, so))
      byFeed[s.feed] += s.text.find("atomic") != std::string::npos;
    QVERIFY2(byFeed[0] >= 18 && byFeed[1] <= 6,
             qPrintable(QString("samples with atomics: %1 of 24 from feed A, %2 of 24 from feed B").arg(byFeed[0]).arg(byFeed[1])));
    so.feedTargets.clear();

    // A model without conditions cannot be given a target.
    o.conditionShare = 0;
    o.kernelFeatures.clear();
    o.steps = 1;
    o.checkpoint = dir.filePath(QStringLiteral("plain.ckpt")).toStdString();
    (void)train(tok, kernels, o, {}, nullptr);
    Sampler plain(o.checkpoint, 1);
    so.target = atomics;
    QVERIFY_THROWS_EXCEPTION(InputError, (void)plain.sample({"kernel void [HOLE]"}, 1, so));
  }
};

QTEST_APPLESS_MAIN(TestConditioning)
#include "tst_conditioning.moc"

// Active learning: vote entropy on hand-made votes, the committee on data
// whose answer is known (two far clusters), and one epoch of the explorer on
// a real workspace: labelled cases made here, the committee trained on them,
// a steering run (tiny deleting model, TinyModel.h) to the chosen point, and
// the steered kernel driven for real on PoCL through the worker.
#include "TinyModel.h"

#include "common/Error.h"
#include "engine/FeatureJob.h"
#include "explore/Explorer.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace steerbench;
using explore::Committee;
using explore::LabelledPoint;

namespace {

std::string fixture(const char* name) {
  std::ifstream in(std::string(STEERBENCH_TEST_DATA) + "/kernels/" + name + ".cl");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Two clusters of F1..F4 points: label 0 near (1, 0.1, 0, 1), label 1 near (1000, 0.9, 50, 40).
std::vector<LabelledPoint> clusters() {
  std::vector<LabelledPoint> out;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> jitter(0.9, 1.1);
  for (int i = 0; i < 20; ++i) {
    out.push_back({{1 * jitter(rng), 0.1 * jitter(rng), 0, 1 * jitter(rng)}, 0});
    out.push_back({{1000 * jitter(rng), 0.9 * jitter(rng), 50 * jitter(rng), 40 * jitter(rng)}, 1});
  }
  return out;
}

} // namespace

class TestExplore : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

private Q_SLOTS:
  void initTestCase() {
    if (qgetenv("POCL_DEVICES").isEmpty()) qputenv("POCL_DEVICES", "pthread basic");
  }

  void voteEntropyByHand() {
    QCOMPARE(explore::voteEntropy({0, 0, 0, 0}, 2), 0.0);
    QCOMPARE(explore::voteEntropy({0, 1, 0, 1}, 2), std::log(2.0));
    QCOMPARE(explore::voteEntropy({0, 0, 0, 1}, 2), -(0.75 * std::log(0.75) + 0.25 * std::log(0.25)));
    QCOMPARE(explore::voteEntropy({0, 1, 2}, 3), std::log(3.0));
  }

  void committeeAgreesOnClearCasesAndDisagreesBetween() {
    const auto data = clusters();
    const auto c = Committee::train(data, 2, 1);
    QCOMPARE(c.size(), std::size_t(18)); // 4 MLPs, 8 k-NN, 6 K-means
    QCOMPARE(c.predict({1, 0.1, 0, 1}), 0);
    QCOMPARE(c.predict({1000, 0.9, 50, 40}), 1);
    QCOMPARE(c.entropy({1, 0.1, 0, 1}), 0.0);
    QCOMPARE(c.entropy({1000, 0.9, 50, 40}), 0.0);
    // Somewhere on the way from one cluster to the other the members split.
    double most = 0;
    for (int i = 1; i < 40; ++i) {
      const double f = i / 40.0;
      most = std::max(most, c.entropy({std::exp(f * std::log(1000.0)), 0.1 + 0.8 * f, 50 * f, 1 + 39 * f}));
    }
    QVERIFY(most > 0.3);
    // Same data and seed: the same committee.
    const auto again = Committee::train(data, 2, 1);
    QCOMPARE(again.describe(), c.describe());
    QCOMPARE(again.votes({30, 0.5, 10, 8}), c.votes({30, 0.5, 10, 8}));
    QVERIFY(c.describe().find("\"kind\":\"kmeans\"") != std::string::npos);
    // One label only, or one point, is refused.
    std::vector<LabelledPoint> one = {{{1, 1, 1, 1}, 0}, {{2, 2, 2, 2}, 0}};
    QVERIFY_EXCEPTION_THROWN((void)Committee::train(one, 2, 1), InputError);
  }

  void batchesAreTheMostDisputedPointsSpreadApart() {
    explore::LabelledSet set;
    set.points = clusters();
    std::vector<explore::ScoredPoint> scored;
    // raw: comp, rational, mem, localmem, coalesced, atomic, transfer, wgsize.
    for (int i = 0; i < 10; ++i) // ten neighbours, the most disputed of all
      scored.push_back({{10.0 + i, 0, 10, 0, 5, 0, 100, 64}, 0.69 - 0.001 * i});
    const std::size_t far = scored.size();
    scored.push_back({{400, 0, 10, 5, 9, 0, 400000, 64}, 0.6}); // disputed, far away
    const std::size_t other = scored.size();
    scored.push_back({{1, 0, 50, 40, 50, 0, 10, 64}, 0.55}); // disputed, far the other way
    for (int i = 0; i < 40; ++i) // agreed on: never in a batch
      scored.push_back({{double(i), 0, 3, 0, 1, 0, 1000.0 * i, 64}, 0.001 * i});

    const auto picks = explore::batchPicks(scored, set, 3, true);
    QCOMPARE(picks.size(), std::size_t(3));
    QCOMPARE(picks[0], std::size_t(0)); // the most disputed first, as a single pick
    QVERIFY2((picks[1] == far && picks[2] == other) || (picks[1] == other && picks[2] == far),
             "the batch spreads out instead of taking the most disputed point's neighbours");
    QCOMPARE(explore::batchPicks(scored, set, 1, true), std::vector<std::size_t>{0});
    QCOMPARE(explore::batchPicks(scored, set, 3, false), (std::vector<std::size_t>{0, 1, 2})); // passive: as drawn
    auto all = explore::batchPicks(scored, set, 500, true); // more than there are: each point once
    std::sort(all.begin(), all.end());
    QCOMPARE(all.size(), scored.size());
    QVERIFY(std::adjacent_find(all.begin(), all.end()) == all.end());
  }

  void logUniformDrawsGiveSmallCountsTheirShare() {
    // Two labelled kernels bound the box: comp 0 to 3,000 (DevMap's range), the other counts smaller.
    explore::LabelledSet set;
    set.points = clusters();
    set.raw = {{0, 0, 1, 0, 0, 0, 256, 64}, {3000, 100, 600, 200, 300, 4, 1 << 20, 128}};
    const auto c = Committee::train(set.points, 2, 1);
    auto shareBelow = [&](explore::PointDraw draw, double comp) {
      const auto pts = explore::scoreRandomPoints(c, set, 2000, 9, draw);
      int below = 0;
      for (const auto& p : pts) {
        for (std::size_t d = 0; d < 8; ++d) // every draw stays in the box
          if (p.raw[d] < set.raw[0][d] || p.raw[d] > set.raw[1][d]) return -1.0;
        below += p.raw[0] < comp;
      }
      return below / double(pts.size());
    };
    // comp below 55 (= sqrt(3001) - 1): about half of log-uniform draws, under 2% of uniform ones.
    const double logShare = shareBelow(explore::PointDraw::LogUniform, 55);
    const double plainShare = shareBelow(explore::PointDraw::Uniform, 55);
    QVERIFY2(logShare > 0.45 && logShare < 0.55, std::to_string(logShare).c_str());
    QVERIFY2(plainShare >= 0 && plainShare < 0.03, std::to_string(plainShare).c_str());
    QCOMPARE(explore::parsePointDraw("log-uniform"), explore::PointDraw::LogUniform);
    QCOMPARE(std::string(explore::pointDrawName(explore::PointDraw::Uniform)), std::string("uniform"));
    QVERIFY_EXCEPTION_THROWN((void)explore::parsePointDraw("gaussian"), InputError);
  }

  void drivenKernelsWithoutStoredFeaturesAreMeasured() {
    // `drive` stores kernels without their features; their labels still count.
    auto ws = store::Workspace::open(dir_.filePath(QStringLiteral("driven.sbw")).toStdString());
    store::KernelRecord k;
    k.name = "copy";
    k.source = fixture("k01_copy");
    const auto id = ws.addKernel(k);
    store::Workspace::DriveCaseRecord c;
    c.kernelId = id;
    c.kernelName = "copy";
    c.globalSize = 1024;
    c.localSize = 64;
    c.transferBytes = 8192;
    c.outcome = "PASS";
    c.label = "device A";
    c.labelStatus = "significant";
    c.specHash = ws.putSpec("{}");
    ws.addDriveCase(c);
    const auto set = explore::labelledCases(ws, false);
    QCOMPARE(set.points.size(), std::size_t(1));
    QCOMPARE(set.raw[0][2], 2.0);    // mem: in and out
    QCOMPARE(set.raw[0][6], 8192.0); // transfer
    QCOMPARE(set.points[0].x[0], 8192.0 / 2.0); // F1 = transfer / (comp + mem)
  }

  void anEpochSteersToTheChosenPointAndDrivesWhatItMade() {
    const std::string path = dir_.filePath(QStringLiteral("explore.sbw")).toStdString();
    auto ws = store::Workspace::open(path);
    engine::FeatureJobOptions o;
    o.measure.spaces = {&features::featureSpace("grewe")};
    o.workspace = &ws;
    std::vector<std::string> paths;
    const char* names[] = {"k01_copy", "k05_loop", "k07_math", "k08_strided", "k12_bit_ops"};
    for (const char* f : names)
      paths.push_back(std::string(STEERBENCH_TEST_DATA) + "/kernels/" + f + ".cl");
    for (const auto& r : engine::runFeatureJob(paths, o))
      QVERIFY2(r.ok(), r.error.c_str());
    const std::int64_t seeds = ws.kernelCount();
    for (std::int64_t id = 1; id <= seeds; ++id)
      ws.setRole(id, "train");
    // Five other kernels, of a role steering takes no seeds from, carry the
    // labels: explore's best may not be a kernel the workspace has driven
    // (SteerSpec::newKernels), and the seeds stay undriven.
    paths.clear();
    for (const char* f : {"k02_helper", "k03_local_tile", "k06_vector", "k10_nested_helpers", "k11_local_2d"})
      paths.push_back(std::string(STEERBENCH_TEST_DATA) + "/kernels/" + f + ".cl");
    for (const auto& r : engine::runFeatureJob(paths, o))
      QVERIFY2(r.ok(), r.error.c_str());
    for (std::int64_t id = seeds + 1; id <= ws.kernelCount(); ++id)
      ws.setRole(id, "test");

    // No labels yet: a clear message that says what to do.
    model::Sampler sampler = deletingSampler({fixture("k01_copy"), fixture("k05_loop"), fixture("k07_math"),
                                              fixture("k08_strided"), fixture("k12_bit_ops")});
    explore::Explorer explorer(ws, sampler);
    explore::ExploreSpec spec;
    spec.epochs = 1;
    spec.points = 500;
    spec.steer.width = 2;
    spec.steer.candidatesPerMember = 2;
    spec.steer.depth = 2;
    spec.steer.nearest = 3;
    spec.steer.holeMin = 1;
    spec.steer.holeMax = 2;
    spec.drive.globalSizes = {256};
    spec.drive.localSizes = {32};
    spec.drive.timedRuns = 3;
    spec.drive.warmupRuns = 1;
    spec.drive.cacheDir = dir_.filePath(QStringLiteral("pocl")).toStdString();
    try {
      (void)explorer.run(spec);
      QFAIL("no labels, yet it ran");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("steerbench-cli drive") != std::string::npos, e.what());
    }

    // Labelled cases made here (the committee's input is what the workspace
    // stores; a made-up device pair keeps the labels known).
    int n = 0;
    for (std::int64_t id = 1; id <= ws.kernelCount(); ++id)
      for (std::int64_t size : {1024, 65536}) {
        if (id <= seeds) break;
        store::Workspace::DriveCaseRecord c;
        c.kernelId = id;
        c.kernelName = ws.kernel(id)->name;
        c.globalSize = size;
        c.localSize = 64;
        c.transferBytes = size * 8;
        c.outcome = "PASS";
        c.label = (n++ % 3 == 0) ? "device A" : "device B";
        c.labelStatus = "significant";
        c.specHash = ws.putSpec("{\"made\":\"by the test\"}");
        ws.addDriveCase(c);
      }
    const auto before = explore::labelledCases(ws, false);
    QCOMPARE(before.points.size(), std::size_t(10));
    QCOMPARE(before.labels.size(), std::size_t(2));

    std::vector<explore::EpochReport> epochs;
    explorer.onEpoch = [&](const explore::EpochReport& e) { epochs.push_back(e); };
    QVERIFY(spec.steer.newKernels); // explore's default
    const auto run = explorer.run(spec);
    QCOMPARE(epochs.size(), std::size_t(1));
    const auto& e = epochs[0];
    QCOMPARE(e.labelled, std::size_t(10));
    QVERIFY(e.entropy > 0); // the most disputed of 500 points, on labels that do not follow the features
    QCOMPARE(e.target.space, std::string("grewe"));
    QCOMPARE(e.target.values[0], e.point[0]); // comp of the chosen point is the target's
    QVERIFY(e.steered.run > 0);
    QVERIFY(e.steered.bestKernelId > 0);
    QCOMPARE(e.cases, std::size_t(1)); // one size, really driven
    const auto stored = ws.exploreEpochs(run);
    QCOMPARE(stored.size(), std::size_t(1));
    QVERIFY(stored[0].committee.find("\"training_points\":10") != std::string::npos);
    QCOMPARE(stored[0].steerRun, e.steered.run);
    QVERIFY(ws.spec(ws.steerRun(e.steered.run)->specHash).find("\"new_kernels\":true") != std::string::npos);
    QCOMPARE(stored[0].cases, std::int64_t(1));
    QVERIFY(stored[0].point.find("F1_F4") != std::string::npos);
    // The steered kernel's case is in the workspace, driven on both PoCL devices.
    bool driven = false;
    for (const auto& c : ws.driveCases())
      driven |= c.kernelId == e.steered.bestKernelId && c.devices.size() == 2;
    QVERIFY(driven);

    // Passive: the first random point, whatever its entropy; here with the
    // counts drawn uniformly (not the default), which the run's spec records.
    spec.active = false;
    spec.draw = explore::PointDraw::Uniform;
    epochs.clear();
    const auto set = explore::labelledCases(ws, false); // before the run adds its own labels
    const auto committee = Committee::train(set.points, int(set.labels.size()), spec.seed);
    const auto first = explore::scoreRandomPoints(committee, set, 1, spec.seed * 0x9E3779B97F4A7C15ull,
                                                  explore::PointDraw::Uniform);
    QVERIFY(first.at(0).raw != explore::scoreRandomPoints(committee, set, 1, spec.seed * 0x9E3779B97F4A7C15ull)
                                   .at(0)
                                   .raw); // the run's point tells which draw it used
    const auto passive = explorer.run(spec);
    QCOMPARE(epochs.size(), std::size_t(1));
    QCOMPARE(epochs[0].point, first.at(0).raw);
    const auto passiveRun = ws.rows("SELECT mode, spec_hash FROM explore_runs WHERE id = " + std::to_string(passive));
    QCOMPARE(passiveRun.at(0).at(0), std::string("passive"));
    QVERIFY(ws.spec(passiveRun.at(0).at(1)).find("\"draw\":\"uniform\"") != std::string::npos);
    spec.draw = explore::PointDraw::LogUniform;

    // A batch: two points an epoch, each steered to and driven, stored as members 0 and 1.
    spec.active = true;
    spec.batch = 2;
    spec.steer.driveCheck = false; // the contenders' checks are the epoch test's part: here, the batch
    spec.steer.confirmSizes.clear();
    epochs.clear();
    const auto batched = explorer.run(spec);
    QCOMPARE(epochs.size(), std::size_t(2));
    QVERIFY(epochs[0].target.values != epochs[1].target.values);
    QVERIFY(epochs[0].steered.run != epochs[1].steered.run);
    const auto members = ws.exploreEpochs(batched);
    QCOMPARE(members.size(), std::size_t(2));
    QCOMPARE(members[0].epoch, 0);
    QCOMPARE(members[1].epoch, 0);
    QCOMPARE(members[0].member, 0);
    QCOMPARE(members[1].member, 1);
    QCOMPARE(members[1].steerRun, epochs[1].steered.run);
  }
};

QTEST_GUILESS_MAIN(TestExplore)
#include "tst_explore.moc"

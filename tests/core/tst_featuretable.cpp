// PCA, inverse-PCA targets, nearest-kernel search and the plot's tables.
#include "common/Error.h"
#include "engine/FeatureJob.h"
#include "engine/FeatureTable.h"
#include "features/Pca.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace steerbench;

class TestFeatureTable : public QObject {
  Q_OBJECT
private slots:
  void eigenOfAKnownMatrix() {
    std::vector<std::vector<double>> vecs;
    const auto values = features::symmetricEigen({{2, 1}, {1, 2}}, vecs);
    QCOMPARE(values.size(), std::size_t(2));
    QVERIFY(std::abs(values[0] - 3) < 1e-12);
    QVERIFY(std::abs(values[1] - 1) < 1e-12);
    QVERIFY(std::abs(std::abs(vecs[0][0]) - std::sqrt(0.5)) < 1e-12);
    QVERIFY(std::abs(vecs[0][0] - vecs[0][1]) < 1e-12); // (1, 1) / sqrt 2
  }

  void pcaOfPointsOnALine() {
    // Dimension 0 and 1 move together; dimension 2 is constant. One axis
    // holds all the (standardized) variance, and points on the line map back
    // exactly.
    std::vector<std::vector<double>> rows;
    for (int t = 0; t < 10; ++t)
      rows.push_back({double(t), 2.0 * t + 1, 5});
    const auto pca = features::Pca::fit(rows);
    QCOMPARE(pca.components(), std::size_t(2));
    QVERIFY(std::abs(pca.explainedVariance(0) - 1.0) < 1e-9);
    QVERIFY(pca.axis(0)[0] > 0); // sign fixed
    for (const auto& r : rows) {
      const auto back = pca.inverseRaw(pca.transform(r));
      for (std::size_t j = 0; j < r.size(); ++j)
        QVERIFY2(std::abs(back[j] - r[j]) < 1e-9, qPrintable(QString::number(back[j]) + " vs " + QString::number(r[j])));
    }
    // Standardized: t = 4.5 is the mean, so the mean maps to the origin.
    const auto origin = pca.transform({4.5, 10, 5});
    QVERIFY(std::abs(origin[0]) < 1e-9);
  }

  void inverseClampsAndRounds() {
    std::vector<std::vector<double>> rows;
    for (int t = 0; t < 10; ++t)
      rows.push_back({double(t), 0.5 * t});
    const auto pca = features::Pca::fit(rows);
    // Far to the negative side: clamped to 0. In between: rounded where a count.
    const auto low = pca.inverse({-100, 0}, {true, true});
    QCOMPARE(low[0], 0.0);
    QCOMPARE(low[1], 0.0);
    const auto raw = pca.inverseRaw(pca.transform({3.3, 1.65}));
    const auto mid = pca.inverse(pca.transform({3.3, 1.65}), {true, false});
    QCOMPARE(mid[0], std::round(raw[0]));
    QVERIFY(std::abs(mid[1] - raw[1]) < 1e-12);
  }

  void pcaRejectsBadInput() {
    QVERIFY_THROWS_EXCEPTION(InputError, features::Pca::fit({}));
    QVERIFY_THROWS_EXCEPTION(InputError, features::Pca::fit({{1, 2}, {1}}));
  }

  void greweRatiosAreNotCounts() {
    const auto& grewe = features::featureSpace("grewe");
    QCOMPARE(engine::countDimensions(grewe), (std::vector<bool>{true, true, true, true, true, true, false, false}));
  }

  void nearestByHand() {
    engine::FeatureTable t;
    t.ids = {1, 2, 3, 4};
    t.rows = {{0, 0}, {3, 4}, {1, 1}, {1, 1}};
    t.names = {"a", "b", "c", "d"};
    t.groups = {"train", "train", "train", "train"};
    const auto n = engine::nearestRows(t, {1, 0}, 3);
    QCOMPARE(n.size(), std::size_t(3));
    QCOMPARE(n[0].row, std::size_t(0)); // distance 1
    QCOMPARE(n[0].distance, 1.0);
    QCOMPARE(n[1].row, std::size_t(2)); // distance 1 too: ties by row... c before d
    QCOMPARE(n[2].row, std::size_t(3));
    const auto without = engine::nearestRows(t, {1, 0}, 10, 1);
    QCOMPARE(without.size(), std::size_t(3));
    QCOMPARE(without[0].row, std::size_t(2));
  }

  void workspaceTableHoldsStoredVectors() {
    QTemporaryDir dir;
    auto ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    engine::FeatureJobOptions o;
    o.measure.spaces = {&features::featureSpace("grewe"), &features::featureSpace("instcount")};
    o.workspace = &ws;
    const std::string data = STEERBENCH_TEST_DATA;
    const auto results = engine::runFeatureJob({data + "/kernels/k01_copy.cl", data + "/kernels/k09_two_kernels.cl"}, o);
    QVERIFY(results[0].ok() && results[1].ok());
    const auto t = engine::loadWorkspaceTable(ws, features::featureSpace("grewe"));
    QCOMPARE(t.size(), std::size_t(1 + results[1].kernels.size()));
    QCOMPARE(t.dimensions.size(), std::size_t(8));
    QCOMPARE(t.rows[0], results[0].spaces[0].kernels[0].values);
    QCOMPARE(t.names[0], results[0].kernels[0]);
    QVERIFY(t.ids[0] > 0);
    const auto autophase = engine::loadWorkspaceTable(ws, features::featureSpace("autophase"));
    QCOMPARE(autophase.size(), std::size_t(0));
  }

  void cancelledFilesAreMarkedSo() {
    CancelToken cancel;
    cancel.cancel();
    engine::FeatureJobOptions o;
    o.measure.spaces = {&features::featureSpace("grewe")};
    o.cancel = &cancel;
    const std::string data = STEERBENCH_TEST_DATA;
    const auto results = engine::runFeatureJob({data + "/kernels/k01_copy.cl", data + "/bad/syntax_error.cl"}, o);
    for (const auto& r : results) {
      QVERIFY(!r.ok());
      QVERIFY(r.cancelled); // told apart from a file that failed
    }
    o.cancel = nullptr;
    const auto measured = engine::runFeatureJob({data + "/bad/syntax_error.cl"}, o);
    QVERIFY(!measured[0].ok() && !measured[0].cancelled);
  }

  void referenceTableFromDevMapLayout() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("ref.csv").toStdString();
    {
      std::ofstream out(path);
      out << "benchmark,dataset,comp,rational,mem,localmem,coalesced,atomic,transfer,wgsize,oracle,runtime_cpu,"
             "runtime_gpu,src\n"
          << "s-1-p-copy,a,1,0,4,0,2,0,64,64,GPU,2,1,\"kernel void copy(global int* a) { a[0] = a[1] + 1; }\"\n"
          << "s-1-p-copy,b,1,0,4,0,2,0,64,64,CPU,1,2,\"kernel void copy(global int* a) { a[0] = a[1] + 1; }\"\n"
          << "s-1-p-broken,a,0,0,0,0,0,0,64,64,CPU,1,2,\"kernel void broken(global int* a) { a[0] = ; }\"\n";
    }
    const auto grewe = engine::loadReferenceTable(path, features::featureSpace("grewe"), 1);
    QCOMPARE(grewe.size(), std::size_t(2)); // one row per benchmark; the CSV's own columns
    QCOMPARE(grewe.rows[0], (std::vector<double>{1, 0, 4, 0, 2, 0, 0.5, 0.25}));
    QCOMPARE(grewe.groups[0], std::string("reference"));
    const auto ir = engine::loadReferenceTable(path, features::featureSpace("instcount"), 1);
    QCOMPARE(ir.size(), std::size_t(1)); // measured on src; the broken one is skipped
    QCOMPARE(ir.skipped, std::size_t(1));
    QCOMPARE(ir.names[0], std::string("s-1-p-copy"));

    const std::string wrong = dir.filePath("wrong.csv").toStdString();
    std::ofstream(wrong) << "name,value\nx,1\n";
    QVERIFY_THROWS_EXCEPTION(InputError, (void)engine::loadReferenceTable(wrong, features::featureSpace("grewe")));
  }
};

QTEST_APPLESS_MAIN(TestFeatureTable)
#include "tst_featuretable.moc"

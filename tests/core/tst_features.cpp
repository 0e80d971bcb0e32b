// The three feature spaces: hand-computed vectors, the InstCount cross-check
// against clang-15's own .ll output, Autophase identities, and distances.
#include "common/Error.h"
#include "clang/OpenCLFrontend.h"
#include "common/Version.h"
#include "features/DeadDeclarations.h"
#include "features/FeatureSpace.h"
#include "features/Distance.h"
#include "features/GreweFeatures.h"
#include "features/InstCountFeatures.h"
#include "features/Measurement.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>

using namespace steerbench;
using namespace steerbench::features;

namespace {

const QString kData = STEERBENCH_TEST_DATA;

features::MeasureOptions allSpaces() {
  features::MeasureOptions o;
  for (const auto& s : featureSpaces())
    o.spaces.push_back(&s);
  return o;
}

const KernelVector* vectorOf(const FileMeasurement& m, const std::string& space, const std::string& kernel) {
  for (const auto& s : m.spaces)
    if (s.space->name == space)
      for (const auto& v : s.kernels)
        if (v.kernel == kernel) return &v;
  return nullptr;
}

double dim(const KernelVector& v, const std::string& space, const std::string& name) {
  const auto& dims = featureSpace(space).dimensions;
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i] == name) return v.values[i];
  qFatal("no dimension %s in %s", name.c_str(), space.c_str());
}

QStringList fixtureFiles() {
  return QDir(kData + "/kernels").entryList({"*.cl"}, QDir::Files, QDir::Name);
}

/// An independent InstCount: opcodes read from the text of `clang-15 -O1 -S -emit-llvm`.
/// Returns, per kernel, the vector over that kernel plus every non-kernel function.
std::map<std::string, std::vector<double>> textInstCount(const QString& file) {
  QProcess clang;
  clang.start(kClang15Path,
              {"-x", "cl", "-cl-std=CL1.2", "-target", "spir64-unknown-unknown", "-Xclang", "-finclude-default-header",
               "-Xclang", "-fdeclare-opencl-builtins", "-O1", "-S", "-emit-llvm", "-o", "-", file});
  if (!clang.waitForFinished(60000) || clang.exitCode() != 0)
    qFatal("clang-15 failed on %s: %s", qPrintable(file), clang.readAllStandardError().constData());
  const QStringList lines = QString::fromUtf8(clang.readAllStandardOutput()).split('\n');
  struct Fn {
    std::string name;
    bool kernel;
    std::vector<double> counts;
  };
  std::vector<Fn> fns;
  const auto& dims = instCountDimensions();
  static const QRegularExpression defineRe(R"(^define .*@([\w.$]+)\()");
  static const QRegularExpression labelRe(R"(^[\w.$"-]+:)");
  static const QRegularExpression assignRe(R"(^%[\w.$"-]+ = (.*)$)");
  Fn* cur = nullptr;
  for (const QString& line : lines) {
    if (auto m = defineRe.match(line); m.hasMatch()) {
      fns.push_back({m.captured(1).toStdString(), line.contains("spir_kernel"), std::vector<double>(dims.size(), 0)});
      cur = &fns.back();
      cur->counts[1] = 1; // the entry block
      cur->counts[2] = 1;
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('}')) {
      cur = nullptr;
      continue;
    }
    if (labelRe.match(line).hasMatch()) {
      cur->counts[1] += 1;
      continue;
    }
    if (!line.startsWith("  ")) continue;
    QString inst = line.trimmed();
    if (inst.startsWith(';') || inst.isEmpty()) continue;
    if (auto m = assignRe.match(inst); m.hasMatch()) inst = m.captured(1);
    for (const char* prefix : {"tail ", "musttail ", "notail "})
      if (inst.startsWith(prefix)) inst = inst.mid(int(std::strlen(prefix)));
    const std::string opcode = inst.section(' ', 0, 0).toStdString();
    const int idx = instCountIndexOfIrOpcode(opcode);
    if (idx < 0) qFatal("unknown opcode '%s' in: %s", opcode.c_str(), qPrintable(line));
    cur->counts[0] += 1;
    cur->counts[std::size_t(idx)] += 1;
  }
  std::map<std::string, std::vector<double>> out;
  for (const auto& k : fns) {
    if (!k.kernel) continue;
    std::vector<double> v(dims.size(), 0);
    for (const auto& f : fns)
      if (&f == &k || !f.kernel)
        for (std::size_t i = 0; i < v.size(); ++i)
          v[i] += f.counts[i];
    out[k.name] = v;
  }
  return out;
}

} // namespace

class TestFeatures : public QObject {
  Q_OBJECT

private slots:
  void registryListsTheThreeSpaces() {
    QCOMPARE(featureSpaces().size(), std::size_t(3));
    QCOMPARE(featureSpace("grewe").dimensions.size(), std::size_t(8));
    QCOMPARE(featureSpace("instcount").dimensions.size(), std::size_t(70));
    QCOMPARE(featureSpace("autophase").dimensions.size(), std::size_t(56));
    QCOMPARE(featureSpace("grewe").dimensions,
             (std::vector<std::string>{"comp", "rational", "mem", "localmem", "coalesced", "atomic", "F2", "F4"}));
    QCOMPARE(featureSpace("instcount").dimensions[3], std::string("Ret"));
    QCOMPARE(featureSpace("instcount").dimensions[69], std::string("Freeze"));
    QCOMPARE(featureSpace("autophase").dimensions[55], std::string("testUnary"));
    try {
      (void)featureSpace("nope");
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY(QString(e.what()).contains("known spaces: grewe, instcount, autophase"));
    }
  }

  void handComputedVectors_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<QString>("space");
    QTest::addColumn<QJsonObject>("expected");
    QFile f(kData + "/kernels/expected.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto kernels = QJsonDocument::fromJson(f.readAll()).object()["kernels"].toArray();
    QVERIFY(kernels.size() >= 10);
    for (const auto& k : kernels) {
      const auto o = k.toObject();
      for (const char* space : {"grewe", "instcount", "autophase"})
        QTest::addRow("%s/%s/%s", qPrintable(o["file"].toString()), qPrintable(o["kernel"].toString()), space)
            << o["file"].toString() << o["kernel"].toString() << QString(space) << o[space].toObject();
    }
  }
  void handComputedVectors() {
    QFETCH(QString, file);
    QFETCH(QString, kernel);
    QFETCH(QString, space);
    QFETCH(QJsonObject, expected);
    const auto m = measureFile((kData + "/kernels/" + file).toStdString(), allSpaces());
    QVERIFY2(m.ok(), m.error.c_str());
    const KernelVector* v = vectorOf(m, space.toStdString(), kernel.toStdString());
    QVERIFY(v);
    QVERIFY(!v->fromErrors);
    const auto& dims = featureSpace(space.toStdString()).dimensions;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const double want = expected.value(QString::fromStdString(dims[i])).toDouble(0.0);
      if (std::fabs(v->values[i] - want) > 1e-9)
        QFAIL(qPrintable(
            QString("%1: got %2, expected %3").arg(QString::fromStdString(dims[i])).arg(v->values[i]).arg(want)));
    }
  }

  void instCountMatchesClangText_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : fixtureFiles())
      QTest::newRow(qPrintable(f)) << f;
  }
  void instCountMatchesClangText() {
    QFETCH(QString, file);
    const QString path = kData + "/kernels/" + file;
    const auto text = textInstCount(path);
    features::MeasureOptions o;
    o.spaces = {&featureSpace("instcount")};
    const auto m = measureFile(path.toStdString(), o);
    QVERIFY2(m.ok(), m.error.c_str());
    QCOMPARE(text.size(), m.kernels.size());
    for (const auto& k : m.kernels) {
      const KernelVector* v = vectorOf(m, "instcount", k);
      QVERIFY(v);
      QVERIFY(text.count(k));
      const auto& dims = instCountDimensions();
      for (std::size_t i = 0; i < dims.size(); ++i)
        if (v->values[i] != text.at(k)[i])
          QFAIL(qPrintable(QString("%1 %2: in-process %3, clang-15 text %4")
                               .arg(QString::fromStdString(k), QString::fromStdString(dims[i]))
                               .arg(v->values[i])
                               .arg(text.at(k)[i])));
    }
  }

  void autophaseIdentities_data() { instCountMatchesClangText_data(); }
  void autophaseIdentities() {
    QFETCH(QString, file);
    const auto m = measureFile((kData + "/kernels/" + file).toStdString(), allSpaces());
    QVERIFY2(m.ok(), m.error.c_str());
    for (const auto& k : m.kernels) {
      const KernelVector& a = *vectorOf(m, "autophase", k);
      const KernelVector& c = *vectorOf(m, "instcount", k);
      auto A = [&](const char* n) { return dim(a, "autophase", n); };
      auto C = [&](const char* n) { return dim(c, "instcount", n); };
      QCOMPARE(A("BranchCount"), A("Br"));
      QCOMPARE(A("BeginPhi"), A("BB03Phi") + A("BBHiPhi"));
      QCOMPARE(A("BBNoPhi") + A("BB03Phi") + A("BBHiPhi"), A("TotalBlocks"));
      QCOMPARE(A("BlockLow") + A("BlockMid"), A("TotalBlocks")); // fixtures have no block over 500
      QCOMPARE(A("TotalMemInst"), A("GetElementPtr") + A("Load") + A("Store") + A("Call") + A("Alloca"));
      QCOMPARE(A("TotalInsts"), C("TotalInsts"));
      QCOMPARE(A("TotalBlocks"), C("TotalBlocks"));
      QCOMPARE(A("PHI"), C("PHI"));
      QCOMPARE(A("ArgsPhi") >= A("PHI"), true);
      QCOMPARE(A("NumEdges"), A("oneSuccessor") + 2 * A("twoSuccessor")); // no switches in the fixtures
      QVERIFY(A("TotalFuncs") >= C("TotalFuncs"));                        // Autophase also counts declarations
    }
  }

  void greweFromRecoveredAstIsFlagged() {
    features::MeasureOptions o = allSpaces();
    const auto m = measureFile((kData + "/bad/syntax_error.cl").toStdString(), o);
    QVERIFY(!m.ok());
    QVERIFY(QString::fromStdString(m.error).contains("does not compile"));
    const KernelVector* g = vectorOf(m, "grewe", "broken");
    QVERIFY(g);
    QVERIFY(g->fromErrors);
    // Clang drops the broken statement and keeps `a[1] = a[0] * 2.0f`.
    QCOMPARE(dim(*g, "grewe", "mem"), 2.0);
    QCOMPARE(dim(*g, "grewe", "comp"), 1.0);
    QVERIFY(!vectorOf(m, "instcount", "broken")); // IR spaces need a compiling kernel
  }

  void fileWithoutKernelIsAnError() {
    const auto m = measureFile((kData + "/bad/no_kernel.cl").toStdString(), allSpaces());
    QVERIFY(!m.ok());
    QVERIFY2(QString::fromStdString(m.error).contains("no kernel function found"), m.error.c_str());
    QVERIFY(QString::fromStdString(m.error).contains("no_kernel.cl"));
  }

  void declarationsThatDoNoWorkArePrunedAndNotCounted() {
    // t reads only itself: dead. n is read by nothing, but shares its
    // statement with h, which the loop reads: that statement stays whole,
    // and m, which n reads, stays with it. g is read by a store; k's
    // initialiser has a side effect; the for's own i is no candidate.
    const std::string kernel = "kernel void A(global float *a, global int *b, const int c) {\n"
                               "  const int g = get_global_id(0);\n"
                               "  const int m = c - g * 3;\n"
                               "  int h = c + 1, n = m * m;\n"
                               "  const int t = t;\n"
                               "  int k = atomic_add(b, 1);\n"
                               "  for (int i = 0; i < h; i++) a[g] += 2.0f;\n"
                               "}\n";
    const std::string pruned = pruneDeadDeclarations(kernel);
    QCOMPARE(pruned, "kernel void A(global float *a, global int *b, const int c) {\n"
                     "  const int g = get_global_id(0);\n"
                     "  const int m = c - g * 3;\n"
                     "  int h = c + 1, n = m * m;\n"
                     "  int k = atomic_add(b, 1);\n"
                     "  for (int i = 0; i < h; i++) a[g] += 2.0f;\n"
                     "}\n");
    const std::string chain = "kernel void A(global float *a, const int c) {\n"
                              "  const int g = get_global_id(0);\n"
                              "  const int m = c - g * 3; const int n = m * m;\n"
                              "  float x = a[g + n] * 2.0f;\n"
                              "  a[g] = 1.0f;\n"
                              "}\n";
    QCOMPARE(pruneDeadDeclarations(chain), "kernel void A(global float *a, const int c) {\n"
                                           "  const int g = get_global_id(0);\n"
                                           "  a[g] = 1.0f;\n"
                                           "}\n");
    // Counted live only, the dead declarations add nothing: the five
    // operators of m, n and x, and x's load, are left out.
    auto counts = [](const std::string& text, bool liveOnly) {
      GreweAstCounter c(liveOnly);
      (void)clangfe::firstErrorOffsetWith(text, {}, &c);
      return c.kernels().front().second;
    };
    const auto all = counts(chain, false), live = counts(chain, true);
    QCOMPARE(all.comp, 5.0);
    QCOMPARE(all.mem, 2.0);
    QCOMPARE(live.comp, 0.0);
    QCOMPARE(live.mem, 1.0);
    QCOMPARE(live.coalesced, 1.0);
    // Unchanged: a text that does not compile, and one with nothing dead.
    QCOMPARE(pruneDeadDeclarations("kernel void A(global int *a) { int b = ; }"),
             std::string("kernel void A(global int *a) { int b = ; }"));
    QCOMPARE(pruneDeadDeclarations(pruned), pruned);
  }

  void derivedGreweFeatures() {
    GreweCounts c;
    c.comp = 6;
    c.mem = 4;
    c.localmem = 2;
    c.coalesced = 3;
    const auto v = greweVector(c);
    QCOMPARE(v[6], 0.75); // F2 = coalesced / mem
    QCOMPARE(v[7], 1.5);  // F4 = comp / mem
    QCOMPARE(greweF1(c, 1000), 100.0);
    QCOMPARE(greweF3(c, 64), 32.0);
    GreweCounts zero;
    QCOMPARE(greweVector(zero)[6], 0.0);
    QCOMPARE(greweF1(zero, 10), 0.0);
    QCOMPARE(greweF3(zero, 10), 0.0);
  }

  void distances() {
    QCOMPARE(distance({0, 0}, {3, 4}), 5.0);
    QCOMPARE(distance({1, 2, 3}, {1, 2, 3}), 0.0);
    QCOMPARE(distance({0, 0}, {3, 4}, {2, 0}), 6.0);
    QCOMPARE(relativeProximity({3, 4}, {3, 4}), 1.0);
    QCOMPARE(relativeProximity({0, 0}, {3, 4}), 0.0);
    QCOMPARE(relativeProximity({6, 8}, {3, 4}), 0.0);
    QCOMPARE(relativeProximity({1.5, 2}, {3, 4}), 0.5);
    QVERIFY(relativeProximity({20, 0}, {3, 4}) < 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)distance({1}, {1, 2}));
  }
};

QTEST_GUILESS_MAIN(TestFeatures)
#include "tst_features.moc"

// Merging workspaces: two shards steered from one corpus become one workspace
// with every run, its lineage and its drive cases, kernels deduplicated;
// merging again adds nothing; a foreign corpus or another schema is refused
// with the inputs untouched; a run merged before it finished is replaced by
// its longer copy.
#include "common/Error.h"
#include "store/Workspace.h"
#include "store/WorkspaceMerge.h"

#include <sqlite3.h>

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace steerbench;
using namespace steerbench::store;

namespace {

QByteArray fileHash(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

void addCorpus(Workspace& ws, const std::vector<std::string>& names) {
  for (const auto& n : names) {
    KernelRecord k;
    k.name = n;
    k.source = "kernel void " + n + "(global float* a) { a[get_global_id(0)] *= 2.0f; }";
    k.role = "train";
    const auto id = ws.addKernel(k);
    ws.putFeatures({id, "grewe", 1, {1, 0, 1, 0, 0, 0, 0, 0}, false, "{}"});
  }
}

/// A steering run of `generations` generations after the seed: each one
/// child of the last best, so the lineage is a chain; its best becomes a
/// 'steered' kernel and is driven once.
std::int64_t addRun(Workspace& ws, const std::string& tag, int generations, const std::string& bestText) {
  const auto spec = ws.putSpec("{\"run\":\"" + tag + "\"}");
  Workspace::SteerRunRecord run;
  run.space = "grewe";
  run.spaceVersion = 1;
  run.target = "{\"space\":\"grewe\",\"values\":[1,0,1,0,0,0,0,0],\"origin\":\"" + tag + "\"}";
  run.specHash = spec;
  run.modelHash = "m";
  const auto id = ws.addSteerRun(run);
  std::int64_t parent = 0;
  for (int g = 0; g <= generations; ++g) {
    ws.transaction([&] {
      std::vector<Workspace::SteerCandidateRecord> cands(2);
      for (int i = 0; i < 2; ++i) {
        cands[i].parent = parent;
        cands[i].text = tag + " g" + std::to_string(g) + " c" + std::to_string(i);
        cands[i].compiled = true;
        cands[i].values = {double(g), 0, 1, 0, 0, 0, 0, 0};
        cands[i].distance = 10.0 - g - i;
        cands[i].kept = true;
      }
      Workspace::SteerGenerationRecord gen;
      gen.run = id;
      gen.generation = g;
      gen.candidates = gen.compiled = 2;
      gen.bestDistance = 9.0 - g;
      gen.bestId = ~std::int64_t(1);
      gen.beam = {1, 0};
      if (parent) gen.beam.push_back(~parent); // an earlier generation's member stays
      ws.addSteerGeneration(gen, cands);
      parent = cands[1].id;
    });
  }
  KernelRecord best;
  best.name = "A";
  best.source = bestText;
  best.role = "steered";
  const auto kernel = ws.addKernel(best);
  ws.setSteerRunStatus(id, "finished", "depth", 1.5, kernel);
  Workspace::DriveCaseRecord c;
  c.kernelId = kernel;
  c.kernelName = "A";
  c.globalSize = 4096;
  c.outcome = "PASS";
  c.label = "CPU";
  c.specHash = spec;
  Workspace::DriveMeasurementRecord m;
  m.deviceId = "0:0";
  m.device = "cpu";
  m.deviceType = "CPU";
  m.outcome = "PASS";
  c.devices = {m};
  ws.transaction([&] { ws.addDriveCase(c); });
  return id;
}

QString scalar(const QString& path, const QString& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  QString out;
  if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    out = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

/// Everything a merge must carry, by content, not ids: each candidate with
/// its run's uid, generation, its parent's text and whether it is its
/// generation's best; each generation's beam as texts; kernels; drive cases.
QString contents(const QString& path) {
  const char* sql =
      "SELECT group_concat(line, '\n') FROM (SELECT line FROM ("
      " SELECT 'cand ' || r.uid || ' ' || c.generation || ' ' || c.text || ' <- ' || COALESCE(p.text, '-') || "
      "   CASE WHEN g.best_id = c.id THEN ' best' ELSE '' END AS line"
      "   FROM steer_candidates c JOIN steer_runs r ON r.id = c.run_id"
      "   LEFT JOIN steer_candidates p ON p.id = c.parent_id"
      "   LEFT JOIN steer_generations g ON g.run_id = c.run_id AND g.generation = c.generation"
      "   WHERE p.id IS NULL OR p.run_id = c.run_id"
      " UNION ALL SELECT 'beam ' || r.uid || ' ' || g.generation || ': ' || (SELECT group_concat(c.text, ', ') FROM"
      "   json_each(g.beam) j JOIN steer_candidates c ON c.id = j.value AND c.run_id = g.run_id)"
      "   FROM steer_generations g JOIN steer_runs r ON r.id = g.run_id"
      " UNION ALL SELECT 'run ' || r.uid || ' best ' || COALESCE(k.source, '-') || ' made in ' || r.made_in"
      "   FROM steer_runs r LEFT JOIN kernels k ON k.id = r.best_kernel_id"
      " UNION ALL SELECT 'kernel ' || role || ' ' || name || ' ' || source FROM kernels"
      " UNION ALL SELECT 'vector ' || k.source FROM feature_vectors f JOIN kernels k ON k.id = f.kernel_id"
      " UNION ALL SELECT 'case ' || d.uid || ' ' || k.source || ' ' || d.outcome || ' ' ||"
      "   (SELECT count(*) FROM drive_measurements m WHERE m.case_id = d.id)"
      "   FROM drive_cases d JOIN kernels k ON k.id = d.kernel_id"
      ") ORDER BY line)";
  return scalar(path, QString::fromLatin1(sql));
}

} // namespace

class TestWorkspaceMerge : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }

  /// A shard: the shared corpus plus runs of its own.
  QString shard(const char* name, const std::vector<std::pair<std::string, std::string>>& runs, int generations = 2) {
    const QString p = path(name);
    auto ws = Workspace::open(p.toStdString());
    addCorpus(ws, {"a", "b", "c"});
    for (const auto& [tag, best] : runs)
      addRun(ws, tag, generations, best);
    return p;
  }

private slots:
  void mergesRunsWithTheirLineageAndDedupesKernels() {
    const QString a = shard("a.sbw", {{"t0", "kernel void A() {}"}, {"t2", "kernel void A() { int x; }"}});
    const QString b = shard("b.sbw", {{"t1", "kernel void A() {}"}}); // the same best kernel as t0's
    const QString out = path("all.sbw");
    const QByteArray aBefore = fileHash(a), bBefore = fileHash(b);
    const auto reports = mergeWorkspaces({a.toStdString(), b.toStdString()}, out.toStdString());
    QCOMPARE(int(reports.size()), 2);
    QCOMPARE(reports[0].steerRuns, std::int64_t(2));
    QCOMPARE(reports[1].steerRuns, std::int64_t(1));
    QCOMPARE(reports[1].kernels, std::int64_t(0)); // its corpus and its best were there already
    QCOMPARE(reports[0].candidates + reports[1].candidates, std::int64_t(3 * 3 * 2));
    QCOMPARE(fileHash(a), aBefore); // inputs are only read
    QCOMPARE(fileHash(b), bBefore);

    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM kernels")), QStringLiteral("5"));
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM steer_runs")), QStringLiteral("3"));
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM drive_cases")), QStringLiteral("3"));
    QCOMPARE(scalar(out, QStringLiteral("PRAGMA integrity_check")), QStringLiteral("ok"));
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM pragma_foreign_key_check")), QStringLiteral("0"));
    // Lineage by content: the merged workspace holds exactly the shards' runs.
    const QString merged = contents(out);
    QStringList expected = (contents(a) + QLatin1Char('\n') + contents(b)).split(QLatin1Char('\n'));
    expected.removeDuplicates(); // the corpus and the shared best kernel, once
    // Runs remember where they were made (the shards made their own: '').
    QStringList got = merged.split(QLatin1Char('\n'));
    for (auto& line : got)
      if (line.startsWith(QLatin1String("run "))) {
        QVERIFY2(line.endsWith(QLatin1String("made in a.sbw")) || line.endsWith(QLatin1String("made in b.sbw")),
                 qPrintable(line));
        line.chop(line.size() - line.indexOf(QLatin1String(" made in")) - 9);
      }
    for (auto& line : expected)
      if (line.startsWith(QLatin1String("run "))) line.chop(line.size() - line.indexOf(QLatin1String(" made in")) - 9);
    got.sort();
    expected.sort();
    QCOMPARE(got, expected);
    // Every beam names candidates of its own run.
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM steer_generations g, json_each(g.beam) j "
                                        "LEFT JOIN steer_candidates c ON c.id = j.value AND c.run_id = g.run_id "
                                        "WHERE c.id IS NULL")),
             QStringLiteral("0"));
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM merges")), QStringLiteral("2"));

    // Again: nothing new, the same contents.
    const auto again = mergeWorkspaces({a.toStdString(), b.toStdString()}, out.toStdString());
    QCOMPARE(again[0].steerRuns + again[1].steerRuns + again[0].kernels + again[1].kernels + again[0].driveCases +
                 again[1].driveCases,
             std::int64_t(0));
    QCOMPARE(again[0].alreadyThere, std::int64_t(2 + 2)); // two runs and their two drive cases
    QCOMPARE(contents(out), merged);
  }

  void refusesAForeignCorpusOrSchemaUntouched() {
    const QString a = shard("fa.sbw", {{"t0", "kernel void A() {}"}});
    const QString foreign = path("foreign.sbw");
    {
      auto ws = Workspace::open(foreign.toStdString());
      addCorpus(ws, {"a", "b", "z"});
      addRun(ws, "t9", 1, "kernel void A() { int y; }");
    }
    const QString out = path("fout.sbw");
    (void)mergeWorkspaces({a.toStdString()}, out.toStdString());
    const QByteArray outBefore = fileHash(out), foreignBefore = fileHash(foreign);
    try {
      (void)mergeWorkspaces({foreign.toStdString()}, out.toStdString());
      QFAIL("merged a foreign corpus");
    } catch (const WorkspaceError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("another corpus")) &&
                   QString::fromUtf8(e.what()).contains(foreign),
               e.what());
    }
    QCOMPARE(fileHash(out), outBefore);
    QCOMPARE(fileHash(foreign), foreignBefore);
    // Two inputs that disagree: refused before the output exists.
    QVERIFY_EXCEPTION_THROWN((void)mergeWorkspaces({a.toStdString(), foreign.toStdString()}, path("none.sbw").toStdString()),
                             WorkspaceError);
    QVERIFY(!QFile::exists(path("none.sbw")));

    // Another schema (one this build would upgrade on open) is named, not upgraded.
    const QString old = path("old.sbw");
    QVERIFY(QFile::copy(a, old));
    {
      sqlite3* db = nullptr;
      sqlite3_open(old.toUtf8().constData(), &db);
      sqlite3_exec(db, "PRAGMA user_version = 9", nullptr, nullptr, nullptr);
      sqlite3_close(db);
    }
    const QByteArray oldBefore = fileHash(old);
    try {
      (void)mergeWorkspaces({old.toStdString()}, out.toStdString());
      QFAIL("merged another schema");
    } catch (const WorkspaceError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("schema 9")), e.what());
    }
    QCOMPARE(fileHash(old), oldBefore);
    QCOMPARE(fileHash(out), outBefore);
    // Not a workspace, or the output itself.
    QFile text(path("notes.sbw"));
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("not a workspace\n");
    text.close();
    QVERIFY_EXCEPTION_THROWN((void)mergeWorkspaces({path("notes.sbw").toStdString()}, out.toStdString()), WorkspaceError);
    QVERIFY_EXCEPTION_THROWN((void)mergeWorkspaces({out.toStdString()}, out.toStdString()), InputError);
  }

  void aRunMergedBeforeItFinishedIsReplacedByItsLongerCopy() {
    const QString p = path("grow.sbw");
    const QString early = path("grow-early.sbw");
    std::int64_t run = 0;
    {
      auto ws = Workspace::open(p.toStdString());
      addCorpus(ws, {"a", "b", "c"});
      run = addRun(ws, "t0", 1, "kernel void A() {}");
    }
    QVERIFY(QFile::copy(p, early)); // closed: everything is in the main file
    {
      auto ws = Workspace::open(p.toStdString());
      ws.transaction([&] {
        std::vector<Workspace::SteerCandidateRecord> cands(1);
        cands[0].text = "t0 g2";
        cands[0].compiled = true;
        cands[0].distance = 0;
        Workspace::SteerGenerationRecord gen;
        gen.run = run;
        gen.generation = 2;
        gen.candidates = gen.compiled = 1;
        gen.bestId = ~std::int64_t(0);
        gen.beam = {0};
        ws.addSteerGeneration(gen, cands);
      });
    }
    const QString out = path("grow-all.sbw");
    (void)mergeWorkspaces({early.toStdString()}, out.toStdString());
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM steer_generations")), QStringLiteral("2"));
    const auto r = mergeWorkspaces({p.toStdString()}, out.toStdString());
    QCOMPARE(r[0].steerRunsReplaced, std::int64_t(1));
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM steer_runs")), QStringLiteral("1"));
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM steer_generations")), QStringLiteral("3"));
    QCOMPARE(scalar(out, QStringLiteral("SELECT count(*) FROM steer_candidates")), QStringLiteral("5"));
  }
};

QTEST_GUILESS_MAIN(TestWorkspaceMerge)
#include "tst_workspacemerge.moc"

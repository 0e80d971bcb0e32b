// steerbench-cli explore --batch --mpi under a real mpirun (Open MPI), with
// the shipped model on a corpus made here: an epoch's two points are steered
// and labelled on two ranks, the second rank in its own copy of the
// workspace, and rank 0 merges what it made: both runs, their kernels and
// drive cases are in the workspace, recorded as the epoch's members.
#include "CliRun.h"
#include "MpiRun.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

namespace {

QStringList column(const QString& workspace, const QString& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(workspace.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  QStringList out;
  if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK)
    while (sqlite3_step(st) == SQLITE_ROW)
      out << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

} // namespace

class TestExploreMpi : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString ws_;

private slots:
  void initTestCase() {
    ws_ = dir_.filePath(QStringLiteral("e.sbw"));
    const Run r = cli({QStringLiteral("corpus"), QStringLiteral("ingest"), QStringLiteral(STEERBENCH_TEST_DATA "/kernels"),
                       QStringLiteral("-w"), ws_, QStringLiteral("--no-reference")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Labelled cases over two made-up devices (the committee's input is what
    // the workspace stores; driving them for real is tst_drive's part).
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(ws_.toUtf8().constData(), &db), SQLITE_OK);
    const char* sql =
        "INSERT INTO specs(hash, json) VALUES ('test', '{\"made\":\"by the test\"}');"
        "INSERT INTO drive_cases(kernel_id, kernel_name, global_size, local_size, transfer_bytes, outcome, label, "
        "label_status, spec_hash) SELECT k.id, k.name, s.size, 64, s.size * 8, 'PASS', "
        "CASE (k.id + s.size) % 3 WHEN 0 THEN 'device A' ELSE 'device B' END, 'significant', 'test' "
        "FROM kernels k, (SELECT 1024 AS size UNION ALL SELECT 65536) s "
        "WHERE EXISTS (SELECT 1 FROM feature_vectors f WHERE f.kernel_id = k.id AND f.space = 'grewe');";
    char* err = nullptr;
    QVERIFY2(sqlite3_exec(db, sql, nullptr, nullptr, &err) == SQLITE_OK, err);
    sqlite3_close(db);
    QVERIFY(column(ws_, QStringLiteral("SELECT count(*) FROM drive_cases")).first().toInt() >= 10);
  }

  void aBatchIsSteeredOnTheRanksAndMergedBack() {
    QProcess p;
    auto env = mpiEnvironment();
    if (!env.contains(QStringLiteral("POCL_DEVICES"))) env.insert(QStringLiteral("POCL_DEVICES"), QStringLiteral("pthread basic"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(STEERBENCH_MPIRUN),
            {QStringLiteral("-np"), QStringLiteral("2"), QStringLiteral(STEERBENCH_CLI), QStringLiteral("explore"),
             QStringLiteral("--mpi"), QStringLiteral("--batch"), QStringLiteral("2"), QStringLiteral("--epochs"),
             QStringLiteral("1"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), QStringLiteral(STEERBENCH_DEFAULT_MODEL),
             QStringLiteral("-k"), QStringLiteral("2"), QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("--depth"),
             QStringLiteral("2"), QStringLiteral("--nearest"), QStringLiteral("3"), QStringLiteral("--no-drive-check"),
             QStringLiteral("-g"), QStringLiteral("256"), QStringLiteral("-l"), QStringLiteral("32"),
             QStringLiteral("--runs"), QStringLiteral("3"), QStringLiteral("--points"), QStringLiteral("300"),
             QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY(p.waitForFinished(280000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput()), err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(out + err.right(3000)));
    QVERIFY2(out.contains(QLatin1String("epoch 0:")) && out.contains(QLatin1String("epoch 0.1:")), qPrintable(out));

    // Both points are the epoch's members, each with its steering run in this workspace.
    QCOMPARE(column(ws_, QStringLiteral("SELECT member FROM explore_epochs ORDER BY member")),
             (QStringList{QStringLiteral("0"), QStringLiteral("1")}));
    QCOMPARE(column(ws_, QStringLiteral("SELECT count(*) FROM explore_epochs e JOIN steer_runs r ON r.id = e.steer_run_id"))
                 .first(),
             QStringLiteral("2"));
    // Point 1 was steered on rank 1, in its copy, and merged back with its kernel's drive cases.
    QCOMPARE(column(ws_, QStringLiteral("SELECT r.made_in FROM explore_epochs e JOIN steer_runs r ON "
                                        "r.id = e.steer_run_id WHERE e.member = 1"))
                 .value(0),
             QStringLiteral("rank-1.sbw"));
    QCOMPARE(column(ws_, QStringLiteral("SELECT r.made_in FROM explore_epochs e JOIN steer_runs r ON "
                                        "r.id = e.steer_run_id WHERE e.member = 0"))
                 .value(0),
             QString());
    const QStringList driven = column(ws_, QStringLiteral("SELECT count(*) FROM explore_epochs e JOIN drive_cases d ON "
                                                          "d.kernel_id = e.kernel_id GROUP BY e.member ORDER BY e.member"));
    QCOMPARE(driven, (QStringList{QStringLiteral("1"), QStringLiteral("1")})); // one size each, really driven
    QCOMPARE(column(ws_, QStringLiteral("SELECT cases FROM explore_epochs ORDER BY member")),
             (QStringList{QStringLiteral("1"), QStringLiteral("1")}));
    QVERIFY(QFile::exists(dir_.filePath(QStringLiteral("e.ranks/rank-1.sbw"))));
    QCOMPARE(column(ws_, QStringLiteral("PRAGMA integrity_check")).value(0), QStringLiteral("ok"));
  }
};

QTEST_GUILESS_MAIN(TestExploreMpi)
#include "tst_explore_mpi.moc"

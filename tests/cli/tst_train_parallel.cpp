// steerbench-cli train in several processes (data parallel over libtorch's
// c10d and Gloo), run by a real mpirun: two processes at batch 8 each give
// the losses of one process at batch 16, step by step; rank 0 alone records
// the run and writes the checkpoint; a checkpoint resumes on another number
// of processes; a rank whose partner never comes is told where it waited.
#include "CliRun.h"
#include "MpiRun.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <cmath>

namespace {

/// step -> (loss, validation loss or NaN) of the run writing `checkpoint`.
QMap<int, QPair<double, double>> losses(const QString& workspace, const QString& checkpoint) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(workspace.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  QMap<int, QPair<double, double>> out;
  const char* sql = "SELECT s.step, s.loss, s.validation_loss FROM training_steps s JOIN training_runs r ON "
                    "r.id = s.run_id WHERE r.checkpoint = ?";
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK) {
    const QByteArray c = checkpoint.toUtf8();
    sqlite3_bind_text(st, 1, c.constData(), int(c.size()), SQLITE_TRANSIENT);
    while (sqlite3_step(st) == SQLITE_ROW)
      out[sqlite3_column_int(st, 0)] = {sqlite3_column_double(st, 1), sqlite3_column_type(st, 2) == SQLITE_NULL
                                                                          ? std::nan("")
                                                                          : sqlite3_column_double(st, 2)};
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

int runsFor(const QString& workspace, const QString& checkpoint) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(workspace.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  int n = -1;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM training_runs WHERE checkpoint = ?", -1, &st, nullptr) == SQLITE_OK) {
    const QByteArray c = checkpoint.toUtf8();
    sqlite3_bind_text(st, 1, c.constData(), int(c.size()), SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int(st, 0);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

} // namespace

class TestTrainParallel : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString ws_;

  QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }

  QStringList train(const QString& checkpoint, int batch, int steps) const {
    return {QStringLiteral(STEERBENCH_CLI), QStringLiteral("train"), QStringLiteral("-w"), ws_, QStringLiteral("-o"),
            checkpoint, QStringLiteral("--batch"), QString::number(batch), QStringLiteral("--steps"),
            QString::number(steps), QStringLiteral("--layers"), QStringLiteral("1"), QStringLiteral("--hidden"),
            QStringLiteral("32"), QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--ffn"),
            QStringLiteral("64"), QStringLiteral("--max-length"), QStringLiteral("128"), QStringLiteral("--warmup"),
            QStringLiteral("5"), QStringLiteral("--validate-every"), QStringLiteral("10"),
            QStringLiteral("--checkpoint-every"), QStringLiteral("10"), QStringLiteral("--threads"), QStringLiteral("1")};
  }

  /// Runs `args` (a command line) under `mpirun -np ranks`, or alone for 1.
  Run launch(const QStringList& args, int ranks, int port) const {
    QProcess p;
    p.setProcessEnvironment(mpiEnvironment());
    if (ranks == 1) {
      p.start(args.first(), args.mid(1));
    } else {
      p.start(QStringLiteral(STEERBENCH_MPIRUN), QStringList{QStringLiteral("-np"), QString::number(ranks),
                                                             QStringLiteral("-x"),
                                                             QStringLiteral("MASTER_PORT=") + rendezvousPort(port)} +
                                                     args);
    }
    if (!p.waitForFinished(240000)) qFatal("training timed out");
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
  }

private slots:
  void initTestCase() {
    ws_ = path("t.sbw");
    const Run r = cli({QStringLiteral("corpus"), QStringLiteral("ingest"), QStringLiteral(STEERBENCH_TEST_DATA "/kernels"),
                       QStringLiteral("-w"), ws_, QStringLiteral("--no-reference")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
  }

  void twoProcessesAtHalfTheBatchTrainAsOne() {
    const QString one = path("one.ckpt"), two = path("two.ckpt");
    const Run a = launch(train(one, 16, 30), 1, 0);
    QVERIFY2(a.exitCode == 0, qPrintable(a.err.right(2000)));
    const Run b = launch(train(two, 8, 30), 2, 1);
    QVERIFY2(b.exitCode == 0, qPrintable(b.out + b.err.right(3000)));
    QVERIFY2(b.err.contains(QLatin1String("rank 0 of 2")) && b.err.contains(QLatin1String("rank 1 of 2")) &&
                 b.err.contains(QLatin1String("16 in all")),
             qPrintable(b.err));
    QCOMPARE(b.out.count(QLatin1String("trained ")), 1); // rank 0 reports

    const auto la = losses(ws_, one), lb = losses(ws_, two);
    QCOMPARE(la.size(), 30);
    QCOMPARE(lb.size(), 30); // rank 0 alone records: no step twice
    QCOMPARE(runsFor(ws_, two), 1);
    bool moved = false;
    for (int step = 1; step <= 30; ++step) {
      const double x = la[step].first, y = lb[step].first;
      QVERIFY2(std::abs(x - y) <= 1e-5 * std::abs(x), qPrintable(QStringLiteral("step %1: %2 against %3").arg(step).arg(x, 0, 'g', 12).arg(y, 0, 'g', 12)));
      const double vx = la[step].second, vy = lb[step].second;
      QCOMPARE(std::isnan(vx), std::isnan(vy));
      if (!std::isnan(vx)) QVERIFY2(std::abs(vx - vy) <= 1e-5 * std::abs(vx), qPrintable(QString::number(step)));
      moved = moved || std::abs(x - la[1].first) > 1e-3;
    }
    QVERIFY(moved); // it learned something: equal losses are not a constant

    // A checkpoint resumes on another number of processes.
    const Run c = launch(train(two, 16, 40), 1, 2);
    QVERIFY2(c.exitCode == 0 && c.out.contains(QLatin1String("steps 30 -> 40")), qPrintable(c.out + c.err.right(2000)));
    const Run d = launch(train(one, 8, 40), 2, 3);
    QVERIFY2(d.exitCode == 0 && d.out.contains(QLatin1String("steps 30 -> 40")), qPrintable(d.out + d.err.right(2000)));
    QCOMPARE(losses(ws_, one).size(), 40);
  }

  void aRankAloneIsToldWhereItWaited() {
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("RANK"), QStringLiteral("0"));
    env.insert(QStringLiteral("WORLD_SIZE"), QStringLiteral("2"));
    env.insert(QStringLiteral("MASTER_PORT"), rendezvousPort(4));
    p.setProcessEnvironment(env);
    const QStringList args = train(path("alone.ckpt"), 8, 5);
    p.start(args.first(), args.mid(1) + QStringList{QStringLiteral("--rendezvous-timeout"), QStringLiteral("2")});
    QVERIFY(p.waitForFinished(120000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.contains(QLatin1String("could not meet the others at 127.0.0.1:") + rendezvousPort(4)), qPrintable(err));

    env.insert(QStringLiteral("RANK"), QStringLiteral("two"));
    p.setProcessEnvironment(env);
    p.start(args.first(), args.mid(1));
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(QString::fromUtf8(p.readAllStandardError()).contains(QLatin1String("RANK is \"two\"")), "a bad RANK is named");
  }
};

QTEST_GUILESS_MAIN(TestTrainParallel)
#include "tst_train_parallel.moc"

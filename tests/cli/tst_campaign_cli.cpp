// steerbench-cli campaign and workspace merge, run as a user would with the
// shipped model on a corpus made here: four targets in two shards run one
// after the other and as two real MPI ranks (mpirun, Open MPI) give the same
// best kernels; a rank killed mid-run and the same command again complete the
// campaign with nothing lost or doubled; status, merge, the Slurm scripts,
// and the bad inputs.
#include "CliRun.h"
#include "MpiRun.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <csignal>

namespace {

QStringList column(const QString& workspace, const char* sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(workspace.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  QStringList out;
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK)
    while (sqlite3_step(st) == SQLITE_ROW)
      out << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

QString scalar(const QString& workspace, const char* sql) {
  const auto c = column(workspace, sql);
  return c.isEmpty() ? QString() : c.first();
}

/// Each target's best kernel, by target: what a campaign produced.
const char* kBests = "SELECT r.target || ' => ' || COALESCE(k.source, '(none)') FROM steer_runs r "
                     "LEFT JOIN kernels k ON k.id = r.best_kernel_id ORDER BY r.target";

QStringList mpirunArgs(const QString& dir) {
  return {QStringLiteral("--oversubscribe"), QStringLiteral("-np"), QStringLiteral("2"), QStringLiteral(STEERBENCH_CLI),
          QStringLiteral("campaign"), QStringLiteral("run"), dir, QStringLiteral("--mpi"), QStringLiteral("--threads"),
          QStringLiteral("1"), QStringLiteral("--report-every"), QStringLiteral("1"), QStringLiteral("-q")};
}

/// The pids of processes running `campaign run DIR`.
QList<qint64> campaignProcesses(const QString& dir) {
  QList<qint64> out;
  for (const auto& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
    bool number = false;
    const qint64 pid = entry.toLongLong(&number);
    if (!number) continue;
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) continue;
    const auto args = f.readAll().split('\0');
    if (args.size() > 3 && args[0].endsWith("steerbench-cli") && args[1] == "campaign" && args[2] == "run" &&
        QString::fromUtf8(args[3]) == dir)
      out << pid;
  }
  return out;
}

} // namespace

class TestCampaignCli : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString base_, targets_;

  QString path(const QString& name) const { return dir_.filePath(name); }

  /// Plans the test's campaign into `name`: 4 targets, 2 shards, short deterministic runs.
  Run plan(const QString& name, const QStringList& more = {}) const {
    return cli(QStringList{QStringLiteral("campaign"), QStringLiteral("plan"), targets_, QStringLiteral("-o"),
                           path(name), QStringLiteral("-w"), base_, QStringLiteral("--checkpoint"),
                           QStringLiteral(STEERBENCH_DEFAULT_MODEL), QStringLiteral("--shards"), QStringLiteral("2"),
                           QStringLiteral("-k"), QStringLiteral("3"), QStringLiteral("-c"), QStringLiteral("3"),
                           QStringLiteral("--time-budget"), QStringLiteral("0"), QStringLiteral("--no-drive-check"),
                           QStringLiteral("--seed"), QStringLiteral("2")} +
               (more.isEmpty() ? QStringList{QStringLiteral("--depth"), QStringLiteral("2")} : more));
  }

private slots:
  void initTestCase() {
    base_ = path(QStringLiteral("base.sbw"));
    const Run r = cli({QStringLiteral("corpus"), QStringLiteral("ingest"), QStringLiteral(STEERBENCH_TEST_DATA "/kernels"),
                       QStringLiteral("-w"), base_, QStringLiteral("--no-reference")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    targets_ = path(QStringLiteral("targets.csv"));
    QFile f(targets_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("name,comp,mem,coalesced,localmem\n"
            "small,4,3,2,0\n"
            "wider,8,4,2,0\n"
            "local,6,2,1,2\n"
            "arith,12,2,2,0\n");
  }

  void plansShardsAndSlurmScripts() {
    const Run r = plan(QStringLiteral("seq"), {QStringLiteral("--depth"), QStringLiteral("2"), QStringLiteral("--slurm"),
                                               QStringLiteral("--partition"), QStringLiteral("short")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QLatin1String("4 targets in 2 shards")), qPrintable(r.out));
    QVERIFY(QFile::exists(path(QStringLiteral("seq/campaign.json"))));
    QFile array(path(QStringLiteral("seq/campaign.sbatch")));
    QVERIFY(array.open(QIODevice::ReadOnly));
    const QString a = QString::fromUtf8(array.readAll());
    QVERIFY2(a.contains(QLatin1String("#SBATCH --array=0-1")) && a.contains(QLatin1String("#SBATCH --partition=short")) &&
                 a.contains(QLatin1String("--shard \"$SLURM_ARRAY_TASK_ID\"")),
             qPrintable(a));
    QFile submit(path(QStringLiteral("seq/submit.sh")));
    QVERIFY(submit.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(submit.readAll()).contains(QLatin1String("--dependency=afterok:")));
    QVERIFY(QFileInfo(path(QStringLiteral("seq/submit.sh"))).isExecutable());

    // Planning the same campaign again is harmless; another one into the same folder is refused.
    QCOMPARE(plan(QStringLiteral("seq"), {QStringLiteral("--depth"), QStringLiteral("2")}).exitCode, 0);
    const Run other = plan(QStringLiteral("seq"), {QStringLiteral("--depth"), QStringLiteral("3")});
    QCOMPARE(other.exitCode, 1);
    QVERIFY2(other.err.contains(QLatin1String("another campaign")), qPrintable(other.err));

    const Run status = cli({QStringLiteral("campaign"), QStringLiteral("status"), path(QStringLiteral("seq"))});
    QCOMPARE(status.exitCode, 0);
    QVERIFY2(status.out.contains(QLatin1String("0 of 4 targets finished")) &&
                 status.out.contains(QLatin1String("not started")),
             qPrintable(status.out));
  }

  void shardsOneByOneAndMpiRanksGiveTheSameBests() {
    const QString seq = path(QStringLiteral("seq"));
    for (const char* shard : {"0", "1"}) {
      const Run r = cli({QStringLiteral("campaign"), QStringLiteral("run"), seq, QStringLiteral("--shard"),
                         QString::fromLatin1(shard), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("-q")});
      QVERIFY2(r.exitCode == 0, qPrintable(r.err.right(2000)));
      QVERIFY2(r.out.contains(QLatin1String("2 steered")), qPrintable(r.out));
    }
    // Run again: everything is finished, nothing is steered twice.
    const Run again = cli({QStringLiteral("campaign"), QStringLiteral("run"), seq, QStringLiteral("--shard"),
                           QStringLiteral("0"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(again.exitCode == 0 && again.out.contains(QLatin1String("0 steered, 0 resumed, 2 finished before")),
             qPrintable(again.out + again.err));
    const Run merged = cli({QStringLiteral("campaign"), QStringLiteral("merge"), seq});
    QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
    const QString seqAll = seq + QStringLiteral("/campaign.sbw");
    QCOMPARE(scalar(seqAll, "SELECT count(*) FROM steer_runs WHERE status = 'finished'"), QStringLiteral("4"));
    const QStringList seqBests = column(seqAll, kBests);
    QCOMPARE(seqBests.size(), 4);

    QVERIFY(plan(QStringLiteral("mpi")).exitCode == 0);
    const QString mpi = path(QStringLiteral("mpi"));
    QProcess p;
    p.setProcessEnvironment(mpiEnvironment());
    p.start(QStringLiteral(STEERBENCH_MPIRUN), mpirunArgs(mpi));
    QVERIFY(p.waitForFinished(300000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput()), err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(out + err.right(3000)));
    QVERIFY2(out.contains(QLatin1String("rank 0: shard 0: 2 steered")) && out.contains(QLatin1String("rank 1: shard 1: 2 steered")),
             qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("4 of 4 targets finished")) && out.contains(QLatin1String("merged 2 shards")),
             qPrintable(out));
    const QString mpiAll = mpi + QStringLiteral("/campaign.sbw");
    QCOMPARE(column(mpiAll, kBests), seqBests);
    // Each run's whole history matches too, candidate by candidate.
    const char* histories = "SELECT r.target || ': ' || group_concat(c.generation || c.text, '|') FROM steer_runs r "
                            "JOIN steer_candidates c ON c.run_id = r.id GROUP BY r.id ORDER BY r.target";
    QCOMPARE(column(mpiAll, histories), column(seqAll, histories));
  }

  void aKilledRankResumesWithNothingLostOrDoubled() {
    // Longer runs, so that there is a rank to kill mid-run.
    QVERIFY(plan(QStringLiteral("kill"), {QStringLiteral("--depth"), QStringLiteral("40")}).exitCode == 0);
    const QString dir = path(QStringLiteral("kill"));
    QProcess p;
    p.setProcessEnvironment(mpiEnvironment());
    p.start(QStringLiteral(STEERBENCH_MPIRUN), mpirunArgs(dir));
    QVERIFY(p.waitForStarted());
    QElapsedTimer t;
    t.start();
    auto generations = [&] {
      int n = 0;
      for (const char* shard : {"/shard-0.sbw", "/shard-1.sbw"})
        if (QFile::exists(dir + QLatin1String(shard)))
          n += scalar(dir + QLatin1String(shard), "SELECT count(*) FROM steer_generations").toInt();
      return n;
    };
    while (generations() < 3 && t.elapsed() < 240000 && p.state() == QProcess::Running)
      QTest::qWait(100);
    QVERIFY2(p.state() == QProcess::Running, "the campaign ended before a rank could be killed");
    const auto ranks = campaignProcesses(dir);
    QCOMPARE(ranks.size(), 2);
    ::kill(pid_t(ranks.last()), SIGKILL);
    QVERIFY(p.waitForFinished(120000));
    QVERIFY(p.exitCode() != 0); // mpirun ends the job
    QVERIFY(!QFile::exists(dir + QStringLiteral("/campaign.sbw")));
    const Run status = cli({QStringLiteral("campaign"), QStringLiteral("status"), dir, QStringLiteral("--targets")});
    QCOMPARE(status.exitCode, 0);
    QVERIFY2(!status.out.contains(QLatin1String("4 of 4 targets finished")), qPrintable(status.out));

    // The same command again completes it.
    QProcess again;
    again.setProcessEnvironment(mpiEnvironment());
    again.start(QStringLiteral(STEERBENCH_MPIRUN), mpirunArgs(dir));
    QVERIFY(again.waitForFinished(300000));
    const QString out = QString::fromUtf8(again.readAllStandardOutput());
    QVERIFY2(again.exitCode() == 0, qPrintable(out + QString::fromUtf8(again.readAllStandardError()).right(3000)));
    QVERIFY2(out.contains(QLatin1String("resumed")) || out.contains(QLatin1String("finished before")), qPrintable(out));
    const QString all = dir + QStringLiteral("/campaign.sbw");
    QCOMPARE(scalar(all, "SELECT count(*) FROM steer_runs"), QStringLiteral("4"));
    QCOMPARE(scalar(all, "SELECT count(*) FROM steer_runs WHERE status = 'finished'"), QStringLiteral("4"));
    QCOMPARE(scalar(all, "SELECT count(*) FROM steer_generations"), QStringLiteral("164")); // 4 runs, seeds + 40 each
    QCOMPARE(scalar(all, "SELECT count(*) FROM (SELECT 1 FROM steer_generations GROUP BY run_id, generation "
                         "HAVING count(*) > 1)"),
             QStringLiteral("0"));
    int shardCandidates = 0;
    for (const char* shard : {"/shard-0.sbw", "/shard-1.sbw"})
      shardCandidates += scalar(dir + QLatin1String(shard), "SELECT count(*) FROM steer_candidates").toInt();
    QCOMPARE(scalar(all, "SELECT count(*) FROM steer_candidates").toInt(), shardCandidates);
    QCOMPARE(scalar(all, "PRAGMA integrity_check"), QStringLiteral("ok"));

    // Merging again adds nothing.
    const Run merge = cli({QStringLiteral("campaign"), QStringLiteral("merge"), dir});
    QVERIFY2(merge.exitCode == 0 && merge.out.contains(QLatin1String("0 steering runs")), qPrintable(merge.out + merge.err));
    QCOMPARE(scalar(all, "SELECT count(*) FROM steer_runs"), QStringLiteral("4"));
  }

  void badInputsAreExplained() {
    QFile bad(path(QStringLiteral("bad.csv")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("comp,mem\n4,3\n5,wide\n");
    bad.close();
    const Run r = cli({QStringLiteral("campaign"), QStringLiteral("plan"), path(QStringLiteral("bad.csv")),
                       QStringLiteral("-o"), path(QStringLiteral("bad")), QStringLiteral("-w"), base_});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QLatin1String("line 3")), qPrintable(r.err));
    QVERIFY(!QFile::exists(path(QStringLiteral("bad/campaign.json"))));

    const Run shard = cli({QStringLiteral("campaign"), QStringLiteral("run"), path(QStringLiteral("seq")),
                           QStringLiteral("--shard"), QStringLiteral("7")});
    QCOMPARE(shard.exitCode, 2);
    QVERIFY2(shard.err.contains(QLatin1String("from 0 to 1")), qPrintable(shard.err));
    const Run none = cli({QStringLiteral("campaign"), QStringLiteral("status"), path(QStringLiteral("nowhere"))});
    QCOMPARE(none.exitCode, 1);
    QVERIFY2(none.err.contains(QLatin1String("not a campaign")), qPrintable(none.err));

    // An unfinished campaign merges only with --partial.
    QVERIFY(plan(QStringLiteral("part")).exitCode == 0);
    QVERIFY(cli({QStringLiteral("campaign"), QStringLiteral("run"), path(QStringLiteral("part")), QStringLiteral("--shard"),
                 QStringLiteral("1"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("-q")})
                .exitCode == 0);
    const Run early = cli({QStringLiteral("campaign"), QStringLiteral("merge"), path(QStringLiteral("part"))});
    QCOMPARE(early.exitCode, 1);
    QVERIFY2(early.err.contains(QLatin1String("2 targets are not finished")), qPrintable(early.err));
    QVERIFY(!QFile::exists(path(QStringLiteral("part/campaign.sbw"))));
    const Run partial = cli({QStringLiteral("campaign"), QStringLiteral("merge"), path(QStringLiteral("part")),
                             QStringLiteral("--partial")});
    QVERIFY2(partial.exitCode == 0, qPrintable(partial.err));

    // A shard refuses a model other than the one the campaign was planned
    // with (here the spec's recorded hash is changed, as if the file had been).
    QVERIFY(plan(QStringLiteral("swapped")).exitCode == 0);
    QFile spec(path(QStringLiteral("swapped/campaign.json")));
    QVERIFY(spec.open(QIODevice::ReadOnly));
    QString json = QString::fromUtf8(spec.readAll());
    spec.close();
    const QRegularExpression model(QStringLiteral("\"model\":\"[0-9a-f]{64}\""));
    QVERIFY2(json.contains(model), qPrintable(json));
    json.replace(model, QStringLiteral("\"model\":\"%1\"").arg(QString(64, QLatin1Char('0'))));
    QVERIFY(spec.open(QIODevice::WriteOnly | QIODevice::Truncate));
    spec.write(json.toUtf8());
    spec.close();
    const Run swapped = cli({QStringLiteral("campaign"), QStringLiteral("run"), path(QStringLiteral("swapped")),
                             QStringLiteral("--shard"), QStringLiteral("0"), QStringLiteral("--threads"), QStringLiteral("1"),
                             QStringLiteral("-q")});
    QCOMPARE(swapped.exitCode, 1);
    QVERIFY2(swapped.err.contains(QLatin1String("not the one the campaign was planned with")), qPrintable(swapped.err));
    QVERIFY(!QFile::exists(path(QStringLiteral("swapped/shard-0.sbw"))));

    // workspace merge refuses a foreign corpus and names it.
    const QString other = path(QStringLiteral("other.sbw"));
    QVERIFY(QDir().mkpath(path(QStringLiteral("one"))));
    QVERIFY(QFile::copy(QStringLiteral(STEERBENCH_TEST_DATA "/kernels/k01_copy.cl"), path(QStringLiteral("one/k.cl"))));
    const Run ingest = cli({QStringLiteral("corpus"), QStringLiteral("ingest"), path(QStringLiteral("one")),
                            QStringLiteral("-w"), other, QStringLiteral("--no-reference")});
    QVERIFY2(ingest.exitCode == 0, qPrintable(ingest.err));
    const Run foreign = cli({QStringLiteral("workspace"), QStringLiteral("merge"), other, QStringLiteral("-o"),
                             path(QStringLiteral("part/campaign.sbw"))});
    QCOMPARE(foreign.exitCode, 1);
    QVERIFY2(foreign.err.contains(QLatin1String("another corpus")), qPrintable(foreign.err));
  }
};

QTEST_GUILESS_MAIN(TestCampaignCli)
#include "tst_campaign_cli.moc"

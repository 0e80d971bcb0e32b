// steerbench-cli, end to end: commands, outputs, exit codes, and bad input.
#include "CliRun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QRegularExpression>
#include <QtTest>

#include <sqlite3.h>

namespace {

const QString kData = STEERBENCH_TEST_DATA;

QStringList fixtures() {
  QStringList out;
  for (const QString& f : QDir(kData + "/kernels").entryList({"*.cl"}, QDir::Files, QDir::Name))
    out << kData + "/kernels/" + f;
  return out;
}

qint64 kernelRows(const QString& workspace) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(workspace.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  qint64 n = -1;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM kernels", -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

} // namespace

class TestCli : public QObject {
  Q_OBJECT

private slots:
  void helpEverywhere_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("top") << QStringList{"--help"} << "Commands:";
    QTest::newRow("compile") << QStringList{"compile", "--help"} << "Usage: steerbench-cli compile";
    QTest::newRow("features") << QStringList{"features", "--help"} << "--space SPACE";
    QTest::newRow("help features") << QStringList{"help", "features"} << "--format FORMAT";
  }
  void helpEverywhere() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const Run r = cli(args);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(expected), qPrintable(r.out));
  }

  void theOverviewKeepsNamesAndSummariesApart() {
    // Every command's name, then at least two spaces, then its summary, all
    // summaries in one column ("evaluate grewe" is the longest name).
    const Run r = cli({"--help"});
    const QStringList lines = r.out.section(QStringLiteral("Commands:\n"), 1).section(QStringLiteral("\n\n"), 0, 0).split('\n');
    QVERIFY(lines.size() >= 15);
    int column = -1;
    for (const auto& line : lines) {
      const int at = int(line.indexOf(QRegularExpression(QStringLiteral("\\S  +\\S"))));
      QVERIFY2(at > 0, qPrintable(line));
      const int summary = int(line.indexOf(QRegularExpression(QStringLiteral("\\S")), at + 1));
      if (column < 0) column = summary;
      QCOMPARE(summary, column);
    }
    QVERIFY(r.out.contains(QRegularExpression(QStringLiteral("evaluate grewe  +evaluate the Grewe"))));
  }

  void versionAndUsageErrors() {
    QVERIFY(cli({"--version"}).out.contains("LLVM/Clang 15"));
    Run r = cli({"frobnicate"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("unknown command 'frobnicate'"));
    r = cli({"features", "--space", "nope", kData + "/kernels/k01_copy.cl"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("unknown feature space 'nope'"), qPrintable(r.err));
    QVERIFY(r.err.contains("Try 'steerbench-cli features --help'"));
    r = cli({"features", "--jobs", "zero", kData + "/kernels/k01_copy.cl"});
    QCOMPARE(r.exitCode, 2);
    r = cli({"compile"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("no input files"));
  }

  void compileReportsEachFile() {
    Run r = cli(QStringList{"compile"} << fixtures());
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("12 of 12 files compiled"), qPrintable(r.out));
    r = cli({"compile", kData + "/kernels/k01_copy.cl", kData + "/bad/syntax_error.cl"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.contains("k01_copy.cl: ok (1 kernel)"));
    QVERIFY(r.out.contains("syntax_error.cl: FAILED"));
    QVERIFY2(r.err.contains("syntax_error.cl:2:") && r.err.contains("error: expected ';'"), qPrintable(r.err));
  }

  void compileJudgesCleanRules() {
    // --clean: steering's clean-compile rules, each judged alone. A copy is
    // clean; the same copy that then moves its output buffer, which nothing
    // reads again, breaks overwritten-value.
    QTemporaryDir dir;
    const QString moved = dir.filePath("moved.cl");
    QFile f(moved);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("kernel void copy(global const float* in, global float* out, int n) {\n"
            "  int i = get_global_id(0);\n  out[i] = in[i];\n  out += n;\n}\n");
    f.close();
    Run r = cli({"compile", "--clean", kData + "/kernels/k01_copy.cl", moved});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains("k01_copy.cl: ok (1 kernel); clean"), qPrintable(r.out));
    QVERIFY2(r.out.contains("moved.cl: ok (1 kernel); unclean: overwritten-value: line 4:"), qPrintable(r.out));
    QVERIFY2(r.out.contains("1 of 2 files clean"), qPrintable(r.out));
    r = cli({"compile", kData + "/kernels/k01_copy.cl", moved}); // without --clean, both pass
    QCOMPARE(r.exitCode, 0);
    // --parent: the rules judged against a candidate's parent count only
    // findings beyond the parent's own. An edit that keeps the parent's one
    // store every work-item makes to out[0] is clean; one that adds another
    // is not.
    auto write = [&dir](const char* name, const char* text) {
      QFile file(dir.filePath(name));
      if (file.open(QIODevice::WriteOnly)) file.write(text);
      return dir.filePath(name);
    };
    const QString parent = write("parent.cl", "kernel void sum(global const float* in, global float* out) {\n"
                                              "  int i = get_global_id(0);\n  out[i + 1] = in[i];\n"
                                              "  out[0] = in[0];\n}\n");
    const QString kept = write("kept.cl", "kernel void sum(global const float* in, global float* out) {\n"
                                          "  int i = get_global_id(0);\n  out[i + 1] = in[i] * 2.0f;\n"
                                          "  out[0] = in[0];\n}\n");
    const QString added = write("added.cl", "kernel void sum(global const float* in, global float* out) {\n"
                                            "  int i = get_global_id(0);\n  out[i + 2] = in[i] * 2.0f;\n"
                                            "  out[0] = in[0];\n  out[1] = in[1];\n}\n");
    r = cli({"compile", "--clean", kept, added});
    QVERIFY2(r.out.contains("kept.cl: ok (1 kernel); unclean: uniform-store:"), qPrintable(r.out));
    r = cli({"compile", "--clean", "--parent", parent, kept, added});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains("kept.cl: ok (1 kernel); clean"), qPrintable(r.out));
    QVERIFY2(r.out.contains("added.cl: ok (1 kernel); unclean: uniform-store:") &&
                 r.out.contains("(2 such sites, the parent 1)"),
             qPrintable(r.out));
    r = cli({"compile", "--parent", parent, kept});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--parent judges the clean-compile rules"), qPrintable(r.err));
  }

  void greweCsv() {
    const Run r = cli(QStringList{"features", "--space", "grewe"} << fixtures());
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.trimmed().split('\n');
    QCOMPARE(lines[0], QString("file,kernel,comp,rational,mem,localmem,coalesced,atomic,F2,F4"));
    QCOMPARE(lines.size(), 1 + 13); // 12 files, one with two kernels
    QVERIFY(lines.contains(kData + "/kernels/k01_copy.cl,copy,0,0,2,0,2,0,1,0"));
    QVERIFY(lines.contains(kData + "/kernels/k07_math.cl,lognormal,53,0,3,0,3,0,1,17.666666666666668"));
  }

  void derivedColumnsWithTransferAndWgsize() {
    const Run r = cli({"features", "--transfer", "800", "--wgsize", "64", kData + "/kernels/k03_local_tile.cl"});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.trimmed().split('\n');
    QVERIFY(lines[0].endsWith(",F2,F4,F1,F3"));
    // comp 1, mem 4, localmem 2: F1 = 800 / 5, F3 = 2 / 4 * 64.
    QVERIFY2(lines[1].endsWith(",160,32"), qPrintable(lines[1]));
  }

  void allSpacesJsonAndThreadsAgree() {
    const Run one = cli(QStringList{"features", "--space", "all", "--format", "json", "--jobs", "1"} << fixtures());
    const Run two = cli(QStringList{"features", "--space", "all", "--format", "json", "--jobs", "2"} << fixtures());
    QCOMPARE(one.exitCode, 0);
    QCOMPARE(one.out, two.out); // parallel runs print the same, in input order
    const QJsonArray rows = QJsonDocument::fromJson(one.out.toUtf8()).array();
    QCOMPARE(rows.size(), 13);
    const QJsonObject first = rows[0].toObject();
    QCOMPARE(first["kernel"].toString(), QString("copy"));
    QCOMPARE(first["instcount"].toObject().size(), 71); // version + 70
    QCOMPARE(first["autophase"].toObject().size(), 57);
    QCOMPARE(first["grewe"].toObject()["mem"].toInt(), 2);
    const Run csv = cli(QStringList{"features", "--space", "all"} << fixtures());
    QVERIFY(csv.out.startsWith("file,kernel,grewe.comp,"));
    QCOMPARE(csv.out.section('\n', 0, 0).count(','), 1 + 8 + 70 + 56);
  }

  void badInputIsIsolated_data() {
    QTest::addColumn<QString>("bad");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << "empty.cl"
                           << "file is empty";
    QTest::newRow("binary") << "binary.cl"
                            << "binary file";
    QTest::newRow("invalid UTF-8") << "latin1.cl"
                                   << "not valid UTF-8";
    QTest::newRow("no kernel") << "no_kernel.cl"
                               << "no kernel function found";
    QTest::newRow("syntax errors") << "syntax_error.cl"
                                   << "does not compile";
    QTest::newRow("missing include") << "missing_include.cl"
                                     << "'does_not_exist.h' file not found";
    QTest::newRow("include cycle") << "include_cycle.cl"
                                   << "include cycle";
    QTest::newRow("huge") << "@huge"
                          << "too large";
    QTest::newRow("error flood") << "@flood"
                                 << "errors); first:";
  }
  void badInputIsIsolated() {
    QFETCH(QString, bad);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QString badPath = kData + "/bad/" + bad;
    if (bad == "@huge") {
      badPath = dir.filePath("huge.cl");
      QFile f(badPath);
      QVERIFY(f.open(QIODevice::WriteOnly));
      const QByteArray line(99, 'x');
      for (int i = 0; i < 20 * 1024 * 1024 / 100; ++i)
        f.write("//" + line.left(97) + "\n");
    } else if (bad == "@flood") {
      badPath = dir.filePath("flood.cl");
      QFile f(badPath);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("kernel void k(global int* a) {\n");
      for (int i = 0; i < 3000; ++i)
        f.write("  a[0] = nope" + QByteArray::number(i) + ";\n");
      f.write("}\n");
    }
    const QString good1 = kData + "/kernels/k01_copy.cl";
    const QString good2 = kData + "/kernels/k05_loop.cl";
    const QString ws = dir.filePath("w.sbw");
    const Run r = cli({"features", "--space", "all", "--workspace", ws, good1, badPath, good2});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(badPath) && r.err.contains(message), qPrintable(r.err));
    // The other files are measured and stored; the bad one left nothing behind.
    QVERIFY(r.out.contains(good1 + ",copy,"));
    QVERIFY(r.out.contains(good2 + ",prefix_sum,"));
    QVERIFY(!r.out.contains(badPath));
    QCOMPARE(kernelRows(ws), qint64(2));
    QVERIFY(r.err.contains("stored 2 of 3 files"));
  }

  void recoveredAstOnRequest() {
    const Run r = cli({"features", "--allow-errors", kData + "/bad/syntax_error.cl"});
    QCOMPARE(r.exitCode, 1);
    const QStringList lines = r.out.trimmed().split('\n');
    QVERIFY(lines[0].endsWith(",from_errors"));
    QVERIFY2(lines.size() == 2 && lines[1].contains(",broken,") && lines[1].endsWith(",1"), qPrintable(r.out));
  }

  void refusesANonWorkspaceFileUntouched() {
    QTemporaryDir dir;
    const QString path = dir.filePath("notes.txt");
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("precious notes\n");
    }
    const Run r = cli({"features", "--workspace", path, kData + "/kernels/k01_copy.cl"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("not a Steerbench workspace"), qPrintable(r.err));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("precious notes\n"));
  }

  void corpusIngestAndStats() {
    QTemporaryDir dir;
    const QString ws = dir.filePath("c.sbw");
    Run r = cli({"corpus", "ingest", "--no-reference", "-w", ws, kData + "/corpus/tree"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("Unique kernels: 3") && r.out.contains("duplicates: 1"), qPrintable(r.out));
    r = cli({"corpus", "ingest", "--no-reference", "-w", ws, kData + "/corpus/tree"});
    QVERIFY2(r.out.contains("files: 5 (5 already ingested"), qPrintable(r.out));
    r = cli({"corpus", "stats", "-w", ws, "--format", "json"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject stats = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(stats["unique_kernels"].toInt(), 3);
    QCOMPARE(stats["kernels_found"].toInt(), 5);
    r = cli({"corpus"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("give a subcommand"));
    r = cli({"corpus", "ingest", "-w", ws, dir.filePath("nowhere")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("no such file or folder"));
    r = cli({"corpus", "stats", "-w", dir.filePath("none.sbw")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("no such workspace"));
  }

  void corpusIngestSurvivesKill9() {
    QTemporaryDir dir;
    // Enough distinct files to be killed in the middle of.
    QDir().mkpath(dir.filePath("src"));
    for (int i = 0; i < 60; ++i) {
      QFile f(dir.filePath(QString("src/k%1.cl").arg(i, 3, 10, QChar('0'))));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QString("kernel void k%1(global float* a, global const float* b) {\n"
                      "  int i = get_global_id(0);\n  a[i] = b[i] * %1.0f + (float)(i % %2);\n}\n")
                  .arg(i)
                  .arg(i + 2)
                  .toUtf8());
    }
    const QString ws = dir.filePath("k.sbw");
    const QStringList args{"corpus", "ingest", "--no-reference", "--jobs", "1", "-w", ws, dir.filePath("src")};
    QProcess p;
    p.start(STEERBENCH_CLI, args);
    QVERIFY(p.waitForStarted());
    // Kill it once some files are stored.
    QElapsedTimer t;
    t.start();
    qint64 stored = 0;
    while (t.elapsed() < 60000 && p.state() == QProcess::Running) {
      QThread::msleep(50);
      sqlite3* db = nullptr;
      if (sqlite3_open_v2(ws.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM corpus_files", -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
          stored = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
      }
      sqlite3_close(db);
      if (stored >= 5) break;
    }
    p.kill(); // SIGKILL
    p.waitForFinished();
    QVERIFY2(stored >= 5 && stored < 60, qPrintable(QString::number(stored)));
    // Running again finishes the job, skipping what was stored.
    const Run r = cli(args);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("already ingested"), qPrintable(r.out));
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open_v2(ws.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    auto scalar = [&](const char* sql) {
      sqlite3_stmt* st = nullptr;
      QString v;
      if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
      sqlite3_finalize(st);
      return v;
    };
    QCOMPARE(scalar("PRAGMA integrity_check"), QString("ok"));
    QCOMPARE(scalar("SELECT count(*) FROM corpus_files"), QString("60"));
    QCOMPARE(scalar("SELECT count(*) FROM (SELECT dedupe_hash FROM kernels GROUP BY dedupe_hash HAVING count(*) > 1)"),
             QString("0"));
    QCOMPARE(scalar("SELECT count(*) FROM kernels"), QString("60"));
    sqlite3_close(db);
  }

  void examplesRunAsTheMainJob() {
    QTemporaryDir dir;
    QStringList args{"features", "--workspace", dir.filePath("examples.sbw")};
    for (const QString& f : QDir(STEERBENCH_EXAMPLES).entryList({"*.cl"}, QDir::Files, QDir::Name))
      args << QString(STEERBENCH_EXAMPLES "/") + f;
    const Run r = cli(args);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(kernelRows(dir.filePath("examples.sbw")), qint64(args.size() - 3));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"

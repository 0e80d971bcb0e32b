// steerbench-cli devices, drive and export csv, run as a user would, on PoCL.
#include "CliRun.h"
#include "WorkspaceQuery.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sqlite3.h>

namespace {

void write(const QString& path, const QByteArray& text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

int count(const QString& ws, const char* sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(ws.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  int n = -1;
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

const char* kScale = "kernel void scale(global float* out, global const float* in, const int n) {\n"
                     "  int i = get_global_id(0);\n  if (i < n) out[i] = in[i] * 2.0f + 1.0f;\n}\n";

} // namespace

class TestDriveCli : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString path(const char* name) const { return dir_.filePath(name); }

private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // This machine has no GPU: PoCL's pthread and basic devices are the real pair.
    if (qgetenv("POCL_DEVICES").isEmpty()) qputenv("POCL_DEVICES", "pthread basic");
    qputenv("XDG_CACHE_HOME", dir_.filePath("cache").toUtf8());
    qputenv("XDG_DATA_HOME", dir_.filePath("data").toUtf8()); // devices keeps PoCL's cache beside the default workspace
    write(path("scale.cl"), kScale);
    write(path("binary.cl"), QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0\0garbage\xff\xfe", 22));
    write(path("spin.cl"), "kernel void spin(global int* out, const int n) {\n"
                           "  int i = get_global_id(0);\n"
                           "  while (out[0] >= 0) { out[i % 4] = out[i % 4] + 1; if (out[0] == -7) break; }\n}\n");
  }

  void devicesListsBothPoclDevices() {
    const Run r = cli({"devices"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("pthread") && r.out.contains("basic"), qPrintable(r.out));
    QVERIFY(r.out.contains("compute units"));
    QVERIFY(r.out.contains("max work-group"));
    const Run j = cli({"devices", "--format", "json"});
    QVERIFY(j.out.contains("\"devices\""));
  }

  void driveStoresAndExportWrites() {
    const QString ws = path("drive.sbw");
    const Run r = cli({"drive", "-w", ws, "--global-sizes", "1024,4096", "--local-sizes", "32", "--runs", "3",
                       path("scale.cl"), path("binary.cl")});
    QCOMPARE(r.exitCode, 1); // binary.cl is refused; scale.cl is driven all the same
    QVERIFY2(r.err.contains("binary.cl") && r.err.contains("binary"), qPrintable(r.err));
    QCOMPARE(r.out.count(": PASS"), 2);
    QVERIFY(r.out.contains("[95%"));
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_cases WHERE outcome = 'PASS'"), 2);
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_measurements"), 4);
    QVERIFY(QDir(dir_.filePath("drive.pocl-cache")).exists()); // PoCL's cache sits beside the workspace

    const Run e = cli({"export", "csv", "-w", ws, "-o", path("out.csv")});
    QCOMPARE(e.exitCode, 0);
    QVERIFY(e.out.contains("wrote 2 rows"));
    QFile f(path("out.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray header = f.readLine();
    QVERIFY(header.startsWith("benchmark,dataset,comp,rational,mem,localmem,coalesced,atomic,transfer,wgsize,oracle,"
                              "runtime_cpu,runtime_gpu,src,device_cpu,device_gpu"));
  }

  void badOptionsAreUsageErrors() {
    QCOMPARE(cli({"drive", "--global-sizes", "12x", path("scale.cl")}).exitCode, 2);
    QCOMPARE(cli({"drive", "--timeout", "-1", path("scale.cl")}).exitCode, 2);
    const Run sets = cli({"drive", "--payloads", "roles,bogus", path("scale.cl")});
    QCOMPARE(sets.exitCode, 2);
    QVERIFY2(sets.err.contains("unknown constraint set 'bogus'; the sets are roles, cldrive, big and scalars"),
             qPrintable(sets.err));
    const Run r = cli({"drive", "-w", path("x.sbw"), "--devices", "nonexistent", path("scale.cl")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("no device matches 'nonexistent'"));
    // Oclgrind asked for where PATH has none: said before anything runs.
    const Run og = cli({"drive", "-w", path("og.sbw"), "--oclgrind", path("scale.cl")}, {"PATH=" + path("no-bin")});
    QCOMPARE(og.exitCode, 1);
    QVERIFY2(og.err.contains("'oclgrind' is not on PATH") && og.err.contains("apt install oclgrind"), qPrintable(og.err));
  }

  void killedMidRunKeepsWhatWasDriven() {
    const QString ws = path("killed.sbw");
    QProcess p;
    p.start(STEERBENCH_CLI, {"drive", "-w", ws, "--global-sizes", "1024", "--runs", "3", "--timeout", "60",
                             path("scale.cl"), path("spin.cl")});
    QVERIFY(p.waitForStarted());
    // Wait until the first kernel's case is reported, then kill -9 while the
    // second one hangs in the worker.
    QElapsedTimer t;
    t.start();
    QByteArray out;
    while (!out.contains("PASS") && t.elapsed() < 60000) {
      p.waitForReadyRead(500);
      out += p.readAllStandardOutput();
    }
    QVERIFY2(out.contains("PASS"), out.constData());
    QTest::qWait(500);
    ::kill(pid_t(p.processId()), SIGKILL);
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_cases WHERE outcome = 'PASS'"), 1);
    // The workspace is sound and takes the next run.
    const Run again = cli({"drive", "-w", ws, "--global-sizes", "1024", "--runs", "3", path("scale.cl")});
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_cases"), 2);
  }

  void resumeDrivesOnlyWhatIsMissing() {
    const QString ws = path("resume.sbw");
    write(path("offset.cl"), "kernel void offset(global float* out, global const float* in) {\n"
                             "  int i = get_global_id(0);\n  out[i] = in[i] + 3.0f;\n}\n");
    write(path("square.cl"), "kernel void square(global float* out, global const float* in) {\n"
                             "  int i = get_global_id(0);\n  out[i] = in[i] * in[i];\n}\n");
    const QStringList settings{"drive", "-w", ws, "--global-sizes", "1024,4096", "--runs", "3"};
    QCOMPARE(cli(settings + QStringList{path("scale.cl"), path("offset.cl")}).exitCode, 0);
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_cases"), 4);
    const char* offsetCases = "SELECT group_concat(uid) FROM drive_cases WHERE kernel_name = 'offset'";
    const QString firstOffsetCases = scalar(ws, offsetCases);
    QVERIFY(!firstOffsetCases.isEmpty());

    // As after an interruption: scale is kept, offset (the last one driven,
    // perhaps between its sizes) is driven again, square for the first time.
    const Run r = cli(settings + QStringList{"--resume", path("scale.cl"), path("offset.cl"), path("square.cl")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("scale: driven before with these settings (2 cases), not again"), qPrintable(r.out));
    QCOMPARE(r.out.count(": PASS"), 4); // offset and square, two sizes each
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_cases WHERE kernel_name = 'scale'"), 2);
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_cases WHERE kernel_name = 'offset'"), 2); // replaced, not doubled
    QVERIFY(scalar(ws, offsetCases) != firstOffsetCases); // new cases (each case has a uid of its own)
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_cases WHERE kernel_name = 'square'"), 2);
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_measurements"), 12); // none left behind by the replaced cases

    // Other settings are another drive: nothing of the earlier one is skipped.
    const Run other = cli({"drive", "-w", ws, "--global-sizes", "1024,4096", "--runs", "30", "--resume",
                           path("scale.cl")});
    QCOMPARE(other.exitCode, 0);
    QVERIFY(!other.out.contains("driven before"));
    QCOMPARE(count(ws, "SELECT count(*) FROM drive_cases WHERE kernel_name = 'scale'"), 4);
  }
};

QTEST_GUILESS_MAIN(TestDriveCli)
#include "tst_drive_cli.moc"

// The workspace store: schema, round trips, and files it must refuse untouched.
#include "common/Error.h"
#include "store/Schema.h"
#include "store/HexDoubles.h"
#include "store/Workspace.h"

#include <sqlite3.h>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
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

void writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

void sql(const QString& path, const char* statement) {
  sqlite3* db = nullptr;
  QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, statement, nullptr, nullptr, &err);
  QVERIFY2(rc == SQLITE_OK, err);
  sqlite3_close(db);
}

/// Opening must fail with `needle` in the message and leave the bytes as they were.
void expectRefusedUntouched(const QString& path, const QString& needle) {
  const QByteArray before = fileHash(path);
  try {
    (void)Workspace::open(path.toStdString());
    QFAIL("opened");
  } catch (const WorkspaceError& e) {
    QVERIFY2(QString(e.what()).contains(needle), e.what());
    QVERIFY2(QString(e.what()).contains(path), e.what());
  }
  QCOMPARE(fileHash(path), before);
  // Validation only reads: no write-ahead log content either.
  QVERIFY(!QFile::exists(path + "-wal") || QFileInfo(path + "-wal").size() == 0);
}

} // namespace

class TestWorkspace : public QObject {
  Q_OBJECT

private slots:
  void createsAndReopens() {
    QTemporaryDir dir;
    const QString path = dir.filePath("w.sbw");
    std::int64_t id = 0;
    {
      Workspace ws = Workspace::open(path.toStdString());
      QCOMPARE(ws.schemaVersion(), Workspace::currentSchemaVersion());
      KernelRecord k;
      k.name = "copy";
      k.source = "kernel void copy(global int* a) { a[0] = 1; }";
      k.originFile = "/tmp/copy.cl";
      k.package = "piglit";
      k.license = "MIT";
      k.flags = "-cl-std=CL1.2";
      ws.transaction([&] {
        id = ws.addKernel(k);
        ws.putFeatures({id, "grewe", 1, {1, 2, 3.5}, false, "{\"seed\":1}"});
      });
      QCOMPARE(ws.addKernel(k), id); // same source and name: deduplicated
      QCOMPARE(ws.kernelCount(), std::int64_t(1));
    }
    Workspace ws = Workspace::open(path.toStdString(), Workspace::Mode::OpenExisting);
    const auto k = ws.kernel(id);
    QVERIFY(k);
    QCOMPARE(k->name, std::string("copy"));
    QCOMPARE(k->package, std::string("piglit"));
    QCOMPARE(k->contentHash.size(), std::size_t(64));
    const auto f = ws.features(id, "grewe", 1);
    QVERIFY(f);
    QCOMPARE(f->values, (std::vector<double>{1, 2, 3.5}));
    QCOMPARE(f->spec, std::string("{\"seed\":1}"));
    QVERIFY(!ws.features(id, "grewe", 2));
    QCOMPARE(ws.featureCount("grewe"), std::int64_t(1));
    // Reports read the stored BLOB as text through SQLite's hex().
    const auto hex = ws.rows("SELECT hex(vals) FROM feature_vectors WHERE space = 'grewe'");
    QCOMPARE(hex.size(), std::size_t(1));
    QCOMPARE(store::doublesFromHex(hex[0][0]), (std::vector<double>{1, 2, 3.5}));
    QCOMPARE(store::doublesFromHex(hex[0][0] + "0A"), (std::vector<double>{1, 2, 3.5})); // a partial value is dropped
  }

  void usesWalAndForeignKeys() {
    QTemporaryDir dir;
    const QString path = dir.filePath("w.sbw");
    Workspace ws = Workspace::open(path.toStdString());
    // A vector for a kernel that does not exist violates the foreign key.
    QVERIFY_THROWS_EXCEPTION(WorkspaceError, ws.putFeatures({999, "grewe", 1, {1}, false, "{}"}));
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr);
    QCOMPARE(sqlite3_step(st), SQLITE_ROW);
    QCOMPARE(QString(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))), QString("wal"));
    sqlite3_finalize(st);
    sqlite3_close(db);
  }

  void failedTransactionLeavesNothing() {
    QTemporaryDir dir;
    Workspace ws = Workspace::open(dir.filePath("w.sbw").toStdString());
    try {
      ws.transaction([&] {
        KernelRecord k;
        k.name = "a";
        k.source = "kernel void a() {}";
        ws.addKernel(k);
        throw std::runtime_error("interrupted half-way");
      });
    } catch (const std::runtime_error&) {
    }
    QCOMPARE(ws.kernelCount(), std::int64_t(0));
  }

  void refusesTextFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("notes.sbw");
    writeFile(path, "these are my notes, not a database\n");
    expectRefusedUntouched(path, "not an SQLite database");
  }

  void refusesEmptyFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("empty.sbw");
    writeFile(path, "");
    expectRefusedUntouched(path, "empty");
  }

  void refusesForeignDatabase() {
    QTemporaryDir dir;
    const QString path = dir.filePath("other.db");
    sql(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
    expectRefusedUntouched(path, "not a Steerbench workspace");
  }

  void refusesNewerSchema() {
    QTemporaryDir dir;
    const QString path = dir.filePath("future.sbw");
    { (void)Workspace::open(path.toStdString()); }
    const QByteArray pragma =
        "PRAGMA user_version = " + QByteArray::number(Workspace::currentSchemaVersion() + 1) + ";";
    sql(path, pragma.constData());
    sql(path, "PRAGMA wal_checkpoint(TRUNCATE);");
    expectRefusedUntouched(path, "newer Steerbench");
  }

  void refusesCorruptFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("corrupt.sbw");
    {
      Workspace ws = Workspace::open(path.toStdString());
      ws.transaction([&] {
        for (int i = 0; i < 200; ++i) {
          KernelRecord k;
          k.name = "k" + std::to_string(i);
          k.source = std::string(500, char('a' + i % 26));
          ws.addKernel(k);
        }
      });
    }
    sql(path, "PRAGMA wal_checkpoint(TRUNCATE);");
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    QVERIFY(bytes.size() > 8192);
    // Scribble over the second page onwards (the first keeps the header valid).
    for (int i = 4096; i < bytes.size(); i += 7)
      bytes[i] = char(0xA5 ^ i);
    f.seek(0);
    f.write(bytes);
    f.close();
    expectRefusedUntouched(path, "corrupt");
  }

  void missingFileInOpenExistingMode() {
    QTemporaryDir dir;
    const QString path = dir.filePath("nope.sbw");
    QVERIFY_THROWS_EXCEPTION(WorkspaceError, (void)Workspace::open(path.toStdString(), Workspace::Mode::OpenExisting));
    QVERIFY(!QFile::exists(path));
  }

  void fullDiskRollsBackWithAClearMessage() {
    QTemporaryDir dir;
    const QString path = dir.filePath("full.sbw");
    Workspace ws = Workspace::open(path.toStdString());
    // SQLite's page cap stands in for a full disk: it fails writes with
    // SQLITE_FULL exactly as a full file system does.
    KernelRecord first;
    first.name = "kept";
    first.source = "kernel void kept() {}";
    ws.addKernel(first);
    ws.setMaxPages(ws.pageCount() + 2);
    try {
      ws.transaction([&] {
        for (int i = 0; i < 100; ++i) {
          KernelRecord k;
          k.name = "big" + std::to_string(i);
          k.source = std::string(8000, 'x') + std::to_string(i);
          ws.addKernel(k);
        }
      });
      QFAIL("no error");
    } catch (const WorkspaceError& e) {
      QVERIFY2(QString(e.what()).contains("disk is full"), e.what());
    }
    QCOMPARE(ws.kernelCount(), std::int64_t(1));
  }
};

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"

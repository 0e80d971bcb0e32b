// Reading source files: every bad input is refused with a message naming the file.
#include "common/Error.h"
#include "source/SourceFile.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace steerbench;

class TestSourceFile : public QObject {
  Q_OBJECT

private slots:
  void readsValidSource() {
    const std::string text = source::readSourceFile(STEERBENCH_TEST_DATA "/kernels/k01_copy.cl");
    QVERIFY(text.find("kernel void copy") != std::string::npos);
  }

  void refusesBadFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << "empty.cl"
                           << "file is empty";
    QTest::newRow("binary") << "binary.cl"
                            << "binary file";
    QTest::newRow("invalid UTF-8") << "latin1.cl"
                                   << "not valid UTF-8";
    QTest::newRow("missing") << "no_such_file.cl"
                             << "cannot read";
  }
  void refusesBadFiles() {
    QFETCH(QString, file);
    QFETCH(QString, expected);
    const std::string path = std::string(STEERBENCH_TEST_DATA "/bad/") + file.toStdString();
    try {
      (void)source::readSourceFile(path);
      QFAIL("no error");
    } catch (const InputError& e) {
      const QString msg = e.what();
      QVERIFY2(msg.contains(expected), qPrintable(msg));
      QVERIFY2(msg.contains(file), qPrintable(msg)); // names the file
    }
  }

  void refusesHugeFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("huge.cl").toStdString();
    {
      std::ofstream out(path);
      const std::string line = "// padding padding padding padding padding padding padding padding padding\n";
      for (std::size_t written = 0; written < (20u << 20); written += line.size())
        out << line;
    }
    try {
      (void)source::readSourceFile(path);
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("too large"), e.what());
      QVERIFY2(QString(e.what()).contains("20.0 MB"), e.what());
    }
  }

  void utf8Validation_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("valid");
    QTest::newRow("ascii") << QByteArray("kernel void a() {}") << true;
    QTest::newRow("2-byte") << QByteArray("// caf\xc3\xa9") << true;
    QTest::newRow("4-byte") << QByteArray("// \xf0\x9f\x98\x80") << true;
    QTest::newRow("lone continuation") << QByteArray("a\x80") << false;
    QTest::newRow("overlong") << QByteArray("\xc0\xaf") << false;
    QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << false;
    QTest::newRow("truncated") << QByteArray("\xe2\x82") << false;
  }
  void utf8Validation() {
    QFETCH(QByteArray, bytes);
    QFETCH(bool, valid);
    const auto pos = source::firstInvalidUtf8(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    QCOMPARE(pos == std::string_view::npos, valid);
  }
};

QTEST_GUILESS_MAIN(TestSourceFile)
#include "tst_sourcefile.moc"

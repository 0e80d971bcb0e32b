// The tokenizer: words and spelled characters, round trips up to whitespace,
// holes, directives and comments, and the JSON file (versioned, checked).
#include "common/Error.h"
#include "model/Tokenizer.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using steerbench::InputError;
using steerbench::model::sameTokens;
using steerbench::model::Tokenizer;

namespace {

std::vector<std::string> fixtureKernels() {
  std::vector<std::string> out;
  for (const QFileInfo& f : QDir(QStringLiteral(STEERBENCH_TEST_DATA "/kernels")).entryInfoList({QStringLiteral("*.cl")})) {
    std::ifstream in(f.filePath().toStdString());
    std::stringstream s;
    s << in.rdbuf();
    out.push_back(s.str());
  }
  return out;
}

Tokenizer small() {
  Tokenizer::Options o;
  o.minCount = 3;
  return Tokenizer::build(fixtureKernels(), o);
}

} // namespace

class TestTokenizer : public QObject {
  Q_OBJECT
private slots:
  void fixturesRoundTrip() {
    const auto t = small();
    const auto kernels = fixtureKernels();
    QVERIFY(kernels.size() >= 10);
    for (const auto& k : kernels) {
      const auto ids = t.encode(k);
      const std::string back = t.decode(ids);
      QVERIFY2(sameTokens(k, back), back.c_str());
      for (int id : ids)
        QVERIFY(id != Tokenizer::kUnknown);
    }
  }

  void wordsAndSpelledUnits() {
    const auto t = small();
    // Keywords, punctuators and builtins the corpus uses are single tokens.
    for (const char* w : {"kernel", "global", "(", "+=", "get_global_id", "barrier"}) {
      const auto ids = t.encode(w);
      QVERIFY2(ids.size() == 1 && !t.isChar(ids[0]), w);
      QCOMPARE(t.text(ids[0]), std::string(w));
    }
    // A rare name is spelled character by character, and two spelled names in
    // a row are kept apart.
    const auto ids = t.encode("zqxname wvyname");
    QCOMPARE(ids.size(), std::size_t(7 + 1 + 7));
    QCOMPARE(ids[7], Tokenizer::kSpace);
    QCOMPARE(t.decode(ids), std::string("zqxname wvyname"));
    QVERIFY(!sameTokens("zqxnamewvyname", t.decode(ids)));
    // A literal is spelled and glued back.
    QVERIFY(sameTokens(t.decode(t.encode("x = 3.25e-2f;")), "x = 3.25e-2f;"));
    QVERIFY(sameTokens(t.decode(t.encode("s = \"a  b\";")), "s = \"a  b\";"));
  }

  void directivesAndCommentsKeepTheirLines() {
    const auto t = small();
    const std::string text = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                             "// a comment\n"
                             "kernel void k(global double* a) { a[0] = 1.0; /* block */ }\n";
    const std::string back = t.decode(t.encode(text));
    QVERIFY2(sameTokens(text, back), back.c_str());
    // The decoded text still has the pragma and the comment on their own lines.
    QVERIFY(back.find("enable\n") != std::string::npos);
    QVERIFY(back.find("comment\n") != std::string::npos);
  }

  void holes() {
    const auto t = small();
    const auto ids = t.encode("kernel void [HOLE]");
    QCOMPARE(ids.back(), Tokenizer::kHole);
    QCOMPARE(int(ids.size()), 3);
    QCOMPARE(t.decode(ids), std::string("kernel void [HOLE]"));
    // Closing a hole between two spelled names must not glue them together.
    auto closed = t.encode("zqx [HOLE] wvy");
    closed.erase(std::find(closed.begin(), closed.end(), Tokenizer::kHole));
    QVERIFY(sameTokens(t.decode(closed), "zqx wvy"));
    const auto two = t.encode("a[HOLE]b[HOLE]");
    QCOMPARE(std::count(two.begin(), two.end(), Tokenizer::kHole), 2l);
  }

  void sameTokensIgnoresOnlyWhitespace() {
    QVERIFY(sameTokens("a+b;", "a + b ;"));
    QVERIFY(sameTokens("x\n\t=  1;", "x = 1;"));
    QVERIFY(!sameTokens("a+b;", "a-b;"));
    QVERIFY(!sameTokens("a ++b", "a + +b"));
  }

  void jsonRoundTripAndAtomicSave() {
    const auto t = small();
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("tok.json")).toStdString();
    t.save(path);
    QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));
    const auto u = Tokenizer::load(path);
    QCOMPARE(u.size(), t.size());
    QCOMPARE(u.hash(), t.hash());
    for (const auto& k : fixtureKernels())
      QCOMPARE(u.encode(k), t.encode(k));
  }

  void badFilesNameWhatIsWrong() {
    QTemporaryDir dir;
    auto write = [&](const char* name, const std::string& text) {
      const std::string p = dir.filePath(QString::fromLatin1(name)).toStdString();
      std::ofstream(p) << text;
      return p;
    };
    auto expect = [](const std::string& path, const char* what) {
      try {
        (void)Tokenizer::load(path);
        QFAIL("no error");
      } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find(what) != std::string::npos, e.what());
      }
    };
    expect(write("garbage.json", "\x01\x02 not json"), "is not JSON");
    expect(write("other.json", "{\"format\": \"something-else\"}"), "not a Steerbench tokenizer");
    expect(write("newer.json", "{\"format\": \"steerbench-tokenizer\", \"version\": 99, \"meta\": [], \"words\": [], "
                               "\"chars\": []}"),
           "newer Steerbench");
    expect(dir.filePath(QStringLiteral("missing.json")).toStdString(), "cannot read");
    std::string json = small().toJson();
    json.replace(json.find("[HOLE]"), 6, "[HOLX]");
    expect(write("meta.json", json), "meta token 3");
  }
};

QTEST_APPLESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"

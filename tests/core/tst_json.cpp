// The JSON reader and writer of the drive protocol (common/Json): exact
// 64-bit integers, escapes, and clear errors for malformed text; and the
// number and share texts of common/TextFormat.
#include "common/Error.h"
#include "common/Json.h"
#include "common/TextFormat.h"

#include <QtTest>

#include <climits>
#include <cmath>

using namespace steerbench;
using namespace steerbench::json;

class TestJson : public QObject {
  Q_OBJECT

private slots:
  void roundTripKeepsTypesAndValues() {
    Object o{{"text", "a \"quoted\" line\nwith\ttabs, a backslash \\ and \x01 control"},
             {"min", std::int64_t(INT64_MIN)},
             {"max", std::int64_t(INT64_MAX)},
             {"double", 1200.5},
             {"whole double", 3.0},
             {"yes", true},
             {"none", nullptr},
             {"list", Array{1, 2.5, "x", Array{}, Object{}}},
             {"utf8", "µs \xe2\x80\x94 bytes kept"}};
    const std::string line = Value(o).print();
    QVERIFY2(line.find('\n') == std::string::npos, line.c_str()); // one protocol line
    const Value back = parse(line);
    const Object* b = back.getAsObject();
    QVERIFY(b);
    QCOMPARE(*b->getString("text"), *o.getString("text"));
    QCOMPARE(*b->getInteger("min"), std::int64_t(INT64_MIN));
    QCOMPARE(*b->getInteger("max"), std::int64_t(INT64_MAX));
    QCOMPARE(*b->find("double")->getAsNumber(), 1200.5);
    QCOMPARE(*b->find("whole double")->getAsNumber(), 3.0);
    QCOMPARE(*b->getBoolean("yes"), true);
    QVERIFY(b->find("none")->isNull());
    QCOMPARE(b->getArray("list")->size(), std::size_t(5));
    QCOMPARE(*b->getString("utf8"), *o.getString("utf8"));
    QVERIFY(!b->getString("min"));     // a number is not text
    QVERIFY(!b->getInteger("double")); // 1200.5 is not whole
    QVERIFY(!b->getArray("missing"));
  }

  void readsEscapesAndSurrogatePairs() {
    const Value v = parse(" [\"\\u00b5\\u2014\\ud83d\\ude00\", \"\\/\\b\\f\\r\", -0.5e2, 12345678901234567890] ");
    const Array* a = v.getAsArray();
    QVERIFY(a);
    QCOMPARE(*(*a)[0].getAsString(), std::string("\xc2\xb5\xe2\x80\x94\xf0\x9f\x98\x80"));
    QCOMPARE(*(*a)[1].getAsString(), std::string("/\b\f\r"));
    QCOMPARE(*(*a)[2].getAsNumber(), -50.0);
    QVERIFY(!(*a)[3].getAsInteger()); // beyond 64 bits: a double, not a wrapped integer
    QVERIFY(std::fabs(*(*a)[3].getAsNumber() - 1.2345678901234567e19) < 1e4);
    QCOMPARE(Value(std::numeric_limits<double>::infinity()).print(), std::string("null"));
  }

  void malformedTextIsAnInputErrorWithItsPlace_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("says");
    QTest::newRow("empty") << "" << "expected a value at byte 0";
    QTest::newRow("not json") << "not json" << "expected a value at byte 0";
    QTest::newRow("unclosed object") << "{\"a\":1" << "expected ',' or '}' at byte 6";
    QTest::newRow("unclosed text") << "[\"abc" << "closing the text";
    QTest::newRow("bad escape") << "[\"\\q\"]" << "an escape";
    QTest::newRow("raw newline") << "[\"a\nb\"]" << "control character";
    QTest::newRow("trailing") << "{} x" << "expected the end of the text at byte 3";
    QTest::newRow("key without quotes") << "{a:1}" << "a member name in quotes";
    QTest::newRow("bare minus") << "[-]" << "a digit";
    QTest::newRow("too deep") << QString(100, '[') << "less nesting";
  }

  void malformedTextIsAnInputErrorWithItsPlace() {
    QFETCH(QString, text);
    QFETCH(QString, says);
    try {
      (void)parse(text.toStdString());
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains(says), e.what());
    }
  }

  void sharesReadAsPeopleExpect() {
    QCOMPARE(formatPercent(1.0), std::string("100%"));
    QCOMPARE(formatPercent(0.99996), std::string("99.9%")); // never 100% unless exact
    QCOMPARE(formatPercent(0.905), std::string("90.5%"));
    QCOMPARE(formatPercent(0), std::string("0.0%"));
    QCOMPARE(formatPercent(-0.25), std::string("-25.0%")); // farther than the origin
    QCOMPARE(formatPercent(-INFINITY), std::string("-inf"));
    QCOMPARE(formatPercent(std::nan("")), std::string("-")); // none
    QCOMPARE(formatNumber(3), std::string("3"));
  }
};

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"

// Sampling's vectorised loops against plain reference loops in double
// precision, at lengths that are and are not multiples of the vector width.
// Whichever copy the CPU running the test picks (AVX2+FMA or plain x86-64) is
// the one checked.
#include "model/VectorMath.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using steerbench::model::attendOneHead;
using steerbench::model::maxOf;

class TestVectorMath : public QObject {
  Q_OBJECT
private slots:
  void attentionMatchesTheDefinition_data() {
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("d");
    for (int n : {1, 2, 7, 8, 9, 200})
      for (int d : {8, 13, 32, 48, 64, 96})
        QTest::addRow("n=%d d=%d", n, d) << n << d;
  }
  void attentionMatchesTheDefinition() {
    QFETCH(int, n);
    QFETCH(int, d);
    std::mt19937 rng(std::uint32_t(n * 100 + d));
    std::normal_distribution<float> g(0.0f, 2.0f);
    const auto N = static_cast<std::size_t>(n), D = static_cast<std::size_t>(d);
    std::vector<float> q(D), K(N * D), V(N * D), w(N), out(D);
    for (auto* v : {&q, &K, &V})
      for (float& x : *v) x = g(rng);
    attendOneHead(q.data(), K.data(), V.data(), N, D, w.data(), out.data());
    std::vector<double> score(N);
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int c = 0; c < d; ++c) s += double(q[std::size_t(c)]) * K[std::size_t(j * d + c)];
      score[std::size_t(j)] = s / std::sqrt(double(d));
    }
    const double top = *std::max_element(score.begin(), score.end());
    double sum = 0;
    for (double& s : score) sum += (s = std::exp(s - top));
    for (int c = 0; c < d; ++c) {
      double expected = 0;
      for (int j = 0; j < n; ++j) expected += score[std::size_t(j)] / sum * V[std::size_t(j * d + c)];
      QVERIFY2(std::abs(out[std::size_t(c)] - expected) < 1e-4 * (1 + std::abs(expected)),
               qPrintable(QStringLiteral("component %1: %2, expected %3").arg(c).arg(out[std::size_t(c)]).arg(expected)));
    }
  }

  void maxOfFindsTheLargestWherever() {
    for (std::size_t n : {1u, 5u, 8u, 9u, 17u, 4562u})
      for (std::size_t at = 0; at < n; at += std::max<std::size_t>(1, n / 7)) {
        std::vector<float> x(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = -float((i * 37) % 101) - 1.0f;
        x[at] = 3.5f;
        QCOMPARE(maxOf(x.data(), n), 3.5f);
      }
    const std::vector<float> allBanned(13, -1e9f);
    QCOMPARE(maxOf(allBanned.data(), allBanned.size()), -1e9f);
  }
};

QTEST_APPLESS_MAIN(TestVectorMath)
#include "tst_vectormath.moc"

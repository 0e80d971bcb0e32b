// Sampling's vectorised loops against plain reference loops in double
// precision, at lengths that are and are not multiples of the vector width.
// Whichever copy the CPU running the test picks (AVX2+FMA or plain x86-64) is
// the one checked; the packed product checks every kernel this CPU has.
#include "model/PackedProduct.h"
#include "model/VectorMath.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using steerbench::model::attendOneHead;
using steerbench::model::maxOf;
using steerbench::model::PackedWeights;

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

  void packedProductMatchesTheDefinition_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("outputs");
    QTest::addColumn<int>("inputs");
    QTest::addColumn<bool>("bias");
    // Rows that fill blocks and leave each remainder; outputs that fill
    // panels and do not; a vocabulary-sized head.
    for (int rows : {1, 5, 6, 7, 8, 13, 128})
      for (int outputs : {1, 16, 31, 33, 96})
        QTest::addRow("rows=%d outputs=%d", rows, outputs) << rows << outputs << 24 << true;
    QTest::addRow("head") << 20 << 4581 << 192 << true;
    QTest::addRow("no bias") << 9 << 40 << 17 << false;
  }
  void packedProductMatchesTheDefinition() {
    QFETCH(int, rows);
    QFETCH(int, outputs);
    QFETCH(int, inputs);
    QFETCH(bool, bias);
    const auto R = std::size_t(rows), N = std::size_t(outputs), K = std::size_t(inputs);
    std::mt19937 rng(std::uint32_t(rows * 7919 + outputs * 31 + inputs));
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<float> x(R * K), w(N * K), b(N);
    for (auto* v : {&x, &w, &b})
      for (float& e : *v) e = g(rng);
    // Every kernel gives the bits of the portable loop (the bias, then one
    // fused multiply-add per input in order); that loop is the definition's
    // sum up to rounding.
    const PackedWeights portable(w.data(), bias ? b.data() : nullptr, N, K, PackedWeights::Kernel::Portable);
    std::vector<float> expected(R * N, -1.0f);
    portable.apply(x.data(), R, expected.data());
    for (std::size_t r = 0; r < R; ++r)
      for (std::size_t n = 0; n < N; ++n) {
        double sum = bias ? b[n] : 0.0, size = std::abs(sum);
        for (std::size_t k = 0; k < K; ++k) {
          sum += double(x[r * K + k]) * w[n * K + k];
          size += std::abs(double(x[r * K + k]) * w[n * K + k]);
        }
        QVERIFY2(std::abs(expected[r * N + n] - sum) <= 1e-6 * (1 + size),
                 qPrintable(QStringLiteral("row %1 output %2: %3, expected %4").arg(r).arg(n).arg(expected[r * N + n]).arg(sum)));
      }
    int checked = 0;
    for (auto kernel : {PackedWeights::Kernel::Avx2, PackedWeights::Kernel::Avx512, PackedWeights::Kernel::Auto}) {
      if (!PackedWeights::supported(kernel)) continue;
      const PackedWeights packed(w.data(), bias ? b.data() : nullptr, N, K, kernel);
      QVERIFY(kernel == PackedWeights::Kernel::Auto || packed.kernel() == kernel);
      std::vector<float> y(R * N, -1.0f);
      packed.apply(x.data(), R, y.data());
      for (std::size_t i = 0; i < y.size(); ++i)
        QVERIFY2(y[i] == expected[i], qPrintable(QStringLiteral("kernel %1, element %2: %3 against the portable %4")
                                                     .arg(int(packed.kernel())).arg(i).arg(y[i]).arg(expected[i])));
      ++checked;
    }
    QVERIFY(checked >= 1); // Auto always runs
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

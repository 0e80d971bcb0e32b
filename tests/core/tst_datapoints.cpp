// Hole datapoints: one or several spans replaced by [HOLE], labelled with the
// first hidden token or [ENDHOLE]; masked tokens; determinism; length cap.
#include "model/Datapoints.h"
#include "model/FimOrder.h"
#include "model/Tokenizer.h"

#include <QtTest>

#include <algorithm>

using namespace steerbench::model;

namespace {

std::vector<int> kernelOf(int n) {
  std::vector<int> k(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    k[std::size_t(i)] = 100 + i; // distinct ids, none of them meta
  return k;
}

} // namespace

class TestDatapoints : public QObject {
  Q_OBJECT
private slots:
  void oneHoleHidesASpanAndLabelsItsFirstToken() {
    const auto kernel = kernelOf(40);
    DatapointOptions o;
    int empty = 0, nonEmpty = 0;
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
      std::mt19937_64 rng(seed);
      const Datapoint d = makeDatapoint(kernel, o, rng);
      QCOMPARE(d.inputs.size(), d.labels.size());
      QCOMPARE(d.inputs.front(), Tokenizer::kStart);
      QCOMPARE(d.inputs.back(), Tokenizer::kEnd);
      QCOMPARE(std::count(d.inputs.begin(), d.inputs.end(), Tokenizer::kHole), 1l);
      QCOMPARE(d.labelCount(), 1);
      const auto h = std::size_t(std::find(d.inputs.begin(), d.inputs.end(), Tokenizer::kHole) - d.inputs.begin());
      // prefix + hidden + suffix == kernel
      const std::vector<int> prefix(d.inputs.begin() + 1, d.inputs.begin() + std::ptrdiff_t(h));
      const std::vector<int> suffix(d.inputs.begin() + std::ptrdiff_t(h) + 1, d.inputs.end() - 1);
      QVERIFY(std::equal(prefix.begin(), prefix.end(), kernel.begin()));
      QVERIFY(std::equal(suffix.rbegin(), suffix.rend(), kernel.rbegin()));
      const std::size_t hidden = kernel.size() - prefix.size() - suffix.size();
      QVERIFY(hidden <= std::size_t(0.9 * 40));
      if (hidden == 0) {
        QCOMPARE(d.labels[h], Tokenizer::kEndHole);
        ++empty;
      } else {
        QCOMPARE(d.labels[h], kernel[prefix.size()]);
        ++nonEmpty;
      }
    }
    QVERIFY(empty > 0 && nonEmpty > 0); // both kinds of label occur
  }

  void holesCanCoverWholeSpelledLexemes() {
    // A kernel whose literals are spelled: "x = 12345 + 678 ;" with the
    // digits as character tokens. With wholeLexemes a hole never starts or
    // ends between two of them; without, some do (the same draws).
    const auto tok = Tokenizer::build({"kernel void A(global int* x) { x[0] = 1; }"}, {});
    const auto kernel = tok.encode("kernel void A(global int* x) { x[0] = 12345 + 678 * 90123; x[1] = 4567; }");
    int chars = 0;
    for (int id : kernel)
      chars += tok.isChar(id) ? 1 : 0;
    QVERIFY(chars >= 16);
    auto cutsInside = [&](const Datapoint& d) {
      // Rebuild the hole's span from the prefix and suffix around [HOLE].
      const auto h = std::size_t(std::find(d.inputs.begin(), d.inputs.end(), Tokenizer::kHole) - d.inputs.begin());
      const std::size_t start = h - 1, end = kernel.size() - (d.inputs.size() - 2 - h);
      auto inside = [&](std::size_t at) {
        return at > 0 && at < kernel.size() && tok.isChar(kernel[at]) && tok.isChar(kernel[at - 1]);
      };
      return inside(start) || inside(end);
    };
    DatapointOptions o;
    o.shortHoleProbability = 0.5;
    int cut = 0, whole = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
      std::mt19937_64 a(seed), b(seed);
      cut += cutsInside(makeDatapoint(kernel, o, a)) ? 1 : 0;
      DatapointOptions w = o;
      w.wholeLexemes = &tok;
      const Datapoint d = makeDatapoint(kernel, w, b);
      whole += cutsInside(d) ? 1 : 0;
      QCOMPARE(a(), b()); // the same draws
      QCOMPARE(std::count(d.inputs.begin(), d.inputs.end(), Tokenizer::kHole), 1l);
    }
    QVERIFY(cut > 0);
    QCOMPARE(whole, 0);
  }

  void severalHolesDoNotOverlap() {
    const auto kernel = kernelOf(60);
    DatapointOptions o;
    o.minHoles = 1;
    o.maxHoles = 8;
    int most = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
      std::mt19937_64 rng(seed);
      const Datapoint d = makeDatapoint(kernel, o, rng);
      const int holes = int(std::count(d.inputs.begin(), d.inputs.end(), Tokenizer::kHole));
      QVERIFY(holes >= 1 && holes <= 8);
      QCOMPARE(d.labelCount(), holes);
      most = std::max(most, holes);
      // Visible tokens keep their order and are a subsequence of the kernel.
      std::vector<int> visible;
      for (int t : d.inputs)
        if (t >= 100) visible.push_back(t);
      QVERIFY(std::is_sorted(visible.begin(), visible.end()));
      for (std::size_t i = 0; i < d.inputs.size(); ++i)
        if (d.inputs[i] == Tokenizer::kHole && d.labels[i] != Tokenizer::kEndHole) {
          // The label is the token right after the last visible one before the hole.
          int before = 99;
          for (std::size_t j = i; j-- > 0;)
            if (d.inputs[j] >= 100) {
              before = d.inputs[j];
              break;
            }
          QVERIFY(d.labels[i] > before);
        }
    }
    QVERIFY(most >= 4);
  }

  void maskedTokensAreLabelledWithThemselves() {
    const auto kernel = kernelOf(200);
    DatapointOptions o;
    o.maskProbability = 0.1;
    std::mt19937_64 rng(7);
    const Datapoint d = makeDatapoint(kernel, o, rng);
    int masked = 0;
    for (std::size_t i = 0; i < d.inputs.size(); ++i)
      if (d.inputs[i] == Tokenizer::kMask) {
        ++masked;
        QVERIFY(d.labels[i] >= 100);
      }
    QVERIFY(masked > 3 && masked < 60);
  }

  void deterministicAndCapped() {
    const auto kernel = kernelOf(1000);
    DatapointOptions o;
    o.maxHoles = 4;
    o.maxLength = 64;
    std::mt19937_64 a(42), b(42);
    const Datapoint x = makeDatapoint(kernel, o, a), y = makeDatapoint(kernel, o, b);
    QCOMPARE(x.inputs, y.inputs);
    QCOMPARE(x.labels, y.labels);
    QVERIFY(x.inputs.size() <= 64);
  }

  void continuationsHideEverythingFromTheirStartToTheEnd() {
    const auto kernel = kernelOf(30);
    DatapointOptions o;
    o.maxHoles = 8;
    o.continuationProbability = 1;
    std::mt19937_64 rng(3);
    int endHoles = 0;
    for (int i = 0; i < 200; ++i) {
      const auto d = makeDatapoint(kernel, o, rng);
      QCOMPARE(std::count(d.inputs.begin(), d.inputs.end(), Tokenizer::kHole), 1l);
      QCOMPARE(d.inputs[d.inputs.size() - 2], Tokenizer::kHole); // [HOLE] [END]: the rest is hidden
      const auto visible = d.inputs.size() - 3;                  // [START] ... [HOLE] [END]
      QCOMPARE(d.labels[d.inputs.size() - 2], visible == kernel.size() ? Tokenizer::kEndHole : kernel[visible]);
      endHoles += visible == kernel.size();
    }
    QVERIFY(endHoles > 0 && endHoles < 30); // a complete kernel, then [ENDHOLE]: sometimes
  }

  void wholeKernelRowsAreUndirectedSamplingsRow() {
    // A kernel that fits: [START] kernel void [HOLE] [END], then the rest of
    // the kernel and [ENDHOLE], as sampling from "kernel void [HOLE]" reads it.
    const auto kernel = kernelOf(30);
    DatapointOptions o;
    o.maxHoles = 8;
    o.maxLength = 64;
    o.continuationProbability = 0.5;
    o.wholeKernelProbability = 1;
    const std::vector<int> context{Tokenizer::kStart, kernel[0], kernel[1], Tokenizer::kHole, Tokenizer::kEnd};
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
      std::mt19937_64 rng(seed);
      const Datapoint d = makeFimDatapoint(kernel, o, rng, false, true);
      std::vector<int> want = fimOrder(context, 3, 3, true);
      want.insert(want.end(), kernel.begin() + 2, kernel.end());
      want.push_back(Tokenizer::kEndHole);
      QCOMPARE(d.inputs, want);
      QCOMPARE(d.labelCount(), int(kernel.size()) - 2 + 1); // the rest of the kernel and [ENDHOLE]
    }
    // What fits whole: 64 positions less [START], [END], 8 holes, [MASK] and [ENDHOLE] (and condition tokens).
    QVERIFY(fitsFimWindow(52, o) && !fitsFimWindow(53, o));
    QVERIFY(fitsFimWindow(46, o, 6) && !fitsFimWindow(47, o, 6));
    {
      std::mt19937_64 r(1);
      const auto fits = kernelOf(52), over = kernelOf(53);
      const Datapoint whole = makeFimDatapoint(fits, o, r, false, true);
      QCOMPARE(whole.labelCount(), 52 - 2 + 1);
      QCOMPARE(std::count(whole.inputs.begin(), whole.inputs.end(), Tokenizer::kStart), 1l);
      const Datapoint window = makeFimDatapoint(over, o, r, false, true);
      QVERIFY(std::count(window.inputs.begin(), window.inputs.end(), Tokenizer::kStart) +
                  std::count(window.inputs.begin(), window.inputs.end(), Tokenizer::kEnd) < 2);
    }
    // A kernel that does not fit is drawn as before: windows and holes.
    const auto large = kernelOf(1000);
    std::mt19937_64 a(9), b(9);
    DatapointOptions off = o;
    off.wholeKernelProbability = 0;
    for (int i = 0; i < 50; ++i)
      QCOMPARE(makeFimDatapoint(large, o, a, true).inputs, makeFimDatapoint(large, off, b, true).inputs);
    // Half the kernels that fit: a mix of whole-kernel rows and others.
    o.wholeKernelProbability = 0.5;
    std::mt19937_64 rng(11);
    int whole = 0;
    for (int i = 0; i < 200; ++i) {
      const Datapoint d = makeFimDatapoint(kernel, o, rng, false, true);
      whole += d.labelCount() == int(kernel.size()) - 1 && d.inputs[d.inputs.size() - 29] == kernel[2];
    }
    QVERIFY(whole > 60 && whole < 140);
  }

  void longKernelsAreWindowsMarkedOnlyAtTheirTrueEnds() {
    // Tokens 100.. in order, so a window's offset shows in its first token.
    const auto kernel = kernelOf(1000);
    DatapointOptions o;
    o.maxLength = 64;
    o.maxSpanFraction = 0; // empty holes: every kernel token stays visible
    std::mt19937_64 rng(7);
    int middles = 0;
    for (int i = 0; i < 300; ++i) {
      const auto d = makeDatapoint(kernel, o, rng);
      QVERIFY(d.inputs.size() <= 64);
      const bool hasStart = d.inputs.front() == Tokenizer::kStart, hasEnd = d.inputs.back() == Tokenizer::kEnd;
      QVERIFY(!(hasStart && hasEnd)); // never both: the kernel does not fit
      std::vector<int> tokens;
      for (int t : d.inputs)
        if (t >= 100) tokens.push_back(t);
      QVERIFY(!tokens.empty());
      for (std::size_t k = 1; k < tokens.size(); ++k)
        QCOMPARE(tokens[k], tokens[k - 1] + 1); // one contiguous window
      QCOMPARE(hasStart, tokens.front() == kernel.front());
      QCOMPARE(hasEnd, tokens.back() == kernel.back());
      middles += !hasStart && !hasEnd;
    }
    QVERIFY(middles > 250); // most windows are inside the kernel
    // A kernel that fits has both marks.
    const auto small = kernelOf(20);
    const auto d = makeDatapoint(small, o, rng);
    QCOMPARE(d.inputs.front(), Tokenizer::kStart);
    QCOMPARE(d.inputs.back(), Tokenizer::kEnd);
  }

  void packagesCanBeBalanced() {
    // 9 kernels of one package, 1 of another: at power 0.5 the shares go as 3 : 1.
    std::vector<std::string> packages(9, "big");
    packages.push_back("small");
    auto share = [&](double power) {
      const auto w = packageWeights(packages, power);
      double big = 0, all = 0;
      for (std::size_t i = 0; i < w.size(); ++i) {
        all += w[i];
        big += packages[i] == "big" ? w[i] : 0;
      }
      return big / all;
    };
    QCOMPARE(share(1.0), 0.9);
    QCOMPARE(share(0.5), 0.75);
    QCOMPARE(share(0.0), 0.5);
    const auto w = packageWeights({"a", "", "", "a"}, 0.0);
    QCOMPARE(w, (std::vector<double>{0.5, 0.5, 0.5, 0.5}));
  }

  void kernelsCanBeWeighedByFeatureRichness() {
    // Grewe: comp, rational, mem, localmem, coalesced, atomic, F2, F4. Rational and the ratios do not count.
    const std::vector<std::vector<double>> grewe = {
        {0, 0, 0, 0, 0, 0, 0, 0}, {1, 5, 2, 0, 1, 0, 0.5, 0.5}, {8, 0, 0, 0, 0, 0, 0, 0}, {500, 9, 40, 3, 2, 1, 0, 12}, {}};
    QCOMPARE(featureRichness(grewe[1]), 4.0);
    QCOMPARE(featureRichness(grewe[3]), kRichnessCap);
    QCOMPARE(featureRichness(grewe[4]), 0.0); // no vector
    std::vector<double> w;
    weighByRichness(w, grewe, 0.5);
    QCOMPARE(w, (std::vector<double>{1.0, std::sqrt(5.0), 3.0, std::sqrt(1 + kRichnessCap), 1.0}));
    // On top of package weights.
    std::vector<double> p = packageWeights({"a", "a", "b", "b", "b"}, 0.0);
    weighByRichness(p, grewe, 1.0);
    QCOMPARE(p[2], 9.0 / 3);
    std::vector<double> wrong(2, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, weighByRichness(wrong, grewe, 1.0));
  }

  void kernelsThatUseLocalMemoryCanBeDrawnMoreOften() {
    // Only localmem (the fourth count) decides; a kernel without a vector keeps its weight.
    const std::vector<std::vector<double>> grewe = {
        {4, 0, 2, 0, 2, 0, 1, 2}, {4, 0, 2, 6, 2, 0, 1, 2}, {}, {0, 0, 0, 1, 0, 0, 0, 0}};
    std::vector<double> w;
    weighLocalMemory(w, grewe, 3.0);
    QCOMPARE(w, (std::vector<double>{1.0, 3.0, 1.0, 3.0}));
    // On top of other weights.
    std::vector<double> p{0.5, 0.5, 2.0, 2.0};
    weighLocalMemory(p, grewe, 4.0);
    QCOMPARE(p, (std::vector<double>{0.5, 2.0, 2.0, 8.0}));
    std::vector<double> wrong(2, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, weighLocalMemory(wrong, grewe, 2.0));
  }

  void kernelsThatAskNoWorkItemCanBeDrawnLessOften() {
    // A kernel that asks no work-item function (every work-item does the same) gets the factor.
    const std::vector<std::string> kernels = {
        "kernel void A(global int* a) { a[get_global_id(0)] = 1; }",
        "kernel void A(global int* a) { a[0] = 1; }",
        "kernel void A(global int* a) { a[get_local_linear_id ()] = 1; }",
        "kernel void A(global int* a) { a[my_get_global_id(0)] = 1; }",
        "kernel void A(global int* a) { a[get_group_id(1)] = 1; }"};
    std::vector<bool> none;
    for (const auto& k : kernels)
      none.push_back(!callsAWorkItemFunction(k));
    std::vector<double> w;
    weighOneWorkItem(w, none, 0.25);
    QCOMPARE(w, (std::vector<double>{1.0, 0.25, 1.0, 0.25, 1.0}));
    // On top of other weights.
    std::vector<double> p{2.0, 2.0, 2.0, 4.0, 2.0};
    weighOneWorkItem(p, none, 0.5);
    QCOMPARE(p, (std::vector<double>{2.0, 1.0, 2.0, 2.0, 2.0}));
    std::vector<double> wrong(2, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, weighOneWorkItem(wrong, none, 2.0));
  }

  void bothOrdersReadTheHoleTheTextAfterItAndTheInfill() {
    // One layout for training and sampling (FimOrder.h): a kernel 10 11
    // [HOLE] 12 [HOLE] 13 whose first hole has 20 21 written into it so far.
    const int H = Tokenizer::kHole, M = Tokenizer::kMask;
    const std::vector<int> seq{10, 11, 20, 21, H, 12, H, 13};
    QCOMPARE(fimOrder(seq, 2, 4, false), (std::vector<int>{10, 11, H, 12, H, 13, M, 20, 21}));
    QCOMPARE(fimOrder(seq, 2, 4, true), (std::vector<int>{H, 12, H, 13, M, 10, 11, 20, 21}));
    // Nothing written yet: psm is the text and [MASK]; spm moves the prefix after it.
    const std::vector<int> fresh{10, 11, H, 12};
    QCOMPARE(fimOrder(fresh, 2, 2, false), (std::vector<int>{10, 11, H, 12, M}));
    QCOMPARE(fimOrder(fresh, 2, 2, true), (std::vector<int>{H, 12, M, 10, 11}));
  }

  void fillInTheMiddleMovesTheFirstHoleToTheEnd() {
    // [START] context [END] [MASK] middle [ENDHOLE]: the context with the
    // middle put back at its first [HOLE] is the kernel, less later holes.
    const auto kernel = kernelOf(40);
    DatapointOptions o;
    o.maxHoles = 3;
    o.maxLength = 64;
    int emptyMiddles = 0;
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
      std::mt19937_64 rng(seed), again(seed);
      const Datapoint d = makeFimDatapoint(kernel, o, rng, true);
      QCOMPARE(d.inputs.size(), d.labels.size());
      QVERIFY(d.inputs.size() <= 64);
      QCOMPARE(d.inputs.front(), Tokenizer::kStart);
      QCOMPARE(d.inputs.back(), Tokenizer::kEndHole);
      const auto mask = std::size_t(std::find(d.inputs.begin(), d.inputs.end(), Tokenizer::kMask) - d.inputs.begin());
      QVERIFY(mask < d.inputs.size());
      QCOMPARE(d.inputs[mask - 1], Tokenizer::kEnd);
      const std::vector<int> middle(d.inputs.begin() + std::ptrdiff_t(mask) + 1, d.inputs.end() - 1);
      emptyMiddles += middle.empty();
      std::vector<int> text;
      bool first = true;
      for (std::size_t t = 1; t + 1 < mask; ++t) {
        if (d.inputs[t] != Tokenizer::kHole) {
          text.push_back(d.inputs[t]);
        } else if (first) {
          text.insert(text.end(), middle.begin(), middle.end());
          first = false;
        }
      }
      QVERIFY(!first); // there was a hole
      // In order, no token twice: a subsequence of the kernel's 100, 101, ...
      for (std::size_t k = 1; k < text.size(); ++k)
        QVERIFY(text[k] > text[k - 1]);
      if (std::count(d.inputs.begin(), d.inputs.end(), Tokenizer::kHole) == 1) QCOMPARE(text, kernel);
      // Next-token labels, never a [HOLE] or the [MASK]; without the context's
      // labels, only the middle and [ENDHOLE] are predicted.
      for (std::size_t t = 0; t + 1 < d.inputs.size(); ++t) {
        const int next = d.inputs[t + 1];
        QCOMPARE(d.labels[t], next == Tokenizer::kHole || next == Tokenizer::kMask ? Datapoint::kIgnore : next);
      }
      QCOMPARE(d.labels.back(), Datapoint::kIgnore);
      const Datapoint v = makeFimDatapoint(kernel, o, again, false);
      QCOMPARE(v.inputs, d.inputs);
      QCOMPARE(v.labelCount(), int(middle.size()) + 1);
    }
    QVERIFY(emptyMiddles > 0 && emptyMiddles < 300);
  }

  void suffixFirstPutsThePrefixBeforeTheMiddle() {
    // [HOLE] rest [END] [MASK] [START] before middle [ENDHOLE]: the same draw
    // as prefix first, reordered, so that the middle continues the prefix.
    const auto kernel = kernelOf(40);
    DatapointOptions o;
    o.maxHoles = 3;
    o.maxLength = 64;
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
      std::mt19937_64 a(seed), b(seed), c(seed);
      const Datapoint psm = makeFimDatapoint(kernel, o, a, true);
      const Datapoint spm = makeFimDatapoint(kernel, o, b, true, true);
      QCOMPARE(spm.inputs.size(), psm.inputs.size());
      QCOMPARE(spm.inputs.front(), Tokenizer::kHole);
      QCOMPARE(spm.inputs.back(), Tokenizer::kEndHole);
      const auto pm = std::find(psm.inputs.begin(), psm.inputs.end(), Tokenizer::kMask);
      const auto sm = std::find(spm.inputs.begin(), spm.inputs.end(), Tokenizer::kMask);
      const auto hole = std::find(psm.inputs.begin(), pm, Tokenizer::kHole);
      // Before [MASK]: the first [HOLE] and what follows it; after: what came before it, then the middle.
      QVERIFY(std::equal(hole, pm, spm.inputs.begin(), sm));
      QVERIFY(std::equal(psm.inputs.begin(), hole, sm + 1));
      QVERIFY(std::equal(pm + 1, psm.inputs.end(), sm + 1 + (hole - psm.inputs.begin())));
      QCOMPARE(*(sm + 1), Tokenizer::kStart);
      // The middle's labels are the same tokens.
      const Datapoint v = makeFimDatapoint(kernel, o, c, false, true);
      QCOMPARE(v.labelCount(), int(psm.inputs.end() - pm) - 1);
      for (std::size_t t = 0; t + 1 < spm.inputs.size(); ++t) {
        const int next = spm.inputs[t + 1];
        QCOMPARE(spm.labels[t], next == Tokenizer::kHole || next == Tokenizer::kMask ? Datapoint::kIgnore : next);
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestDatapoints)
#include "tst_datapoints.moc"

// The batched infill sampler on a tiny model whose head is set by hand, so
// what it must produce is known: stopping at [ENDHOLE], the token limit,
// refilling the batch from the queue, determinism, bad feeds.
#include "model/SamplerImpl.h"

#include "model/CachedDecoding.h"
#include "model/Conditioning.h"
#include "model/LogitShaping.h"
#include "model/StatementChecks.h"

#include "common/Error.h"

#include <QtTest>

#include <fstream>
#include <map>
#include <functional>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

using namespace steerbench;
using namespace steerbench::model;

namespace {

Tokenizer fixtureTokenizer() {
  std::vector<std::string> kernels;
  for (const char* f : {"k01_copy", "k05_loop", "k07_math"}) {
    std::ifstream in(std::string(STEERBENCH_TEST_DATA) + "/kernels/" + f + ".cl");
    std::stringstream s;
    s << in.rdbuf();
    kernels.push_back(s.str());
  }
  Tokenizer::Options o;
  o.minCount = 1;
  return Tokenizer::build(kernels, o);
}

ModelConfig tiny(int vocab) {
  ModelConfig c;
  c.vocab = vocab;
  c.layers = 1;
  c.hidden = 16;
  c.heads = 2;
  c.ffn = 32;
  c.maxLength = 64;
  return c;
}

/// A sampler over an untrained model with weights from torch seed `seed`.
Sampler randomSampler(std::uint64_t seed) {
  auto tok = fixtureTokenizer();
  torch::manual_seed(seed);
  InfillModel m(tiny(tok.size()));
  m->eval();
  return Sampler(std::make_unique<Sampler::Impl>(Sampler::Impl{std::move(tok), m}));
}

/// A sampler over an untrained decoder with weights from torch seed `seed`.
Sampler randomDecoderSampler(std::uint64_t seed, bool suffixFirst = false) {
  auto tok = fixtureTokenizer();
  torch::manual_seed(seed);
  auto c = tiny(tok.size());
  c.arch = ModelConfig::Arch::Decoder;
  c.suffixFirst = suffixFirst;
  c.layers = 2;
  InfillModel m(c);
  m->eval();
  return Sampler(std::make_unique<Sampler::Impl>(Sampler::Impl{std::move(tok), m}));
}

/// A sampler whose model prefers `token` (its head is zero but for that
/// bias), then `second` when given.
Sampler biased(int token, int second = -1) {
  Sampler s = randomSampler(1);
  torch::NoGradGuard ng;
  auto params = s.impl().model->named_parameters();
  for (auto& p : params)
    if (p.key().rfind("head.", 0) == 0) p.value().zero_();
  params["head.bias"][token] = 50.0;
  if (second >= 0) params["head.bias"][second] = 40.0;
  return s;
}

/// A sampler whose model wants to stop at once ([ENDHOLE]), then `;`.
Sampler stopperThenSemicolon() {
  const int semi = biased(Tokenizer::kEndHole).tokenizer().encode(";")[0];
  return biased(Tokenizer::kEndHole, semi);
}

/// A decoder that can be given conditions and wants `token` most, then
/// `second` (its head is zero but for those biases).
Sampler biasedConditionedDecoder(int token, int second) {
  auto tok = fixtureTokenizer();
  torch::manual_seed(1);
  auto c = tiny(tok.size());
  c.arch = ModelConfig::Arch::Decoder;
  c.conditions = conditionTokenCount();
  InfillModel m(c);
  m->eval();
  torch::NoGradGuard ng;
  auto params = m->named_parameters();
  for (auto& p : params)
    if (p.key().rfind("head.", 0) == 0) p.value().zero_();
  params["head.bias"][token] = 50.0;
  params["head.bias"][second] = 40.0;
  return Sampler(std::make_unique<Sampler::Impl>(Sampler::Impl{std::move(tok), m}));
}

/// A held row's options: the most likely token, one stream and one check
/// job, every check a call, asked for comp 1, statements passing `check`.
SampleOptions heldGreedy() {
  SampleOptions o;
  o.temperature = 0;
  o.streams = 1;
  o.checkJobs = 1;
  o.rememberChecks = false;
  o.target = {1, 0, 0, 0, 0, 0};
  o.check = [](const std::string&) { return std::string::npos; };
  return o;
}

/// The most likely token every time, no compiler checks.
SampleOptions greedyUnchecked() {
  SampleOptions o;
  o.temperature = 0;
  o.check = {};
  return o;
}

/// A compile check with verdicts the test chooses (it stands in for Clang;
/// the real check, clangfe::firstErrorOffset, is tested in
/// tests/core/tst_openclfrontend). Keeps every text it was given.
struct RecordingCheck {
  std::function<std::size_t(const std::string&)> verdict;
  std::shared_ptr<std::mutex> m = std::make_shared<std::mutex>();
  std::shared_ptr<std::vector<std::string>> seen = std::make_shared<std::vector<std::string>>();
  std::size_t operator()(const std::string& text) const {
    std::lock_guard lock(*m);
    seen->push_back(text);
    return verdict(text);
  }
};

} // namespace

class TestSampler : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void stopsAtEndHole() {
    auto s = biased(Tokenizer::kEndHole);
    const auto out = s.sample({"kernel void [HOLE]"}, 5, SampleOptions{});
    QCOMPARE(out.size(), std::size_t(5));
    for (const auto& x : out) {
      QVERIFY(x.complete);
      QCOMPARE(x.newTokens, 0);
      QCOMPARE(x.text, std::string("kernel void"));
    }
  }

  void windowsWithoutKernelEndsKeepEveryToken() {
    // A window cut from a longer kernel has no [START]/[END] at a cut side;
    // the sample is then the window's own tokens, none dropped as an end marker.
    auto s = biased(Tokenizer::kEndHole);
    SampleOptions o;
    o.feedEnds = {0, SampleOptions::kHasStart, SampleOptions::kHasStart | SampleOptions::kHasEnd};
    const std::vector<std::string> feeds = {"i ] = [HOLE] in [ i", "kernel void [HOLE] (", "kernel void [HOLE]"};
    const auto out = s.sample(feeds, 3, o);
    QCOMPARE(out.size(), std::size_t(3));
    for (const auto& x : out) {
      auto expect = s.tokenizer().encode(feeds[x.feed]);
      expect.erase(std::find(expect.begin(), expect.end(), int(Tokenizer::kHole)));
      QCOMPARE(x.ids, expect);
    }
    o.feedEnds = {0};
    QVERIFY_EXCEPTION_THROWN((void)s.sample(feeds, 3, o), std::invalid_argument);
  }

  void fillsUntilTheLimit() {
    auto s0 = biased(Tokenizer::kEndHole);
    const int paren = s0.tokenizer().encode("(")[0];
    auto s = biased(paren);
    SampleOptions o;
    o.maxNewTokens = 5;
    const auto out = s.sample({"kernel void [HOLE] { }"}, 2, o);
    QCOMPARE(out.size(), std::size_t(2));
    for (const auto& x : out) {
      QVERIFY(!x.complete);
      QCOMPARE(x.newTokens, 5);
      QCOMPARE(x.text, std::string("kernel void ( ( ( ( ( [HOLE] { }"));
    }
  }

  void theDecoderCacheFollowsTheRows_data() {
    QTest::addColumn<bool>("suffixFirst");
    QTest::newRow("prefix first") << false;
    QTest::newRow("suffix first") << true;
  }

  void theDecoderCacheFollowsTheRows() {
    // The sampler inserts tokens before a row's [HOLE], takes statements
    // back, closes holes, retires rows and starts new ones. After each, the
    // cached logits must be those of a whole forward pass over the row's
    // fill-in-the-middle sequence, whose layout is checked too, in either
    // order.
    QFETCH(bool, suffixFirst);
    auto s = randomDecoderSampler(3, suffixFirst);
    auto model = s.impl().model;
    const auto& tok = s.tokenizer();
    c10::InferenceMode inference;
    CachedDecoding cached(model, 4);
    auto row = [&](std::size_t index, const std::string& text) {
      SampleRow r;
      r.index = index;
      r.seq.push_back(Tokenizer::kStart);
      const auto ids = tok.encode(text);
      r.seq.insert(r.seq.end(), ids.begin(), ids.end());
      r.seq.push_back(Tokenizer::kEnd);
      return r;
    };
    auto holeOf = [](const SampleRow& r) {
      return std::int64_t(std::find(r.seq.begin(), r.seq.end(), Tokenizer::kHole) - r.seq.begin());
    };
    std::vector<SampleRow> rows = {row(0, "kernel void A ( ) { [HOLE] } [HOLE]"), row(1, "kernel void [HOLE]")};
    int compared = 0;
    auto compare = [&] {
      std::vector<std::int64_t> holeAt;
      for (const auto& r : rows)
        holeAt.push_back(holeOf(r));
      const auto got = cached.logits(rows, holeAt);
      for (std::size_t b = 0; b < rows.size(); ++b) {
        SampleRow copy = rows[b];
        const auto fim = fillInTheMiddle(copy, holeAt[b], suffixFirst);
        QCOMPARE(std::count(fim.begin(), fim.end(), Tokenizer::kMask), 1l);
        if (suffixFirst) { // [HOLE] suffix [MASK] [START] prefix middle
          QCOMPARE(fim.front(), Tokenizer::kHole);
          const auto mask = std::find(fim.begin(), fim.end(), Tokenizer::kMask);
          QVERIFY(std::equal(mask + 1, fim.end(), rows[b].seq.begin()));
          QCOMPARE(std::size_t(fim.end() - mask - 1), std::size_t(holeAt[b]));
        }
        const auto ids = torch::tensor(std::vector<std::int64_t>(fim.begin(), fim.end())).unsqueeze(0);
        const auto want = model->logits(model->encode(ids)[0][std::int64_t(fim.size()) - 1]);
        QVERIFY2(torch::allclose(got[std::int64_t(b)], want, 1e-4, 1e-5), qPrintable(QString("row %1").arg(b)));
        ++compared;
      }
    };
    auto write = [&](SampleRow& r, const char* text) {
      for (int t : tok.encode(text))
        r.seq.insert(r.seq.begin() + holeOf(r), t);
    };
    compare();
    write(rows[0], "int");
    write(rows[1], "void");
    compare();
    write(rows[0], "x =");
    compare();
    // The row's middle, behind the prefix and the suffix.
    {
      SampleRow copy = rows[0];
      const auto fim = fillInTheMiddle(copy, holeOf(copy), suffixFirst);
      const auto tail = tok.encode("int x =");
      QVERIFY(std::equal(tail.rbegin(), tail.rend(), fim.rbegin()));
    }
    // A statement taken back: the row's last two tokens go.
    rows[0].seq.erase(rows[0].seq.begin() + holeOf(rows[0]) - 2, rows[0].seq.begin() + holeOf(rows[0]));
    compare();
    // The first hole closes: the second begins.
    write(rows[0], "; x = 1 ;");
    rows[0].seq.erase(rows[0].seq.begin() + holeOf(rows[0]));
    compare();
    write(rows[0], "int");
    compare();
    // Row 1 is done; a new row takes a slot.
    rows.erase(rows.begin() + 1);
    rows.push_back(row(7, "kernel void B ( global int * a ) { [HOLE] }"));
    rows.push_back(row(8, "[HOLE] }"));
    rows.push_back(row(9, "kernel void C ( global int * a ) { a [ 0 ] = 1 ; a [ 1 ] = 2 ; [HOLE] }")); // with 7, padded
    compare();
    write(rows[1], "a [");
    compare();
    // A row starts again from its feed (SampleRow is made anew).
    rows[1] = row(7, "kernel void B ( global int * a ) { [HOLE] }");
    compare();
    QCOMPARE(compared, 24);
    QVERIFY2(cached.tokensRun() < 200, qPrintable(QString::number(cached.tokensRun()))); // not whole rows again: feeds once, then a token a step
  }

  void aDecoderRepacksItsWeightsWhenTheyChange() {
    // The decode step's products read the weights as packed when the sampler
    // was made; a parameter changed since is packed again at the next call.
    auto s = randomDecoderSampler(5);
    auto& impl = s.impl();
    if (!PackedWeights::supported(PackedWeights::Kernel::Avx2) &&
        !PackedWeights::supported(PackedWeights::Kernel::Avx512)) {
      QVERIFY(impl.packed.layers.empty()); // libtorch's products on such a CPU
      QSKIP("this CPU has neither AVX2 nor AVX-512: the sampler does not pack");
    }
    QCOMPARE(impl.packed.layers.size(), std::size_t(2));
    const auto hidden = std::size_t(impl.model->config().hidden), vocab = std::size_t(impl.model->config().vocab);
    auto headBias = [&](std::size_t token) { // the packed head at a hidden state of zeros
      std::vector<float> x(hidden, 0.0f), y(vocab);
      impl.packed.head.apply(x.data(), 1, y.data());
      return y[token];
    };
    SampleOptions o;
    o.maxNewTokens = 2;
    o.batchSize = 2;
    (void)s.sample({"kernel void [HOLE]"}, 1, o);
    const auto unchanged = impl.packedVersion;
    (void)s.sample({"kernel void [HOLE]"}, 1, o);
    QCOMPARE(impl.packedVersion, unchanged); // nothing changed: not packed again
    QVERIFY(headBias(7) != 3.5f);
    {
      torch::NoGradGuard ng;
      impl.model->named_parameters()["head.bias"][7] = 3.5;
    }
    (void)s.sample({"kernel void [HOLE]"}, 1, o);
    QVERIFY(impl.packedVersion != unchanged);
    QCOMPARE(headBias(7), 3.5f);
    // A tensor put in a parameter's place is seen too.
    {
      torch::NoGradGuard ng;
      auto params = impl.model->named_parameters();
      params["head.bias"].set_data(torch::full_like(params["head.bias"], 0.25));
    }
    (void)s.sample({"kernel void [HOLE]"}, 1, o);
    QCOMPARE(headBias(7), 0.25f);
  }

  void aDecoderSamplesThroughTheSameInterface() {
    auto s = randomDecoderSampler(5);
    SampleOptions o;
    o.temperature = 1.0;
    o.maxNewTokens = 20;
    o.seed = 9;
    o.batchSize = 4;
    const auto a = s.sample({"kernel void [HOLE]", "kernel void A ( ) { [HOLE] }"}, 9, o);
    const auto b = s.sample({"kernel void [HOLE]", "kernel void A ( ) { [HOLE] }"}, 9, o);
    QCOMPARE(a.size(), std::size_t(9));
    for (std::size_t i = 0; i < a.size(); ++i) {
      QCOMPARE(a[i].ids, b[i].ids);
      QVERIFY(a[i].newTokens > 0);
      QVERIFY(a[i].text.rfind(a[i].feed == 0 ? "kernel void" : "kernel void A", 0) == 0);
    }
    // Biased to [ENDHOLE], every hole closes at once.
    auto closer = randomDecoderSampler(5);
    {
      torch::NoGradGuard ng;
      auto params = closer.impl().model->named_parameters();
      params["head.bias"][Tokenizer::kEndHole] = 50.0;
    }
    for (const auto& x : closer.sample({"a [HOLE] b", "c [HOLE] d [HOLE]"}, 4, SampleOptions{}))
      QVERIFY2(sameTokens(x.text, x.feed == 0 ? "a b" : "c d"), x.text.c_str());
  }

  void refillsTheBatchFromTheQueue() {
    auto s = biased(Tokenizer::kEndHole);
    SampleOptions o;
    o.batchSize = 3;
    std::vector<std::size_t> seen;
    const auto out = s.sample({"a [HOLE] b", "c [HOLE] d [HOLE]"}, 10, o, [&](const Sample& x) { seen.push_back(x.feed); });
    QCOMPARE(out.size(), std::size_t(10));
    QCOMPARE(seen.size(), std::size_t(10));
    QCOMPARE(std::count(seen.begin(), seen.end(), std::size_t(0)), 5l); // the feeds in turn
    for (const auto& x : out)
      QVERIFY2(sameTokens(x.text, x.feed == 0 ? "a b" : "c d"), x.text.c_str()); // closed holes glue nothing
  }

  void sameSeedSameSamples() {
    // A random (untrained) model: sampling at temperature 1 is seeded.
    auto s = randomSampler(5);
    SampleOptions o;
    o.temperature = 1.0;
    o.maxNewTokens = 20;
    o.seed = 9;
    const auto a = s.sample({"kernel void [HOLE]"}, 6, o);
    const auto b = s.sample({"kernel void [HOLE]"}, 6, o);
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      QCOMPARE(a[i].ids, b[i].ids);
    o.seed = 10;
    const auto c2 = s.sample({"kernel void [HOLE]"}, 6, o);
    bool differs = false;
    for (std::size_t i = 0; i < a.size(); ++i)
      differs = differs || a[i].ids != c2[i].ids;
    QVERIFY(differs);
  }

  void aNarrowNucleusIsTheMostLikelyToken() {
    // A random model at temperature 1: a nucleus of one token draws what
    // temperature 0 picks; the full nucleus draws as without it.
    auto s = randomSampler(5);
    SampleOptions o;
    o.maxNewTokens = 20;
    o.seed = 9;
    o.temperature = 0;
    const auto greedy = s.sample({"kernel void [HOLE]"}, 4, o);
    o.temperature = 1.0;
    const auto plain = s.sample({"kernel void [HOLE]"}, 4, o);
    o.topP = 1e-6;
    const auto narrow = s.sample({"kernel void [HOLE]"}, 4, o);
    o.topP = 1.0;
    const auto full = s.sample({"kernel void [HOLE]"}, 4, o);
    bool plainDiffers = false;
    for (std::size_t i = 0; i < greedy.size(); ++i) {
      QCOMPARE(narrow[i].ids, greedy[i].ids);
      QCOMPARE(full[i].ids, plain[i].ids);
      plainDiffers = plainDiffers || plain[i].ids != greedy[i].ids;
    }
    QVERIFY(plainDiffers); // at temperature 1 the random model does not write the greedy tokens
  }

  void theGuardClosesWhatTheFeedOpened() {
    // The model wants to stop at once; the kernel's body is open, so the
    // guard bans [ENDHOLE] and gives its probability to the brace it needs.
    auto s = biased(Tokenizer::kEndHole);
    const auto guarded = s.sample({"kernel void A ( ) { [HOLE]"}, 2, SampleOptions{});
    for (const auto& x : guarded) {
      QVERIFY(x.complete);
      QCOMPARE(x.text, std::string("kernel void A ( ) { }"));
    }
    SampleOptions o;
    o.guard = false;
    for (const auto& x : s.sample({"kernel void A ( ) { [HOLE]"}, 2, o))
      QCOMPARE(x.text, std::string("kernel void A ( ) {"));
  }

  void aRowTheGuardKeepsBlockingIsGivenUp() {
    // The model wants `}` most, then `{`. With nothing open, `}` is banned
    // and `{` comes; then `}` closes it; then `}` is banned again ...
    auto s0 = biased(Tokenizer::kEndHole);
    const int open = s0.tokenizer().encode("{")[0], close = s0.tokenizer().encode("}")[0];
    auto s = biased(close, open);
    SampleOptions o;
    o.guardPatience = 3;
    o.maxNewTokens = 40;
    const auto out = s.sample({"kernel void [HOLE]"}, 2, o);
    QCOMPARE(out.size(), std::size_t(2));
    for (const auto& x : out) {
      QVERIFY(!x.complete); // given up at the third banned wish
      QCOMPARE(x.text, std::string("kernel void { } { } { [HOLE]"));
    }
    o.guardPatience = 0; // never given up: it runs to the limit
    for (const auto& x : s.sample({"kernel void [HOLE]"}, 1, o)) {
      QVERIFY(!x.complete);
      QCOMPARE(x.newTokens, 40);
      QVERIFY(x.text.rfind("kernel void { } { } { } { }", 0) == 0);
    }
    o.guard = false; // unguarded, the model has its way
    for (const auto& x : s.sample({"kernel void [HOLE]"}, 1, o))
      QVERIFY(x.text.rfind("kernel void } } }", 0) == 0);
  }

  void statementsWithErrorsAreTakenBack() {
    // The model writes `;` after `;`. Each one ends a statement, which the
    // check sees with the kernel's block closed.
    auto s0 = biased(Tokenizer::kEndHole);
    auto s = biased(s0.tokenizer().encode(";")[0]);
    const std::string feed = "kernel void A ( ) { [HOLE] }";
    SampleOptions o;
    o.temperature = 0;
    o.maxNewTokens = 5;
    o.checkPatience = 3;
    o.rememberChecks = false; // every check a call, to count them
    RecordingCheck check{[](const std::string& text) { return text.size() - 3; }}; // an error in the statement just written
    auto& seen = *check.seen;
    o.check = check;
    auto out = s.sample({feed}, 1, o);
    QCOMPARE(out.size(), std::size_t(1));
    QVERIFY(!out[0].complete); // given up after three statements taken back
    QCOMPARE(out[0].newTokens, 0);
    QCOMPARE(out[0].text, s.tokenizer().decode(s.tokenizer().encode(feed)));
    QCOMPARE(seen.size(), std::size_t(3));
    // Remembered: the same statement three times is one call, and the row
    // ends as it did.
    SampleOptions remembering = o;
    remembering.rememberChecks = true;
    seen.clear();
    const auto again = s.sample({feed}, 1, remembering);
    QCOMPARE(seen.size(), std::size_t(1));
    QCOMPARE(again[0].text, out[0].text);
    QCOMPARE(again[0].complete, out[0].complete);
    seen.clear();
    for (const auto& t : seen) {
      QVERIFY2(t.size() >= 2 && t.compare(t.size() - 2, 2, "\n}") == 0, t.c_str()); // the block closed
      QVERIFY(t.find(';') != std::string::npos);
    }

    // Statements that compile are kept: the same as without checks.
    SampleOptions plain = o;
    plain.check = {};
    const auto unchecked = s.sample({feed}, 1, plain);
    seen.clear();
    check.verdict = [](const std::string&) { return std::string::npos; };
    o.check = check;
    out = s.sample({feed}, 1, o);
    QCOMPARE(out[0].text, unchecked[0].text);
    QCOMPARE(out[0].newTokens, 5);
    QCOMPARE(seen.size(), std::size_t(5));

    // An error in the feed's own text (before the hole) ends the checks for
    // the row: nothing the model writes could mend it.
    seen.clear();
    check.verdict = [](const std::string&) { return std::size_t(0); };
    o.check = check;
    out = s.sample({feed}, 1, o);
    QCOMPARE(out[0].text, unchecked[0].text);
    QCOMPARE(seen.size(), std::size_t(1));

    // A window without the kernel's start is not checked.
    seen.clear();
    o.feedEnds = {SampleOptions::kHasEnd};
    (void)s.sample({"{ [HOLE] }"}, 1, o);
    QVERIFY(seen.empty());
  }

  void aStatementGoesBackToItsError() {
    // The model writes `x` and `;` as often. The check finds an error at the
    // last `x` of the first statement of three or more tokens: the statement
    // goes back to that token only, so the next text checked begins with
    // what came before it.
    auto s0 = biased(Tokenizer::kEndHole);
    const int x = s0.tokenizer().encode("x")[0], semi = s0.tokenizer().encode(";")[0];
    auto s = biased(x, semi);
    {
      torch::NoGradGuard ng;
      s.impl().model->named_parameters()["head.bias"][semi] = 50.0;
    }
    const std::string feed = "kernel void A ( ) { [HOLE] }";
    const std::size_t body = s.tokenizer().decode(s.tokenizer().encode("kernel void A ( ) {")).size();
    SampleOptions o;
    o.temperature = 1;
    o.seed = 3;
    o.guard = false;
    o.maxNewTokens = 40;
    o.checkPatience = 100;
    std::size_t failedAt = std::string::npos;
    std::string failedText;
    RecordingCheck check{[&](const std::string& text) -> std::size_t {
      if (failedAt != std::string::npos) return std::string::npos; // one error only
      const auto semiAt = text.rfind(';');
      const auto start = text.find_last_of(";{", semiAt - 1) + 1;
      const std::string statement = text.substr(start, semiAt - start);
      if (start < body || std::count(statement.begin(), statement.end(), 'x') < 2) return std::string::npos;
      failedText = text;
      return failedAt = text.rfind('x', semiAt);
    }};
    o.check = check;
    (void)s.sample({feed}, 1, o);
    const auto& seen = *check.seen;
    const auto failed = std::find(seen.begin(), seen.end(), failedText);
    QVERIFY(failedAt != std::string::npos);
    QVERIFY(failed != seen.end() && failed + 1 != seen.end());
    QVERIFY2(failed[1].compare(0, failedAt, *failed, 0, failedAt) == 0, failed[1].c_str());
  }

  void aHoleClosesOnlyIntoAKernelThatCompiles() {
    // The model wants to stop at once. As it closes the hole, the whole
    // kernel is checked; an error from the hole on reopens it, up to the
    // patience, after which the infill is kept as it is.
    auto s = biased(Tokenizer::kEndHole);
    const std::string feed = "kernel void A ( ) { [HOLE] }";
    SampleOptions o;
    o.temperature = 0;
    o.checkPatience = 3;
    o.rememberChecks = false; // every check a call, to count them
    RecordingCheck check{[](const std::string& text) { return text.size() - 1; }};
    auto& seen = *check.seen;
    o.check = check;
    auto out = s.sample({feed}, 1, o);
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].newTokens, 0);
    QCOMPARE(seen.size(), std::size_t(3));
    for (const auto& t : seen)
      QCOMPARE(t, s.tokenizer().decode(s.tokenizer().encode("kernel void A ( ) { }"))); // no [HOLE], no closers
    // An error before the hole: nothing to take back, closed at once.
    seen.clear();
    check.verdict = [](const std::string&) { return std::size_t(0); };
    o.check = check;
    out = s.sample({feed}, 1, o);
    QVERIFY(out[0].complete);
    QCOMPARE(seen.size(), std::size_t(1));
    // A feed without the kernel's end is not checked as a whole.
    seen.clear();
    o.feedEnds = {SampleOptions::kHasStart};
    out = s.sample({feed}, 1, o);
    QVERIFY(out[0].complete);
    QVERIFY(seen.empty());
  }

  void aWholeKernelHasItsOwnCheckWhenGiven() {
    // SampleOptions::wholeCheck judges the kernel as its last hole closes in
    // place of `check`, which still judges statements.
    auto s = biased(Tokenizer::kEndHole);
    SampleOptions o;
    o.temperature = 0;
    o.checkPatience = 2;
    o.rememberChecks = false;
    RecordingCheck statements{[](const std::string&) { return std::string::npos; }};
    RecordingCheck whole{[](const std::string& text) { return text.size() - 1; }};
    o.check = statements;
    o.wholeCheck = whole;
    const auto out = s.sample({"kernel void A ( ) { [HOLE] }"}, 1, o);
    QVERIFY(out[0].complete);
    QCOMPARE(whole.seen->size(), std::size_t(2)); // reopened once, then closed as it is
    QVERIFY(statements.seen->empty());
    // Remembered like `check`: the same kernel is judged once.
    o.rememberChecks = true;
    whole.seen->clear();
    (void)s.sample({"kernel void A ( ) { [HOLE] }"}, 1, o);
    QCOMPARE(whole.seen->size(), std::size_t(1));
  }

  void aSampleThatLostItsWayStartsAgain() {
    // Given up by the guard's patience: with restarts it starts again from
    // its feed, and the last try ends as it ends.
    auto s0 = biased(Tokenizer::kEndHole);
    const int open = s0.tokenizer().encode("{")[0], close = s0.tokenizer().encode("}")[0];
    auto blocked = biased(close, open);
    SampleOptions o;
    o.guardPatience = 3;
    o.maxNewTokens = 40;
    o.restarts = 2;
    auto out = blocked.sample({"kernel void [HOLE]"}, 2, o);
    QCOMPARE(out.size(), std::size_t(2));
    for (const auto& x : out) {
      QVERIFY(!x.complete);
      QCOMPARE(x.restarts, 2);
      QCOMPARE(x.text, std::string("kernel void { } { } { [HOLE]")); // the model is deterministic here
    }
    o.restarts = 0;
    QCOMPARE(blocked.sample({"kernel void [HOLE]"}, 1, o)[0].restarts, 0);

    // A last hole whose kernel keeps an error after the checks' patience
    // starts again instead of closing, until the restarts are spent.
    auto stopper = biased(Tokenizer::kEndHole);
    const std::string feed = "kernel void A ( ) { [HOLE] }";
    SampleOptions c;
    c.temperature = 0;
    c.checkPatience = 3;
    c.restarts = 2;
    c.rememberChecks = false; // every check a call (the second verdict below changes with the count)
    RecordingCheck failing{[](const std::string& text) { return text.size() - 1; }};
    c.check = failing;
    out = stopper.sample({feed}, 1, c);
    QVERIFY(out[0].complete); // the last try closes as it is
    QCOMPARE(out[0].restarts, 2);
    QCOMPARE(failing.seen->size(), std::size_t(9)); // 3 checks a try
    // It compiles on the fifth check: the second try closes there.
    int calls = 0;
    RecordingCheck laterOk{[&](const std::string& text) { return ++calls < 5 ? text.size() - 1 : std::string::npos; }};
    c.check = laterOk;
    out = stopper.sample({feed}, 1, c);
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].restarts, 1);
    QCOMPARE(laterOk.seen->size(), std::size_t(5));
  }

  void aRowHeldToItsTargetWritesOnUntilNear() {
    // SampleOptions::targetCheck: a row asked for counts may close neither
    // its hole nor its kernel's body while the check says it is short. The
    // model wants to stop at once, else to write `;`.
    const int semi = fixtureTokenizer().encode(";")[0];
    auto s = biasedConditionedDecoder(Tokenizer::kEndHole, semi);
    const std::string feed = "kernel void A ( ) { [HOLE]";
    SampleOptions o = heldGreedy();
    std::vector<std::string> asked;
    o.targetCheck = [&](const std::string& text, const std::vector<double>& t) {
      asked.push_back(text);
      return t == o.target && asked.size() < 3 ? SampleOptions::kShortOfTarget : std::string::npos;
    };
    const auto& tok = s.tokenizer();
    auto out = s.sample({feed}, 1, o);
    QVERIFY(out[0].complete);
    QVERIFY(!out[0].cut);
    QCOMPARE(out[0].text, tok.decode(tok.encode("kernel void A ( ) { ; ; ; }")));
    QCOMPARE(asked.size(), std::size_t(4)); // each `;` a statement checked toward the target, then the body's `}`
    // Without a target the check is not asked and the row closes at once.
    asked.clear();
    SampleOptions free = o;
    free.target.clear();
    QCOMPARE(s.sample({feed}, 1, free)[0].text, tok.decode(tok.encode("kernel void A ( ) { }")));
    QVERIFY(asked.empty());
    // Short to the end: given up at the token limit, the sample is the
    // kernel as its last checked statement left it, its block closed.
    o.targetCheck = [&](const std::string& text, const std::vector<double>&) {
      asked.push_back(text);
      return SampleOptions::kShortOfTarget;
    };
    o.maxNewTokens = 4;
    out = s.sample({feed}, 1, o);
    QVERIFY(out[0].cut);
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].text, asked.back());
    QCOMPARE(out[0].text, tok.decode(tok.encode("kernel void A ( ) { ; ; ; ;")) + "\n}"); // the check's closers
    QCOMPARE(out[0].newTokens, 5); // four `;` and the closing brace
    // With a whole kernel's check, it ends at the longest checked kernel that
    // passes it; with none that does, it is not complete.
    const std::string two = tok.decode(tok.encode("kernel void A ( ) { ; ;")) + "\n}";
    SampleOptions whole = o;
    std::vector<std::string> judged;
    whole.wholeCheck = [&](const std::string& text) {
      judged.push_back(text);
      return text.size() <= two.size() ? std::string::npos : text.size() - 1;
    };
    out = s.sample({feed}, 1, whole);
    QVERIFY(out[0].cut);
    QCOMPARE(out[0].text, two);
    QCOMPARE(judged.size(), std::size_t(3)); // four `;`, three, two
    whole.wholeCheck = [](const std::string& text) { return text.size() - 1; };
    out = s.sample({feed}, 1, whole);
    QVERIFY(!out[0].cut);
    QVERIFY(!out[0].complete);
    // A feed with text after its hole is not held (its checked text is not the kernel).
    asked.clear();
    out = s.sample({"kernel void A ( ) { [HOLE] }"}, 1, o);
    QVERIFY(!out[0].cut);
    QCOMPARE(out[0].text, tok.decode(tok.encode("kernel void A ( ) { }")));
    QVERIFY(asked.empty());
  }

  void aHeldRowLeansAsItsLastPassedStatementSays() {
    // SampleOptions::heldLean is asked, for a held row, with each statement
    // that passed its target check (short or near) and the row's target;
    // what it returns is added to that row's logits (shapeLogits).
    const int semi = fixtureTokenizer().encode(";")[0];
    auto s = biasedConditionedDecoder(Tokenizer::kEndHole, semi);
    SampleOptions o = heldGreedy();
    int checks = 0;
    o.targetCheck = [&](const std::string& text, const std::vector<double>&) {
      ++checks;
      if (checks == 2) return text.rfind(';'); // the second statement fails: taken back, no lean
      return checks < 4 ? SampleOptions::kShortOfTarget : std::string::npos;
    };
    std::vector<std::string> leaned;
    o.heldLean = [&](const std::string& text, const std::vector<double>& target) {
      leaned.push_back(text);
      if (target != o.target) leaned.push_back("a wrong target");
      return std::vector<std::pair<int, float>>{{semi, 0.5f}};
    };
    auto out = s.sample({"kernel void A ( ) { [HOLE]"}, 1, o);
    QVERIFY(out[0].complete);
    QVERIFY(checks >= 4);
    QCOMPARE(leaned.size(), std::size_t(checks - 1)); // every statement that passed
    QVERIFY(std::find(leaned.begin(), leaned.end(), "a wrong target") == leaned.end());
    // Not asked for a row without a target.
    leaned.clear();
    SampleOptions free = o;
    free.target.clear();
    (void)s.sample({"kernel void A ( ) { [HOLE]"}, 1, free);
    QVERIFY(leaned.empty());
    // The lean is added to its row's logits, and only to its row's.
    std::vector<SampleRow> rows(2);
    rows[0].lean = {{semi, 2.5f}};
    const std::int64_t vocab = s.tokenizer().size();
    std::vector<float> logits(std::size_t(2 * vocab), 1.0f);
    std::vector<std::uint8_t> banned;
    SampleOptions plain;
    plain.guard = false;
    shapeLogits(logits.data(), vocab, rows, {0, 0}, plain, nullptr, banned);
    QCOMPARE(logits[std::size_t(semi)], 3.5f);
    QCOMPARE(logits[std::size_t(vocab + semi)], 1.0f);
  }

  void theEndHoleRampGrowsWithTheInfill() {
    // [ENDHOLE]'s logit gets the flat bias, and the ramp once for each
    // token its row has written; no other token moves.
    std::vector<SampleRow> rows(2);
    rows[1].newTokens = 3;
    const std::int64_t vocab = Tokenizer::kMetaCount + 4;
    std::vector<float> logits(std::size_t(2 * vocab), 1.0f);
    std::vector<std::uint8_t> banned;
    SampleOptions o;
    o.guard = false;
    o.endHoleBias = 4.0;
    o.endHoleRamp = 1.5;
    shapeLogits(logits.data(), vocab, rows, {0, 0}, o, nullptr, banned);
    QCOMPARE(logits[std::size_t(Tokenizer::kEndHole)], 5.0f);
    QCOMPARE(logits[std::size_t(vocab + Tokenizer::kEndHole)], 9.5f);
    QCOMPARE(logits[std::size_t(vocab - 1)], 1.0f);
    QCOMPARE(logits[std::size_t(2 * vocab - 1)], 1.0f);
    // Without a ramp, the flat bias alone, however long the infill.
    o.endHoleRamp = 0.0;
    std::fill(logits.begin(), logits.end(), 1.0f);
    shapeLogits(logits.data(), vocab, rows, {0, 0}, o, nullptr, banned);
    QCOMPARE(logits[std::size_t(vocab + Tokenizer::kEndHole)], 5.0f);
  }

  void aGivenUpRowEndsAtEachTrysLongestFirst() {
    // heldRowEnd: every try's longest text is judged before any try's
    // second; texts are judged tidied, each once, at most kHeldEndTries.
    SampleOptions o;
    std::vector<std::string> judged;
    o.wholeCheck = [&](const std::string& text) {
      judged.push_back(text);
      return text.size() >= 3 ? std::size_t(0) : std::string::npos;
    };
    auto end = heldRowEnd({{"aa", "aaaa", "aaa"}, {"bb"}}, o);
    QVERIFY(end);
    QCOMPARE(*end, std::string("bb"));
    QCOMPARE(judged, (std::vector<std::string>{"aaaa", "bb"})); // not try one's "aaa" first
    // Within a try, longest first once the tries' longest have failed.
    judged.clear();
    end = heldRowEnd({{"a", "aaaa", "aaa"}, {"bbbb"}}, o);
    QVERIFY(end);
    QCOMPARE(*end, std::string("a"));
    QCOMPARE(judged, (std::vector<std::string>{"aaaa", "bbbb", "aaa", "a"}));
    // Tidied, a text met twice is judged once.
    judged.clear();
    o.tidy = [](const std::string& text) { return text.substr(0, 4); };
    QVERIFY(!heldRowEnd({{"ccccx"}, {"ccccy"}, {"cccc"}}, o));
    QCOMPARE(judged, (std::vector<std::string>{"cccc"}));
    // At most kHeldEndTries texts: a passing text beyond them is not reached.
    judged.clear();
    o.tidy = nullptr;
    std::vector<std::vector<std::string>> tries;
    for (int i = 0; i < kHeldEndTries; ++i)
      tries.push_back({std::string(4, char('d' + i))});
    tries.push_back({"e"});
    QVERIFY(!heldRowEnd(tries, o));
    QCOMPARE(judged.size(), std::size_t(kHeldEndTries));
    // Without a whole check, the longest; with no texts, none.
    o.wholeCheck = nullptr;
    QCOMPARE(*heldRowEnd({{"a", "aaa"}, {"bb"}}, o), std::string("aaa"));
    QVERIFY(!heldRowEnd({{}, {}}, o));
  }

  void tidyAllRewritesEveryWholeKernelSample() {
    // SampleOptions::tidy rewrites held rows only, unless tidyAll: then every
    // complete sample of a feed with both true ends, before the whole
    // kernel's check judges it; a window's sample stays as written.
    auto s = biased(Tokenizer::kEndHole); // closes every hole at once
    const std::string tidied = "kernel void A ( ) { }";
    SampleOptions o;
    o.temperature = 0;
    o.streams = 1;
    o.checkJobs = 1;
    o.rememberChecks = false;
    o.check = [](const std::string&) { return std::string::npos; };
    std::vector<std::string> judged;
    o.wholeCheck = [&](const std::string& text) {
      judged.push_back(text);
      return std::string::npos;
    };
    o.tidy = [&](const std::string&) { return tidied; };
    const std::string feed = "kernel void A ( ) { int b ; [HOLE] }";
    auto out = s.sample({feed}, 1, o);
    QVERIFY(out[0].complete);
    QVERIFY(out[0].text != tidied);
    QVERIFY(std::find(judged.begin(), judged.end(), tidied) == judged.end());
    o.tidyAll = true;
    judged.clear();
    out = s.sample({feed}, 1, o);
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].text, tidied);
    QCOMPARE(out[0].ids, s.tokenizer().encode(tidied));
    QVERIFY(std::find(judged.begin(), judged.end(), tidied) != judged.end());
    o.feedEnds = {SampleOptions::kHasStart};
    out = s.sample({feed}, 1, o);
    QVERIFY(out[0].text != tidied);
  }

  void checksTogetherGiveTheSameSamples() {
    // checkMany gets a step's statements at once (clangfe::firstErrorOffsets
    // compiles them together); with the same verdicts as `check`, rows
    // write the same samples as with `check` alone.
    auto s = randomDecoderSampler(3);
    {
      torch::NoGradGuard ng; // `;` often, so that rows end statements in the same steps
      s.impl().model->named_parameters()["head.bias"][s.tokenizer().encode(";")[0]] += 4.0;
    }
    const auto verdict = [](const std::string& text) {
      return std::hash<std::string>{}(text) % 3 == 0 ? text.size() - 3 : std::string::npos;
    };
    SampleOptions o;
    o.seed = 5;
    o.maxNewTokens = 24;
    o.streams = 1;
    o.checkJobs = 2;
    o.rememberChecks = false;
    o.check = verdict;
    const auto alone = s.sample({"kernel void A ( global int * a ) { [HOLE] }"}, 16, o);
    auto calls = std::make_shared<std::vector<std::size_t>>();
    auto m = std::make_shared<std::mutex>();
    o.checkMany = [&, calls, m](const std::vector<std::string>& texts) {
      {
        std::lock_guard lock(*m);
        calls->push_back(texts.size());
      }
      std::vector<std::size_t> out;
      for (const auto& t : texts)
        out.push_back(verdict(t));
      return out;
    };
    for (const bool remember : {false, true}) {
      o.rememberChecks = remember;
      calls->clear();
      const auto together = s.sample({"kernel void A ( global int * a ) { [HOLE] }"}, 16, o);
      QCOMPARE(together.size(), alone.size());
      for (std::size_t i = 0; i < alone.size(); ++i) {
        QCOMPARE(together[i].text, alone[i].text);
        QCOMPARE(together[i].complete, alone[i].complete);
      }
      QVERIFY(!calls->empty());
      if (!remember) QVERIFY(*std::max_element(calls->begin(), calls->end()) >= 2); // several statements a call
    }
  }

  void rememberedChecksCallOncePerText() {
    std::vector<std::string> calls;
    auto remembered = rememberedChecks(
        [&](const std::string& t) {
          calls.push_back(t);
          return t.size();
        },
        2);
    QCOMPARE(remembered("ab"), std::size_t(2));
    QCOMPARE(remembered("ab"), std::size_t(2)); // remembered: no call
    QCOMPARE(remembered("c"), std::size_t(1));
    QCOMPARE(calls.size(), std::size_t(2));
    QCOMPARE(remembered("def"), std::size_t(3)); // full: it forgets all, then keeps this one
    QCOMPARE(remembered("ab"), std::size_t(2));
    QCOMPARE(remembered("def"), std::size_t(3));
    QCOMPARE(calls, (std::vector<std::string>{"ab", "c", "def", "ab"}));
  }

  void aLengthFloorKeepsTheHoleAndTheKernelOpen() {
    auto s0 = biased(Tokenizer::kEndHole);
    const int semi = s0.tokenizer().encode(";")[0], close = s0.tokenizer().encode("}")[0];
    SampleOptions o;
    o.temperature = 0;
    o.minNewTokens = 3;
    o.check = {};
    // The model wants to stop at once, then `;`: the floor makes it write three.
    auto stopper = biased(Tokenizer::kEndHole, semi);
    auto out = stopper.sample({"kernel void A ( ) { [HOLE] }"}, 1, o);
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].newTokens, 3);
    // The model wants to close the kernel's body, then `;`: the body stays
    // open until the floor, then closes.
    auto closer = biased(close, semi);
    auto startsWith = [&](const Sample& x, const char* text) {
      const auto want = closer.tokenizer().encode(text);
      return x.ids.size() >= want.size() && std::equal(want.begin(), want.end(), x.ids.begin());
    };
    out = closer.sample({"kernel void A ( ) { [HOLE]"}, 1, o);
    QVERIFY(startsWith(out[0], "kernel void A ( ) { ; ; ; }"));
    o.minNewTokens = 0;
    out = closer.sample({"kernel void A ( ) { [HOLE]"}, 1, o);
    QVERIFY(startsWith(out[0], "kernel void A ( ) { }"));

    // The soft prior: closing the body is 10 logits ahead of `;`. A bias of
    // -5 leaves it ahead; one of -20 keeps the body open to the token limit,
    // while an inner block still closes as the model wants.
    o.maxNewTokens = 4;
    o.closeBias = -5;
    out = closer.sample({"kernel void A ( ) { [HOLE]"}, 1, o);
    QVERIFY(startsWith(out[0], "kernel void A ( ) { }"));
    o.closeBias = -20;
    out = closer.sample({"kernel void A ( ) { [HOLE]"}, 1, o);
    QVERIFY(!out[0].complete);
    QCOMPARE(out[0].newTokens, 4);
    QVERIFY(startsWith(out[0], "kernel void A ( ) { ; ; ; ;"));
    out = closer.sample({"kernel void A ( ) { { [HOLE]"}, 1, o);
    QVERIFY(startsWith(out[0], "kernel void A ( ) { { } ; ; ;"));
  }

  void aHoleThatRepeatsTheTextAfterItClosesWhereTheRepetitionStarts() {
    // The model writes `;` for ever; the text after the hole starts `; ; ;`.
    auto writer = biased(biased(Tokenizer::kEndHole).tokenizer().encode(";")[0]);
    SampleOptions o;
    o.temperature = 0;
    o.check = {};
    o.maxNewTokens = 10;
    const std::string feed = "kernel void A ( ) { [HOLE] ; ; ; }";
    auto out = writer.sample({feed}, 1, o); // three repeated: dropped, and the hole closes
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].newTokens, 0);
    QCOMPARE(out[0].text, writer.tokenizer().decode(writer.tokenizer().encode("kernel void A ( ) { ; ; ; }")));
    o.minNewTokens = 2; // the floor is kept: two stay
    out = writer.sample({feed}, 1, o);
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].newTokens, 2);
    // With compiler checks, the kernel is checked whole as the hole closes
    // there; one in error takes the infill back and the hole stays open.
    o.minNewTokens = 0;
    RecordingCheck clean{[](const std::string&) { return std::string::npos; }};
    o.check = clean;
    out = writer.sample({feed}, 1, o);
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].newTokens, 0);
    QVERIFY(!clean.seen->empty());
    QCOMPARE(clean.seen->back(), out[0].text);
    RecordingCheck broken{[](const std::string& text) { return text.size() - 1; }}; // every text ends in error
    o.check = broken;
    out = writer.sample({feed}, 1, o);
    QVERIFY(!out[0].complete); // given up: its checks' patience spent
    o.check = {};
    o.minNewTokens = 0;
    o.closeOnRepeat = 0; // off: the model runs to the token limit
    out = writer.sample({feed}, 1, o);
    QVERIFY(!out[0].complete);
    QCOMPARE(out[0].newTokens, 10);
    o.closeOnRepeat = 4; // more than the text after the hole holds before `}`: never
    out = writer.sample({"kernel void A ( ) { [HOLE] ; ; }"}, 1, o);
    QVERIFY(!out[0].complete);
  }

  void aRepetitionClosesTheHoleOnlyWhereTheGuardLetsIt() {
    // The model writes `0` for ever; the text after the hole starts with `0`.
    auto writer = biased(biased(Tokenizer::kEndHole).tokenizer().encode("0")[0]);
    auto o = greedyUnchecked();
    o.maxNewTokens = 6;
    o.closeOnRepeat = 1;
    o.typedArguments = true;
    // exp takes one argument: the repetition closes the hole.
    auto out = writer.sample({"kernel void A ( global float * a ) { a [ 0 ] = exp ( [HOLE] 0 ) ; }"}, 1, o);
    QVERIFY(out[0].complete);
    QCOMPARE(out[0].newTokens, 0);
    // Closed there, exp would have two: the guard keeps the hole open, as it
    // would keep [ENDHOLE] from being sampled.
    const std::string two = "kernel void A ( global float * a ) { a [ 0 ] = exp ( [HOLE] 0 , 0 ) ; }";
    out = writer.sample({two}, 1, o);
    QVERIFY(!out[0].complete);
    QCOMPARE(out[0].newTokens, 6);
    o.typedArguments = false; // without the builtin-call rule it closes
    out = writer.sample({two}, 1, o);
    QVERIFY(out[0].complete);
  }

  void holesWithTextAfterThemAreInfills() {
    QVERIFY(!fillsBetweenText({"kernel void [HOLE]", "kernel void A ( ) { [HOLE] \n "}));
    QVERIFY(fillsBetweenText({"kernel void [HOLE]", "kernel void A ( ) { [HOLE] }"}));
    QVERIFY(fillsBetweenText({"kernel void A ( [HOLE] ) { [HOLE]"}));
    QVERIFY(!fillsBetweenText({}));
  }

  void aFeedsOwnFloorHoldsOnlyForThatFeed() {
    // The model wants to stop at once, then `;`. Two feeds, floors 1 and 0:
    // the first writes one token, the second none, in the same batch.
    auto stopper = stopperThenSemicolon();
    const int semi = stopper.tokenizer().encode(";")[0];
    auto o = greedyUnchecked();
    o.feedMinNewTokens = {1, 0};
    auto out = stopper.sample({"kernel void A ( ) { [HOLE] }", "kernel void B ( ) { [HOLE] }"}, 4, o);
    QCOMPARE(out.size(), std::size_t(4));
    for (const auto& x : out) {
      QVERIFY(x.complete);
      QCOMPARE(x.newTokens, x.feed == 0 ? 1 : 0);
    }
    o.feedMinNewTokens = {1, 1, 1};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)stopper.sample({"kernel void A ( ) { [HOLE] }"}, 1, o));
  }

  void aFillThatRebuildsWhatTheHoleReplacedIsDrawnAgain() {
    // The model wants to stop at once, then `;`; a floor of one token makes
    // every fill `;`. Where the hole replaced `;`, each fill is the feed's own
    // kernel again: drawn again `redraws` times, then kept.
    auto stopper = stopperThenSemicolon();
    const int semi = stopper.tokenizer().encode(";")[0];
    auto o = greedyUnchecked();
    o.minNewTokens = 1;
    o.redraws = 3;
    const std::vector<std::string> feeds = {"kernel void A ( ) { [HOLE] }", "kernel void B ( ) { [HOLE] }"};
    o.feedReplaced = {{semi}, stopper.tokenizer().encode("return ;")};
    auto out = stopper.sample(feeds, 2, o);
    QCOMPARE(out.size(), std::size_t(2));
    for (const auto& x : out) {
      QVERIFY(x.complete);
      QCOMPARE(x.newTokens, 1);
      QCOMPARE(x.redraws, x.feed == 0 ? 3 : 0); // feed 1's hole replaced other tokens
    }
    // A hole that replaced nothing: an empty fill is the copy.
    o.minNewTokens = 0;
    o.feedReplaced = {{}, {semi}};
    out = stopper.sample(feeds, 2, o);
    QCOMPARE(out[0].redraws, 3);
    QCOMPARE(out[0].newTokens, 0);
    QCOMPARE(out[1].redraws, 0);
    o.redraws = 0; // none: the copy is kept at once
    QCOMPARE(stopper.sample(feeds, 1, o)[0].redraws, 0);
    o.feedReplaced = {{semi}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)stopper.sample(feeds, 1, o));
    o.feedReplaced = {{semi}}; // for one-hole feeds only
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             (void)stopper.sample({"kernel void A ( ) { [HOLE] ; [HOLE] }"}, 1, o));
  }

  void aFeedsTokenBiasLeansOnlyThatFeedsRows() {
    // The model wants to stop at once, then `;`. Feed 0 leans 20 toward `;`
    // (past [ENDHOLE]): its rows write `;` to the token limit; feed 1's stop.
    auto stopper = stopperThenSemicolon();
    const int semi = stopper.tokenizer().encode(";")[0];
    auto o = greedyUnchecked();
    o.maxNewTokens = 3;
    o.feedTokenBias = {{{semi, 20.0f}}, {}};
    auto out = stopper.sample({"kernel void A ( ) { [HOLE] }", "kernel void B ( ) { [HOLE] }"}, 4, o);
    QCOMPARE(out.size(), std::size_t(4));
    for (const auto& x : out) {
      QCOMPARE(x.complete, x.feed == 1);
      QCOMPARE(x.newTokens, x.feed == 0 ? 3 : 0);
    }
    // A negative bias takes a token away: [ENDHOLE] 20 down, `;` wins everywhere.
    o.feedTokenBias = {{{Tokenizer::kEndHole, -20.0f}}};
    for (const auto& x : stopper.sample({"kernel void A ( ) { [HOLE] }"}, 2, o))
      QCOMPARE(x.newTokens, 3);
    o.feedTokenBias = {{}, {}, {}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)stopper.sample({"kernel void A ( ) { [HOLE] }"}, 1, o));
    o.feedTokenBias = {{{stopper.tokenizer().size(), 1.0f}}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)stopper.sample({"kernel void A ( ) { [HOLE] }"}, 1, o));
  }

  void batchingDoesNotChangeWhatARowGets() {
    // Rows are encoded in length groups, each padded to its own longest: a
    // row's infill (most likely tokens) must be the same alone or batched
    // with rows of other lengths.
    auto s = randomSampler(3);
    // Seven short feeds and a long one (the tiny model takes 64 tokens): the
    // long row is encoded apart from the short ones.
    std::vector<std::string> feeds = {"kernel void [HOLE]", "[HOLE] ;", "a [HOLE] b", "kernel [HOLE] }",
                                      "( [HOLE] )", "{ [HOLE]", "void [HOLE] int"};
    std::string longFeed = "kernel void A ( global float * a ) { [HOLE]";
    while (s.tokenizer().encode(longFeed).size() < 44)
      longFeed += " a [ 0 ] = 1 ;";
    feeds.push_back(longFeed + " }");
    SampleOptions o;
    o.temperature = 0;
    o.maxNewTokens = 6;
    std::map<std::size_t, std::string> alone, together;
    o.batchSize = 1;
    for (const auto& x : s.sample(feeds, 8, o))
      alone[x.feed] = x.text;
    o.batchSize = 8;
    for (const auto& x : s.sample(feeds, 8, o))
      together[x.feed] = x.text;
    QCOMPARE(together.size(), std::size_t(8));
    QCOMPARE(together, alone);
  }

  void streamsSampleTheQueueInOrder() {
    // Several streams (each a batch of its own, on its own thread): the same
    // seed gives the same samples, handed to `done` on the calling thread in
    // queue order; the most likely tokens do not depend on the stream count.
    auto s = randomSampler(5);
    const std::vector<std::string> feeds = {"kernel void [HOLE]", "a [HOLE] b", "{ [HOLE] }"};
    SampleOptions o;
    o.temperature = 1.0;
    o.maxNewTokens = 12;
    o.seed = 9;
    o.batchSize = 2;
    o.streams = 2;
    std::vector<std::size_t> order;
    bool onCaller = true;
    const auto caller = std::this_thread::get_id();
    const auto a = s.sample(feeds, 7, o, [&](const Sample& x) {
      order.push_back(x.index);
      onCaller = onCaller && std::this_thread::get_id() == caller;
    });
    QVERIFY(onCaller);
    QCOMPARE(order, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6}));
    QCOMPARE(a.size(), std::size_t(7));
    for (std::size_t i = 0; i < a.size(); ++i) {
      QCOMPARE(a[i].index, i);
      QCOMPARE(a[i].feed, i % feeds.size());
    }
    const auto b = s.sample(feeds, 7, o);
    for (std::size_t i = 0; i < a.size(); ++i)
      QCOMPARE(b[i].ids, a[i].ids);

    o.temperature = 0;
    o.streams = 1;
    const auto one = s.sample(feeds, 7, o);
    o.streams = 3;
    const auto three = s.sample(feeds, 7, o);
    for (std::size_t i = 0; i < one.size(); ++i)
      QCOMPARE(QString::fromStdString(three[i].text + " #" + std::to_string(i)), QString::fromStdString(one[i].text + " #" + std::to_string(i)));
  }

  void aStreamsFailureReachesTheCaller() {
    auto s = biased(Tokenizer::kEndHole);
    SampleOptions o;
    o.batchSize = 1;
    o.streams = 2;
    int seen = 0;
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, (void)s.sample({"kernel void [HOLE]"}, 6, o, [&](const Sample&) {
      if (++seen == 3) throw std::runtime_error("the store is full");
    }));
    QCOMPARE(seen, 3); // nothing more after the failure
  }

  void feedsWithoutHolesAreRefused() {
    auto s = biased(Tokenizer::kEndHole);
    QVERIFY_THROWS_EXCEPTION(InputError, (void)s.sample({"kernel void f() {}"}, 1, SampleOptions{}));
  }
};

QTEST_APPLESS_MAIN(TestSampler)
#include "tst_sampler.moc"

// The libtorch encoder and its checkpoints, on a tiny model.
// torch first: Qt's keywords are off in this file (QT_NO_KEYWORDS).
#include "model/InfillModel.h"

#include "TinyCheckpoint.h"

#include "common/Error.h"
#include "model/Datapoints.h"
#include "model/Tokenizer.h"
#include "model/TrainingSession.h"
#include "model/TrainingStep.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <random>

#include <fstream>

using namespace steerbench;
using namespace steerbench::model;

using tinycheckpoint::infoFor;
using tinycheckpoint::tiny;

class TestInfillModel : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void initTestCase() {
    torch::manual_seed(1);
    torch::set_num_threads(1);
  }

  void shapesAndPaddingInvariance() {
    InfillModel m(tiny());
    m->eval();
    torch::NoGradGuard ng;
    auto a = torch::tensor({1, 10, 11, 12, 2}, torch::kLong).unsqueeze(0);
    const auto alone = m->forward(a);
    QCOMPARE(alone.size(0), 1);
    QCOMPARE(alone.size(1), 5);
    QCOMPARE(alone.size(2), 40);
    // The same row in a batch, padded to a longer one: same logits where it has tokens.
    auto batch = torch::tensor({1, 10, 11, 12, 2, 0, 0, 1, 13, 14, 15, 16, 17, 2}, torch::kLong).view({2, 7});
    batch.index_put_({0, 5}, 0);
    batch.index_put_({0, 6}, 0);
    auto pad = batch.eq(Tokenizer::kPad);
    const auto padded = m->forward(batch, pad);
    QVERIFY(torch::allclose(padded.index({0, torch::indexing::Slice(0, 5)}), alone[0], 1e-4, 1e-5));
  }

  void fusedInferenceMatchesTheModule() {
    // Sampling runs ATen's fused encoder layers (no grad mode); training runs
    // the module. Same weights, same numbers, with and without padding.
    InfillModel m(tiny());
    m->eval();
    auto batch = torch::tensor({1, 10, 11, 12, 2, 0, 0, 1, 13, 14, 15, 16, 17, 2}, torch::kLong).view({2, 7});
    auto pad = batch.eq(Tokenizer::kPad);
    torch::Tensor slow, slowAlone;
    {
      torch::AutoGradMode on(true);
      slow = m->forward(batch, pad).detach();
      slowAlone = m->forward(batch.index({torch::indexing::Slice(1, 2)})).detach();
    }
    torch::NoGradGuard ng;
    const auto fast = m->forward(batch, pad);
    QVERIFY(torch::allclose(fast.index({0, torch::indexing::Slice(0, 5)}), slow.index({0, torch::indexing::Slice(0, 5)}),
                            1e-4, 1e-5));
    QVERIFY(torch::allclose(fast[1], slow[1], 1e-4, 1e-5));
    QVERIFY(torch::allclose(m->forward(batch.index({torch::indexing::Slice(1, 2)})), slowAlone, 1e-4, 1e-5));
  }

  void encodeAtMatchesTheWholeEncoding() {
    // Sampling reads one position per row, and the last layer computes it
    // alone: the same numbers as the whole encoding there, padded or not.
    ModelConfig c = tiny();
    c.layers = 2;
    InfillModel m(c);
    m->eval();
    torch::NoGradGuard ng;
    auto batch = torch::tensor({1, 10, 11, 12, 2, 0, 0, 1, 13, 14, 15, 16, 17, 2}, torch::kLong).view({2, 7});
    auto pad = batch.eq(Tokenizer::kPad);
    const auto whole = m->encode(batch, pad);
    for (const auto& at : {std::vector<std::int64_t>{4, 0}, std::vector<std::int64_t>{1, 6}}) {
      const auto some = m->encodeAt(batch, pad, torch::tensor(at));
      QCOMPARE(some.size(0), 2);
      for (std::int64_t b = 0; b < 2; ++b)
        QVERIFY(torch::allclose(some[b], whole[b][at[std::size_t(b)]], 1e-4, 1e-5));
    }
    const auto one = m->encodeAt(batch.index({torch::indexing::Slice(1, 2)}), {}, torch::tensor({std::int64_t(3)}));
    QVERIFY(torch::allclose(one[0], whole[1][3], 1e-4, 1e-5));
  }

  void decoderIsCausal() {
    // A decoder's position t reads positions 0..t only: changing a later
    // token changes nothing before it; and padding at the end changes nothing.
    ModelConfig c = tiny();
    c.arch = ModelConfig::Arch::Decoder;
    c.layers = 2;
    InfillModel m(c);
    m->eval();
    auto a = torch::tensor({1, 10, 11, 12, 13, 2}, torch::kLong).unsqueeze(0);
    auto b = torch::tensor({1, 10, 11, 19, 18, 2}, torch::kLong).unsqueeze(0);
    const auto ea = m->encode(a), eb = m->encode(b);
    using torch::indexing::Slice;
    QVERIFY(torch::allclose(ea.index({0, Slice(0, 3)}), eb.index({0, Slice(0, 3)}), 1e-5, 1e-6));
    QVERIFY(!torch::allclose(ea.index({0, 3}), eb.index({0, 3}), 1e-3, 1e-4));
    auto padded = torch::tensor({1, 10, 11, 12, 13, 2, 0, 0}, torch::kLong).unsqueeze(0);
    QVERIFY(torch::allclose(m->encode(padded, padded.eq(Tokenizer::kPad)).index({0, Slice(0, 6)}), ea[0], 1e-5, 1e-6));
  }

  void aStepInLengthGroupsHasTheGradientsOfOnePaddedBatch_data() {
    QTest::addColumn<bool>("decoder");
    QTest::newRow("encoder") << false;
    QTest::newRow("decoder") << true;
  }
  void aStepInLengthGroupsHasTheGradientsOfOnePaddedBatch() {
    // Short and long datapoints in one step: run in groups of similar length,
    // their gradients and loss must be the label-weighted sum of each point's
    // own (each alone, unpadded), so padding and grouping change nothing.
    QFETCH(bool, decoder);
    ModelConfig c = tiny();
    if (decoder) c.arch = ModelConfig::Arch::Decoder;
    InfillModel m(c);
    m->train();
    std::mt19937 rng(3);
    std::vector<Datapoint> points;
    for (int length : {3, 30, 4, 28, 5, 31, 6, 29, 4}) {
      Datapoint p;
      for (int t = 0; t < length; ++t) {
        p.inputs.push_back(int(Tokenizer::kMetaCount + rng() % unsigned(c.vocab - Tokenizer::kMetaCount)));
        p.labels.push_back(t % 3 == 1 ? int(Tokenizer::kMetaCount + rng() % 10) : Datapoint::kIgnore);
      }
      points.push_back(p);
    }
    auto gradients = [&] {
      std::vector<torch::Tensor> g;
      for (const auto& p : m->parameters()) g.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
      return g;
    };
    m->zero_grad();
    const auto [loss, tokens, labels] = backwardInGroups(m, points);
    const auto grouped = gradients();
    QVERIFY2(tokens < std::int64_t(points.size()) * 31, "the short points were padded to the longest");
    double total = 0, expectedLoss = 0;
    for (const auto& p : points) total += p.labelCount();
    std::vector<torch::Tensor> expected;
    for (const auto& p : points) {
      m->zero_grad();
      const double own = backwardInGroups(m, {p}).loss;
      expectedLoss += own * p.labelCount() / total;
      const auto g = gradients();
      if (expected.empty())
        for (const auto& x : g) expected.push_back(x * (p.labelCount() / total));
      else
        for (std::size_t i = 0; i < g.size(); ++i) expected[i] += g[i] * (p.labelCount() / total);
    }
    QVERIFY(std::abs(loss - expectedLoss) < 1e-5);
    for (std::size_t i = 0; i < grouped.size(); ++i)
      QVERIFY2(torch::allclose(grouped[i], expected[i], 1e-4, 1e-6), qPrintable(QStringLiteral("parameter %1").arg(i)));
  }

  void cachedDecodingMatchesTheWholeForward_data() {
    QTest::addColumn<bool>("packed");
    QTest::addRow("libtorch's products") << false;
    QTest::addRow("packed weights") << true; // as the sampler runs it
  }
  void cachedDecodingMatchesTheWholeForward() {
    // Sampling runs a decoder a few tokens at a time on a key/value cache:
    // a prefill, one-token steps of several rows at once in other slots, a
    // take-back (writing again from an earlier position): at every position
    // the same hidden state as the whole sequence in one forward pass.
    QFETCH(bool, packed);
    ModelConfig c = tiny();
    c.arch = ModelConfig::Arch::Decoder;
    c.layers = 2;
    InfillModel m(c);
    m->eval();
    const std::vector<std::int64_t> x = {1, 10, 11, 3, 12, 2, 5, 13, 14, 15}, y = {1, 20, 21, 22, 3, 2, 5, 23};
    torch::Tensor wholeX, wholeY;
    {
      torch::AutoGradMode on(true); // the training path (the module, a causal mask)
      wholeX = m->encode(torch::tensor(x).unsqueeze(0))[0].detach();
      wholeY = m->encode(torch::tensor(y).unsqueeze(0))[0].detach();
    }
    c10::InferenceMode inference;
    const DecodeWeights weights = m->packForDecoding();
    const DecodeWeights* w = packed ? &weights : nullptr;
    auto cache = m->makeCache(3);
    auto slot = [](std::int64_t s) { return torch::tensor(std::vector<std::int64_t>{s}); };
    using torch::indexing::Slice;
    // x in slot 2: its first 6 tokens at once.
    auto h = m->decode(torch::tensor(x).index({Slice(0, 6)}).unsqueeze(0), slot(2), slot(0), cache, w);
    QVERIFY(torch::allclose(h[0], wholeX.index({Slice(0, 6)}), 1e-4, 1e-5));
    // y in slot 0: its first 5.
    h = m->decode(torch::tensor(y).index({Slice(0, 5)}).unsqueeze(0), slot(0), slot(0), cache, w);
    QVERIFY(torch::allclose(h[0], wholeY.index({Slice(0, 5)}), 1e-4, 1e-5));
    // Both rows a token at a time, in one batch, at different positions.
    for (std::int64_t step = 0; step < 3; ++step) {
      const std::int64_t px = 6 + step, py = 5 + step;
      h = m->decode(torch::tensor(std::vector<std::int64_t>{x[std::size_t(px)], y[std::size_t(py)]}).view({2, 1}),
                    torch::tensor(std::vector<std::int64_t>{2, 0}), torch::tensor(std::vector<std::int64_t>{px, py}),
                    cache, w);
      QVERIFY(torch::allclose(h[0][0], wholeX[px], 1e-4, 1e-5));
      QVERIFY(torch::allclose(h[1][0], wholeY[py], 1e-4, 1e-5));
    }
    // Take x back to 4 tokens and write another continuation: it must match
    // that sequence's whole forward, not read the old tokens' keys.
    const std::vector<std::int64_t> z = {1, 10, 11, 3, 30, 31};
    h = m->decode(torch::tensor(std::vector<std::int64_t>{30, 31}).unsqueeze(0), slot(2), slot(4), cache, w);
    torch::Tensor wholeZ;
    {
      torch::AutoGradMode on(true);
      wholeZ = m->encode(torch::tensor(z).unsqueeze(0))[0].detach();
    }
    QVERIFY(torch::allclose(h[0], wholeZ.index({Slice(4, 6)}), 1e-4, 1e-5));
    // The logits too, since sampling reads them.
    QVERIFY(torch::allclose(m->logits(h[0][1], w), m->logits(wholeZ[5]), 1e-4, 1e-5));
  }

  void aCacheOfFewerPositionsDecodesAlike() {
    // Steering's rows are short: its cache holds fewer positions than the
    // model's, and gives the same hidden states; a position past it is an
    // error that says so.
    ModelConfig c = tiny();
    c.arch = ModelConfig::Arch::Decoder;
    InfillModel m(c);
    m->eval();
    c10::InferenceMode inference;
    auto full = m->makeCache(2), shortCache = m->makeCache(2, 12);
    QCOMPARE(full.keys.front().size(2), std::int64_t(32));
    QCOMPARE(shortCache.keys.front().size(2), std::int64_t(12));
    QCOMPARE(m->makeCache(1, 1000).keys.front().size(2), std::int64_t(32)); // never more than the model's
    const auto ids = torch::tensor(std::vector<std::int64_t>{1, 10, 11, 3, 12, 2, 5, 13, 14, 15}).unsqueeze(0);
    const auto slot = torch::tensor(std::vector<std::int64_t>{1}), from = torch::tensor(std::vector<std::int64_t>{0});
    QVERIFY(torch::equal(m->decode(ids, slot, from, full), m->decode(ids, slot, from, shortCache)));
    const auto next = torch::tensor(std::vector<std::int64_t>{16}).view({1, 1});
    QVERIFY(torch::equal(m->decode(next, slot, torch::tensor(std::vector<std::int64_t>{10}), full),
                         m->decode(next, slot, torch::tensor(std::vector<std::int64_t>{10}), shortCache)));
    try {
      (void)m->decode(next, slot, torch::tensor(std::vector<std::int64_t>{12}), shortCache);
      QFAIL("a position past the cache was written");
    } catch (const c10::Error& e) {
      QVERIFY2(std::string(e.what()).find("past the cache's 12") != std::string::npos, e.what());
    }
  }

  void decoderLearnsFillInTheMiddle() {
    // One fill-in-the-middle datapoint repeated: the loss must fall.
    ModelConfig c = tiny();
    c.arch = ModelConfig::Arch::Decoder;
    InfillModel m(c);
    torch::optim::AdamW opt(m->parameters(), torch::optim::AdamWOptions(1e-2));
    std::mt19937_64 rng(3);
    DatapointOptions o;
    o.maxLength = 32;
    const Datapoint d = makeFimDatapoint({10, 11, 12, 13, 14, 15, 16, 17}, o, rng, true);
    auto ids = torch::tensor(std::vector<std::int64_t>(d.inputs.begin(), d.inputs.end())).unsqueeze(0);
    auto labels = torch::tensor(std::vector<std::int64_t>(d.labels.begin(), d.labels.end())).unsqueeze(0);
    double first = 0, last = 0;
    for (int step = 0; step < 60; ++step) {
      opt.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(
          m->forward(ids).view({-1, 40}), labels.view({-1}),
          torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
      loss.backward();
      opt.step();
      (step == 0 ? first : last) = loss.item<double>();
    }
    QVERIFY2(last < first * 0.2, qPrintable(QString("%1 -> %2").arg(first).arg(last)));
  }

  void learnsATinyTask() {
    // One datapoint repeated: the loss must fall well below its start.
    InfillModel m(tiny());
    torch::optim::AdamW opt(m->parameters(), torch::optim::AdamWOptions(1e-2));
    std::mt19937_64 rng(3);
    DatapointOptions o;
    o.maxLength = 32;
    std::vector<int> kernel = {10, 11, 12, 13, 14, 15, 16, 17};
    const Datapoint d = makeDatapoint(kernel, o, rng);
    auto ids = torch::tensor(std::vector<std::int64_t>(d.inputs.begin(), d.inputs.end())).unsqueeze(0);
    auto labels = torch::tensor(std::vector<std::int64_t>(d.labels.begin(), d.labels.end())).unsqueeze(0);
    double first = 0, last = 0;
    for (int step = 0; step < 60; ++step) {
      opt.zero_grad();
      auto logits = m->forward(ids);
      auto loss = torch::nn::functional::cross_entropy(
          logits.view({-1, 40}), labels.view({-1}), torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
      loss.backward();
      opt.step();
      (step == 0 ? first : last) = loss.item<double>();
    }
    QVERIFY2(last < first * 0.2, qPrintable(QString("%1 -> %2").arg(first).arg(last)));
  }

  void checkpointRoundTrip() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("m.ckpt")).toStdString();
    InfillModel m(tiny());
    torch::optim::AdamW opt(m->parameters(), torch::optim::AdamWOptions(1e-3));
    // One step so the optimizer has state.
    auto ids = torch::tensor({1, 10, 3, 2}, torch::kLong).unsqueeze(0);
    m->forward(ids).sum().backward();
    opt.step();
    saveCheckpoint(path, m, &opt, infoFor(tiny()));
    QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));

    const auto info = readCheckpointInfo(path);
    QCOMPARE(info.step, std::int64_t(17));
    QCOMPARE(info.tokenizerHash, std::string("abc123"));
    QVERIFY(info.config == tiny());

    InfillModel n(tiny());
    torch::optim::AdamW opt2(n->parameters(), torch::optim::AdamWOptions(1e-3));
    (void)loadCheckpoint(path, n, &opt2, "abc123");
    torch::NoGradGuard ng;
    QVERIFY(torch::equal(m->forward(ids), n->forward(ids)));
  }

  void badCheckpointsNameTheFileAndTheProblem() {
    QTemporaryDir dir;
    auto expect = [](const std::function<void()>& f, const std::string& path, const char* what) {
      try {
        f();
        QFAIL("no error");
      } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find(what) != std::string::npos, e.what());
      }
    };
    const std::string garbage = dir.filePath(QStringLiteral("garbage.ckpt")).toStdString();
    std::ofstream(garbage) << "this is not a checkpoint";
    InfillModel m(tiny());
    expect([&] { (void)loadCheckpoint(garbage, m, nullptr); }, garbage, "corrupt");

    const std::string good = dir.filePath(QStringLiteral("good.ckpt")).toStdString();
    saveCheckpoint(good, m, nullptr, infoFor(tiny()));
    // Truncated: the second half is gone.
    const std::string cut = dir.filePath(QStringLiteral("cut.ckpt")).toStdString();
    {
      std::ifstream in(good, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    expect([&] { (void)loadCheckpoint(cut, m, nullptr); }, cut, "corrupt");
    // Another shape, another tokenizer, no optimizer state.
    InfillModel wide(tiny(41));
    expect([&] { (void)loadCheckpoint(good, wide, nullptr); }, good, "vocabulary 40, not");
    expect([&] { (void)loadCheckpoint(good, m, nullptr, "zzz999"); }, good, "another tokenizer");
    torch::optim::AdamW opt(m->parameters());
    expect([&] { (void)loadCheckpoint(good, m, &opt); }, good, "no optimizer state");
    const std::string missing = dir.filePath(QStringLiteral("none.ckpt")).toStdString();
    expect([&] { (void)readCheckpointInfo(missing); }, missing, "does not exist");
  }

  void configsAreChecked() {
    auto c = tiny();
    c.heads = 3; // 16 is not a multiple of 3
    QVERIFY_THROWS_EXCEPTION(InputError, c.validate());
    QVERIFY(ModelConfig::fromJson(tiny().toJson(), "x") == tiny());
    QVERIFY_THROWS_EXCEPTION(InputError, (void)ModelConfig::fromJson("{\"vocab\": 3}", "x"));
    // The architecture round-trips; a config without one (written before
    // decoders) is an encoder; an unknown one is refused.
    auto d = tiny();
    d.arch = ModelConfig::Arch::Decoder;
    QVERIFY(ModelConfig::fromJson(d.toJson(), "x") == d);
    QVERIFY(!(d == tiny()));
    QVERIFY(ModelConfig::fromJson(
                "{\"vocab\":40,\"layers\":1,\"hidden\":16,\"heads\":2,\"ffn\":32,\"max_length\":32}", "x") ==
            tiny());
    QVERIFY_THROWS_EXCEPTION(
        InputError,
        (void)ModelConfig::fromJson("{\"arch\":\"rnn\",\"vocab\":40,\"layers\":1,\"hidden\":16,\"heads\":2,"
                                    "\"ffn\":32,\"max_length\":32}",
                                    "x"));
    QVERIFY(d.describe().rfind("decoder, ", 0) == 0);
  }

  void recipesKeepTheArchitecture() {
    // Resuming reads the options from the checkpoint's recipe: a decoder's
    // says so; one without "arch" (written before decoders) made an encoder.
    TrainOptions base;
    base.model.arch = ModelConfig::Arch::Decoder;
    auto d = tiny();
    d.arch = ModelConfig::Arch::Decoder;
    QVERIFY(TrainingSession::optionsFromRecipe("{\"model\":" + d.toJson() + "}", TrainOptions{}).model.decoder());
    QVERIFY(!TrainingSession::optionsFromRecipe(
                 "{\"model\":{\"vocab\":40,\"layers\":1,\"hidden\":16,\"heads\":2,\"ffn\":32,\"max_length\":32}}",
                 base)
                 .model.decoder());
    QVERIFY(TrainingSession::optionsFromRecipe("", base).model.decoder()); // nothing to read: as given
  }

  void recipesKeepTheDrawsWeights() {
    // Resuming from the GUI reads the draw's weights back from the recipe.
    const TrainOptions o = TrainingSession::optionsFromRecipe(
        "{\"package_balance\":0.5,\"richness\":0.25,\"local_memory\":3,\"one_work_item\":0.25,\"seed\":7}", TrainOptions{});
    QCOMPARE(o.packageBalance, 0.5);
    QCOMPARE(o.richness, 0.25);
    QCOMPARE(o.localMemory, 3.0);
    QCOMPARE(o.oneWorkItem, 0.25);
    QCOMPARE(TrainingSession::optionsFromRecipe("{\"seed\":7}", TrainOptions{}).oneWorkItem, 1.0);
    QCOMPARE(TrainingSession::optionsFromRecipe("{\"seed\":7}", TrainOptions{}).localMemory, 1.0); // unset: off
  }

  void decoderCheckpointsKeepTheirArchitecture() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("d.ckpt")).toStdString();
    auto c = tiny();
    c.arch = ModelConfig::Arch::Decoder;
    InfillModel m(c);
    saveCheckpoint(path, m, nullptr, infoFor(c));
    QVERIFY(readCheckpointInfo(path).config.decoder());
    // An encoder of the same shape does not take a decoder's weights.
    InfillModel e(tiny());
    try {
      (void)loadCheckpoint(path, e, nullptr);
      QFAIL("an encoder loaded a decoder's checkpoint");
    } catch (const InputError& err) {
      QVERIFY2(std::string(err.what()).find("decoder") != std::string::npos, err.what());
    }
    // The reading order is kept; a decoder stored without one read prefix first.
    c.suffixFirst = true;
    InfillModel spm(c);
    saveCheckpoint(path, spm, nullptr, infoFor(c));
    QVERIFY(readCheckpointInfo(path).config.suffixFirst);
    QVERIFY(ModelConfig::fromJson(c.toJson(), "config").suffixFirst);
    std::string old = c.toJson();
    const auto at = old.find(",\"fim_order\":\"spm\"");
    QVERIFY(at != std::string::npos);
    old.erase(at, std::strlen(",\"fim_order\":\"spm\""));
    QVERIFY(!ModelConfig::fromJson(old, "old config").suffixFirst);
    // It is not part of the shape: a fine-tune may change it.
    auto prefixFirst = c;
    prefixFirst.suffixFirst = false;
    InfillModel psm(prefixFirst);
    QVERIFY(loadCheckpoint(path, psm, nullptr).config.suffixFirst);
    try {
      std::string bad = c.toJson();
      bad.replace(bad.find("spm"), 3, "xyz");
      (void)ModelConfig::fromJson(bad, "bad config");
      QFAIL("an unknown order was read");
    } catch (const InputError& err) {
      QVERIFY2(std::string(err.what()).find("psm or spm") != std::string::npos, err.what());
    }
  }

  void aFineTuneMayAddPositions() {
    // A decoder of 32 positions, and one of 48 fine-tuned from it: over the
    // first 32 the same model; each new position starts as the last known one.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("short.ckpt")).toStdString();
    auto c = tiny();
    c.arch = ModelConfig::Arch::Decoder;
    torch::manual_seed(5);
    InfillModel shortModel(c);
    saveCheckpoint(path, shortModel, nullptr, infoFor(c));
    auto longer = c;
    longer.maxLength = 48;
    InfillModel longModel(longer);
    (void)loadWeightsForFineTuning(path, longModel, "abc123");
    torch::NoGradGuard ng;
    const auto ids = torch::randint(0, 40, {2, 32}, torch::kLong);
    QVERIFY(torch::equal(shortModel->forward(ids), longModel->forward(ids)));
    const auto rows = longModel->named_parameters()["positions.weight"];
    QCOMPARE(rows.size(0), std::int64_t(48));
    for (std::int64_t p : {32, 40, 47})
      QVERIFY(torch::equal(rows[p], shortModel->named_parameters()["positions.weight"][31]));
    QVERIFY(longModel->forward(torch::randint(0, 40, {1, 48}, torch::kLong)).isfinite().all().item<bool>());
    // Fewer positions than the checkpoint's is not a fine-tune of it: refused, as another shape is.
    auto fewer = c;
    fewer.maxLength = 16;
    InfillModel shorter(fewer);
    QVERIFY_THROWS_EXCEPTION(InputError, (void)loadWeightsForFineTuning(path, shorter, "abc123"));
  }
};

QTEST_APPLESS_MAIN(TestInfillModel)
#include "tst_infillmodel.moc"

// steerbench-cli train, run as a user would, on a tiny corpus and model made
// here: checkpoints, progress in the workspace, determinism, resuming after
// kill -9, and bad checkpoints.
#include "CliRun.h"
#include "WorkspaceQuery.h"

#include "corpus/SourceFormatting.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

namespace {

QString finalLoss(const QString& out) {
  const auto m = QRegularExpression(QStringLiteral("final loss (\\S+)")).match(out);
  return m.hasMatch() ? m.captured(1) : QString();
}

QString validationLoss(const QString& out) {
  const auto m = QRegularExpression(QStringLiteral("validation loss (\\S+)")).match(out);
  return m.hasMatch() ? m.captured(1) : QString();
}

QByteArray contents(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestTrain : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString ws_;

  QStringList tiny(const QString& checkpoint, int steps) const {
    return {QStringLiteral("train"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), checkpoint,
            QStringLiteral("--steps"), QString::number(steps), QStringLiteral("--layers"), QStringLiteral("1"),
            QStringLiteral("--hidden"), QStringLiteral("32"), QStringLiteral("--heads"), QStringLiteral("2"),
            QStringLiteral("--ffn"), QStringLiteral("64"), QStringLiteral("--max-length"), QStringLiteral("128"),
            QStringLiteral("--batch"), QStringLiteral("8"), QStringLiteral("--checkpoint-every"), QStringLiteral("10"),
            QStringLiteral("--validate-every"), QStringLiteral("50"), QStringLiteral("--threads"), QStringLiteral("1"),
            QStringLiteral("--seed"), QStringLiteral("3")};
  }

private slots:
  void initTestCase() {
    ws_ = dir_.filePath(QStringLiteral("t.sbw"));
    const Run r = cli({QStringLiteral("corpus"), QStringLiteral("ingest"), QStringLiteral(STEERBENCH_TEST_DATA "/kernels"),
                       QStringLiteral(STEERBENCH_TEST_DATA "/corpus/tree"), QStringLiteral("-w"), ws_,
                       QStringLiteral("--no-reference")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(scalar(ws_, "SELECT count(*) FROM kernels WHERE role = 'train'").toInt() >= 10);
  }

  void trainsWritesACheckpointAndRecordsProgress() {
    const QString ckpt = dir_.filePath(QStringLiteral("a.ckpt"));
    const Run r = cli(tiny(ckpt, 40));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // libtorch's sgemm comes from OpenBLAS (scripts/packages.txt installs it), on the threads asked for.
    QVERIFY2(r.err.contains(QLatin1String("BLAS: OpenBLAS")) && r.err.contains(QLatin1String(", 1 libtorch thread(s)")),
             qPrintable(r.err));
    QVERIFY(r.err.contains(QLatin1String("step 40/40")));
    QVERIFY(QFile::exists(ckpt));
    QVERIFY(QFile::exists(ckpt + QStringLiteral(".tokenizer.json")));
    QVERIFY(!QFile::exists(ckpt + QStringLiteral(".tmp")));
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM training_steps WHERE run_id = (SELECT max(id) FROM training_runs)"),
             QStringLiteral("40"));
    QCOMPARE(scalar(ws_, "SELECT status FROM training_runs ORDER BY id DESC LIMIT 1"), QStringLiteral("done"));
    // Wall and CPU time grow step by step (objectives compare per CPU hour).
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM training_steps a JOIN training_steps b ON b.run_id = a.run_id AND "
                         "b.step = a.step + 1 WHERE a.run_id = (SELECT max(id) FROM training_runs) AND "
                         "b.cpu_s > a.cpu_s AND b.elapsed_s > a.elapsed_s"),
             QStringLiteral("39"));
    QVERIFY(scalar(ws_, "SELECT spec FROM training_runs ORDER BY id DESC LIMIT 1").contains(QLatin1String("\"seed\":3")));
    QVERIFY(!finalLoss(r.out).isEmpty());
  }

  void sameSeedSameRunAndKill9Resumes() {
    const Run straight = cli(tiny(dir_.filePath(QStringLiteral("straight.ckpt")), 300));
    QVERIFY2(straight.exitCode == 0, qPrintable(straight.err));
    // Killed hard after its first checkpoints, then run again: it resumes and ends exactly where the straight run did.
    const QString killed = dir_.filePath(QStringLiteral("killed.ckpt"));
    QProcess p;
    p.start(STEERBENCH_CLI, tiny(killed, 300));
    QVERIFY(p.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(killed), 60000);
    QTest::qWait(200);
    p.kill(); // SIGKILL
    p.waitForFinished();
    const Run resumed = cli(tiny(killed, 300));
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
    QVERIFY2(resumed.err.contains(QLatin1String("resuming")), qPrintable(resumed.err));
    QVERIFY(!resumed.out.contains(QLatin1String("steps 0 ->")));
    QCOMPARE(finalLoss(resumed.out), finalLoss(straight.out));
    const Run again = cli(tiny(dir_.filePath(QStringLiteral("again.ckpt")), 300));
    QCOMPARE(finalLoss(again.out), finalLoss(straight.out));
  }

  void aBalancedDecoderResumesExactlyAndSamples() {
    // The decoder, drawing packages by the square root of their counts: a
    // kill -9 and a rerun end where a straight run does; the recipe says how
    // it was made; `model info` names it; `sample` fills holes with it.
    auto decoder = [&](const QString& ckpt) {
      return tiny(ckpt, 120) << QStringLiteral("--arch") << QStringLiteral("decoder") << QStringLiteral("--balance")
                             << QStringLiteral("0.5") << QStringLiteral("--richness") << QStringLiteral("0.5")
                             << QStringLiteral("--local-memory") << QStringLiteral("3");
    };
    const Run straight = cli(decoder(dir_.filePath(QStringLiteral("dec.ckpt"))));
    QVERIFY2(straight.exitCode == 0, qPrintable(straight.err));
    QVERIFY2(straight.err.contains(QLatin1String("model: decoder, 1 layers")), qPrintable(straight.err));
    QVERIFY2(straight.err.contains(QRegularExpression(QStringLiteral("training draws \\d+ kernels: median comp \\d"))),
             qPrintable(straight.err));
    const QString killed = dir_.filePath(QStringLiteral("dec-killed.ckpt"));
    QProcess p;
    p.start(STEERBENCH_CLI, decoder(killed));
    QVERIFY(p.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(killed), 60000);
    QTest::qWait(100);
    p.kill();
    p.waitForFinished();
    const Run resumed = cli(decoder(killed));
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
    QCOMPARE(finalLoss(resumed.out), finalLoss(straight.out));
    // A resume with other draw weights would go on as another run: refused, the checkpoint kept.
    QStringList otherDraw = decoder(killed);
    otherDraw[otherDraw.indexOf(QStringLiteral("--local-memory")) + 1] = QStringLiteral("2");
    const QByteArray before = [&] { QFile f(killed); f.open(QIODevice::ReadOnly); return f.readAll(); }();
    const Run refused = cli(otherDraw);
    QVERIFY2(refused.exitCode != 0 && refused.err.contains(QLatin1String("was trained with --local-memory 3")),
             qPrintable(refused.err));
    QCOMPARE([&] { QFile f(killed); f.open(QIODevice::ReadOnly); return f.readAll(); }(), before);
    // The draw's local-memory share, as train prints it, grows with the weight.
    auto localShare = [](const QString& err) {
      const auto m = QRegularExpression(QStringLiteral("local memory in (\\d+)%")).match(err);
      return m.hasMatch() ? m.captured(1).toInt() : -1;
    };
    const Run once = cli(tiny(dir_.filePath(QStringLiteral("lm1.ckpt")), 1));
    const Run thrice = cli(tiny(dir_.filePath(QStringLiteral("lm3.ckpt")), 1)
                           << QStringLiteral("--local-memory") << QStringLiteral("3"));
    QVERIFY2(once.exitCode == 0 && thrice.exitCode == 0, qPrintable(once.err + thrice.err));
    QVERIFY2(localShare(once.err) > 0 && localShare(thrice.err) > localShare(once.err),
             qPrintable(once.err + thrice.err));
    // So does the share of kernels that ask no work-item function (k05_loop) with theirs.
    auto oneItemShare = [](const QString& err) {
      const auto m = QRegularExpression(QStringLiteral("no work-item function in (\\d+)%")).match(err);
      return m.hasMatch() ? m.captured(1).toInt() : -1;
    };
    const Run fewer = cli(tiny(dir_.filePath(QStringLiteral("owi.ckpt")), 1)
                          << QStringLiteral("--one-work-item") << QStringLiteral("0.25"));
    QVERIFY2(fewer.exitCode == 0, qPrintable(fewer.err));
    QVERIFY2(oneItemShare(once.err) > 0 && oneItemShare(fewer.err) >= 0 && oneItemShare(fewer.err) < oneItemShare(once.err),
             qPrintable(once.err + fewer.err));
    // In a corpus of two packages, balanced and unbalanced runs of one seed
    // draw other kernels: other runs. (In one package, balancing changes nothing.)
    QCOMPARE(scalar(ws_, "SELECT count(DISTINCT package) FROM kernels WHERE role = 'train'"), QStringLiteral("1"));
    const QString two = dir_.filePath(QStringLiteral("two.sbw"));
    QVERIFY(QFile::copy(ws_, two));
    {
      sqlite3* db = nullptr;
      QCOMPARE(sqlite3_open_v2(two.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
      QCOMPARE(sqlite3_exec(db, "UPDATE kernels SET package = CASE WHEN id % 4 = 0 THEN 'small' ELSE 'big' END",
                            nullptr, nullptr, nullptr),
               SQLITE_OK);
      sqlite3_close(db);
    }
    auto inTwo = [&](QStringList args) {
      args[args.indexOf(QStringLiteral("-w")) + 1] = two;
      return args;
    };
    const Run balanced = cli(inTwo(decoder(dir_.filePath(QStringLiteral("two-balanced.ckpt")))));
    const Run plain = cli(inTwo(tiny(dir_.filePath(QStringLiteral("two-plain.ckpt")), 120)
                                << QStringLiteral("--arch") << QStringLiteral("decoder")));
    QVERIFY2(balanced.exitCode == 0 && plain.exitCode == 0, qPrintable(balanced.err + plain.err));
    QVERIFY(finalLoss(plain.out) != finalLoss(balanced.out));
    const QString spec = scalar(ws_, "SELECT spec FROM training_runs WHERE checkpoint LIKE '%dec.ckpt'");
    QVERIFY2(spec.contains(QLatin1String("\"arch\":\"decoder\"")) &&
                 spec.contains(QLatin1String("\"package_balance\":0.5")) &&
                 spec.contains(QLatin1String("\"richness\":0.5")) && spec.contains(QLatin1String("--richness 0.5")) &&
                 spec.contains(QLatin1String("\"local_memory\":3")) && spec.contains(QLatin1String("--local-memory 3")) &&
                 spec.contains(QLatin1String("--arch decoder")) && spec.contains(QLatin1String("--balance 0.5")),
             qPrintable(spec));
    const Run info = cli({QStringLiteral("model"), QStringLiteral("info"), dir_.filePath(QStringLiteral("dec.ckpt"))});
    QVERIFY2(info.exitCode == 0 && info.out.contains(QLatin1String("decoder, 1 layers")), qPrintable(info.out + info.err));
    const Run sampled = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"),
                             dir_.filePath(QStringLiteral("dec.ckpt")), QStringLiteral("-n"), QStringLiteral("4"),
                             QStringLiteral("--max-new-tokens"), QStringLiteral("20"), QStringLiteral("--seed"),
                             QStringLiteral("21"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(sampled.exitCode == 0, qPrintable(sampled.err));
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples WHERE seed = 21 AND text LIKE 'kernel void%'"), QStringLiteral("4"));
    // Unless told otherwise, a decoder samples with the options it samples best with.
    const QString sampleSpec = scalar(ws_, "SELECT spec FROM samples WHERE seed = 21 LIMIT 1");
    QVERIFY2(sampleSpec.contains(QLatin1String("\"top_p\":0.9,")) && sampleSpec.contains(QLatin1String("\"restarts\":3,")) &&
                 sampleSpec.contains(QLatin1String("\"clean_statements\":false")) &&
                 sampleSpec.contains(QLatin1String("\"guard_calls\":false")), // a kernel from nothing: no text after its hole
             qPrintable(sampleSpec));
    // --clean: the statements checked against the rules too, and recorded.
    const Run cleaned = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"),
                             dir_.filePath(QStringLiteral("dec.ckpt")), QStringLiteral("-n"), QStringLiteral("2"),
                             QStringLiteral("--max-new-tokens"), QStringLiteral("20"), QStringLiteral("--seed"),
                             QStringLiteral("121"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--clean")});
    QVERIFY2(cleaned.exitCode == 0, qPrintable(cleaned.err));
    QVERIFY(scalar(ws_, "SELECT spec FROM samples WHERE seed = 121 LIMIT 1").contains(QLatin1String("\"clean_statements\":true")));
    QVERIFY(scalar(ws_, "SELECT spec FROM samples WHERE seed = 121 LIMIT 1").contains(QLatin1String("\"clean_kernels\":true")));
    const Run contradictory = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("--clean"),
                                   QStringLiteral("--unchecked")});
    QVERIFY(contradictory.exitCode != 0 && contradictory.err.contains(QLatin1String("--clean")));

    // A suffix-first fine-tune of it: the order is in the model and the
    // recipe, a resume may not change it, and the model samples.
    const QString spm = dir_.filePath(QStringLiteral("spm.ckpt"));
    auto suffixFirst = [&](const char* order) {
      return tiny(spm, 20) << QStringLiteral("--init-from") << dir_.filePath(QStringLiteral("dec.ckpt"))
                           << QStringLiteral("--fim-order") << QString::fromLatin1(order);
    };
    const Run tuned = cli(suffixFirst("spm"));
    QVERIFY2(tuned.exitCode == 0 && tuned.err.contains(QLatin1String("model: decoder (suffix first)")),
             qPrintable(tuned.err));
    const QString tunedSpec = scalar(ws_, "SELECT spec FROM training_runs WHERE checkpoint LIKE '%spm.ckpt'");
    QVERIFY2(tunedSpec.contains(QLatin1String("\"fim_order\":\"spm\"")) && tunedSpec.contains(QLatin1String("--fim-order spm")),
             qPrintable(tunedSpec));
    const Run other = cli(suffixFirst("psm"));
    QVERIFY(other.exitCode != 0);
    QVERIFY2(other.err.contains(QLatin1String("resume it with that order")), qPrintable(other.err));
    const Run bad = cli(suffixFirst("mps"));
    QVERIFY2(bad.exitCode != 0 && bad.err.contains(QLatin1String("psm or spm")), qPrintable(bad.err));
    const Run spmSampled = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), spm,
                                QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral("--max-new-tokens"),
                                QStringLiteral("20"), QStringLiteral("--seed"), QStringLiteral("22"),
                                QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--feed"),
                                QStringLiteral("kernel void A ( global int * a ) { [HOLE] }")});
    QVERIFY2(spmSampled.exitCode == 0, qPrintable(spmSampled.err));
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples WHERE seed = 22"), QStringLiteral("2"));
  }

  void samplesAreStoredWithTheirModelAndSeed() {
    const QString ckpt = dir_.filePath(QStringLiteral("a.ckpt")); // trained by the first test
    QVERIFY(QFile::exists(ckpt));
    const QString out = dir_.filePath(QStringLiteral("samples"));
    const Run r = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), ckpt,
                       QStringLiteral("-n"), QStringLiteral("6"), QStringLiteral("--batch"), QStringLiteral("4"),
                       QStringLiteral("--max-new-tokens"), QStringLiteral("30"), QStringLiteral("--seed"),
                       QStringLiteral("11"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--out"), out,
                       QStringLiteral("--feed"), QStringLiteral("kernel void [HOLE]")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(QLatin1String("6 samples")));
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples WHERE seed = 11"), QStringLiteral("6"));
    QCOMPARE(scalar(ws_, "SELECT count(DISTINCT model_sha256) FROM samples WHERE seed = 11 AND length(model_sha256) = 64"),
             QStringLiteral("1"));
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples WHERE seed = 11 AND feed = 'kernel void [HOLE]' AND "
                         "text LIKE 'kernel void%'"),
             QStringLiteral("6"));
    QCOMPARE(QDir(out).entryList({QStringLiteral("*.cl")}).size(), 6);
    // The files hold formatted code, as the corpus shows it: the stored text
    // put through the formatter, not the model's space-separated tokens.
    for (const auto& name : QDir(out).entryList({QStringLiteral("*.cl")})) {
      QFile f(QDir(out).filePath(name));
      QVERIFY(f.open(QIODevice::ReadOnly));
      const std::string file = f.readAll().toStdString();
      const QString id = QString::number(name.mid(7, 4).toInt());
      const std::string text = scalar(ws_, ("SELECT text FROM samples WHERE id = " + id).toStdString().c_str()).toStdString();
      QCOMPARE(file, steerbench::corpus::formatSource(text) + "\n");
      QVERIFY(file.find("kernel void") == 0);
    }
    // How it was sampled is in the spec: the guard and the compiler checks, on by default.
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples WHERE seed = 11 AND spec LIKE '%\"guard\":true%' AND "
                         "spec LIKE '%\"checked\":true%' AND spec LIKE '%\"streams\":1,%'"),
             QStringLiteral("6")); // one thread, one stream

    const Run unchecked = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), ckpt,
                               QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral("--max-new-tokens"),
                               QStringLiteral("10"), QStringLiteral("--seed"), QStringLiteral("12"),
                               QStringLiteral("--unchecked"), QStringLiteral("--threads"), QStringLiteral("1"),
                               QStringLiteral("--streams"), QStringLiteral("2")});
    QVERIFY2(unchecked.exitCode == 0, qPrintable(unchecked.err));
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples WHERE seed = 12 AND spec LIKE '%\"checked\":false%' AND "
                         "spec LIKE '%\"streams\":2,%'"),
             QStringLiteral("2"));
    // A bad checkpoint is named, with what is wrong.
    const Run bad = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"),
                         dir_.filePath(QStringLiteral("nothing.ckpt"))});
    QVERIFY(bad.exitCode != 0);
    QVERIFY2(bad.err.contains(QLatin1String("does not exist")), qPrintable(bad.err));
    // A bad stream count is refused before any model is loaded (here there is none to load), and nothing is stored.
    const QString before = scalar(ws_, "SELECT count(*) FROM samples");
    for (const char* value : {"999", "x"}) {
      const Run streams = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"),
                               dir_.filePath(QStringLiteral("nothing.ckpt")), QStringLiteral("--streams"),
                               QLatin1String(value)});
      QCOMPARE(streams.exitCode, 2);
      QVERIFY2(streams.err.contains(QLatin1String("--streams must be a whole number from 0 to 256")),
               qPrintable(streams.err));
    }
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples"), before);
  }

  void noStoreLeavesTheWorkspaceAsItWas() {
    const QString ckpt = dir_.filePath(QStringLiteral("a.ckpt")); // trained by the first test
    const QString samples = scalar(ws_, "SELECT count(*) FROM samples");
    const QString kernels = scalar(ws_, "SELECT count(*) FROM kernels");
    const QString out = dir_.filePath(QStringLiteral("unstored"));
    auto sample = [&](const QString& ws) {
      return cli({QStringLiteral("sample"), QStringLiteral("-w"), ws, QStringLiteral("-o"), ckpt, QStringLiteral("-n"),
                  QStringLiteral("3"), QStringLiteral("--max-new-tokens"), QStringLiteral("20"), QStringLiteral("--seed"),
                  QStringLiteral("31"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--out"), out,
                  QStringLiteral("--no-store")});
    };
    const Run r = sample(ws_);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QLatin1String("3 samples")) && r.out.contains(QLatin1String("not stored")), qPrintable(r.out));
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples"), samples);
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM kernels"), kernels);
    QCOMPARE(QDir(out).entryList({QStringLiteral("*.cl")}),
             (QStringList{QStringLiteral("sample_0001.cl"), QStringLiteral("sample_0002.cl"), QStringLiteral("sample_0003.cl")}));
    // Nor is a workspace made where there was none.
    const QString none = dir_.filePath(QStringLiteral("none.sbw"));
    const Run elsewhere = sample(none);
    QVERIFY2(elsewhere.exitCode == 0, qPrintable(elsewhere.err));
    QVERIFY(!QFile::exists(none));
  }

  void exportedModelsSampleLikeTheirCheckpoint() {
    const QString ckpt = dir_.filePath(QStringLiteral("a.ckpt")); // trained by the first test
    const QString model = dir_.filePath(QStringLiteral("a.model"));
    const Run ex = cli({QStringLiteral("model"), QStringLiteral("export"), ckpt, model});
    QVERIFY2(ex.exitCode == 0, qPrintable(ex.err));
    QVERIFY(QFileInfo(model).size() < QFileInfo(ckpt).size() / 2); // no optimizer state
    const Run info = cli({QStringLiteral("model"), QStringLiteral("info"), model});
    QVERIFY2(info.exitCode == 0, qPrintable(info.err));
    QVERIFY2(info.out.contains(QLatin1String("step:        40 (exported model)")), qPrintable(info.out));
    QVERIFY(info.out.contains(QLatin1String("\"seed\":3")));       // the recipe travels with it
    QVERIFY(cli({QStringLiteral("model"), QStringLiteral("info"), ckpt}).out.contains(QLatin1String("resumable")));
    // Same seed, same samples from the checkpoint and the export.
    auto sampleWith = [&](const QString& m) {
      return cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), m, QStringLiteral("-n"),
                  QStringLiteral("4"), QStringLiteral("--max-new-tokens"), QStringLiteral("20"), QStringLiteral("--seed"),
                  QStringLiteral("5"), QStringLiteral("--threads"), QStringLiteral("1")});
    };
    QVERIFY(sampleWith(ckpt).exitCode == 0);
    QVERIFY(sampleWith(model).exitCode == 0);
    QCOMPARE(scalar(ws_, "SELECT count(DISTINCT group_concat) FROM (SELECT group_concat(text, '|') AS group_concat "
                         "FROM samples WHERE seed = 5 GROUP BY model_sha256)"),
             QStringLiteral("1"));
    QCOMPARE(scalar(ws_, "SELECT count(DISTINCT model_sha256) FROM samples WHERE seed = 5"), QStringLiteral("2"));

    // A workspace without its own model samples with the default model
    // (STEERBENCH_MODEL points at it here, as an install's share dir would).
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STEERBENCH_MODEL"), model);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(STEERBENCH_CLI), {QStringLiteral("model"), QStringLiteral("info"), QStringLiteral("-w"),
                                             dir_.filePath(QStringLiteral("elsewhere.sbw"))});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(QString::fromUtf8(p.readAllStandardOutput()).contains(model), qPrintable(p.readAllStandardError()));
    // And an export of something that is not a checkpoint is refused, naming it.
    const Run bad = cli({QStringLiteral("model"), QStringLiteral("export"), dir_.filePath(QStringLiteral("none.ckpt")),
                         dir_.filePath(QStringLiteral("x.model"))});
    QVERIFY(bad.exitCode == 1);
    QVERIFY2(bad.err.contains(QLatin1String("none.ckpt")) && bad.err.contains(QLatin1String("does not exist")),
             qPrintable(bad.err));
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("x.model"))));
  }

  void fineTuningStartsFromAModelsWeights() {
    // The starting model: 200 steps, its validation loss measured at its last step.
    const QString start = dir_.filePath(QStringLiteral("start.ckpt"));
    const Run before = cli(tiny(start, 200));
    QVERIFY2(before.exitCode == 0, qPrintable(before.err));
    const double trained = validationLoss(before.out).toDouble();
    // One step at a negligible learning rate: the fine-tuned model is the starting one, whose validation loss
    // (same seed, same held-out datapoints) it must give; a model made anew gives a much higher one.
    auto oneStep = [&](const QString& ckpt, bool fromModel) {
      QStringList args = tiny(ckpt, 1);
      args[args.indexOf(QStringLiteral("--layers")) + 1] = QStringLiteral("2"); // ignored with --init-from
      args << QStringLiteral("--lr") << QStringLiteral("1e-9") << QStringLiteral("--validate-every")
           << QStringLiteral("1");
      if (fromModel) args << QStringLiteral("--init-from") << start;
      return cli(args);
    };
    const QString tuned = dir_.filePath(QStringLiteral("tuned.ckpt"));
    const Run ft = oneStep(tuned, true);
    QVERIFY2(ft.exitCode == 0, qPrintable(ft.err));
    QVERIFY2(ft.err.contains(QLatin1String("from the weights of ") + start), qPrintable(ft.err));
    QVERIFY2(ft.err.contains(QLatin1String("model: 1 layers,")), qPrintable(ft.err)); // the starting model's shape
    const Run fresh = oneStep(dir_.filePath(QStringLiteral("fresh.ckpt")), false);
    QVERIFY2(fresh.exitCode == 0, qPrintable(fresh.err));
    const double tunedLoss = validationLoss(ft.out).toDouble(), freshLoss = validationLoss(fresh.out).toDouble();
    QVERIFY2(std::abs(tunedLoss - trained) < 1e-3 && freshLoss - trained > 0.2,
             qPrintable(QStringLiteral("trained %1, fine-tuned %2, new %3").arg(trained).arg(tunedLoss).arg(freshLoss)));
    // Its tokenizer is the starting model's, and its recipe names the model it started from.
    QCOMPARE(contents(tuned + QStringLiteral(".tokenizer.json")), contents(start + QStringLiteral(".tokenizer.json")));
    const QString spec = scalar(ws_, "SELECT spec FROM training_runs WHERE checkpoint LIKE '%tuned.ckpt'");
    QVERIFY2(spec.contains(QLatin1String("\"init_from\":\"start.ckpt\"")) &&
                 spec.contains(QLatin1String("\"init_from_sha256\":\"")) && spec.contains(QLatin1String("--init-from")),
             qPrintable(spec));

    // Resumed with the same command, the run needs its own checkpoint only: the starting model may be gone, and
    // the recipe still names it.
    const QString startHash = spec.mid(spec.indexOf(QLatin1String("\"init_from_sha256\":\"")), 86);
    QVERIFY(QFile::rename(start, start + QStringLiteral(".moved")));
    const Run again = oneStep(tuned, true);
    QVERIFY2(again.exitCode == 0 && again.err.contains(QLatin1String("resuming")), qPrintable(again.err));
    QVERIFY2(scalar(ws_, "SELECT spec FROM training_runs WHERE checkpoint LIKE '%tuned.ckpt'").contains(startHash),
             qPrintable(startHash));

    // A starting model that is not there: named, and nothing written.
    const QString missing = dir_.filePath(QStringLiteral("nowhere.ckpt"));
    QStringList args = tiny(dir_.filePath(QStringLiteral("orphan.ckpt")), 1);
    args << QStringLiteral("--init-from") << missing;
    const Run m = cli(args);
    QVERIFY(m.exitCode != 0);
    QVERIFY2(m.err.contains(missing) && m.err.contains(QLatin1String("does not exist")), qPrintable(m.err));
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("orphan.ckpt"))));

    // A --max-length above the starting model's adds positions (for longer kernels); below it is refused.
    auto withPositions = [&](const QString& ckpt, const char* positions) {
      QStringList a = tiny(ckpt, 1);
      a[a.indexOf(QStringLiteral("--max-length")) + 1] = QLatin1String(positions);
      a << QStringLiteral("--init-from") << start + QStringLiteral(".moved");
      return cli(a);
    };
    const Run longer = withPositions(dir_.filePath(QStringLiteral("longer.ckpt")), "192");
    QVERIFY2(longer.exitCode == 0 && longer.err.contains(QLatin1String("192 positions")), qPrintable(longer.err));
    const Run fewer = withPositions(dir_.filePath(QStringLiteral("fewer.ckpt")), "64");
    QVERIFY(fewer.exitCode != 0);
    QVERIFY2(fewer.err.contains(QLatin1String("can add positions, not take them away")), qPrintable(fewer.err));
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("fewer.ckpt"))));
  }

  void aDecoderTaughtConditionsSamplesTowardATarget() {
    // A decoder, then a fine-tune of it with conditions: the new model has the condition tokens.
    const QString plain = dir_.filePath(QStringLiteral("plain-dec.ckpt")), cond = dir_.filePath(QStringLiteral("cond.ckpt"));
    QStringList args = tiny(plain, 20);
    args << QStringLiteral("--arch") << QStringLiteral("decoder");
    const Run base = cli(args);
    QVERIFY2(base.exitCode == 0, qPrintable(base.err));
    args = tiny(cond, 20);
    args << QStringLiteral("--init-from") << plain << QStringLiteral("--conditions") << QStringLiteral("0.5")
         << QStringLiteral("--whole") << QStringLiteral("0.5");
    const Run ft = cli(args);
    QVERIFY2(ft.exitCode == 0, qPrintable(ft.err));
    QVERIFY2(ft.err.contains(QLatin1String("and 96 condition tokens")), qPrintable(ft.err));
    const QString spec = scalar(ws_, "SELECT spec FROM training_runs WHERE checkpoint LIKE '%cond.ckpt'");
    QVERIFY2(spec.contains(QLatin1String("\"condition_share\":0.5")) && spec.contains(QLatin1String("\"whole\":0.5")) &&
                 spec.contains(QLatin1String("--conditions 0.5")),
             qPrintable(spec));

    // Asked for counts, it samples, and each sample's spec keeps the target.
    const Run asked = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                           QStringLiteral("-n"), QStringLiteral("3"), QStringLiteral("--max-new-tokens"),
                           QStringLiteral("40"), QStringLiteral("--target"), QStringLiteral("comp=4,mem=2"),
                           QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(asked.exitCode == 0, qPrintable(asked.err));
    QVERIFY2(scalar(ws_, "SELECT spec FROM samples ORDER BY id DESC LIMIT 1")
                 .contains(QLatin1String("\"target\":\"comp=4,mem=2\"")),
             qPrintable(scalar(ws_, "SELECT spec FROM samples ORDER BY id DESC LIMIT 1")));
    // Held to the target by default (--near 0.8), which the spec records;
    // --near 0 asks with the conditions alone.
    QVERIFY2(scalar(ws_, "SELECT spec FROM samples ORDER BY id DESC LIMIT 1").contains(QLatin1String("\"near\":0.8")),
             qPrintable(scalar(ws_, "SELECT spec FROM samples ORDER BY id DESC LIMIT 1")));
    // Held samples are clean by default; --unclean lets them break the rules.
    QVERIFY(scalar(ws_, "SELECT spec FROM samples ORDER BY id DESC LIMIT 1").contains(QLatin1String("\"clean_kernels\":true")));
    QVERIFY2(asked.out.contains(QLatin1String("held to their vectors (proximity 0.8, clean): ")), qPrintable(asked.out));
    const Run unclean = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                             QStringLiteral("-n"), QStringLiteral("1"), QStringLiteral("--max-new-tokens"),
                             QStringLiteral("20"), QStringLiteral("--target"), QStringLiteral("comp=4,mem=2"),
                             QStringLiteral("--unclean"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(unclean.exitCode == 0, qPrintable(unclean.err));
    QVERIFY(scalar(ws_, "SELECT spec FROM samples ORDER BY id DESC LIMIT 1").contains(QLatin1String("\"clean_kernels\":false")));
    // --lean leans held samples toward what they lack; the spec records it.
    const Run leaning = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                             QStringLiteral("-n"), QStringLiteral("1"), QStringLiteral("--max-new-tokens"),
                             QStringLiteral("20"), QStringLiteral("--target"), QStringLiteral("comp=4,mem=2"),
                             QStringLiteral("--lean"), QStringLiteral("1"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(leaning.exitCode == 0, qPrintable(leaning.err));
    QVERIFY(scalar(ws_, "SELECT spec FROM samples ORDER BY id DESC LIMIT 1").contains(QLatin1String("\"lean\":1")));
    for (const QStringList& bad : {QStringList{QStringLiteral("--lean"), QStringLiteral("1")},
                                   QStringList{QStringLiteral("--target"), QStringLiteral("comp=4"), QStringLiteral("--near"), QStringLiteral("0"), QStringLiteral("--lean"), QStringLiteral("1")},
                                   QStringList{QStringLiteral("--target"), QStringLiteral("comp=4"), QStringLiteral("--lean"), QStringLiteral("-1")}}) {
      const Run r = cli(QStringList{QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond} + bad);
      QCOMPARE(r.exitCode, 2);
      QVERIFY2(r.err.contains(QLatin1String("--lean")), qPrintable(r.err));
    }
    for (const QStringList& bad : {QStringList{QStringLiteral("--target"), QStringLiteral("comp=4"), QStringLiteral("--clean"), QStringLiteral("--unclean")},
                                   QStringList{QStringLiteral("--unclean")},
                                   QStringList{QStringLiteral("--target"), QStringLiteral("comp=4"), QStringLiteral("--near"), QStringLiteral("0"), QStringLiteral("--unclean")}}) {
      const Run r = cli(QStringList{QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond} + bad);
      QCOMPARE(r.exitCode, 2);
      QVERIFY2(r.err.contains(QLatin1String("--unclean")), qPrintable(r.err));
    }
    const Run unheld = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                            QStringLiteral("-n"), QStringLiteral("1"), QStringLiteral("--max-new-tokens"),
                            QStringLiteral("20"), QStringLiteral("--target"), QStringLiteral("comp=4,mem=2"),
                            QStringLiteral("--near"), QStringLiteral("0"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(unheld.exitCode == 0, qPrintable(unheld.err));
    QVERIFY(!scalar(ws_, "SELECT spec FROM samples ORDER BY id DESC LIMIT 1").contains(QLatin1String("\"near\"")));
    for (const char* bad : {"1.5", "1", "near"}) { // a word is refused, not read as 0
      const Run r = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                         QStringLiteral("--target"), QStringLiteral("comp=4"), QStringLiteral("--near"),
                         QString::fromLatin1(bad)});
      QCOMPARE(r.exitCode, 2);
      QVERIFY2(r.err.contains(QLatin1String("--near: expected a number in [0, 0.999]")), qPrintable(r.err));
    }
    const Run nowhere = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                             QStringLiteral("--near"), QStringLiteral("0.8")});
    QCOMPARE(nowhere.exitCode, 2);
    QVERIFY2(nowhere.err.contains(QLatin1String("--near needs a vector")), qPrintable(nowhere.err));
    const Run unchecked = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                               QStringLiteral("--target"), QStringLiteral("comp=4"), QStringLiteral("--unchecked"),
                               QStringLiteral("--near"), QStringLiteral("0.8")});
    QCOMPARE(unchecked.exitCode, 2);
    QVERIFY2(unchecked.err.contains(QLatin1String("--near needs the compiler checks")), qPrintable(unchecked.err));
    // A grid: -n samples per cell, each with its cell's target in its spec.
    const QString before = scalar(ws_, "SELECT count(*) FROM samples");
    const Run grid = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                          QStringLiteral("-n"), QStringLiteral("1"), QStringLiteral("--max-new-tokens"),
                          QStringLiteral("20"), QStringLiteral("--grid"), QStringLiteral("comp=0:8,mem=0:4"),
                          QStringLiteral("--cells"), QStringLiteral("2"), QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(grid.exitCode == 0, qPrintable(grid.err));
    QCOMPARE(scalar(ws_, "SELECT count(*) FROM samples").toInt() - before.toInt(), 4);
    QCOMPARE(scalar(ws_, "SELECT count(DISTINCT json_extract(spec, '$.sample_target')) FROM samples WHERE spec LIKE "
                         "'%\"grid\":\"comp=0:8,mem=0:4\"%'"),
             QStringLiteral("4"));
    QCOMPARE(scalar(ws_, "SELECT json_extract(spec, '$.sample_target') FROM samples ORDER BY id DESC LIMIT 1"),
             QStringLiteral("comp=6,mem=3"));
    const Run loose = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                           QStringLiteral("--spread"), QStringLiteral("0.2")});
    QCOMPARE(loose.exitCode, 2);
    QVERIFY2(loose.err.contains(QLatin1String("--spread needs --target")), qPrintable(loose.err));
    // A model without conditions, a bad target and a bad share are explained.
    const Run noConditions = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), plain,
                                  QStringLiteral("-n"), QStringLiteral("1"), QStringLiteral("--target"),
                                  QStringLiteral("comp=4")});
    QVERIFY(noConditions.exitCode != 0);
    QVERIFY2(noConditions.err.contains(QLatin1String("trained without conditions")), qPrintable(noConditions.err));
    const Run badTarget = cli({QStringLiteral("sample"), QStringLiteral("-w"), ws_, QStringLiteral("-o"), cond,
                               QStringLiteral("-n"), QStringLiteral("1"), QStringLiteral("--target"),
                               QStringLiteral("flops=3")});
    QVERIFY(badTarget.exitCode != 0);
    QVERIFY2(badTarget.err.contains(QLatin1String("no count named \"flops\"")), qPrintable(badTarget.err));
    args = tiny(dir_.filePath(QStringLiteral("never.ckpt")), 1);
    args << QStringLiteral("--conditions") << QStringLiteral("1.5");
    const Run badShare = cli(args);
    QCOMPARE(badShare.exitCode, 2);
    QVERIFY2(badShare.err.contains(QLatin1String("--conditions: expected a number in [0, 1], got \"1.5\"")), qPrintable(badShare.err));
  }

  void badCheckpointsAndCorporaAreExplained() {
    const QString garbage = dir_.filePath(QStringLiteral("garbage.ckpt"));
    {
      QFile f(garbage);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("not a checkpoint at all");
    }
    const Run r = cli(tiny(garbage, 10));
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains(garbage) && r.err.contains(QLatin1String("corrupt")), qPrintable(r.err));
    QCOMPARE(QFileInfo(garbage).size(), qint64(23)); // left as it was

    const QString empty = dir_.filePath(QStringLiteral("empty.sbw"));
    QVERIFY(cli({QStringLiteral("features"), QStringLiteral(STEERBENCH_TEST_DATA "/kernels/k01_copy.cl"),
                 QStringLiteral("-w"), empty})
                .exitCode == 0);
    QStringList args = tiny(dir_.filePath(QStringLiteral("e.ckpt")), 10);
    args[2] = empty;
    const Run e = cli(args);
    QVERIFY(e.exitCode != 0);
    QVERIFY2(e.err.contains(QLatin1String("no training kernels")), qPrintable(e.err));
  }
};

QTEST_GUILESS_MAIN(TestTrain)
#include "tst_train.moc"

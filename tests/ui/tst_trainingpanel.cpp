// The training panel on a real workspace and a tiny model trained here:
// live curves, the run stored step by step, pause writing the checkpoint,
// resume going on from it, the history reloaded from the workspace, and a
// clear message when there is nothing to train on.
#include "EngineBridge.h"
#include "EngineState.h"
#include "TrainingPanel.h"

#include "common/Paths.h"
#include "model/InfillModelInfo.h"
#include "model/Trainer.h"
#include "model/TrainingSession.h"
#include "store/Workspace.h"

#include <QChartView>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <fstream>
#include <sstream>

using namespace steerbench;
using ui::EngineBridge;
using ui::EngineState;
using ui::TrainingPanel;

namespace {

QString scalar(const QString& workspace, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(workspace.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  QString out;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    out = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

/// A workspace whose training corpus is the fixture kernels.
void makeWorkspace(const QString& path, bool withKernels) {
  auto ws = store::Workspace::open(path.toStdString());
  if (!withKernels) return;
  for (const char* f : {"k01_copy", "k02_helper", "k03_local_tile", "k04_atomics", "k05_loop", "k06_vector", "k07_math",
                        "k08_strided", "k09_two_kernels", "k10_nested_helpers", "k11_local_2d", "k12_bit_ops"}) {
    std::ifstream in(std::string(STEERBENCH_TEST_DATA) + "/kernels/" + f + ".cl");
    std::stringstream text;
    text << in.rdbuf();
    store::KernelRecord k;
    k.name = f;
    k.source = text.str();
    k.role = "train";
    (void)ws.addKernel(k);
  }
}

TrainingPanel::Settings tiny(int steps) {
  TrainingPanel::Settings s;
  s.steps = steps;
  s.batch = 4;
  s.layers = 1;
  s.hidden = 32;
  s.heads = 2;
  s.ffn = 64;
  s.maxLength = 128;
  s.validateEvery = 10;
  s.checkpointEvery = 10;
  s.threads = 1;
  return s;
}

} // namespace

class TestTrainingPanel : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  EngineBridge* engine_ = nullptr;
  TrainingPanel* panel_ = nullptr;
  std::unique_ptr<QWidget> window_;

  /// As MainWindow does: the engine opens the workspace, then the panel follows.
  void open(const QString& path) {
    engine_->post(QString(), [this, path](EngineState& s) -> EngineBridge::Continuation {
      s.workspace = std::make_unique<store::Workspace>(store::Workspace::open(path.toStdString()));
      return [this, path] { panel_->setWorkspace(path); };
    });
    QTRY_VERIFY_WITH_TIMEOUT(engine_->idle(), 30000);
  }

  /// Trains `steps` steps in a new workspace and returns its last loss, as stored.
  QString lossAtTheEnd(const QString& name, int steps) {
    const QString ws = dir_.filePath(name);
    makeWorkspace(ws, true);
    open(ws);
    panel_->setSettings(tiny(steps));
    QSignalSpy ended(panel_, &TrainingPanel::trainingEnded);
    panel_->start();
    if (!QTest::qWaitFor([&] { return ended.count() == 1; }, 180000)) return {};
    if (!QTest::qWaitFor([&] { return engine_->idle(); }, 30000)) return {};
    return scalar(ws, "SELECT loss FROM training_steps WHERE step = " + std::to_string(steps));
  }

  void screenshot(const QString& name) {
    QDir().mkpath(QStringLiteral(STEERBENCH_SCREENSHOT_DIR));
    QVERIFY(window_->grab().save(QStringLiteral(STEERBENCH_SCREENSHOT_DIR "/%1.png").arg(name)));
  }

private slots:
  void initTestCase() {
    window_ = std::make_unique<QWidget>();
    engine_ = new EngineBridge(window_.get());
    panel_ = new TrainingPanel(engine_, window_.get());
    window_->resize(700, 620);
    panel_->resize(700, 620);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  void cleanupTestCase() { window_.reset(); }

  void trainsWithLiveCurvesAndStoresTheRun() {
    const QString ws = dir_.filePath(QStringLiteral("a.sbw"));
    makeWorkspace(ws, true);
    open(ws);
    panel_->setSettings(tiny(30));
    QSignalSpy ended(panel_, &TrainingPanel::trainingEnded);
    panel_->start();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 120000);
    QCOMPARE(ended.at(0).at(0).toBool(), false); // finished, not paused
    QVERIFY2(ended.at(0).at(1).toString().isEmpty(), qPrintable(ended.at(0).at(1).toString()));
    QCOMPARE(panel_->lossPoints(), 30);
    QCOMPARE(panel_->validationPoints(), 3);
    QVERIFY2(panel_->statusText().contains(QLatin1String("complete")), qPrintable(panel_->statusText()));
    const QString ckpt = QString::fromStdString(workspaceModelPath(ws.toStdString()));
    QVERIFY(QFileInfo::exists(ckpt));
    QTRY_VERIFY_WITH_TIMEOUT(engine_->idle(), 30000);
    // Every step reached the workspace, and the run is marked done.
    QCOMPARE(scalar(ws, "SELECT count(*) FROM training_steps"), QStringLiteral("30"));
    QCOMPARE(scalar(ws, "SELECT count(validation_loss) FROM training_steps"), QStringLiteral("3"));
    QCOMPARE(scalar(ws, "SELECT status FROM training_runs"), QStringLiteral("done"));
    // The model's recipe and hash are shown.
    QTRY_VERIFY(panel_->modelText().contains(QLatin1String("Model of this workspace")));
    QVERIFY2(panel_->modelText().contains(QLatin1String("--layers 1 --hidden 32")), qPrintable(panel_->modelText()));
    QVERIFY(panel_->modelText().contains(QLatin1String("sha256")));
    screenshot(QStringLiteral("training-panel"));
  }

  void trainsADecoderAndShowsItAsOne() {
    // The architecture box makes a decoder; reopened, the panel reads it from the checkpoint's recipe.
    const QString ws = dir_.filePath(QStringLiteral("decoder.sbw"));
    makeWorkspace(ws, true);
    open(ws);
    auto st = tiny(10);
    st.decoder = true;
    panel_->setSettings(st);
    QSignalSpy ended(panel_, &TrainingPanel::trainingEnded);
    panel_->start();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 120000);
    QVERIFY2(ended.at(0).at(1).toString().isEmpty(), qPrintable(ended.at(0).at(1).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(engine_->idle(), 30000);
    QVERIFY(model::readCheckpointInfo(workspaceModelPath(ws.toStdString())).config.decoder());
    QTRY_VERIFY(panel_->modelText().contains(QLatin1String("--arch decoder")));
    panel_->setSettings(tiny(10)); // an encoder's settings, until the workspace is read again
    open(ws);
    QTRY_VERIFY(panel_->settings().decoder);
  }

  void pauseWritesTheCheckpointAndResumeGoesOn() {
    const QString ws = dir_.filePath(QStringLiteral("b.sbw"));
    makeWorkspace(ws, true);
    open(ws);
    QCOMPARE(panel_->lossPoints(), 0); // another workspace: its own (empty) history
    QVERIFY2(panel_->statusText().contains(QLatin1String("no training run yet")), qPrintable(panel_->statusText()));
    panel_->setSettings(tiny(1000));
    QSignalSpy ended(panel_, &TrainingPanel::trainingEnded);
    QSignalSpy steps(panel_, &TrainingPanel::stepShown);
    panel_->start();
    QTRY_VERIFY_WITH_TIMEOUT(steps.count() >= 15, 60000);
    panel_->pause();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
    QCOMPARE(ended.at(0).at(0).toBool(), true); // paused
    const int pausedAt = panel_->lossPoints();
    QVERIFY2(pausedAt >= 15 && pausedAt < 1000, qPrintable(QString::number(pausedAt)));
    QVERIFY2(panel_->statusText().contains(QStringLiteral("Paused at step %1").arg(pausedAt)),
             qPrintable(panel_->statusText()));
    QTRY_VERIFY_WITH_TIMEOUT(engine_->idle(), 30000);
    QCOMPARE(scalar(ws, "SELECT status FROM training_runs"), QStringLiteral("stopped"));

    panel_->start(); // resumes from the checkpoint
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 180000);
    QCOMPARE(ended.at(1).at(0).toBool(), false);
    QCOMPARE(panel_->lossPoints(), 1000); // one point per step, none twice
    QTRY_VERIFY_WITH_TIMEOUT(engine_->idle(), 30000);
    QCOMPARE(scalar(ws, "SELECT count(*) FROM training_runs"), QStringLiteral("1")); // the same run, resumed
    QCOMPARE(scalar(ws, "SELECT max(step) FROM training_steps"), QStringLiteral("1000"));
    QCOMPARE(scalar(ws, "SELECT status FROM training_runs"), QStringLiteral("done"));

    // Opening the workspace again draws the curves from what it stored.
    open(dir_.filePath(QStringLiteral("a.sbw")));
    QTRY_COMPARE(panel_->lossPoints(), 30);
    open(ws);
    QTRY_COMPARE(panel_->lossPoints(), 1000);
    QCOMPARE(panel_->validationPoints(), 100);
    QVERIFY(panel_->statusText().contains(QLatin1String("complete")));

    // Paused and resumed, the run ends exactly where an uninterrupted one does.
    const QString resumedLoss = scalar(ws, "SELECT loss FROM training_steps WHERE step = 1000");
    QVERIFY(!resumedLoss.isEmpty());
    QCOMPARE(lossAtTheEnd(QStringLiteral("straight.sbw"), 1000), resumedLoss);
  }

  void resumingKeepsTheObjectiveTheCheckpointWasTrainedWith() {
    // A checkpoint made elsewhere (as by `steerbench-cli train --holes 1-1 --mask 0 --batch 2`), 20 of 40 steps.
    const QString ws = dir_.filePath(QStringLiteral("c.sbw"));
    makeWorkspace(ws, true);
    {
      auto w = store::Workspace::open(ws.toStdString());
      model::TrainOptions o;
      const auto t = tiny(40);
      o.model.layers = t.layers;
      o.model.hidden = t.hidden;
      o.model.heads = t.heads;
      o.model.ffn = t.ffn;
      o.model.maxLength = t.maxLength;
      o.batchSize = 2;
      o.steps = 40;
      o.threads = 1;
      o.data.minHoles = o.data.maxHoles = 1;
      o.data.maskProbability = 0;
      o.checkpoint = workspaceModelPath(ws.toStdString());
      const model::TrainingSession session(w, o, 4000);
      CancelToken stop;
      const auto r = session.train([&](const model::TrainProgress& p) {
        session.record(w, p);
        if (p.step == 20) stop.cancel();
      }, &stop);
      session.finish(w, r);
      QCOMPARE(r.step, std::int64_t(20));
    }
    open(ws);
    QTRY_COMPARE(panel_->lossPoints(), 20);
    QSignalSpy ended(panel_, &TrainingPanel::trainingEnded);
    panel_->start();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(engine_->idle(), 30000);
    QCOMPARE(scalar(ws, "SELECT max(step) FROM training_steps"), QStringLiteral("40"));
    const QString spec = scalar(ws, "SELECT spec FROM training_runs");
    QVERIFY2(spec.contains(QLatin1String("\"holes\":\"1-1\"")) && spec.contains(QLatin1String("\"mask\":0,")) &&
                 spec.contains(QLatin1String("\"batch\":2,")),
             qPrintable(spec));
  }

  void closingWhileTrainingStoresEveryStepUpToTheCheckpoint() {
    const QString ws = dir_.filePath(QStringLiteral("d.sbw"));
    makeWorkspace(ws, true);
    open(ws);
    panel_->setSettings(tiny(100000));
    QSignalSpy steps(panel_, &TrainingPanel::stepShown);
    panel_->start();
    QTRY_VERIFY_WITH_TIMEOUT(steps.count() >= 10, 60000);
    panel_->stopAndFlush(); // what closing the window and switching workspaces do
    QVERIFY(!panel_->training());
    QCOMPARE(scalar(ws, "SELECT status FROM training_runs"), QStringLiteral("stopped"));
    const auto saved = model::summarizeCheckpoint(workspaceModelPath(ws.toStdString())).step;
    QVERIFY(saved >= 10);
    QCOMPARE(scalar(ws, "SELECT max(step) FROM training_steps"), QString::number(saved));
    QCOMPARE(scalar(ws, "SELECT count(*) FROM training_steps"), QString::number(saved));
  }

  void aWorkspaceOpenedUnderARunningTrainingGetsNoneOfIt() {
    const QString a = dir_.filePath(QStringLiteral("e.sbw")), b = dir_.filePath(QStringLiteral("f.sbw"));
    makeWorkspace(a, true);
    makeWorkspace(b, true);
    open(a);
    panel_->setSettings(tiny(100000));
    QSignalSpy steps(panel_, &TrainingPanel::stepShown);
    panel_->start();
    QTRY_VERIFY_WITH_TIMEOUT(steps.count() >= 10, 60000);
    open(b); // without pausing first (MainWindow pauses; the panel must cope anyway)
    QVERIFY(!panel_->training());
    QTest::qWait(300);
    QTRY_VERIFY_WITH_TIMEOUT(engine_->idle(), 30000);
    QCOMPARE(scalar(b, "SELECT count(*) FROM training_runs"), QStringLiteral("0"));
    QCOMPARE(scalar(b, "SELECT count(*) FROM training_steps"), QStringLiteral("0"));
    QCOMPARE(panel_->lossPoints(), 0);
  }

  void anEmptyCorpusIsExplained() {
    const QString ws = dir_.filePath(QStringLiteral("empty.sbw"));
    makeWorkspace(ws, false);
    open(ws);
    QSignalSpy failed(engine_, &EngineBridge::failed);
    panel_->setSettings(tiny(10));
    panel_->start();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
    QVERIFY2(failed.at(0).at(1).toString().contains(QLatin1String("no training kernels")),
             qPrintable(failed.at(0).at(1).toString()));
    QTRY_VERIFY(panel_->statusText().contains(QLatin1String("could not start")));
    QVERIFY(!panel_->training());
    QVERIFY(!QFileInfo::exists(QString::fromStdString(workspaceModelPath(ws.toStdString()))));
  }
};

int main(int argc, char** argv) {
  QTemporaryDir home;
  qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toUtf8());
  qputenv("STEERBENCH_MODEL", home.filePath(QStringLiteral("no-default-model.ckpt")).toUtf8());
  QApplication app(argc, argv);
  TestTrainingPanel test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_trainingpanel.moc"

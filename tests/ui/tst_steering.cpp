// Steering in the workbench, driven like a user would: a click on the plot
// sets the target, Steer runs the beam search with the shipped default model
// on the engine thread, the plot shows each generation's candidates and the
// path to the best, the lineage opens steps in the editor with the infill
// highlighted, "Steer from here" starts from the editor's kernel, and Stop
// cancels. Real workspace, Clang and libtorch, under Xvfb.
#include "FeaturePlot.h"
#include "KernelEditor.h"
#include "MainWindow.h"
#include "SelectionModel.h"
#include "SteeringPanel.h"

#include "corpus/SourceFormatting.h"
#include "engine/FeatureJob.h"
#include "store/Workspace.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTabWidget>
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace steerbench;
using ui::FeaturePlot;
using ui::MainWindow;
using ui::SteeringPanel;

namespace {
QTemporaryDir* home = nullptr;

std::string readFixture(const char* name) {
  std::ifstream in(std::string(STEERBENCH_TEST_DATA) + "/kernels/" + name + ".cl");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
} // namespace

class TestSteering : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> w_;
  QString wsPath_;

  SteeringPanel* panel() { return w_->steeringPanel(); }
  /// The steering panel's check box labelled `text` (nullptr: none).
  QCheckBox* checkBox(const char* text) {
    for (auto* box : panel()->findChildren<QCheckBox*>())
      if (box->text() == QLatin1String(text)) return box;
    return nullptr;
  }
  FeaturePlot* plot() { return w_->plot(); }

  void settle() {
    for (int i = 0; i < 3; ++i) {
      QTRY_VERIFY_WITH_TIMEOUT(!w_->busy(), 120000);
      QTest::qWait(20);
    }
  }

  /// The spot of the plot's middle half farthest from every kernel (up to
  /// 60 px): a target there matches no seed at once, whatever the layout.
  QPoint emptySpot() {
    const QRect area = plot()->viewport()->rect();
    QPoint best;
    int bestClearance = 0;
    for (int y = area.height() / 4; y < area.height() * 3 / 4; y += 7)
      for (int x = area.width() / 4; x < area.width() * 3 / 4; x += 7) {
        int clearance = 0;
        while (clearance < 60 && !plot()->pointAt({x, y}, clearance + 4))
          clearance += 4;
        if (clearance > bestClearance) {
          bestClearance = clearance;
          best = {x, y};
        }
      }
    return bestClearance >= 12 ? best : QPoint();
  }

  /// Small, quick runs: the suite checks behaviour, not quality.
  void smallSettings(int depth) {
    auto s = panel()->spec();
    s.width = 3;
    s.candidatesPerMember = 3;
    s.depth = depth;
    s.timeBudget = 0;
    s.seed = 5;
    // The fixture's seven kernels are the seeds: auto seeding would write
    // seeds with the shipped model wherever a click lands far from them.
    s.seeding = steer::Seeding::Nearest;
    panel()->setSpec(s);
    QCOMPARE(panel()->spec().candidatesPerMember, 3); // what the widgets show is what runs
  }

private Q_SLOTS:
  void initTestCase() {
    wsPath_ = home->filePath(QStringLiteral("steer.sbw"));
    auto ws = store::Workspace::open(wsPath_.toStdString());
    engine::FeatureJobOptions o;
    for (const auto& s : features::featureSpaces())
      o.measure.spaces.push_back(&s);
    o.workspace = &ws;
    std::vector<std::string> paths;
    for (const char* f : {"k01_copy", "k03_local_tile", "k05_loop", "k06_vector", "k07_math", "k08_strided",
                          "k12_bit_ops"})
      paths.push_back(std::string(STEERBENCH_TEST_DATA) + "/kernels/" + f + ".cl");
    for (const auto& r : engine::runFeatureJob(paths, o))
      QVERIFY2(r.ok(), r.error.c_str());
    for (std::int64_t id = 1; id <= ws.kernelCount(); ++id)
      ws.setRole(id, "train");
    w_ = std::make_unique<MainWindow>();
    w_->resize(1500, 950);
    w_->show();
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    QSignalSpy reloaded(w_.get(), &MainWindow::plotReloaded);
    w_->openWorkspace(wsPath_);
    QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() >= 1, 60000);
    settle();
    QVERIFY(w_->raiseDock(QStringLiteral("steering")));
  }

  void cleanup() {
    QTest::qWait(50);
    QDir().mkpath(QStringLiteral(STEERBENCH_SCREENSHOT_DIR));
    w_->grab().save(QStringLiteral(STEERBENCH_SCREENSHOT_DIR "/steering-%1.png").arg(QTest::currentTestFunction()));
  }

  void cleanupTestCase() { w_.reset(); }

  void clickSetsTheTargetAndSteerRunsLive() {
    QVERIFY(!panel()->running());
    const QPoint at = emptySpot();
    QVERIFY(!at.isNull());
    QTest::mouseClick(plot()->viewport(), Qt::LeftButton, {}, at);
    QTRY_VERIFY(w_->selection()->target().has_value());
    smallSettings(3);
    QSignalSpy arrived(panel(), &SteeringPanel::candidatesArrived);
    QSignalSpy finished(panel(), &SteeringPanel::runFinished);
    // The editor follows the run's best as it changes.
    QVERIFY(panel()->followsBest());
    auto* editor = w_->editor();
    QStringList shown;
    QObject scope; // the connection ends with this test: later runs' bests must not reach its locals
    connect(panel(), &SteeringPanel::bestChanged, &scope, [&] { QTimer::singleShot(0, &scope, [&] { shown << editor->text(); }); });
    panel()->steer();
    QVERIFY(panel()->running());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 300000);
    QVERIFY(!panel()->running());
    QVERIFY2(panel()->statusText().contains(QLatin1String("Run 1")), qPrintable(panel()->statusText()));
    QCOMPARE(arrived.count(), 4); // generations 0 to 3, each as it completed
    QCOMPARE(panel()->generationsShown(), 4);
    QVERIFY(plot()->steeringPoints() >= 4); // the seeds at least
    QVERIFY(panel()->lineageSteps() >= 1);
    QCOMPARE(plot()->steeringPathLength(), panel()->lineageSteps());
    // The editor showed each new best, formatted, and holds the last one.
    QTRY_VERIFY(!shown.isEmpty());
    QVERIFY(editor->title().startsWith(QLatin1String("Best so far")));
    for (const auto& text : shown) {
      QVERIFY(text.contains(QLatin1String("kernel")));
      QCOMPARE(QString::fromStdString(corpus::formatSource(text.toStdString())), text); // formatted code
    }
    QCOMPARE(shown.back(), editor->text());
    // Each step of the lineage is a diff of formatted lines.
    for (int r = 1; r < panel()->lineageSteps(); ++r) {
      const QStringList lines = panel()->stepText(r).split(QLatin1Char('\n'));
      QVERIFY2(lines.size() >= 2, qPrintable(panel()->stepText(r)));
      for (int i = 1; i < lines.size(); ++i)
        QVERIFY2(lines[i].startsWith(QChar(0x2212)) || lines[i].startsWith(QLatin1Char('+')) ||
                     lines[i].startsWith(QLatin1String("  (the same")),
                 qPrintable(panel()->stepText(r)));
    }
    // The run is in the workspace, and its best became a kernel on the plot.
    const qint64 best = finished.at(0).at(0).toLongLong();
    QVERIFY(best > 0);
    settle();
    bool onPlot = false;
    for (auto id : plot()->workspaceTable().ids)
      onPlot |= id == best;
    QVERIFY(onPlot);
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    QCOMPARE(ws.steerRuns().size(), std::size_t(1));
    QCOMPARE(ws.steerRuns()[0].status, std::string("finished"));
    QCOMPARE(int(ws.steerGenerations(1).size()), 4);
  }

  void aLineageStepOpensInTheEditorWithItsChangeHighlighted() {
    const int last = panel()->lineageSteps() - 1;
    panel()->showStep(last);
    QVERIFY(!panel()->followsBest()); // looking at a step stops following the run
    auto* editor = w_->findChild<ui::KernelEditor*>();
    QVERIFY(editor);
    QVERIFY(editor->title().contains(QLatin1String("candidate")) || editor->title().startsWith(QLatin1String("Seed")));
    QVERIFY(editor->text().contains(QLatin1String("kernel")));
    const auto h = editor->highlighted();
    QVERIFY(h.first >= 0 && h.first + h.second <= editor->text().size());
    if (last > 0) {
      // Some step after the seed changed something: its span is highlighted.
      bool any = false;
      for (int r = 1; r <= last && !any; ++r) {
        panel()->showStep(r);
        any = editor->highlighted().second > 0;
      }
      QVERIFY(any);
    }
  }

  void steerFromHereStartsFromTheEditorsKernel() {
    auto* editor = w_->findChild<ui::KernelEditor*>();
    const QString seed = QString::fromStdString(readFixture("k05_loop"));
    editor->setKernel(0, QStringLiteral("my loop"), seed);
    smallSettings(1);
    QSignalSpy finished(panel(), &SteeringPanel::runFinished);
    editor->steerAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 300000);
    panel()->showStep(0);
    QVERIFY2(editor->title().contains(QLatin1String("my loop")), qPrintable(editor->title()));
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    const auto runs = ws.steerRuns();
    QCOMPARE(runs.size(), std::size_t(2));
    QVERIFY(ws.spec(runs[1].specHash).find("\"seeding\":\"given\"") != std::string::npos);
    QCOMPARE(ws.steerCandidates(runs[1].id, 0).at(0).origin, std::string("seed my loop"));
  }

  void sampleTowardTargetDrawsAndStoresEachSample() {
    // The target of the click above (Grewe); the shipped model has conditions.
    QVERIFY(w_->selection()->target().has_value());
    auto* button = panel()->findChild<QPushButton*>(QStringLiteral("steeringSample"));
    auto* count = panel()->findChild<QSpinBox*>(QStringLiteral("steeringSampleCount"));
    auto* spread = panel()->findChild<QDoubleSpinBox*>(QStringLiteral("steeringSampleSpread"));
    QVERIFY(button && count && spread);
    QVERIFY(button->isEnabled());
    count->setValue(4);
    spread->setValue(0.2);
    const auto before = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting).kernelCount();
    QSignalSpy arrived(panel(), &SteeringPanel::candidatesArrived);
    QSignalSpy finished(panel(), &SteeringPanel::samplingFinished);
    button->click();
    QVERIFY(panel()->running());
    QVERIFY(!button->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 300000);
    QVERIFY(!panel()->running());
    QCOMPARE(finished.at(0).at(0).toInt(), 4);
    const int compiled = finished.at(0).at(1).toInt();
    // Each sample that compiles is a workspace kernel of role "sample", and a
    // point that reached the plot as it arrived.
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    QCOMPARE(ws.kernelCount(), before + compiled);
    for (std::int64_t id = before + 1; id <= ws.kernelCount(); ++id)
      QCOMPARE(ws.kernel(id)->role, std::string("sample"));
    QCOMPARE(arrived.count(), compiled);
    QCOMPARE(plot()->steeringPoints(), compiled);
    QStringList legend;
    for (const auto& e : plot()->legendEntries()) legend << e.name;
    QCOMPARE(legend.contains(QStringLiteral("Samples as they arrive")), compiled > 0); // not "steered candidates"
    QVERIFY2(!legend.join('|').contains(QLatin1String("Steered candidates")), qPrintable(legend.join('|')));
    QVERIFY2(panel()->statusText().startsWith(QStringLiteral("Samples toward the target: 4, compiling: %1").arg(compiled)),
             qPrintable(panel()->statusText()));
    QVERIFY2(panel()->statusText().contains(QLatin1String("Held to their vectors: ")), qPrintable(panel()->statusText()));
    if (compiled > 0)
      QVERIFY2(panel()->statusText().contains(QLatin1String("Median proximity to the counts each asked for")),
               qPrintable(panel()->statusText()));
  }

  void aGridOverThePlotsViewSamplesEachCell() {
    // PCA axes are no grid of counts; comp against mem is.
    QVERIFY(plot()->pcaAxes());
    QVERIFY(plot()->viewGrid().isEmpty());
    const auto& dims = plot()->workspaceTable().dimensions;
    const int comp = int(std::find(dims.begin(), dims.end(), "comp") - dims.begin()),
              mem = int(std::find(dims.begin(), dims.end(), "mem") - dims.begin());
    plot()->setAxes(comp, mem);
    const QString grid = plot()->viewGrid();
    QVERIFY2(QRegularExpression(QStringLiteral("^comp=\\d+:\\d+,mem=\\d+:\\d+$")).match(grid).hasMatch(), qPrintable(grid));
    plot()->setAxes(comp, int(std::find(dims.begin(), dims.end(), "F2") - dims.begin()));
    QVERIFY(plot()->viewGrid().isEmpty()); // F2 is a ratio the model is not told
    plot()->setAxes(comp, mem);
    auto* cells = panel()->findChild<QSpinBox*>(QStringLiteral("steeringGridCells"));
    auto* perCell = panel()->findChild<QSpinBox*>(QStringLiteral("steeringGridPerCell"));
    QVERIFY(cells && perCell);
    cells->setValue(2);
    perCell->setValue(1);
    const auto before = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting).kernelCount();
    // A grid needs no target: the counts it does not set are 0 then.
    const auto target = w_->selection()->target();
    w_->selection()->setTarget(std::nullopt);
    QSignalSpy arrived(panel(), &SteeringPanel::candidatesArrived);
    QSignalSpy finished(panel(), &SteeringPanel::samplingFinished);
    emit plot()->gridSamplingRequested(grid); // what the plot's menu sends; the window starts it
    QVERIFY(panel()->running());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 300000);
    QCOMPARE(finished.at(0).at(0).toInt(), 4);
    const int compiled = finished.at(0).at(1).toInt();
    QCOMPARE(arrived.count(), compiled);
    const QString status = panel()->statusText();
    QVERIFY2(status.startsWith(QStringLiteral("Samples over the grid: 4, compiling: %1").arg(compiled)), qPrintable(status));
    QVERIFY2(QRegularExpression(QStringLiteral("within 10% of the cell's vector: [0-4] of 4\\.")).match(status).hasMatch(),
             qPrintable(status));
    // Each sample that compiles is a workspace kernel of role "sample", drawn
    // on the plot's generated layer once the plot reloads; the raw axes stay.
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    QCOMPARE(ws.kernelCount(), before + compiled);
    for (std::int64_t id = before + 1; id <= ws.kernelCount(); ++id)
      QCOMPARE(ws.kernel(id)->role, std::string("sample"));
    QCOMPARE(plot()->dimX(), comp);
    plot()->setAxes(-1, -1);
    w_->selection()->setTarget(target);
  }

  void theActiveLearnerSuggestsTargetsAndShadesThePlot() {
    QSignalSpy shown(panel(), &SteeringPanel::suggestionsShown);
    panel()->suggestTargets(300);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, 60000);
    QCOMPARE(panel()->suggestionCount(), 0); // nothing driven yet: it says what to do
    QVERIFY2(panel()->statusText().contains(QLatin1String("Devices dock")), qPrintable(panel()->statusText()));
    {
      // Labelled cases as the Devices dock would store them (a made-up device pair keeps the labels known).
      auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
      int n = 0;
      for (std::int64_t id = 1; id <= 7; ++id)
        for (std::int64_t size : {1024, 65536}) {
          store::Workspace::DriveCaseRecord c;
          c.kernelId = id;
          c.kernelName = ws.kernel(id)->name;
          c.globalSize = size;
          c.localSize = 64;
          c.transferBytes = size * 8;
          c.outcome = "PASS";
          c.label = (n++ % 3 == 0) ? "device A" : "device B";
          c.labelStatus = "significant";
          c.specHash = ws.putSpec("{\"made\":\"by the test\"}");
          ws.addDriveCase(c);
        }
    }
    panel()->suggestTargets(300);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 2, 60000);
    QCOMPARE(panel()->suggestionCount(), 8);
    QCOMPARE(plot()->entropyPoints(), 300);
    panel()->useSuggestion(0);
    QTRY_VERIFY(w_->selection()->target().has_value());
    QVERIFY(w_->selection()->target()->origin.contains(QLatin1String("active learning")));
    QCOMPARE(w_->selection()->target()->values.size(), std::size_t(8));
  }

  void theSeedsBoxStartsAutomaticAndSetsTheSeeding() {
    auto* seeds = panel()->findChild<QComboBox*>(QStringLiteral("steeringSeeding"));
    QVERIFY(seeds);
    const auto keep = panel()->spec();
    panel()->setSpec(steer::SteerSpec{}); // the spec's default
    QCOMPARE(seeds->currentText(), QStringLiteral("Automatic"));
    QCOMPARE(panel()->spec().seeding, steer::Seeding::Auto);
    const std::vector<std::pair<QString, steer::Seeding>> items = {
        {QStringLiteral("Nearest corpus kernels"), steer::Seeding::Nearest},
        {QStringLiteral("Empty kernel"), steer::Seeding::Empty},
        {QStringLiteral("Generated for the target"), steer::Seeding::Generated},
        {QStringLiteral("Automatic"), steer::Seeding::Auto}};
    for (const auto& [text, seeding] : items) {
      seeds->setCurrentIndex(seeds->findText(text));
      QCOMPARE(panel()->spec().seeding, seeding);
    }
    auto s = keep;
    s.seeding = steer::Seeding::Generated;
    panel()->setSpec(s); // the box follows the spec
    QCOMPARE(seeds->currentText(), QStringLiteral("Generated for the target"));
    panel()->setSpec(keep);
  }

  void theParametersTabSetsRepairsLineageChecksAndTheSeedsPerPackage() {
    auto* tabs = panel()->findChild<QTabWidget*>();
    QVERIFY(tabs);
    tabs->setCurrentIndex(1);
    auto* repairs = checkBox("Repair failing candidates");
    QVERIFY(repairs);
    QVERIFY(!repairs->isChecked()); // the spec's default
    repairs->setChecked(true);
    QVERIFY(panel()->spec().repairs);
    auto* lineages = checkBox("Bisect failures, check members");
    QVERIFY(lineages);
    QVERIFY(!lineages->isChecked()); // the spec's default
    lineages->setChecked(true);
    QVERIFY(panel()->spec().lineageChecks);
    QDoubleSpinBox* share = nullptr;
    for (auto* box : panel()->findChildren<QDoubleSpinBox*>())
      if (box->toolTip().startsWith(QLatin1String("Nearest corpus kernels: at most this share"))) share = box;
    QVERIFY(share);
    QCOMPARE(share->value(), 0.75);
    share->setValue(0.5);
    QCOMPARE(panel()->spec().seedPackageShare, 0.5);
    QDir().mkpath(QStringLiteral(STEERBENCH_SCREENSHOT_DIR));
    QVERIFY(w_->grab().save(QStringLiteral(STEERBENCH_SCREENSHOT_DIR "/steering-parameters.png")));
    auto s = panel()->spec();
    s.repairs = false;
    s.seedPackageShare = 0.75;
    s.lineageChecks = false;
    panel()->setSpec(s); // what the widgets show follows the spec
    QVERIFY(!repairs->isChecked());
    QVERIFY(!lineages->isChecked());
    QCOMPARE(share->value(), 0.75);
    tabs->setCurrentIndex(0);
  }

  void stopCancelsARun() {
    smallSettings(100000);
    QSignalSpy arrived(panel(), &SteeringPanel::candidatesArrived);
    QSignalSpy finished(panel(), &SteeringPanel::runFinished);
    panel()->steer();
    QTRY_VERIFY_WITH_TIMEOUT(arrived.count() >= 2, 300000);
    panel()->stop();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
    QVERIFY2(panel()->statusText().contains(QLatin1String("cancelled")), qPrintable(panel()->statusText()));
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    QCOMPARE(ws.steerRuns().back().status, std::string("cancelled"));
  }

  void earlierRunsAreListedOpenedAndResumed() {
    QSignalSpy listed(panel(), &SteeringPanel::runsListed);
    panel()->refreshRuns();
    QTRY_VERIFY_WITH_TIMEOUT(listed.count() >= 1, 60000);
    auto* runs = panel()->findChild<QComboBox*>(QStringLiteral("steeringRuns"));
    QVERIFY(runs);
    QCOMPARE(panel()->listedRuns(), (std::vector<std::int64_t>{1, 2, 3}));
    QCOMPARE(runs->count(), 3);
    QVERIFY2(runs->itemText(2).contains(QLatin1String("cancelled")), qPrintable(runs->itemText(2)));
    QPushButton* resume = nullptr;
    for (auto* b : panel()->findChildren<QPushButton*>())
      if (b->text() == QLatin1String("Resume")) resume = b;
    QVERIFY(resume);
    runs->setCurrentIndex(0); // a finished run cannot go on
    QVERIFY(!resume->isEnabled());

    // Opening the first run lists its lineage and shows its kernel.
    QSignalSpy opened(panel(), &SteeringPanel::runOpened);
    panel()->openRun(1);
    QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1, 60000);
    QVERIFY(panel()->lineageSteps() >= 1);
    auto* editor = w_->findChild<ui::KernelEditor*>();
    QVERIFY2(editor->title().startsWith(QLatin1String("Run 1")), qPrintable(editor->title()));
    QVERIFY(editor->text().contains(QLatin1String("kernel")));
    QVERIFY2(panel()->statusText().contains(QLatin1String("Run 1")), qPrintable(panel()->statusText()));

    // The cancelled run goes on from its last stored generation, with its own spec.
    runs->setCurrentIndex(2);
    QVERIFY(resume->isEnabled());
    int before = 0;
    {
      auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
      before = ws.steerGenerations(3).back().generation;
    }
    QSignalSpy arrived(panel(), &SteeringPanel::candidatesArrived);
    QSignalSpy finished(panel(), &SteeringPanel::runFinished);
    resume->click();
    QTRY_VERIFY_WITH_TIMEOUT(arrived.count() >= 2, 300000);
    panel()->stop();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
    settle();
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    QCOMPARE(ws.steerRuns().size(), std::size_t(3)); // no new run
    QVERIFY2(ws.steerGenerations(3).back().generation > before,
             qPrintable(QStringLiteral("%1 generations before").arg(before)));
    QCOMPARE(runs->count(), 3);
  }

  void aRunThatCannotBeReadIsListedWithWhy() {
    {
      // A run whose stored target is damaged (as a crash mid-write or a hand edit could leave it).
      auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
      auto r = *ws.steerRun(1);
      r.id = 0;
      r.target = "{\"space\": \"grewe\", \"values\": [1, 2";
      r.status = "cancelled";
      QCOMPARE(ws.addSteerRun(r), std::int64_t(4));
    }
    QSignalSpy listed(panel(), &SteeringPanel::runsListed);
    panel()->refreshRuns();
    QTRY_VERIFY_WITH_TIMEOUT(listed.count() >= 1, 60000);
    auto* runs = panel()->findChild<QComboBox*>(QStringLiteral("steeringRuns"));
    QCOMPARE(runs->count(), 4); // the others are still listed
    QVERIFY2(runs->itemText(3).contains(QLatin1String("cannot be read")), qPrintable(runs->itemText(3)));
    QVERIFY2(runs->itemText(0).contains(QLatin1String("nearest")), qPrintable(runs->itemText(0)));
    runs->setCurrentIndex(3);
    QPushButton* resume = nullptr;
    for (auto* b : panel()->findChildren<QPushButton*>())
      if (b->text() == QLatin1String("Resume")) resume = b;
    QVERIFY(!resume->isEnabled()); // cancelled, but nothing to go on from
    panel()->openRun(4);
    QTRY_VERIFY_WITH_TIMEOUT(panel()->statusText().startsWith(QLatin1String("Cannot open run 4")), 60000);
  }
};

int main(int argc, char** argv) {
  QTemporaryDir dir;
  home = &dir;
  qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
  qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toUtf8());
  qputenv("XDG_CACHE_HOME", dir.filePath(QStringLiteral("cache")).toUtf8());
  qputenv("STEERBENCH_DEVMAP_DIR", dir.filePath(QStringLiteral("no-devmap")).toUtf8());
  // The model Steerbench ships steers (the workspace has none of its own).
  qputenv("STEERBENCH_MODEL", STEERBENCH_DEFAULT_MODEL);
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("steerbench-test"));
  QApplication::setApplicationName(QStringLiteral("steerbench-test"));
  TestSteering test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_steering.moc"

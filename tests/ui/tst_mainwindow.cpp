// The workbench window, driven like a user would: real engine thread, real
// workspace, real Clang, real Qt Charts and QScintilla, under Xvfb.
#include "EngineBridge.h"
#include "EngineState.h"
#include "FeaturePlot.h"
#include "FeaturesView.h"
#include "KernelEditor.h"
#include "KernelList.h"
#include "MainWindow.h"
#include "PlotLegend.h"
#include "SelectionModel.h"
#include "TargetTable.h"

#include "engine/FeatureJob.h"
#include "engine/FeatureTable.h"
#include "features/FeatureSpace.h"
#include "features/Pca.h"
#include "steer/PlotTarget.h"
#include "model/Tokenizer.h"
#include "model/Trainer.h"
#include "store/Workspace.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>
#include <QToolTip>
#include <QWheelEvent>

#include <sqlite3.h>

#include <cmath>
#include <fstream>

using namespace steerbench;
using ui::FeaturePlot;
using ui::MainWindow;

namespace {

QTemporaryDir* home = nullptr; // XDG dirs, settings and workspaces of this run

const char* kBroken = "kernel void broken(global float* a) {\n  a[0] = undefined_name + 1;\n}\n";
const char* kFixed = "kernel void fixed(global float* a, global const float* b) {\n"
                     "  int i = get_global_id(0);\n  if (i > 2) a[i] = b[i] * 2.0f + b[i - 1];\n}\n";

void writeReferenceCsv(const QString& path) {
  std::ofstream out(path.toStdString());
  out << "benchmark,dataset,comp,rational,mem,localmem,coalesced,atomic,transfer,wgsize,oracle,runtime_cpu,"
         "runtime_gpu,src\n"
      << "ref-1-a-scale,d,4,1,3,0,3,0,64,64,GPU,2,1,\"kernel void scale(global float* a) { int i = get_global_id(0); "
         "if (i < 4) a[i] = a[i] * 2.0f; }\"\n"
      << "ref-1-b-sum,d,9,2,6,0,2,1,64,64,CPU,1,2,\"kernel void sum(global int* a, global int* s) { atomic_add(s, "
         "a[get_global_id(0)]); }\"\n";
}

} // namespace

class TestMainWindow : public QObject {
  Q_OBJECT
  QString wsPath_;
  std::unique_ptr<MainWindow> w_;
  std::int64_t kernels_ = 0;

  FeaturePlot* plot() { return w_->plot(); }

  /// Waits until the engine is idle and its continuations ran.
  void settle() {
    for (int i = 0; i < 3; ++i) {
      QTRY_VERIFY_WITH_TIMEOUT(!w_->busy(), 60000);
      QTest::qWait(20);
    }
  }

  /// A widget position inside the plot area with no point within 12 px.
  QPoint emptySpot() {
    const QRect area = plot()->viewport()->rect();
    for (int y = area.height() / 4; y < area.height() * 3 / 4; y += 7)
      for (int x = area.width() / 4; x < area.width() * 3 / 4; x += 7)
        if (!plot()->pointAt({x, y}, 12)) return {x, y};
    return {};
  }

  void closeDialogs() {
    for (auto* box : w_->findChildren<QMessageBox*>())
      box->done(0);
    QTest::qWait(10);
  }

private slots:
  void initTestCase() {
    // The workspace: the fixture kernels with all three spaces; most become corpus kernels.
    wsPath_ = home->filePath(QStringLiteral("test.sbw"));
    auto ws = store::Workspace::open(wsPath_.toStdString());
    engine::FeatureJobOptions o;
    for (const auto& s : features::featureSpaces())
      o.measure.spaces.push_back(&s);
    o.workspace = &ws;
    std::vector<std::string> paths;
    for (const char* f : {"k01_copy", "k02_helper", "k03_local_tile", "k04_atomics", "k05_loop", "k06_vector",
                          "k07_math", "k08_strided", "k09_two_kernels", "k10_nested_helpers", "k11_local_2d",
                          "k12_bit_ops"})
      paths.push_back(std::string(STEERBENCH_TEST_DATA) + "/kernels/" + f + ".cl");
    for (const auto& r : engine::runFeatureJob(paths, o))
      QVERIFY2(r.ok(), r.error.c_str());
    kernels_ = ws.kernelCount();
    for (std::int64_t id = 1; id <= kernels_ - 2; ++id)
      ws.setRole(id, "train");
    ws.setRole(kernels_, "sample"); // one the model wrote; the one before it stays the user's
    // A first run: no saved layout in this fresh settings directory.
    QVERIFY(!QSettings().contains(QStringLiteral("window/state")));
    w_ = std::make_unique<MainWindow>();
    QCOMPARE(w_->size(), QSize(1400, 990)); // the size a first window gets
    w_->show();
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
  }

  void cleanup() {
    // Every test leaves a screenshot of the main window under the build tree
    // (after the layouts its last step asked for).
    QTest::qWait(50);
    QDir().mkpath(QStringLiteral(STEERBENCH_SCREENSHOT_DIR));
    w_->grab().save(QStringLiteral(STEERBENCH_SCREENSHOT_DIR "/%1%2.png")
                        .arg(QTest::currentTestFunction(), qEnvironmentVariable("STEERBENCH_SCREENSHOT_SUFFIX")));
    closeDialogs();
  }

  void cleanupTestCase() { w_.reset(); }

  void theFirstWindowShowsThePlotAndTheEditorSideBySide() {
    QSignalSpy reloaded(w_.get(), &MainWindow::plotReloaded);
    w_->openWorkspace(wsPath_);
    QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() >= 1, 60000);
    settle();
    QTest::qWait(100); // the default sizes are applied once the docks have theirs
    const int width = w_->width();
    auto* editor = w_->editor();
    auto* pane = w_->findChild<QWidget*>(QStringLiteral("plotPane"));
    QVERIFY(pane && editor->isVisible() && pane->isVisible());
    // Side by side in the centre: the editor a third of the window at least,
    // the plot at least as wide and most of the window's height.
    const QRect e(editor->mapTo(w_.get(), QPoint()), editor->size()), p(pane->mapTo(w_.get(), QPoint()), pane->size());
    qInfo("window %dx%d; plot pane %dx%d at (%d, %d); editor %dx%d at (%d, %d)", width, w_->height(), p.width(),
          p.height(), p.x(), p.y(), e.width(), e.height(), e.x(), e.y());
    QVERIFY(e.left() >= p.right()); // editor to the right of the plot
    QVERIFY(std::abs(e.top() - p.top()) < 40);
    QVERIFY2(e.width() * 3 >= width, "the editor is at least a third of the window");
    QVERIFY(p.width() >= e.width());
    QVERIFY2(plot()->height() * 2 >= w_->height(), "the plot has at least half the window's height");
    QVERIFY(e.height() * 2 >= w_->height());
    // The legend names every layer in full and fits its lines.
    const QStringList names = w_->legend()->names();
    for (const char* layer : {"Corpus kernels", "Your kernels", "Reference benchmarks", "Evaluated kernel", "Target"})
      QVERIFY2(std::any_of(names.begin(), names.end(), [&](const QString& n) { return n.startsWith(QLatin1String(layer)); }),
               qPrintable(names.join(QStringLiteral(" | "))));
    QVERIFY(w_->legend()->fits());
    QVERIFY(!w_->legend()->text().contains(QStringLiteral("...")));
    // Target, Steering and Features are docks around them.
    for (const char* dock : {"targetDock", "steeringDock", "featuresDock"}) {
      auto* d = w_->findChild<QDockWidget*>(QLatin1String(dock));
      QVERIFY2(d && d->isVisible(), dock);
    }
    // A narrow window wraps the legend instead of cutting it.
    w_->resize(900, 700);
    QTest::qWait(100);
    QVERIFY(w_->legend()->fits());
    w_->resize(1400, 990);
    w_->resetLayout();
    QTest::qWait(100);
    QVERIFY(w_->editor()->width() * 3 >= w_->width());
    QDir().mkpath(QStringLiteral(STEERBENCH_SCREENSHOT_DIR));
    QVERIFY(w_->grab().save(QStringLiteral(STEERBENCH_SCREENSHOT_DIR "/first-window%1.png")
                                .arg(qEnvironmentVariable("STEERBENCH_SCREENSHOT_SUFFIX"))));
  }

  void resetLayoutRestoresTheDefault() {
    auto* features = w_->findChild<QDockWidget*>(QStringLiteral("featuresDock"));
    features->setFloating(true);
    w_->findChild<QDockWidget*>(QStringLiteral("targetDock"))->hide();
    w_->findChild<QAction*>(QStringLiteral("resetLayout"))->trigger();
    QTest::qWait(100);
    QVERIFY(!features->isFloating());
    QVERIFY(w_->findChild<QDockWidget*>(QStringLiteral("targetDock"))->isVisible());
    QVERIFY(w_->editor()->width() * 3 >= w_->width());
  }

  void opensAWorkspaceMadeByTheTest() {
    QSignalSpy reloaded(w_.get(), &MainWindow::plotReloaded);
    w_->openWorkspace(wsPath_);
    QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() >= 1, 60000);
    settle();
    QCOMPARE(w_->workspacePath(), wsPath_);
    QCOMPARE(std::int64_t(plot()->workspaceTable().size()), kernels_);
    QVERIFY(plot()->pca());
    QVERIFY(plot()->pcaAxes());
    QCOMPARE(int(plot()->referenceTable().size()), 2); // the reference CSV of this run (STEERBENCH_DEVMAP_DIR)
    QVERIFY(plot()->shownPoints() >= int(kernels_) + 2);
    // Each kernel on the layer of where it came from, and the legend counts them so.
    const auto& t = plot()->workspaceTable();
    for (std::size_t r = 0; r < t.size(); ++r) {
      const auto want = t.ids[r] == kernels_       ? FeaturePlot::Layer::Generated
                        : t.ids[r] == kernels_ - 1 ? FeaturePlot::Layer::User
                                                   : FeaturePlot::Layer::Corpus;
      QVERIFY2(plot()->positionOf({want, int(r)}).has_value(), qPrintable(QString::number(t.ids[r])));
    }
    QStringList legend;
    for (const auto& e : plot()->legendEntries()) legend << e.name;
    QVERIFY2(legend.contains(QStringLiteral("Corpus kernels (%1)").arg(kernels_ - 2)), qPrintable(legend.join('|')));
    QVERIFY2(legend.contains(QStringLiteral("Your kernels (1)")), qPrintable(legend.join('|')));
    QVERIFY2(legend.contains(QStringLiteral("Generated kernels (1)")), qPrintable(legend.join('|')));
  }

  void clickOnEmptySpaceSetsAFeasibleTargetNearTheClick() {
    const QPoint at = emptySpot();
    QVERIFY(!at.isNull());
    const QPointF value = plot()->valueAt(at);
    QTest::mouseClick(plot()->viewport(), Qt::LeftButton, {}, at);
    QTRY_VERIFY(w_->selection()->target().has_value());

    // Expected, computed here from the workspace file itself by core's rule.
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    const auto& grewe = features::featureSpace("grewe");
    const auto table = engine::loadWorkspaceTable(ws, grewe);
    std::vector<std::vector<double>> corpus; // PCA-2 is fitted on the corpus layer by default: not the
    for (std::size_t r = 0; r < table.size(); ++r) // user's kernel, nor the one the model wrote
      if (table.groups[r] == "train") corpus.push_back(table.rows[r]);
    QVERIFY(corpus.size() >= 2 && corpus.size() < table.size());
    const auto pca = features::Pca::fit(corpus);
    QVERIFY(plot()->chart()->title().contains(QLatin1String("corpus kernels")));
    const auto expected = steer::targetFromPcaClick("grewe", pca, table.rows, value.x(), value.y());
    QVERIFY(steer::isFeasible("grewe", expected.target.values));
    auto* t = w_->targetTable()->table();
    QCOMPARE(t->rowCount(), 8);
    for (int r = 0; r < 8; ++r) {
      const double want = expected.target.values[std::size_t(r)];
      const double shown = t->item(r, 1)->text().toDouble();
      QVERIFY2(std::abs(shown - want) <= 1e-6 * std::max(1.0, std::abs(want)),
               qPrintable(QStringLiteral("%1: %2 vs %3").arg(t->item(r, 0)->text()).arg(shown).arg(want)));
    }
    QVERIFY(plot()->positionOf({FeaturePlot::Layer::Target, 0}).has_value());
    // The plot shows the click joined to the target; when they are apart, the
    // Target dock says why.
    QVERIFY(plot()->targetClickShown());
    const auto target = *plot()->positionOf({FeaturePlot::Layer::Target, 0});
    const double pixels = QLineF(plot()->widgetPosOf(value), plot()->widgetPosOf(target)).length();
    QCOMPARE(w_->targetTable()->note().isEmpty(), pixels <= 3);
    if (pixels > 3) QVERIFY(w_->targetTable()->note().contains(QLatin1String("nearest vector a kernel can have")));
    bool listed = false;
    for (const auto& name : w_->legend()->names())
      listed = listed || name.startsWith(QLatin1String("Your click"));
    QVERIFY(listed);
    // Typing a value drops the click: the target is no longer where it was clicked.
    w_->targetTable()->table()->item(2, 1)->setText(QStringLiteral("7"));
    QVERIFY(!plot()->targetClickShown());
    QVERIFY(w_->targetTable()->note().isEmpty());
    w_->undoStack()->undo();
    QVERIFY(plot()->targetClickShown());
  }

  void targetValuesEditExactlyAndUndo() {
    QVERIFY(w_->selection()->target().has_value());
    const auto before = w_->selection()->target()->values;
    auto* item = w_->targetTable()->table()->item(0, 1);
    item->setText(QStringLiteral("123.5"));
    QCOMPARE(w_->selection()->target()->values[0], 123.5);
    w_->undoStack()->undo();
    QCOMPARE(w_->selection()->target()->values, before);
    w_->undoStack()->redo();
    QCOMPARE(w_->selection()->target()->values[0], 123.5);
  }

  void clickOnAKernelShowsItInTheEditor() {
    // A kernel whose point no other point covers.
    const auto& t = plot()->workspaceTable();
    int row = -1;
    QPoint at;
    for (int r = 0; r < int(t.size()) && row < 0; ++r) {
      const auto layer = FeaturePlot::layerOfRole(t.groups[std::size_t(r)]);
      const auto pos = plot()->positionOf({layer, r});
      if (!pos) continue;
      const QPoint p = plot()->widgetPosOf(*pos);
      const auto hit = plot()->pointAt(p, 6);
      if (hit && hit->layer == layer && hit->row == r) row = r, at = p;
    }
    QVERIFY2(row >= 0, "no kernel point is uncovered");
    const std::int64_t id = t.ids[std::size_t(row)];
    // Hovering names the kernel and its key features.
    QTest::mouseMove(plot()->viewport(), at);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("kernel #%1").arg(id)), qPrintable(QToolTip::text()));
    QVERIFY(QToolTip::text().contains(QLatin1String("comp=")));
    w_->editor()->scintilla()->setText(QStringLiteral("// my unsaved notes\n"));
    QSignalSpy shown(w_.get(), &MainWindow::kernelShown);
    QTest::mouseClick(plot()->viewport(), Qt::LeftButton, {}, at);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 30000);
    QCOMPARE(w_->editor()->kernelId(), id);
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    QCOMPARE(w_->editor()->text(), QString::fromStdString(ws.kernel(id)->source));
    QCOMPARE(w_->featuresView()->vectors().size(), 3);
    // Showing a kernel is undoable: the text it replaced comes back, and goes again.
    w_->undoStack()->undo();
    QCOMPARE(w_->editor()->text(), QStringLiteral("// my unsaved notes\n"));
    QCOMPARE(w_->selection()->currentKernel(), std::int64_t(0)); // the selection follows the undo
    // ... so clicking the same kernel again shows it again.
    QTest::mouseClick(plot()->viewport(), Qt::LeftButton, {}, at);
    QTRY_COMPARE(w_->editor()->kernelId(), id);
    QCOMPARE(w_->editor()->text(), QString::fromStdString(ws.kernel(id)->source));
    // One action away: its features become the target.
    w_->findChildren<QAction*>().size(); // (menus built)
    for (auto* a : w_->findChildren<QAction*>())
      if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_T)) a->trigger();
    QCOMPARE(w_->selection()->target()->values, t.rows[std::size_t(row)]);
  }

  void evaluateShowsDiagnosticsThenPlacesTheFixedKernel() {
    QSignalSpy evaluated(w_.get(), &MainWindow::evaluated);
    w_->editor()->scintilla()->setText(QString::fromLatin1(kBroken));
    w_->editor()->evaluateAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(evaluated.count() == 1, 30000);
    QCOMPARE(evaluated.at(0).at(0).toBool(), false);
    QVERIFY(!w_->editor()->diagnostics().isEmpty());
    const auto& d = w_->editor()->diagnostics().front();
    QCOMPARE(d.line, 2);
    QCOMPARE(d.severity, QStringLiteral("error"));
    QVERIFY(d.message.contains(QLatin1String("undefined_name")));
    QVERIFY(w_->editor()->annotationAt(2).contains(QLatin1String("undefined_name")));
    QCOMPARE(w_->editor()->annotationSeverityAt(2), QStringLiteral("error")); // drawn in the error style
    QVERIFY(w_->editor()->scintilla()->markersAtLine(1) != 0);                 // and marked in the margin
    QCOMPARE(w_->editor()->scintilla()->markersAtLine(0), 0u);
    QVERIFY(!plot()->positionOf({FeaturePlot::Layer::Evaluated, 0}).has_value());

    w_->editor()->scintilla()->setText(QString::fromLatin1(kFixed));
    w_->editor()->evaluateAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(evaluated.count() == 2, 30000);
    QCOMPARE(evaluated.at(1).at(0).toBool(), true);
    QVERIFY(w_->editor()->annotationAt(2).isEmpty());
    const auto point = plot()->positionOf({FeaturePlot::Layer::Evaluated, 0});
    QVERIFY(point.has_value());
    const auto vectors = w_->featuresView()->vectors();
    QCOMPARE(vectors.size(), 3);
    for (const auto& v : vectors)
      QVERIFY2(!v.values.empty(), qPrintable(v.space));
    // The point is the Grewe vector's PCA projection.
    const auto p = plot()->pca()->transform(vectors[0].values);
    QVERIFY(std::abs(point->x() - p[0]) < 1e-9 && std::abs(point->y() - p[1]) < 1e-9);
  }

  void savedKernelsKeepTheirProvenance() {
    QSignalSpy saved(w_.get(), &MainWindow::kernelSaved);
    w_->editor()->saveAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(saved.count() == 1, 30000);
    settle();
    const auto id = saved.at(0).at(0).toLongLong();
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    const auto k = ws.kernel(id);
    QVERIFY(k.has_value());
    QCOMPARE(k->role, std::string("user"));
    QCOMPARE(k->name, std::string("fixed"));
    QVERIFY(k->originFile.rfind("editor", 0) == 0);
    QVERIFY(ws.features(id, "autophase", features::featureSpace("autophase").version).has_value());
    QCOMPARE(std::int64_t(plot()->workspaceTable().size()), kernels_ + 1);
  }

  void switchesToRawAxes() {
    auto* x = w_->findChild<QComboBox*>(QStringLiteral("xAxisBox"));
    auto* y = w_->findChild<QComboBox*>(QStringLiteral("yAxisBox"));
    x->setCurrentIndex(1 + 0); // comp
    y->setCurrentIndex(1 + 2); // mem
    QVERIFY(!plot()->pcaAxes());
    QCOMPARE(plot()->dimX(), 0);
    QCOMPARE(plot()->dimY(), 2);
    QVERIFY2(plot()->chart()->title().contains(QLatin1String("raw")), qPrintable(plot()->chart()->title()));
    const auto& t = plot()->workspaceTable();
    const auto pos = plot()->positionOf({FeaturePlot::Layer::Corpus, 0});
    QVERIFY(pos.has_value());
    QCOMPARE(pos->x(), t.rows[0][0]);
    QCOMPARE(pos->y(), t.rows[0][2]);
    // A click on empty space sets those two dimensions of the target, rounded.
    const QPoint at = emptySpot();
    const QPointF v = plot()->valueAt(at);
    QTest::mouseClick(plot()->viewport(), Qt::LeftButton, {}, at);
    QTRY_COMPARE(w_->selection()->target()->values[0], std::round(std::max(0.0, v.x())));
    QCOMPARE(w_->selection()->target()->values[2], std::round(std::max(0.0, v.y())));
  }

  void rectangleListsTheKernelsInside() {
    plot()->resetZoom();
    const QRect r = plot()->viewport()->rect();
    const QPoint from(2, 2), to(r.width() - 3, r.height() - 3);
    QTest::mousePress(plot()->viewport(), Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), plot()->viewport()->mapToGlobal(QPointF(to)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(plot()->viewport(), &move);
    QTest::mouseRelease(plot()->viewport(), Qt::LeftButton, {}, to);
    QTRY_VERIFY(w_->kernelList()->count() > 0);
    // Everything is inside: all workspace kernels and the two references.
    QCOMPARE(std::int64_t(w_->kernelList()->count()), kernels_ + 1 + 2);
    QCOMPARE(std::int64_t(w_->selection()->picked().size()), kernels_ + 1);
  }

  void nearestKernelsOfATarget() {
    const auto& t = plot()->workspaceTable();
    w_->selection()->setTarget(ui::Target{QStringLiteral("grewe"), t.rows[3], QStringLiteral("test")});
    for (auto* a : w_->findChildren<QAction*>())
      if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_K)) a->trigger();
    QTRY_VERIFY(w_->kernelList()->tree()->topLevelItemCount() > 0);
    settle();
    const auto expected = engine::nearestRows(t, t.rows[3], 10);
    QCOMPARE(w_->kernelList()->count(), int(expected.size()));
    QCOMPARE(expected[0].distance, 0.0);
    for (int i = 0; i < int(expected.size()); ++i) { // in order of distance, ids and distances as the core finds them
      auto* item = w_->kernelList()->tree()->topLevelItem(i);
      QVERIFY(item->data(3, Qt::DisplayRole).isValid());
      QCOMPARE(item->data(3, Qt::DisplayRole).toDouble(), expected[std::size_t(i)].distance);
      QCOMPARE(item->data(0, Qt::UserRole).toLongLong(), qlonglong(t.ids[expected[std::size_t(i)].row]));
    }
  }

  void zoomPanAndReset() {
    plot()->resetZoom();
    const QPoint centre = plot()->viewport()->rect().center();
    const QPointF c0 = plot()->valueAt(centre);
    const QPointF corner0 = plot()->valueAt({0, 0});
    QWheelEvent wheel(QPointF(centre), plot()->viewport()->mapToGlobal(QPointF(centre)), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot()->viewport(), &wheel);
    const QPointF corner1 = plot()->valueAt({0, 0});
    // Zoomed in around the cursor: the centre stays, the corner moves toward it.
    QVERIFY(std::abs(plot()->valueAt(centre).x() - c0.x()) < 1e-6 * std::max(1.0, std::abs(c0.x())) + 1e-3);
    QVERIFY(std::abs(corner1.x() - c0.x()) < std::abs(corner0.x() - c0.x()));
    // Middle-drag pans: the value under the cursor follows it.
    const QPointF grabbed = plot()->valueAt(centre);
    QTest::mousePress(plot()->viewport(), Qt::MiddleButton, {}, centre);
    QMouseEvent move(QEvent::MouseMove, QPointF(centre + QPoint(40, 25)),
                     plot()->viewport()->mapToGlobal(QPointF(centre + QPoint(40, 25))), Qt::NoButton, Qt::MiddleButton,
                     Qt::NoModifier);
    QApplication::sendEvent(plot()->viewport(), &move);
    QTest::mouseRelease(plot()->viewport(), Qt::MiddleButton, {}, centre + QPoint(40, 25));
    const QPointF moved = plot()->valueAt(centre + QPoint(40, 25));
    QVERIFY(std::abs(moved.x() - grabbed.x()) < 1e-6 + 1e-3 * std::abs(corner1.x() - c0.x()));
    QVERIFY(std::abs(moved.y() - grabbed.y()) < 1e-6 + 1e-3 * std::abs(corner1.y() - c0.y()) + 1e-3);
    // Reset brings the home view back.
    plot()->resetZoom();
    QVERIFY(std::abs(plot()->valueAt({0, 0}).x() - corner0.x()) < 1e-9 + 1e-9 * std::abs(corner0.x()));
  }

  void editorHighlightsOpenCL() {
    auto* sci = w_->editor()->scintilla();
    const QString text = QStringLiteral("kernel void f(global float4* a) { a[0] = (float4)(get_global_id(0)); }");
    sci->setText(text);
    sci->SendScintilla(QsciScintillaBase::SCI_COLOURISE, 0, -1);
    auto styleAt = [&](const QString& word) {
      return int(sci->SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT, static_cast<unsigned long>(text.indexOf(word))));
    };
    QCOMPARE(styleAt(QStringLiteral("kernel")), int(QsciLexerCPP::Keyword));
    QCOMPARE(styleAt(QStringLiteral("global")), int(QsciLexerCPP::Keyword)); // address space
    QCOMPARE(styleAt(QStringLiteral("float4")), int(QsciLexerCPP::KeywordSet2));
    QCOMPARE(styleAt(QStringLiteral("get_global_id")), int(QsciLexerCPP::KeywordSet2)); // builtin
    QVERIFY(sci->marginLineNumbers(0));
    QVERIFY(sci->folding() != QsciScintilla::NoFoldStyle);
  }

  void exportsThePlot() {
    const QString png = home->filePath(QStringLiteral("plot.png")), svg = home->filePath(QStringLiteral("plot.svg"));
    QCOMPARE(plot()->exportTo(png), QString());
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), plot()->grab().size());
    QCOMPARE(plot()->exportTo(svg), QString());
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("comp")); // the raw axis title
    const QString bad = plot()->exportTo(QStringLiteral("/nonexistent-dir/plot.png"));
    QVERIFY(!bad.isEmpty());
  }

  void switchesSpace() {
    QSignalSpy reloaded(w_.get(), &MainWindow::plotReloaded);
    w_->setSpace(QStringLiteral("instcount"));
    // A click before the new space is plotted must not make a target from the old plot.
    QTest::mouseClick(plot()->viewport(), Qt::LeftButton, {}, emptySpot());
    if (w_->selection()->target()) QCOMPARE(w_->selection()->target()->values.size(), std::size_t(70));
    QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() >= 1, 60000);
    settle();
    QCOMPARE(plot()->workspaceTable().dimensions.size(), std::size_t(70));
    QVERIFY(!w_->selection()->target().has_value()); // a target names its space
    QCOMPARE(w_->targetTable()->table()->rowCount(), 70);
    w_->setSpace(QStringLiteral("grewe"));
    settle();
  }

  // --- bad input: a clear dialog, and nothing lost ---------------------------

  void corruptWorkspaceGetsADialog() {
    const QString corrupt = home->filePath(QStringLiteral("corrupt.sbw"));
    {
      QFile f(corrupt);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray("SQLite format 3\0", 16) + QByteArray(4000, '\x5a'));
    }
    QSignalSpy errors(w_.get(), &MainWindow::errorShown);
    w_->openWorkspace(corrupt);
    QTRY_VERIFY_WITH_TIMEOUT(errors.count() == 1, 30000);
    settle();
    QVERIFY(w_->findChild<QMessageBox*>(QStringLiteral("errorDialog")));
    QCOMPARE(w_->workspacePath(), wsPath_); // the open workspace stays
    QCOMPARE(QFileInfo(corrupt).size(), qint64(16 + 4000));
  }

  void tooNewWorkspaceGetsADialog() {
    const QString future = home->filePath(QStringLiteral("future.sbw"));
    { (void)store::Workspace::open(future.toStdString()); }
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(future.toUtf8().constData(), &db), SQLITE_OK);
    const QByteArray pragma = "PRAGMA user_version = " + QByteArray::number(store::Workspace::currentSchemaVersion() + 1) +
                              "; PRAGMA wal_checkpoint(TRUNCATE);";
    QCOMPARE(sqlite3_exec(db, pragma.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    QSignalSpy errors(w_.get(), &MainWindow::errorShown);
    w_->openWorkspace(future);
    QTRY_VERIFY_WITH_TIMEOUT(errors.count() == 1, 30000);
    QVERIFY(w_->lastError().contains(QLatin1String("newer")));
    QCOMPARE(w_->workspacePath(), wsPath_);
  }

  void readOnlyWorkspaceGetsADialog() {
    const QString ro = home->filePath(QStringLiteral("readonly.sbw"));
    { (void)store::Workspace::open(ro.toStdString()); }
    QFile::setPermissions(ro, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    QSignalSpy errors(w_.get(), &MainWindow::errorShown);
    w_->openWorkspace(ro);
    QTRY_VERIFY(errors.count() == 1);
    QVERIFY(w_->lastError().contains(QLatin1String("read-only")));
    QCOMPARE(w_->workspacePath(), wsPath_);
  }

  void csvWithWrongColumnsGetsADialog() {
    const QString wrong = home->filePath(QStringLiteral("wrong.csv"));
    {
      QFile f(wrong);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("name,speed\nx,1\n");
    }
    QSignalSpy errors(w_.get(), &MainWindow::errorShown);
    w_->importReference(wrong);
    QTRY_VERIFY_WITH_TIMEOUT(errors.count() == 1, 30000);
    settle();
    QVERIFY2(w_->lastError().contains(QLatin1String("column")), qPrintable(w_->lastError()));
    QCOMPARE(int(plot()->referenceTable().size()), 2); // the layer shown before stays
  }

  void kernelThatCrashesTheCompilerGetsADialog() {
    QFile f(QStringLiteral(STEERBENCH_TEST_DATA "/bad/compiler_crash.cl"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    w_->editor()->scintilla()->setText(text);
    QSignalSpy errors(w_.get(), &MainWindow::errorShown);
    QSignalSpy evaluated(w_.get(), &MainWindow::evaluated);
    w_->editor()->evaluateAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(evaluated.count() == 1, 30000);
    QCOMPARE(errors.count(), 1);
    QCOMPARE(errors.at(0).at(0).toString(), QStringLiteral("The compiler crashed"));
    QCOMPARE(w_->editor()->text(), text); // nothing lost
    // The engine lives on.
    w_->editor()->scintilla()->setText(QString::fromLatin1(kFixed));
    w_->editor()->evaluateAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(evaluated.count() == 2, 30000);
    QCOMPARE(evaluated.at(1).at(0).toBool(), true);
  }

  void firstRunBuildsTheDefaultWorkspaceWithProgress() {
    // The Debian preset, as scripts/fetch-debian-corpus leaves it, with one
    // small package: darktable's kernel folder holding two fixture files.
    for (const auto& real : {"/usr/share/darktable/kernels", "/usr/share/hashcat/OpenCL",
                             "/usr/lib/x86_64-linux-gnu/piglit/tests/cl", "/usr/lib/erlang/lib"})
      if (QFileInfo(QString::fromLatin1(real)).isDir())
        QSKIP("Debian's OpenCL packages are installed system-wide here; the first run would ingest all of them");
    const QString kernels = home->filePath(QStringLiteral("cache/steerbench/debian/darktable/usr/share/darktable/kernels"));
    QVERIFY(QDir().mkpath(kernels));
    for (const char* f : {"k03_local_tile.cl", "k07_math.cl"})
      QVERIFY(QFile::copy(QStringLiteral(STEERBENCH_TEST_DATA "/kernels/") + QLatin1String(f), kernels + QLatin1Char('/') + QLatin1String(f)));
    MainWindow first;
    first.show();
    QSignalSpy started(first.engine(), &ui::EngineBridge::jobStarted);
    QSignalSpy progress(first.engine(), &ui::EngineBridge::jobProgress);
    QSignalSpy finished(first.engine(), &ui::EngineBridge::jobFinished);
    QSignalSpy reloaded(&first, &MainWindow::plotReloaded);
    first.openDefaultWorkspace();
    QTRY_VERIFY_WITH_TIMEOUT(started.count() == 1, 30000);
    QVERIFY(started.at(0).at(1).toString().contains(QLatin1String("default corpus")));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);
    QCOMPARE(finished.at(0).at(2).toString(), QString()); // no error
    QVERIFY(progress.count() >= 1);
    QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() >= 2, 30000); // empty, then the corpus
    QTRY_VERIFY(!first.busy());
    QCOMPARE(first.plot()->workspaceTable().size(), std::size_t(2));
    QCOMPARE(first.workspacePath(), home->filePath(QStringLiteral("data/steerbench/default.sbw")));
  }

  void fillsHolesWithTheWorkspaceModel() {
    closeDialogs();
    const QString feed = QStringLiteral("kernel void [HOLE]");
    w_->editor()->scintilla()->setText(feed);
    QSignalSpy errors(w_.get(), &MainWindow::errorShown);
    w_->editor()->fillAction()->trigger();
    QTRY_VERIFY(errors.count() == 1); // no model yet: say how to train one
    QVERIFY(w_->lastError().contains(QLatin1String("steerbench-cli train")));
    closeDialogs();

    // A tiny model for this workspace, trained here for a few steps.
    auto ws = store::Workspace::open(wsPath_.toStdString(), store::Workspace::Mode::OpenExisting);
    std::vector<std::string> kernels;
    for (const auto& row : ws.rows("SELECT source FROM kernels ORDER BY id"))
      kernels.push_back(row[0]);
    model::Tokenizer::Options to;
    to.minCount = 2;
    const auto tok = model::Tokenizer::build(kernels, to);
    model::TrainOptions o;
    o.model.layers = 1;
    o.model.hidden = 16;
    o.model.heads = 2;
    o.model.ffn = 32;
    o.model.maxLength = 128;
    o.steps = 5;
    o.batchSize = 4;
    o.threads = 1;
    o.checkpoint = w_->checkpointPath().toStdString();
    (void)model::train(tok, kernels, o, {}, nullptr);
    QVERIFY(QFileInfo::exists(w_->checkpointPath()));

    QSignalSpy filled(w_.get(), &MainWindow::holesFilled);
    w_->editor()->fillAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(filled.count() == 1, 60000);
    const QString text = w_->editor()->text();
    QVERIFY2(text != feed && text.startsWith(QLatin1String("kernel void")), qPrintable(text));
    w_->undoStack()->undo(); // the fill is undoable
    QCOMPARE(w_->editor()->text(), feed);
  }

  void startSpaceFromThePreferences() {
    QSettings().setValue(QStringLiteral("plot/space"), QStringLiteral("autophase"));
    MainWindow other;
    QCOMPARE(other.selection()->space(), QStringLiteral("autophase"));
    QCOMPARE(other.findChild<QComboBox*>(QStringLiteral("spaceBox"))->currentText(), QStringLiteral("autophase"));
    QSettings().setValue(QStringLiteral("plot/space"), QStringLiteral("grewe"));
  }

  void darkPaletteFollowsThePreference() {
    QSettings().setValue(QStringLiteral("appearance/theme"), QStringLiteral("dark"));
    {
      MainWindow dark;
      QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 128);
      QCOMPARE(dark.plot()->chart()->theme(), QChart::ChartThemeDark);
    }
    QSettings().setValue(QStringLiteral("appearance/theme"), QStringLiteral("light"));
    {
      MainWindow light;
      QVERIFY(QApplication::palette().color(QPalette::Window).lightness() >= 128);
      QCOMPARE(light.plot()->chart()->theme(), QChart::ChartThemeLight);
    }
    QSettings().setValue(QStringLiteral("appearance/theme"), QStringLiteral("system"));
  }

  void aboutNamesTheVersions() {
    for (auto* a : w_->findChildren<QAction*>())
      if (a->text().contains(QLatin1String("About"))) a->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w_->findChild<QMessageBox*>(QStringLiteral("aboutDialog")), 30000);
    const QString text = w_->findChild<QMessageBox*>(QStringLiteral("aboutDialog"))->text();
    QVERIFY(text.contains(QLatin1String(qVersion())));
    QVERIFY(text.contains(QLatin1String("LLVM")));
    QVERIFY(text.contains(QLatin1String("libtorch")));
    QVERIFY(text.contains(QLatin1String("OpenCL")));
  }
};

int main(int argc, char** argv) {
  // Settings, data and the reference CSV of this run live in a temporary home.
  QTemporaryDir dir;
  home = &dir;
  qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
  qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toUtf8());
  qputenv("XDG_CACHE_HOME", dir.filePath(QStringLiteral("cache")).toUtf8());
  QDir().mkpath(dir.filePath(QStringLiteral("devmap")));
  writeReferenceCsv(dir.filePath(QStringLiteral("devmap/cgo17-amd.csv")));
  qputenv("STEERBENCH_DEVMAP_DIR", dir.filePath(QStringLiteral("devmap")).toUtf8());
  // No default model: the suite starts with none and trains its own (the
  // shipped one would otherwise stand in for it).
  qputenv("STEERBENCH_MODEL", dir.filePath(QStringLiteral("no-default-model.ckpt")).toUtf8());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("steerbench-test"));
  QApplication::setApplicationName(QStringLiteral("steerbench-test"));
  TestMainWindow test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_mainwindow.moc"

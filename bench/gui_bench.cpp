// bench-gui: GUI responsiveness while the engine works, and plot repaint
// times with many points. Run it under a display (xvfb-run -a bench-gui).
//
//   1. The longest stall of the GUI event loop (a 5 ms timer on the GUI
//      thread) while the engine measures and stores N kernel files, and while
//      it ingests a corpus folder.
//   2. With P synthetic points (seeded), the time a pan and a zoom take to
//      repaint, with OpenGL when the platform has it and with the raster
//      fallback, and the time to first show them.
//   3. --steering SECONDS --workspace W --target comp=...: candidates per
//      second of a steering run in the workbench (Steering dock, the editor
//      following the best, the plot drawing every generation) against the
//      same spec run by steerbench-cli steer, on copies of W; and the GUI's
//      longest stall meanwhile.
//   4. --sampling N --workspace W --target comp=...: the workbench's "Sample
//      toward target" writing N kernels for the target on a copy of W: the
//      time, what the status line reports (compiled, given up, median
//      proximity to the counts asked for), and the GUI's longest stall. With
//      --grid A=LO:HI,B=LO:HI [--cells C]: the plot's "Sample a grid over this
//      view" instead, on raw axes A and B, N samples a cell.
#include "FeaturePlot.h"
#include "EngineBridge.h"
#include "MainWindow.h"
#include "SelectionModel.h"
#include "SteeringPanel.h"

#include "engine/FeatureTable.h"
#include "features/Pca.h"
#include "steer/SteerSpec.h"
#include "steer/Target.h"
#include "store/Workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <climits>
#include <sys/resource.h>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

using namespace steerbench;

namespace {

/// Records the gaps between ticks of a 5 ms timer on the GUI thread.
class StallMeter : public QObject {
public:
  StallMeter() {
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, [this] {
      const qint64 now = clock_.nsecsElapsed();
      if (last_ >= 0) gaps_.push_back(double(now - last_) / 1e6);
      if (last_ >= 0 && qEnvironmentVariableIsSet("BENCH_GUI_GAPS") && now - last_ > 30000000)
        std::printf("    gap %.1f ms ending at %.3f s\n", double(now - last_) / 1e6, double(now) / 1e9);
      last_ = now;
    });
  }
  [[nodiscard]] double now() const { return double(clock_.nsecsElapsed()) / 1e9; }
  void start() {
    gaps_.clear();
    last_ = -1;
    clock_.start();
    timer_.start(5);
  }
  void stop() { timer_.stop(); }
  void print(const char* what) const {
    auto g = gaps_;
    std::sort(g.begin(), g.end());
    if (g.empty()) return;
    const double p99 = g[std::min(g.size() - 1, std::size_t(double(g.size()) * 0.99))];
    std::printf("%-44s ticks %6zu  median %5.1f ms  p99 %5.1f ms  longest %6.1f ms  (%s)\n", what, g.size(),
                g[g.size() / 2], p99, g.back(), g.back() <= 50 ? "<= 50 ms: met" : "> 50 ms: NOT met");
  }

private:
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = -1;
  std::vector<double> gaps_;
};

/// Runs the event loop (sleeping between events, not spinning) until `spy`
/// has `count` signals or the time is up.
bool waitFor(QSignalSpy& spy, int count, int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (spy.count() < count && t.elapsed() < timeoutMs) {
    QEventLoop loop;
    QTimer::singleShot(10, &loop, &QEventLoop::quit);
    loop.exec();
  }
  return spy.count() >= count;
}

void settle(ui::MainWindow& w) {
  for (int i = 0; i < 5; ++i) {
    while (w.busy()) {
      QEventLoop loop;
      QTimer::singleShot(10, &loop, &QEventLoop::quit);
      loop.exec();
    }
    QCoreApplication::processEvents();
  }
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Finishes whatever the GL widgets of `view` have queued (llvmpipe renders on threads).
void finishGl(QWidget* view) {
  for (auto* gl : view->findChildren<QOpenGLWidget*>()) {
    gl->makeCurrent();
    if (auto* ctx = QOpenGLContext::currentContext()) ctx->functions()->glFinish();
    gl->doneCurrent();
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

bool continuous = false; ///< --continuous: distinct real-valued points (the worst case for the level of detail)

void plotBench(int points, int repeats, bool allowGl) {
  ui::FeaturePlot plot;
  plot.setOpenGlAllowed(allowGl);
  plot.resize(1200, 800);
  plot.show();
  QCoreApplication::processEvents();
  // Synthetic Grewe-like counts: heavy-tailed, seeded.
  std::mt19937 rng(42);
  std::lognormal_distribution<double> count(1.5, 1.0);
  engine::FeatureTable t;
  t.space = "grewe";
  t.dimensions = {"comp", "rational", "mem", "localmem", "coalesced", "atomic", "F2", "F4"};
  for (int i = 0; i < points; ++i) {
    std::vector<double> v(8);
    for (int d = 0; d < 6; ++d)
      v[std::size_t(d)] = continuous ? count(rng) : std::round(count(rng));
    v[6] = v[2] > 0 ? v[4] / v[2] : 0;
    v[7] = v[2] > 0 ? v[0] / v[2] : 0;
    t.ids.push_back(i + 1);
    t.names.push_back("k" + std::to_string(i));
    t.groups.emplace_back("train");
    t.rows.push_back(std::move(v));
  }
  const auto pca = features::Pca::fit(t.rows);
  QElapsedTimer show;
  show.start();
  plot.setTables(t, {}, pca, QStringLiteral("synthetic"));
  plot.repaint();
  QCoreApplication::processEvents();
  finishGl(&plot);
  const double showMs = double(show.nsecsElapsed()) / 1e6;
  std::vector<double> pans, zooms;
  if (qEnvironmentVariableIsSet("BENCH_GUI_BREAKDOWN")) {
    for (int r = 0; r < 5; ++r) {
      QElapsedTimer e;
      e.start();
      plot.panBy({r % 2 ? 15 : -15, 10});
      const double a = double(e.nsecsElapsed()) / 1e6;
      QCoreApplication::processEvents();
      const double b = double(e.nsecsElapsed()) / 1e6;
      plot.repaint();
      const double c = double(e.nsecsElapsed()) / 1e6;
      finishGl(&plot);
      const double d = double(e.nsecsElapsed()) / 1e6;
      const QPointF centre = plot.valueAt(plot.viewport()->rect().center());
      std::printf("  breakdown: range %.1f, events %.1f, repaint %.1f, glFinish %.1f ms; centre %.4f %.4f\n", a, b - a,
                  c - b, d - c, centre.x(), centre.y());
    }
  }
  for (int r = 0; r < repeats; ++r) {
    QElapsedTimer e;
    e.start();
    plot.panBy({r % 2 ? 15 : -15, 10});
    QCoreApplication::processEvents(); // the chart updates and paints (once) here
    finishGl(&plot);
    pans.push_back(double(e.nsecsElapsed()) / 1e6);
    e.restart();
    plot.zoomBy(r % 2 ? 1.1 : 1 / 1.1, plot.valueAt(plot.viewport()->rect().center()));
    QCoreApplication::processEvents();
    finishGl(&plot);
    zooms.push_back(double(e.nsecsElapsed()) / 1e6);
  }
  // A deep zoom (12 wheel steps in, then out): the level of detail is re-made on the way.
  std::vector<double> deep;
  for (int r = 0; r < 24; ++r) {
    QElapsedTimer e;
    e.start();
    plot.zoomBy(r < 12 ? 1.25 : 0.8, plot.valueAt(plot.viewport()->rect().center()));
    QCoreApplication::processEvents();
    finishGl(&plot);
    deep.push_back(double(e.nsecsElapsed()) / 1e6);
  }
  std::printf("%-9s deep zoom (24 wheel steps): median %6.1f ms, max %6.1f ms\n", plot.usesOpenGl() ? "OpenGL" : "raster",
              median(deep), *std::max_element(deep.begin(), deep.end()));
  std::printf("%-9s %7d points (%6d drawn): first show %7.1f ms; pan median %6.1f ms max %6.1f ms; zoom median %6.1f "
              "ms max %6.1f ms (%s)\n",
              plot.usesOpenGl() ? "OpenGL" : "raster", points, plot.shownPoints(), showMs, median(pans),
              *std::max_element(pans.begin(), pans.end()), median(zooms), *std::max_element(zooms.begin(), zooms.end()),
              std::max(median(pans), median(zooms)) <= 50 ? "median <= 50 ms: met" : "median > 50 ms: NOT met");
}

/// With BENCH_GUI_GAPS set, names every event that kept the GUI thread busy over 20 ms.
class TimedApplication : public QApplication {
public:
  using QApplication::QApplication;
  bool notify(QObject* receiver, QEvent* event) override {
    if (!trace_) return QApplication::notify(receiver, event);
    QElapsedTimer t;
    t.start();
    const int type = int(event->type());
    const char* cls = receiver->metaObject()->className();
    const bool result = QApplication::notify(receiver, event);
    if (t.elapsed() > 20) std::printf("    slow event: %s type %d took %lld ms\n", cls, type, qlonglong(t.elapsed()));
    return result;
  }
  bool trace_ = qEnvironmentVariableIsSet("BENCH_GUI_GAPS");
};

} // namespace

/// Candidates a second of steering run `run` as stored: every candidate over the run's own time.
double storedRate(const QString& workspace, std::int64_t run, std::int64_t* candidates, int* generations) {
  auto ws = store::Workspace::open(workspace.toStdString(), store::Workspace::Mode::OpenExisting);
  const auto gens = ws.steerGenerations(run);
  *candidates = 0;
  for (const auto& g : gens)
    *candidates += g.candidates;
  *generations = int(gens.size());
  const auto r = ws.steerRun(run);
  return r && r->elapsed > 0 ? double(*candidates) / r->elapsed : 0;
}

/// Shows `w`, opens workspace `path` and sets Grewe target `target` ("comp=..."); false when it did not open.
bool openAtTarget(ui::MainWindow& w, const QString& path, const QString& target) {
  const auto t = steer::targetFromAssignments("grewe", target.toStdString());
  w.resize(1400, 990);
  w.show();
  QSignalSpy reloaded(&w, &ui::MainWindow::plotReloaded);
  w.openWorkspace(path);
  if (!waitFor(reloaded, 1, 120000)) return false;
  settle(w);
  w.selection()->setTarget(ui::Target{QStringLiteral("grewe"), t.values, QString::fromStdString(t.origin), {}, {}});
  return true;
}

/// Saves `w` with the Steering dock raised, when `file` is given.
void saveScreenshot(ui::MainWindow& w, const QString& file) {
  if (file.isEmpty()) return;
  w.raiseDock(QStringLiteral("steering"));
  QTest::qWait(300);
  std::printf("  screenshot %s: %s\n", qPrintable(file), w.grab().save(file) ? "written" : "NOT written");
}

/// Section 3: the workbench's steering rate against the CLI's, same spec.
int steeringBench(const QString& source, double seconds, const QString& target, std::uint64_t seed,
                  const QString& screenshot) {
  QTemporaryDir dir;
  const QString gui = dir.filePath(QStringLiteral("gui.sbw")), cli = dir.filePath(QStringLiteral("cli.sbw"));
  if (!QFile::copy(source, gui) || !QFile::copy(source, cli)) {
    std::fprintf(stderr, "bench-gui: cannot copy %s\n", qPrintable(source));
    return 2;
  }
  {
    ui::MainWindow w;
    if (!openAtTarget(w, gui, target)) return 1;
    auto* panel = w.steeringPanel();
    auto spec = panel->spec();
    spec.timeBudget = seconds;
    spec.seed = seed;
    panel->setSpec(spec);
    StallMeter meter;
    QSignalSpy finished(panel, &ui::SteeringPanel::runFinished);
    auto cpu = [](int who) {
      rusage u{};
      getrusage(who, &u);
      return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    };
    const double gui0 = cpu(RUSAGE_THREAD), all0 = cpu(RUSAGE_SELF);
    QElapsedTimer wall;
    wall.start();
    meter.start();
    panel->steer();
    if (!waitFor(finished, 1, int(seconds * 1000) + 600000)) return 1;
    meter.stop();
    std::printf("  CPU while steering: GUI thread %.1f s, whole process %.1f s, over %.1f s of wall time\n",
                cpu(RUSAGE_THREAD) - gui0, cpu(RUSAGE_SELF) - all0, double(wall.elapsed()) / 1000);
    settle(w);
    std::printf("steering in the workbench (%s, %.0f s, seed %llu): drawn with %s\n", qPrintable(target), seconds,
                (unsigned long long)seed, w.plot()->usesOpenGl() ? "OpenGL" : "raster");
    meter.print("GUI stall while steering:");
    saveScreenshot(w, screenshot);
    w.close();
  }
  std::int64_t candidates = 0;
  int generations = 0;
  const double guiRate = storedRate(gui, 1, &candidates, &generations);
  std::printf("  workbench: %lld candidates in %d generations, %.1f candidates/s\n", (long long)candidates, generations,
              guiRate);
  QProcess p;
  const QString exe = QCoreApplication::applicationDirPath() + QStringLiteral("/../app/steerbench-cli");
  const QStringList args = {QStringLiteral("steer"), QStringLiteral("-w"), cli, QStringLiteral("--target"), target,
                            QStringLiteral("--time-budget"), QString::number(seconds), QStringLiteral("--seed"),
                            QString::number(seed), QStringLiteral("-q")};
  p.start(exe, args);
  if (!p.waitForFinished(int(seconds * 1000) + 600000) || p.exitCode() != 0) {
    std::fprintf(stderr, "bench-gui: %s %s failed: %s\n", qPrintable(exe), qPrintable(args.join(' ')),
                 p.readAllStandardError().constData());
    return 1;
  }
  const double cliRate = storedRate(cli, 1, &candidates, &generations);
  std::printf("  steerbench-cli steer: %lld candidates in %d generations, %.1f candidates/s\n", (long long)candidates,
              generations, cliRate);
  std::printf("  workbench / CLI: %.2f\n", cliRate > 0 ? guiRate / cliRate : 0.0);
  return 0;
}

/// Section 4: the workbench's sampling toward a target.
int samplingBench(const QString& source, int count, const QString& target, std::uint64_t seed,
                  const QString& screenshot, const QString& grid, int cells) {
  QTemporaryDir dir;
  const QString gui = dir.filePath(QStringLiteral("gui.sbw"));
  if (!QFile::copy(source, gui)) {
    std::fprintf(stderr, "bench-gui: cannot copy %s\n", qPrintable(source));
    return 2;
  }
  ui::MainWindow w;
  if (!openAtTarget(w, gui, target)) return 1;
  auto* panel = w.steeringPanel();
  auto spec = panel->spec();
  spec.seed = seed;
  panel->setSpec(spec);
  if (auto* n = panel->findChild<QSpinBox*>(QStringLiteral("steeringSampleCount"))) n->setValue(count);
  int total = count;
  if (!grid.isEmpty()) {
    // The plot on the grid's two counts, as a user shows them before asking.
    const auto& dims = w.plot()->workspaceTable().dimensions;
    const auto dim = [&](const QString& part) {
      const auto name = part.section(QLatin1Char('='), 0, 0).toStdString();
      return int(std::find(dims.begin(), dims.end(), name) - dims.begin());
    };
    w.plot()->setAxes(dim(grid.section(QLatin1Char(','), 0, 0)), dim(grid.section(QLatin1Char(','), 1, 1)));
    auto* c = panel->findChild<QSpinBox*>(QStringLiteral("steeringGridCells"));
    auto* n = panel->findChild<QSpinBox*>(QStringLiteral("steeringGridPerCell"));
    c->setValue(cells);
    n->setValue(count);
    if (c->value() != cells || n->value() != count) {
      std::fprintf(stderr, "bench-gui: the workbench takes %d to %d cells a side and %d to %d samples a cell\n",
                   c->minimum(), c->maximum(), n->minimum(), n->maximum());
      return 2;
    }
    total = count * cells * cells;
  }
  StallMeter meter;
  QSignalSpy finished(panel, &ui::SteeringPanel::samplingFinished);
  QElapsedTimer wall;
  wall.start();
  meter.start();
  if (grid.isEmpty())
    panel->sampleTowardTarget();
  else
    emit w.plot()->gridSamplingRequested(grid); // what the plot's menu sends
  if (!waitFor(finished, 1, int(std::min<qint64>(qint64(total) * 60000 + 60000, INT_MAX)))) return 1;
  meter.stop();
  const double seconds = double(wall.elapsed()) / 1000;
  settle(w);
  if (grid.isEmpty())
    std::printf("sampling toward %s in the workbench (%d samples, seed %llu): %.1f s, %.2f s a sample\n",
                qPrintable(target), count, (unsigned long long)seed, seconds, seconds / std::max(1, count));
  else
    std::printf("sampling a grid %s of %d x %d cells in the workbench (%d a cell, other counts from %s, seed %llu): "
                "%.1f s, %.2f s a sample\n",
                qPrintable(grid), cells, cells, count, qPrintable(target), (unsigned long long)seed, seconds,
                seconds / std::max(1, total));
  std::printf("  status: %s\n", qPrintable(panel->statusText()));
  meter.print("GUI stall while sampling:");
  saveScreenshot(w, screenshot);
  return 0;
}

int main(int argc, char** argv) {
  QTemporaryDir home;
  qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toUtf8()); // leave the user's settings alone
  if (qEnvironmentVariableIsSet("BENCH_GUI_SWAP0")) {
    QSurfaceFormat f = QSurfaceFormat::defaultFormat();
    f.setSwapInterval(0);
    QSurfaceFormat::setDefaultFormat(f);
  }
  TimedApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("bench-gui"));
  QCommandLineParser p;
  p.setApplicationDescription(QStringLiteral("GUI responsiveness and plot repaint benchmark (run under a display)."));
  p.addHelpOption();
  QCommandLineOption kernelsOpt(QStringLiteral("kernels"), QStringLiteral("kernel files to measure (default 1000)"),
                                QStringLiteral("n"), QStringLiteral("1000"));
  QCommandLineOption pointsOpt(QStringLiteral("points"), QStringLiteral("points on the plot (default 100000)"),
                               QStringLiteral("n"), QStringLiteral("100000"));
  QCommandLineOption repeatsOpt(QStringLiteral("repeats"), QStringLiteral("pans and zooms to time (default 20)"),
                                QStringLiteral("n"), QStringLiteral("20"));
  QCommandLineOption corpusOpt(QStringLiteral("corpus"), QStringLiteral("folder to ingest (default: the test corpus)"),
                               QStringLiteral("dir"), QStringLiteral(STEERBENCH_SOURCE_DIR "/tests/data/corpus"));
  QCommandLineOption plotOnlyOpt(QStringLiteral("plot-only"), QStringLiteral("only the plot part: gl, raster or both"),
                                 QStringLiteral("which"));
  QCommandLineOption workspaceOpt(QStringLiteral("workspace"),
                                  QStringLiteral("start from a copy of this workspace (e.g. the default one), plotted"),
                                  QStringLiteral("file"));
  QCommandLineOption continuousOpt(QStringLiteral("continuous"),
                                   QStringLiteral("synthetic points with real values (all distinct), not counts"));
  QCommandLineOption steeringOpt(QStringLiteral("steering"),
                                 QStringLiteral("only section 3: steer for this many seconds in the workbench and with "
                                                "the CLI (needs --workspace)"),
                                 QStringLiteral("seconds"));
  QCommandLineOption targetOpt(QStringLiteral("target"), QStringLiteral("the Grewe target of sections 3 and 4"),
                               QStringLiteral("comp=..."), QStringLiteral("comp=40,rational=6,mem=12,coalesced=8"));
  QCommandLineOption seedOpt(QStringLiteral("seed"), QStringLiteral("the seed of sections 3 and 4"), QStringLiteral("n"),
                             QStringLiteral("1"));
  QCommandLineOption screenshotOpt(QStringLiteral("screenshot"),
                                   QStringLiteral("sections 3 and 4: save the window at the end (PNG)"),
                                   QStringLiteral("file"));
  QCommandLineOption samplingOpt(QStringLiteral("sampling"),
                                 QStringLiteral("only section 4: sample this many kernels toward the target in the "
                                                "workbench (needs --workspace)"),
                                 QStringLiteral("n"));
  QCommandLineOption gridOpt(QStringLiteral("grid"),
                             QStringLiteral("section 4: sample a grid over two Grewe counts (the plot's raw axes), "
                                            "--sampling kernels a cell"),
                             QStringLiteral("A=LO:HI,B=LO:HI"));
  QCommandLineOption cellsOpt(QStringLiteral("cells"), QStringLiteral("cells a side of --grid (default 4)"),
                              QStringLiteral("n"), QStringLiteral("4"));
  p.addOptions({kernelsOpt, pointsOpt, repeatsOpt, corpusOpt, plotOnlyOpt, workspaceOpt, continuousOpt, steeringOpt,
                targetOpt, seedOpt, screenshotOpt, samplingOpt, gridOpt, cellsOpt});
  p.process(app);
  const int kernels = p.value(kernelsOpt).toInt(), points = p.value(pointsOpt).toInt(),
            repeats = p.value(repeatsOpt).toInt();

  std::printf("platform %s, OpenGL available: %s, %d hardware threads\n", qPrintable(QGuiApplication::platformName()),
              ui::FeaturePlot::openGlAvailable() ? "yes" : "no", QThread::idealThreadCount());

  continuous = p.isSet(continuousOpt);
  if (p.isSet(steeringOpt)) {
    if (!p.isSet(workspaceOpt)) {
      std::fprintf(stderr, "bench-gui: --steering needs --workspace (a workspace with a corpus)\n");
      return 2;
    }
    return steeringBench(p.value(workspaceOpt), p.value(steeringOpt).toDouble(), p.value(targetOpt),
                         p.value(seedOpt).toULongLong(), p.value(screenshotOpt));
  }
  if (p.isSet(samplingOpt)) {
    if (!p.isSet(workspaceOpt)) {
      std::fprintf(stderr, "bench-gui: --sampling needs --workspace\n");
      return 2;
    }
    return samplingBench(p.value(workspaceOpt), p.value(samplingOpt).toInt(), p.value(targetOpt),
                         p.value(seedOpt).toULongLong(), p.value(screenshotOpt), p.value(gridOpt),
                         p.value(cellsOpt).toInt());
  }
  const QString plotOnly = p.value(plotOnlyOpt);
  if (!plotOnly.isEmpty()) {
    if (plotOnly != QLatin1String("raster") && ui::FeaturePlot::openGlAvailable()) plotBench(points, repeats, true);
    if (plotOnly != QLatin1String("gl")) plotBench(points, repeats, false);
    return 0;
  }

  // --- 1. event-loop stalls while the engine works --------------------------
  QTemporaryDir dir;
  const QString wsPath = dir.filePath(QStringLiteral("bench.sbw"));
  if (p.isSet(workspaceOpt) && !QFile::copy(p.value(workspaceOpt), wsPath)) {
    std::fprintf(stderr, "bench-gui: cannot copy %s\n", qPrintable(p.value(workspaceOpt)));
    return 2;
  }
  std::vector<std::string> fixtures;
  for (const char* f : {"k01_copy", "k03_local_tile", "k05_loop", "k07_math", "k08_strided", "k12_bit_ops"})
    fixtures.push_back(readFile(std::string(STEERBENCH_SOURCE_DIR) + "/tests/data/kernels/" + f + ".cl"));
  QStringList files;
  for (int i = 0; i < kernels; ++i) {
    const QString path = dir.filePath(QStringLiteral("k%1.cl").arg(i));
    std::ofstream(path.toStdString()) << fixtures[std::size_t(i) % fixtures.size()] << "\nkernel void variant" << i
                                      << "(global int* a) { a[" << i % 7 << "] = a[" << i % 5 << "] * " << i << "; }\n";
    files << path;
  }
  ui::MainWindow w;
  w.resize(1400, 900);
  w.show();
  QSignalSpy reloaded(&w, &ui::MainWindow::plotReloaded);
  QSignalSpy done(&w, &ui::MainWindow::jobDone);
  w.openWorkspace(wsPath, true);
  if (!waitFor(reloaded, 1, 60000)) {
    std::fprintf(stderr, "bench-gui: the workspace did not open\n");
    return 1;
  }
  settle(w);
  std::printf("workspace plotted: %zu kernels, drawn with %s\n", w.plot()->workspaceTable().size(),
              w.plot()->usesOpenGl() ? "OpenGL" : "raster");

  StallMeter meter;
  if (qEnvironmentVariableIsSet("BENCH_GUI_GAPS")) {
    QObject::connect(w.engine(), &ui::EngineBridge::jobProgress, &w, [&meter](int, double f, const QString&) {
      std::printf("    progress %.2f at %.3f s\n", f, meter.now());
    });
    QObject::connect(&w, &ui::MainWindow::plotReloaded, &w, [&meter] { std::printf("    plot reloaded at %.3f s\n", meter.now()); });
    QObject::connect(w.engine(), &ui::EngineBridge::jobFinished, &w, [&meter] { std::printf("    job finished at %.3f s\n", meter.now()); });
  }
  QElapsedTimer elapsed;
  meter.start();
  elapsed.start();
  w.addKernelFiles(files);
  if (!waitFor(done, 1, 600000)) return 1;
  settle(w);
  meter.stop();
  std::printf("measured and stored %d kernel files in %.1f s\n", kernels, double(elapsed.elapsed()) / 1000);
  meter.print("GUI stall while evaluating kernels:");

  meter.start();
  elapsed.restart();
  w.ingestFolder(p.value(corpusOpt));
  if (!waitFor(done, 2, 3600000)) return 1;
  settle(w);
  meter.stop();
  std::printf("ingested %s in %.1f s\n", qPrintable(p.value(corpusOpt)), double(elapsed.elapsed()) / 1000);
  meter.print("GUI stall while ingesting a corpus:");
  w.close();

  // --- 2. plot repaint with many points --------------------------------------
  if (ui::FeaturePlot::openGlAvailable()) plotBench(points, repeats, true);
  plotBench(points, repeats, false);
  return 0;
}

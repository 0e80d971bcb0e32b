// bench-gui: GUI responsiveness while the engine works, and plot repaint
// times with many points. Run it under a display (xvfb-run -a bench-gui).
//
//   1. The longest stall of the GUI event loop (a 5 ms timer on the GUI
//      thread) while the engine measures and stores N kernel files, and while
//      it ingests a corpus folder.
//   2. With P synthetic points (seeded), the time a pan and a zoom take to
//      repaint, with OpenGL when the platform has it and with the raster
//      fallback, and the time to first show them.
#include "FeaturePlot.h"
#include "EngineBridge.h"
#include "MainWindow.h"

#include "engine/FeatureTable.h"
#include "features/Pca.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
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

bool waitFor(QSignalSpy& spy, int count, int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (spy.count() < count && t.elapsed() < timeoutMs)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  return spy.count() >= count;
}

void settle(ui::MainWindow& w) {
  for (int i = 0; i < 5; ++i) {
    while (w.busy())
      QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
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
  p.addOptions({kernelsOpt, pointsOpt, repeatsOpt, corpusOpt, plotOnlyOpt, workspaceOpt, continuousOpt});
  p.process(app);
  const int kernels = p.value(kernelsOpt).toInt(), points = p.value(pointsOpt).toInt(),
            repeats = p.value(repeatsOpt).toInt();

  std::printf("platform %s, OpenGL available: %s, %d hardware threads\n", qPrintable(QGuiApplication::platformName()),
              ui::FeaturePlot::openGlAvailable() ? "yes" : "no", QThread::idealThreadCount());

  continuous = p.isSet(continuousOpt);
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

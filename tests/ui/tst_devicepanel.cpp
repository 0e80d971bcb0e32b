// The device benchmark panel on real PoCL: the devices listed by the worker,
// a kernel driven from the panel with its cases live in the table and its
// box plots, the checker's outcome for a bad kernel, cancelling a hung
// kernel, and the exported CSV checked against what the workspace stored.
#include "DevicePanel.h"
#include "EngineBridge.h"
#include "EngineState.h"

#include "dataset/DevMap.h"
#include "store/Workspace.h"

#include <QDir>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace steerbench;
using ui::DevicePanel;
using ui::EngineBridge;
using ui::EngineState;

namespace {
const char* kScale = "kernel void scale(global float* out, global const float* in, const int n) {\n"
                     "  int i = get_global_id(0);\n  if (i < n) out[i] = in[i] * 2.0f + 1.0f;\n}\n";
const char* kFill = "kernel void fill(global int* out, global const int* in) { out[get_global_id(0)] = 42; }\n";
const char* kSpin = "kernel void spin(global int* out, const int n) {\n  int i = get_global_id(0);\n"
                    "  while (out[0] >= 0) { out[i % 4] = out[i % 4] + 1; if (out[0] == -7) break; }\n}\n";
} // namespace

class TestDevicePanel : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString ws_;
  EngineBridge* engine_ = nullptr;
  DevicePanel* panel_ = nullptr;
  std::unique_ptr<QWidget> window_;

  void screenshot(const QString& name) {
    QDir().mkpath(QStringLiteral(STEERBENCH_SCREENSHOT_DIR));
    QVERIFY(window_->grab().save(QStringLiteral(STEERBENCH_SCREENSHOT_DIR "/%1.png").arg(name)));
  }

  bool driveAndWait(const QString& name, const char* source) {
    QSignalSpy ended(panel_, &DevicePanel::driveEnded);
    panel_->driveSource(name, QString::fromUtf8(source));
    return QTest::qWaitFor([&] { return ended.count() == 1; }, 120000);
  }

private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // This machine has no GPU: PoCL's pthread and basic devices are the real pair.
    if (qgetenv("POCL_DEVICES").isEmpty()) qputenv("POCL_DEVICES", "pthread basic");
    window_ = std::make_unique<QWidget>();
    engine_ = new EngineBridge(window_.get());
    panel_ = new DevicePanel(engine_, window_.get());
    window_->resize(900, 720);
    panel_->resize(900, 720);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    ws_ = dir_.filePath(QStringLiteral("devices.sbw"));
    // As MainWindow does: the engine opens the workspace, then the panel follows.
    QSignalSpy listed(panel_, &DevicePanel::devicesListed);
    engine_->post(QString(), [this](EngineState& s) -> EngineBridge::Continuation {
      s.workspace = std::make_unique<store::Workspace>(store::Workspace::open(ws_.toStdString()));
      return [this] { panel_->setWorkspace(ws_); };
    });
    QTRY_VERIFY_WITH_TIMEOUT(listed.count() == 1, 60000);
    QCOMPARE(panel_->deviceCount(), 2);
  }

  void cleanupTestCase() { window_.reset(); }

  void drivesAKernelLiveAndExportsIt() {
    // A generous timeout: the worker inherits the engine thread's low priority.
    panel_->setSweep(QStringLiteral("1024,4096"), QStringLiteral("32"), 4, 120);
    QSignalSpy shown(panel_, &DevicePanel::caseShown);
    QVERIFY(driveAndWait(QStringLiteral("scale.cl"), kScale));
    QCOMPARE(shown.count(), 2); // one row per global size, as each completed
    QCOMPARE(panel_->rowCount(), 2);
    for (int row = 0; row < 2; ++row) {
      QCOMPARE(panel_->cellText(row, 3), QStringLiteral("PASS"));
      QVERIFY(!panel_->cellText(row, 4).isEmpty()); // the fastest device
      QVERIFY(panel_->cellText(row, 5) == QStringLiteral("significant") ||
              panel_->cellText(row, 5) == QStringLiteral("AMBIGUOUS"));
      // The payload: its constraint set, the NDRange and what each argument got.
      QVERIFY2(panel_->cellText(row, 6).startsWith(QStringLiteral("[roles] NDRange ")), qPrintable(panel_->cellText(row, 6)));
      QVERIFY2(panel_->cellText(row, 6).contains(QStringLiteral("out: ")), qPrintable(panel_->cellText(row, 6)));
      QVERIFY2(panel_->cellText(row, 7).contains(QLatin1Char('[')), qPrintable(panel_->cellText(row, 7)));
      QVERIFY(panel_->cellText(row, 8).contains(QLatin1Char('[')));
    }
    QCOMPARE(panel_->cellText(1, 1), QStringLiteral("4096"));
    QCOMPARE(panel_->boxCount(), 2); // one box per device for the current case
    screenshot(QStringLiteral("device-panel"));

    QVERIFY(driveAndWait(QStringLiteral("fill.cl"), kFill));
    QCOMPARE(panel_->rowCount(), 4);
    QCOMPARE(panel_->cellText(2, 3), QStringLiteral("INPUT_INSENSITIVE"));

    // The export: the two labelled cases, as the workspace stored them.
    const QString csv = dir_.filePath(QStringLiteral("labelled.csv"));
    QSignalSpy exported(panel_, &DevicePanel::exported);
    panel_->exportCsv(csv);
    QTRY_VERIFY_WITH_TIMEOUT(exported.count() == 1, 30000);
    QCOMPARE(exported.at(0).at(1).toInt(), 2);
    const auto rows = dataset::readDevMap(csv.toStdString());
    QCOMPARE(rows.size(), std::size_t(2));
    auto ws = store::Workspace::open(ws_.toStdString());
    const auto cases = ws.driveCases();
    QCOMPARE(cases.size(), std::size_t(4));
    for (std::size_t i = 0; i < 2; ++i) {
      QCOMPARE(rows[i].dataset, "g" + std::to_string(cases[i].globalSize) + "-l32");
      QVERIFY(std::fabs(rows[i].runtimeCpu - cases[i].devices[0].total.mean / 1e6) < 1e-9);
      QVERIFY(std::fabs(rows[i].runtimeGpu - cases[i].devices[1].total.mean / 1e6) < 1e-9);
      QCOMPARE(rows[i].src, std::string(kScale));
    }
    QVERIFY(panel_->statusText().contains(QStringLiteral("Wrote 2")));
  }

  void cancelStopsAHungKernel() {
    panel_->setSweep(QStringLiteral("1024"), QStringLiteral("32"), 4, 600);
    QSignalSpy ended(panel_, &DevicePanel::driveEnded);
    QElapsedTimer t;
    t.start();
    panel_->driveSource(QStringLiteral("spin.cl"), QString::fromUtf8(kSpin));
    QTest::qWait(1500);
    QVERIFY(panel_->driving());
    panel_->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 20000);
    QVERIFY(ended.at(0).at(0).toBool()); // cancelled
    QVERIFY(t.elapsed() < 30000);      // long before the 600 s timeout
    QVERIFY(!panel_->driving());
    QVERIFY(panel_->statusText().contains(QStringLiteral("Cancelled")));
  }

  void badSweepIsRefusedWithAMessage() {
    panel_->setSweep(QStringLiteral("12x"), QStringLiteral("32"), 4, 30);
    panel_->driveSource(QStringLiteral("scale.cl"), QString::fromUtf8(kScale));
    QVERIFY(!panel_->driving());
    QVERIFY(panel_->statusText().contains(QStringLiteral("Global sizes")));
  }
};

QTEST_MAIN(TestDevicePanel)
#include "tst_devicepanel.moc"

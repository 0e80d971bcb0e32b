// The device benchmark panel: the machine's OpenCL devices; driving the
// editor's kernel or the selected ones over a grid of global and local sizes
// in the steerbench-drive worker; per-device runtime distributions (box
// plots), checker outcomes and labels, updating live; progress and cancel;
// and the labelled DevMap-layout CSV export.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class QBoxPlotSeries;
class QChart;
class QChartView;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTreeWidget;
class QValueAxis;

namespace steerbench::drive {
struct CaseResult;
}

namespace steerbench::ui {

class EngineBridge;
struct EngineState;

class DevicePanel : public QWidget {
  Q_OBJECT
public:
  explicit DevicePanel(EngineBridge* engine, QWidget* parent = nullptr);

  /// Follows the open workspace: lists its devices (PoCL's cache sits beside it).
  void setWorkspace(const QString& workspacePath);
  /// Drives every kernel of this text (the editor's kernel).
  void driveSource(const QString& name, const QString& source);
  /// Drives these workspace kernels.
  void driveKernels(const QVector<std::int64_t>& ids);
  void cancel();
  /// Writes the workspace's labelled cases as a DevMap-layout CSV (asks for a
  /// file when `path` is empty).
  void exportCsv(const QString& path = {});

  /// The sweep and runs of the next drive (for tests and scripts; the fields show them).
  void setSweep(const QString& globalSizes, const QString& localSizes, int runs, int timeoutSeconds);

  // For tests and screenshots.
  [[nodiscard]] int deviceCount() const;
  [[nodiscard]] int rowCount() const;
  [[nodiscard]] QString cellText(int row, int column) const;
  [[nodiscard]] QString statusText() const;
  [[nodiscard]] bool driving() const { return job_ != 0; }
  [[nodiscard]] int boxCount() const;

signals:
  void runEditorRequested();
  void runSelectedRequested();
  /// A case reached the table.
  void caseShown(int row);
  /// A drive ended (cancelled or not; `error` is empty on success).
  void driveEnded(bool cancelled, const QString& error);
  void exported(const QString& path, int rows);
  void devicesListed(int count);

private:
  struct Unit {
    std::string name, source, onlyKernel;
  };
  void drive(const QString& title, std::function<std::vector<Unit>(EngineState&)> units);
  void addCase(const QString& kernel, const drive::CaseResult& c, const QStringList& evidence);
  void showBoxes(int row);
  bool readSweep(std::vector<std::uint64_t>& global, std::vector<std::uint64_t>& local);

  EngineBridge* engine_;
  QTreeWidget* devices_;
  QLineEdit* global_;
  QLineEdit* local_;
  QSpinBox* runs_;
  QSpinBox* timeout_;
  QPushButton* runEditor_;
  QPushButton* runSelected_;
  QPushButton* cancel_;
  QPushButton* export_;
  QProgressBar* progress_;
  QLabel* status_;
  QTableWidget* table_;
  QChart* chart_;
  QChartView* view_;
  QString workspace_;
  QStringList deviceIds_, deviceNames_;
  /// Per row: every device's total times in microseconds (empty when not measured).
  QVector<QVector<QVector<double>>> times_;
  int job_ = 0;
  int generation_ = 0;
};

} // namespace steerbench::ui

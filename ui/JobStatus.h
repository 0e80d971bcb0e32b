// Running jobs in the status bar: one progress bar and cancel button each,
// with the time left (from the job's overall rate) in the bar's tooltip.
#pragma once

#include <QElapsedTimer>
#include <QMap>
#include <QWidget>

class QHBoxLayout;

namespace steerbench::ui {

class EngineBridge;

class JobStatus : public QWidget {
  Q_OBJECT
public:
  JobStatus(EngineBridge* engine, QWidget* parent = nullptr);
  [[nodiscard]] int running() const { return int(rows_.size()); }

private:
  EngineBridge* engine_;
  QHBoxLayout* layout_;
  QMap<int, QWidget*> rows_;
  QMap<int, QElapsedTimer> started_;
};

} // namespace steerbench::ui

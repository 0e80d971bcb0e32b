#include "JobStatus.h"

#include "EngineBridge.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace steerbench::ui {

namespace {
QString remaining(double seconds) {
  const long s = long(seconds + 0.5);
  return s >= 3600 ? JobStatus::tr("%1 h %2 min").arg(s / 3600).arg((s / 60) % 60)
                   : s >= 60 ? JobStatus::tr("%1 min").arg((s + 30) / 60) : JobStatus::tr("%1 s").arg(s);
}
} // namespace

JobStatus::JobStatus(EngineBridge* engine, QWidget* parent) : QWidget(parent), engine_(engine) {
  layout_ = new QHBoxLayout(this);
  layout_->setContentsMargins(0, 0, 0, 0);
  connect(engine_, &EngineBridge::jobStarted, this, [this](int id, const QString& title) {
    auto* row = new QWidget(this);
    auto* l = new QHBoxLayout(row);
    l->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(title, row);
    label->setObjectName(QStringLiteral("jobLabel"));
    auto* bar = new QProgressBar(row);
    bar->setRange(0, 1000);
    bar->setValue(0);
    bar->setMaximumWidth(160);
    bar->setTextVisible(true);
    auto* cancel = new QToolButton(row);
    cancel->setIcon(QIcon::fromTheme(QStringLiteral("process-stop")));
    cancel->setText(tr("Cancel"));
    cancel->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    cancel->setToolTip(tr("Stop this job; what it finished is kept"));
    connect(cancel, &QToolButton::clicked, this, [this, id, cancel] {
      cancel->setEnabled(false);
      engine_->cancelJob(id);
    });
    l->addWidget(label);
    l->addWidget(bar);
    l->addWidget(cancel);
    layout_->addWidget(row);
    rows_[id] = row;
    started_[id].start();
  });
  connect(engine_, &EngineBridge::jobProgress, this, [this](int id, double fraction, const QString& stage) {
    auto* row = rows_.value(id);
    if (!row) return;
    auto* bar = row->findChild<QProgressBar*>();
    // Format first: setValue repaints at once, and with the format already
    // set that is the only repaint (each costs a window flush).
    const QString format = QStringLiteral("%1 %p%").arg(stage);
    if (bar->format() != format) bar->setFormat(format);
    bar->setValue(int(fraction * 1000));
    // What is left, from the job's overall rate since it started (a steady
    // figure: a recent window jumps with the cost of the last items).
    const double elapsed = double(started_.value(id).elapsed()) / 1000;
    if (fraction > 0.02 && fraction < 1 && elapsed > 5)
      bar->setToolTip(tr("About %1 left").arg(remaining(elapsed * (1 - fraction) / fraction)));
  });
  connect(engine_, &EngineBridge::jobFinished, this, [this](int id) {
    started_.remove(id);
    if (auto* row = rows_.take(id)) row->deleteLater();
  });
}

} // namespace steerbench::ui

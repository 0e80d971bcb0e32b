#include "JobStatus.h"

#include "EngineBridge.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace steerbench::ui {

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
  });
  connect(engine_, &EngineBridge::jobFinished, this, [this](int id) {
    if (auto* row = rows_.take(id)) row->deleteLater();
  });
}

} // namespace steerbench::ui

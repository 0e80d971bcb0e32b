#include "DevicePanel.h"

#include "EngineBridge.h"
#include "EngineState.h"

#include "common/Paths.h"
#include "drive/host/DevMapExport.h"
#include "drive/host/DriveJob.h"
#include "drive/host/WorkerProcess.h"

#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace steerbench::ui {
namespace {

enum Column { KernelCol, GlobalCol, LocalCol, OutcomeCol, FastestCol, LabelCol, PayloadCol, FirstDeviceCol };

QString shortName(const std::string& device) { return QString::fromStdString(drive::shortDeviceName(device)); }

double quantile(const QVector<double>& sorted, double q) {
  if (sorted.isEmpty()) return 0;
  const double at = q * double(sorted.size() - 1);
  const int lo = int(at);
  const int hi = std::min(lo + 1, int(sorted.size()) - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

} // namespace

DevicePanel::DevicePanel(EngineBridge* engine, QWidget* parent) : QWidget(parent), engine_(engine) {
  devices_ = new QTreeWidget(this);
  devices_->setObjectName(QStringLiteral("deviceList"));
  devices_->setHeaderLabels({tr("Device"), tr("Type"), tr("Compute units"), tr("Memory"), tr("Max work-group")});
  devices_->setRootIsDecorated(false);
  devices_->setMaximumHeight(110);

  global_ = new QLineEdit(QStringLiteral("1024,16384,131072"), this);
  global_->setObjectName(QStringLiteral("globalSizes"));
  global_->setToolTip(tr("Global sizes to sweep, separated by commas"));
  local_ = new QLineEdit(QStringLiteral("64"), this);
  local_->setObjectName(QStringLiteral("localSizes"));
  local_->setToolTip(tr("Local sizes to sweep, separated by commas (0: the runtime chooses)"));
  runs_ = new QSpinBox(this);
  runs_->setRange(2, 10000);
  runs_->setValue(10);
  runs_->setToolTip(tr("Timed runs per case, after two warm-up runs that are discarded"));
  timeout_ = new QSpinBox(this);
  timeout_->setRange(1, 86400);
  timeout_->setValue(20);
  timeout_->setSuffix(tr(" s"));
  timeout_->setToolTip(tr("How long one kernel may run on one device at one size before its worker is killed"));
  auto* form = new QFormLayout;
  form->addRow(tr("Global sizes"), global_);
  form->addRow(tr("Local sizes"), local_);
  auto* numbers = new QHBoxLayout;
  numbers->addWidget(new QLabel(tr("Runs"), this));
  numbers->addWidget(runs_);
  numbers->addWidget(new QLabel(tr("Timeout"), this));
  numbers->addWidget(timeout_);
  numbers->addStretch();
  form->addRow(numbers);

  runEditor_ = new QPushButton(tr("Run editor's kernel"), this);
  runEditor_->setObjectName(QStringLiteral("runEditorButton"));
  runSelected_ = new QPushButton(tr("Run selected kernels"), this);
  runSelected_->setObjectName(QStringLiteral("runSelectedButton"));
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setEnabled(false);
  export_ = new QPushButton(tr("Export CSV..."), this);
  export_->setObjectName(QStringLiteral("exportCsvButton"));
  export_->setToolTip(tr("Write the workspace's labelled cases as a DevMap-layout CSV"));
  connect(runEditor_, &QPushButton::clicked, this, &DevicePanel::runEditorRequested);
  connect(runSelected_, &QPushButton::clicked, this, &DevicePanel::runSelectedRequested);
  connect(cancel_, &QPushButton::clicked, this, &DevicePanel::cancel);
  connect(export_, &QPushButton::clicked, this, [this] { exportCsv(); });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(runEditor_);
  buttons->addWidget(runSelected_);
  buttons->addWidget(cancel_);
  buttons->addStretch();
  buttons->addWidget(export_);

  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setTextVisible(false);
  progress_->setMaximumHeight(8);
  status_ = new QLabel(tr("Drive kernels to time them on every device."), this);
  status_->setObjectName(QStringLiteral("driveStatus"));
  status_->setWordWrap(true);

  table_ = new QTableWidget(0, FirstDeviceCol, this);
  table_->setObjectName(QStringLiteral("driveResults"));
  table_->setHorizontalHeaderLabels(
      {tr("Kernel"), tr("Global"), tr("Local"), tr("Outcome"), tr("Fastest"), tr("Label"), tr("Payload")});
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) { showBoxes(row); });

  chart_ = new QChart;
  chart_->setTitle(tr("Total time per run (µs)"));
  chart_->legend()->setVisible(false);
  chart_->setMargins(QMargins(4, 4, 4, 4));
  view_ = new QChartView(chart_, this);
  view_->setObjectName(QStringLiteral("driveChart"));
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(170);

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(view_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(devices_);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(progress_);
  layout->addWidget(status_);
  layout->addWidget(split, 1);

  connect(engine_, &EngineBridge::jobProgress, this, [this](int id, double fraction, const QString&) {
    if (id == job_) progress_->setValue(int(fraction * 1000));
  });
  connect(engine_, &EngineBridge::jobFinished, this, [this](int id, bool cancelled, const QString& error) {
    if (id != job_ || !job_) return;
    job_ = 0;
    runEditor_->setEnabled(true);
    runSelected_->setEnabled(true);
    cancel_->setEnabled(false);
    progress_->setValue(1000);
    if (cancelled) status_->setText(tr("Cancelled; the cases driven so far are stored."));
    if (!error.isEmpty()) status_->setText(error);
    emit driveEnded(cancelled, error);
  });
}

void DevicePanel::setWorkspace(const QString& workspacePath) {
  workspace_ = workspacePath;
  const std::string cache = drive::poclCacheFor(workspacePath.toStdString());
  QPointer<DevicePanel> self(this);
  engine_->post(QStringLiteral("devices"), [self, cache](EngineState&) -> EngineBridge::Continuation {
    drive::WorkerOptions w;
    w.executable = drive::driveWorkerPath();
    w.cacheDir = cache;
    std::vector<drive::WorkerDevice> devices;
    QString error;
    try {
      drive::WorkerProcess worker(w);
      devices = worker.devices();
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    return [self, devices, error] {
      if (!self) return;
      self->devices_->clear();
      for (const auto& d : devices) {
        auto* item = new QTreeWidgetItem(self->devices_);
        item->setText(0, QString::fromStdString(d.name));
        item->setToolTip(0, tr("%1 on %2, driver %3 (id %4)")
                                .arg(QString::fromStdString(d.name), QString::fromStdString(d.platform),
                                     QString::fromStdString(d.driver), QString::fromStdString(d.id)));
        item->setText(1, QString::fromStdString(d.type));
        item->setText(2, QString::number(d.computeUnits));
        item->setText(3, tr("%1 MiB global, %2 KiB local").arg(d.globalMemBytes >> 20).arg(d.localMemBytes >> 10));
        item->setText(4, QString::number(d.maxWorkGroupSize));
      }
      self->devices_->resizeColumnToContents(0);
      if (!error.isEmpty())
        self->status_->setText(error);
      else if (devices.empty())
        self->status_->setText(tr("No OpenCL device found. Install an OpenCL driver (on Debian: pocl-opencl-icd)."));
      emit self->devicesListed(int(devices.size()));
    };
  });
}

void DevicePanel::setSweep(const QString& globalSizes, const QString& localSizes, int runs, int timeoutSeconds) {
  global_->setText(globalSizes);
  local_->setText(localSizes);
  runs_->setValue(runs);
  timeout_->setValue(timeoutSeconds);
}

bool DevicePanel::readSweep(std::vector<std::uint64_t>& global, std::vector<std::uint64_t>& local) {
  auto parse = [](const QString& text, bool allowZero, std::vector<std::uint64_t>& out) {
    out.clear();
    for (const auto& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
      bool ok = false;
      const qulonglong v = part.trimmed().toULongLong(&ok);
      if (!ok || (!allowZero && v == 0) || v > (1ull << 28)) return false;
      out.push_back(v);
    }
    return !out.empty();
  };
  if (!parse(global_->text(), false, global)) {
    status_->setText(tr("Global sizes must be a comma list of numbers from 1 to 268435456."));
    return false;
  }
  if (!parse(local_->text(), true, local)) {
    status_->setText(tr("Local sizes must be a comma list of numbers (0: the runtime chooses)."));
    return false;
  }
  return true;
}

void DevicePanel::driveSource(const QString& name, const QString& source) {
  if (source.trimmed().isEmpty()) {
    status_->setText(tr("The editor is empty: open or write a kernel first."));
    return;
  }
  const Unit u{name.isEmpty() ? std::string("editor.cl") : name.toStdString(), source.toStdString(), {}};
  drive(tr("Driving %1").arg(name), [u](EngineState&) { return std::vector<Unit>{u}; });
}

void DevicePanel::driveKernels(const QVector<std::int64_t>& ids) {
  if (ids.isEmpty()) {
    status_->setText(tr("Select kernels first: click one in the plot or the list, or drag a rectangle."));
    return;
  }
  drive(tr("Driving %n kernel(s)", nullptr, int(ids.size())), [ids](EngineState& s) {
    std::vector<Unit> units;
    for (const auto id : ids)
      if (const auto k = s.ws().kernel(id)) units.push_back({k->name + " (#" + std::to_string(id) + ")", k->source, k->name});
    return units;
  });
}

void DevicePanel::drive(const QString& title, std::function<std::vector<Unit>(EngineState&)> units) {
  if (job_) {
    status_->setText(tr("A drive is running; cancel it first."));
    return;
  }
  drive::DriveJobOptions job;
  if (!readSweep(job.drive.globalSizes, job.drive.localSizes)) return;
  job.drive.timedRuns = unsigned(runs_->value());
  job.drive.timeoutSeconds = timeout_->value();
  runEditor_->setEnabled(false);
  runSelected_->setEnabled(false);
  cancel_->setEnabled(true);
  progress_->setValue(0);
  status_->setText(tr("Driving..."));
  const int generation = ++generation_;
  QPointer<DevicePanel> self(this);
  job_ = engine_->startJob(title, [self, job, units, generation](EngineState& s, JobFeedback& f) mutable
                                      -> EngineBridge::Continuation {
    std::vector<drive::DriveUnit> driveUnits;
    for (const auto& u : units(s))
      driveUnits.push_back({u.name, u.source, u.onlyKernel});
    job.cancel = &f.cancel();
    job.progress = [&f](std::size_t done, std::size_t total) {
      f.progress(total ? double(done) / double(total) : 1.0, "drive");
    };
    job.onCase = [self, generation](const drive::DrivenKernel& k, const drive::CaseResult& c) {
      const QString kernel = QString::fromStdString(k.unit == k.kernel ? k.kernel : k.kernel + " (" + k.unit + ")");
      QStringList evidence;
      for (const auto& e : k.evidence)
        evidence << QString::fromStdString(e);
      if (!self) return;
      QMetaObject::invokeMethod(
          self.data(),
          [self, kernel, c, evidence, generation] {
            if (self && generation == self->generation_) self->addCase(kernel, c, evidence);
          },
          Qt::QueuedConnection);
    };
    const auto results = drive::runDriveJob(driveUnits, job, &s.ws());
    QStringList errors;
    int cases = 0;
    for (const auto& k : results) {
      if (!k.error.empty()) errors << QString::fromStdString(k.unit + ": " + k.error);
      cases += int(k.cases.size());
    }
    return [self, errors, cases] {
      if (!self) return;
      self->status_->setText(errors.isEmpty() ? tr("%n case(s) driven and stored in the workspace.", nullptr, cases)
                                              : tr("Clang rejected: %1").arg(errors.join(QStringLiteral("; "))));
    };
  });
}

void DevicePanel::cancel() {
  if (job_) engine_->cancelJob(job_);
}

void DevicePanel::addCase(const QString& kernel, const drive::CaseResult& c, const QStringList& evidence) {
  // One column per device, in the order the driver uses.
  // Keyed by device id: two identical GPUs have one name and two columns.
  for (const auto& d : c.devices) {
    const QString id = QString::fromStdString(d.device.id);
    const QString name = shortName(d.device.name);
    if (!deviceIds_.contains(id)) {
      deviceIds_ << id;
      deviceNames_ << name;
      table_->setColumnCount(FirstDeviceCol + int(deviceNames_.size()));
      table_->setHorizontalHeaderItem(FirstDeviceCol + int(deviceNames_.size()) - 1,
                                      new QTableWidgetItem(tr("%1 (µs, 95% interval)").arg(name)));
    }
  }
  const int row = table_->rowCount();
  table_->insertRow(row);
  auto set = [&](int col, const QString& text, const QString& tip = {}) {
    auto* item = new QTableWidgetItem(text);
    if (!tip.isEmpty()) item->setToolTip(tip);
    table_->setItem(row, col, item);
  };
  set(KernelCol, kernel);
  set(GlobalCol, QString::number(c.globalSize));
  set(LocalCol, c.localSize ? QString::number(c.localSize) : tr("auto"));
  set(OutcomeCol, QString::fromStdString(c.outcome), QString::fromStdString(c.detail));
  set(FastestCol, c.label.best >= 0 ? shortName(c.labelDevice()) : QString());
  set(LabelCol, QString::fromStdString(c.label.status()));
  // What each argument got, and why: the roles read from the kernel, the
  // probe's fit and the constraint sets tried (as `drive --explain` prints).
  const QString payload = QString::fromStdString(c.payload);
  set(PayloadCol, c.payloadSet.empty() ? payload : QStringLiteral("[%1] %2").arg(QString::fromStdString(c.payloadSet), payload),
      (payload.split(QStringLiteral("; ")) + QStringList{QString()} + evidence).join(QLatin1Char('\n')));
  QVector<QVector<double>> times(deviceNames_.size());
  for (const auto& d : c.devices) {
    const int at = int(deviceIds_.indexOf(QString::fromStdString(d.device.id)));
    if (d.reply.outcome == "PASS") {
      set(FirstDeviceCol + at,
          QStringLiteral("%1 [%2, %3]")
              .arg(d.total.mean / 1000, 0, 'f', 1)
              .arg(d.total.ciLow / 1000, 0, 'f', 1)
              .arg(d.total.ciHigh / 1000, 0, 'f', 1),
          tr("kernel median %1 µs, transfer median %2 µs, %3 runs")
              .arg(d.kernel.median / 1000, 0, 'f', 1)
              .arg(d.transfer.median / 1000, 0, 'f', 1)
              .arg(d.total.n));
      for (std::size_t i = 0; i < d.reply.kernelNs.size() && i < d.reply.transferNs.size(); ++i)
        times[at].push_back((d.reply.kernelNs[i] + d.reply.transferNs[i]) / 1000.0);
    } else {
      set(FirstDeviceCol + at, QString::fromStdString(d.reply.outcome), QString::fromStdString(d.reply.detail));
    }
  }
  times_.push_back(times);
  table_->resizeColumnsToContents();
  // The payload can be long: the device columns stay in view, its tooltip has it all.
  table_->setColumnWidth(PayloadCol, std::min(table_->columnWidth(PayloadCol), 320));
  table_->scrollToBottom();
  table_->setCurrentCell(row, KernelCol); // shows its boxes
  emit caseShown(row);
}

void DevicePanel::showBoxes(int row) {
  chart_->removeAllSeries();
  for (auto* axis : chart_->axes())
    chart_->removeAxis(axis);
  if (row < 0 || row >= times_.size()) return;
  auto* series = new QBoxPlotSeries;
  double top = 0;
  for (int d = 0; d < times_[row].size(); ++d) {
    QVector<double> t = times_[row][d];
    if (t.isEmpty()) continue;
    std::sort(t.begin(), t.end());
    auto* box = new QBoxSet(quantile(t, 0), quantile(t, 0.25), quantile(t, 0.5), quantile(t, 0.75), quantile(t, 1),
                            deviceNames_.value(d));
    series->append(box);
    top = std::max(top, t.last());
  }
  if (series->count() == 0) {
    delete series;
    chart_->setTitle(tr("Total time per run (µs): nothing measured for this case"));
    return;
  }
  chart_->setTitle(tr("Total time per run (µs): %1, global %2")
                       .arg(table_->item(row, KernelCol)->text(), table_->item(row, GlobalCol)->text()));
  chart_->addSeries(series);
  chart_->createDefaultAxes();
  if (auto* y = qobject_cast<QValueAxis*>(chart_->axes(Qt::Vertical).value(0))) {
    y->setRange(0, top * 1.1);
    y->setLabelFormat(QStringLiteral("%.0f"));
  }
}

void DevicePanel::exportCsv(const QString& given) {
  QString path = given;
  if (path.isEmpty()) {
    path = QFileDialog::getSaveFileName(this, tr("Export labelled kernels"), QStringLiteral("steerbench-devmap.csv"),
                                        tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
  }
  QPointer<DevicePanel> self(this);
  engine_->post(QString(), [self, path](EngineState& s) -> EngineBridge::Continuation {
    QString error;
    drive::ExportSummary summary;
    try {
      summary = drive::exportDevMapCsv(s.ws(), path.toStdString());
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    return [self, path, summary, error] {
      if (!self) return;
      if (!error.isEmpty()) {
        self->status_->setText(error);
        return;
      }
      self->status_->setText(tr("Wrote %n labelled case(s) to %1 (%2 left out: not PASS, or fewer than two devices).",
                                nullptr, int(summary.rows))
                                 .arg(path)
                                 .arg(summary.skipped));
      emit self->exported(path, int(summary.rows));
    };
  });
}

int DevicePanel::deviceCount() const { return devices_->topLevelItemCount(); }
int DevicePanel::rowCount() const { return table_->rowCount(); }
QString DevicePanel::cellText(int row, int column) const {
  const auto* item = table_->item(row, column);
  return item ? item->text() : QString();
}
QString DevicePanel::statusText() const { return status_->text(); }
int DevicePanel::boxCount() const {
  for (auto* s : chart_->series())
    if (auto* b = qobject_cast<QBoxPlotSeries*>(s)) return b->count();
  return 0;
}

} // namespace steerbench::ui

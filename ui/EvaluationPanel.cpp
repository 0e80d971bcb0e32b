#include "EvaluationPanel.h"

#include "EngineBridge.h"
#include "EngineState.h"

#include "common/AtomicFile.h"
#include "common/Error.h"
#include "common/TextFormat.h"
#include "drive/host/DevMapExport.h"
#include "heuristic/DeviceMapping.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

namespace steerbench::ui {
namespace {

using namespace heuristic;

struct Outcome {
  Evaluation plain;
  std::optional<Evaluation> augmented;
  std::size_t dataRows = 0, augmentRows = 0;
};

std::vector<MappingCase> load(EngineState& s, const std::string& source, FeatureSet set) {
  if (source != "workspace") return readMappingCases(source, set);
  drive::ExportSummary summary;
  const auto rows = drive::labelledRows(s.ws(), {}, &summary);
  if (rows.empty())
    throw InputError("this workspace has no labelled drive cases (" + std::to_string(summary.skipped) +
                     " cases did not PASS on two devices): drive kernels in the Devices dock first, or evaluate "
                     "on a CSV");
  return mappingCases(drive::devMapRows(rows), set, s.ws().path());
}

QString percent(double x) { return std::isnan(x) ? QStringLiteral("–") : QString::number(100 * x, 'f', 2) + "%"; }
QString times(double x) { return std::isnan(x) ? QStringLiteral("–") : QString::number(x, 'f', 3) + "×"; }

} // namespace

EvaluationPanel::EvaluationPanel(EngineBridge* engine, QWidget* parent) : QWidget(parent), engine_(engine) {
  auto* form = new QFormLayout;
  data_ = new QComboBox(this);
  data_->addItem(tr("This workspace's labels"), QStringLiteral("workspace"));
  data_->addItem(tr("DevMap AMD (cgo17-amd.csv)"), QStringLiteral("devmap-amd"));
  data_->addItem(tr("DevMap NVIDIA (cgo17-nvidia.csv)"), QStringLiteral("devmap-nvidia"));
  data_->addItem(tr("A DevMap-layout CSV…"), QStringLiteral("file"));
  data_->setToolTip(tr("The labelled rows the tree is cross-validated on; test folds come only from here"));
  dataPath_ = new QLabel(this);
  dataPath_->setVisible(false);
  auto* dataRow = new QVBoxLayout;
  dataRow->addWidget(data_);
  dataRow->addWidget(dataPath_);
  form->addRow(tr("Data:"), dataRow);
  connect(data_, &QComboBox::activated, this, [this] {
    if (data_->currentData().toString() == QLatin1String("file")) {
      const QString path = QFileDialog::getOpenFileName(this, tr("Evaluate on a CSV"), {}, tr("CSV files (*.csv)"));
      if (!path.isEmpty()) dataFile_ = path;
    }
    updateDataChoice();
  });

  augment_ = new QCheckBox(tr("Augment the training folds with:"), this);
  augment_->setToolTip(tr("Added rows join every training fold and never a test fold; the results show the "
                          "evaluation without and with them side by side"));
  augmentList_ = new QListWidget(this);
  augmentList_->setMaximumHeight(70);
  auto* addWs = new QPushButton(tr("Workspace labels"), this);
  addWs->setToolTip(tr("Add this workspace's labelled drive cases as training rows"));
  auto* addFile = new QPushButton(tr("CSV…"), this);
  auto* remove = new QPushButton(tr("Remove"), this);
  connect(addWs, &QPushButton::clicked, this, [this] {
    if (augmentList_->findItems(tr("This workspace's labels"), Qt::MatchExactly).isEmpty()) {
      auto* item = new QListWidgetItem(tr("This workspace's labels"), augmentList_);
      item->setData(Qt::UserRole, QStringLiteral("workspace"));
    }
    augment_->setChecked(true);
  });
  connect(addFile, &QPushButton::clicked, this, &EvaluationPanel::addAugmentFile);
  connect(remove, &QPushButton::clicked, this, [this] { qDeleteAll(augmentList_->selectedItems()); });
  auto* augmentButtons = new QHBoxLayout;
  augmentButtons->addWidget(addWs);
  augmentButtons->addWidget(addFile);
  augmentButtons->addWidget(remove);
  augmentButtons->addStretch();
  auto* augmentBox = new QVBoxLayout;
  augmentBox->addWidget(augment_);
  augmentBox->addWidget(augmentList_);
  augmentBox->addLayout(augmentButtons);
  form->addRow(augmentBox);

  protocol_ = new QComboBox(this);
  protocol_->addItem(tr("Stratified k-fold"), QStringLiteral("kfold"));
  protocol_->addItem(tr("Leave one benchmark out"), QStringLiteral("lobo"));
  folds_ = new QSpinBox(this);
  folds_->setRange(2, 100);
  folds_->setValue(10);
  folds_->setPrefix(tr("k = "));
  seed_ = new QSpinBox(this);
  seed_->setRange(0, 1 << 30);
  seed_->setValue(204);
  seed_->setPrefix(tr("seed "));
  seed_->setToolTip(tr("Seed of the fold split; 204 gives the split of DeepTune's published numbers"));
  connect(protocol_, &QComboBox::currentIndexChanged, this, [this] {
    const bool kfold = protocol_->currentData().toString() == QLatin1String("kfold");
    folds_->setEnabled(kfold);
    seed_->setEnabled(kfold);
  });
  auto* protocolRow = new QHBoxLayout;
  protocolRow->addWidget(protocol_, 1);
  protocolRow->addWidget(folds_);
  protocolRow->addWidget(seed_);
  form->addRow(tr("Protocol:"), protocolRow);

  features_ = new QComboBox(this);
  features_->addItem(tr("Grewe F1–F4"), QStringLiteral("grewe"));
  features_->addItem(tr("F1–F4 and the raw counts"), QStringLiteral("extended"));
  form->addRow(tr("Features:"), features_);

  run_ = new QPushButton(tr("Evaluate"), this);
  run_->setToolTip(tr("Cross-validate the Grewe et al. decision tree (entropy, depth 5, at least 5 per leaf)"));
  connect(run_, &QPushButton::clicked, this, &EvaluationPanel::evaluate);
  status_ = new QLabel(tr("Choose the data and press Evaluate."), this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  table_ = new QTableWidget(0, 1, this);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->setHorizontalHeaderLabels({tr("Result")});

  chart_ = new QChart;
  chart_->setTitle(tr("Speedup over static mapping per benchmark"));
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chartView_ = new QChartView(chart_, this);
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumHeight(260);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(chartView_);
  scroll->setWidgetResizable(true);

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(scroll);
  split->setStretchFactor(1, 2);
  table_->setMinimumHeight(table_->verticalHeader()->defaultSectionSize() * 12 + 8);

  auto* top = new QVBoxLayout(this);
  top->addLayout(form);
  auto* runRow = new QHBoxLayout;
  runRow->addWidget(run_);
  export_ = new QPushButton(tr("Export CSV…"), this);
  export_->setToolTip(tr("Write the results (spec, metrics, per-benchmark speedups) as a CSV"));
  export_->setEnabled(false);
  connect(export_, &QPushButton::clicked, this, [this] { (void)exportCsv(); });
  runRow->addWidget(export_);
  runRow->addStretch();
  top->addLayout(runRow);
  top->addWidget(status_);
  top->addWidget(split, 1);

  // A job cancelled before it started (or that failed outside the work) runs
  // no continuation: the panel must not wait for one.
  connect(engine_, &EngineBridge::jobFinished, this, [this](int id, bool cancelled, const QString& error) {
    if (id != job_ || !job_) return;
    job_ = 0;
    run_->setEnabled(true);
    const QString text = error.isEmpty() ? (cancelled ? tr("Cancelled.") : QString()) : error;
    status_->setText(text);
    emit evaluated(text.isEmpty() ? tr("Cancelled.") : text);
  });
}

void EvaluationPanel::updateDataChoice() {
  const bool file = data_->currentData().toString() == QLatin1String("file");
  dataPath_->setVisible(file);
  dataPath_->setText(dataFile_.isEmpty() ? tr("(no file chosen)") : dataFile_);
}

void EvaluationPanel::addAugmentFile() {
  const QStringList paths =
      QFileDialog::getOpenFileNames(this, tr("Add training rows"), {}, tr("CSV files (*.csv)"));
  for (const QString& p : paths) {
    auto* item = new QListWidgetItem(QFileInfo(p).fileName(), augmentList_);
    item->setData(Qt::UserRole, p);
    item->setToolTip(p);
  }
  if (!paths.isEmpty()) augment_->setChecked(true);
}

void EvaluationPanel::setData(const QString& source) {
  const int i = data_->findData(source);
  if (i >= 0) {
    data_->setCurrentIndex(i);
  } else {
    dataFile_ = source;
    data_->setCurrentIndex(data_->findData(QStringLiteral("file")));
  }
  updateDataChoice();
}

void EvaluationPanel::setAugmentation(const QStringList& sources) {
  augmentList_->clear();
  for (const QString& s : sources) {
    auto* item = new QListWidgetItem(s == QLatin1String("workspace") ? tr("This workspace's labels")
                                                                     : QFileInfo(s).fileName(),
                                     augmentList_);
    item->setData(Qt::UserRole, s);
    item->setToolTip(s);
  }
  augment_->setChecked(!sources.isEmpty());
}

void EvaluationPanel::setProtocol(const QString& protocol, int folds, int seed) {
  protocol_->setCurrentIndex(std::max(0, protocol_->findData(protocol)));
  folds_->setValue(folds);
  seed_->setValue(seed);
}

void EvaluationPanel::evaluate() {
  if (job_) return;
  std::string data = data_->currentData().toString().toStdString();
  if (data == "file") {
    if (dataFile_.isEmpty()) {
      status_->setText(tr("Choose a CSV to evaluate on first."));
      emit evaluated(status_->text());
      return;
    }
    data = dataFile_.toStdString();
  }
  std::vector<std::string> augment;
  if (augment_->isChecked())
    for (int i = 0; i < augmentList_->count(); ++i)
      augment.push_back(augmentList_->item(i)->data(Qt::UserRole).toString().toStdString());
  EvaluationSpec spec;
  spec.protocol = protocol_->currentData().toString() == QLatin1String("lobo") ? Protocol::LeaveOneBenchmarkOut
                                                                                : Protocol::KFold;
  spec.folds = folds_->value();
  spec.seed = std::uint64_t(seed_->value());
  const FeatureSet set =
      features_->currentData().toString() == QLatin1String("extended") ? FeatureSet::Extended : FeatureSet::Grewe;
  run_->setEnabled(false);
  status_->setText(tr("Evaluating…"));
  QPointer<EvaluationPanel> self(this);
  const std::string specJson = spec.json();
  job_ = engine_->startJob(tr("Evaluating the Grewe heuristic"), [self, data, augment, spec, set,
                                                                   specJson](EngineState& s, JobFeedback& f)
                                                                      -> EngineBridge::Continuation {
    std::optional<Outcome> outcome;
    QString error;
    try {
      f.progress(0.0, "reading the data");
      const auto cases = load(s, data, set);
      std::vector<MappingCase> added;
      for (std::size_t i = 0; i < augment.size(); ++i) {
        if (f.cancel().cancelled()) break;
        f.progress(0.1 + 0.6 * double(i) / double(augment.size()), "reading the added rows");
        auto more = load(s, augment[i], set);
        added.insert(added.end(), more.begin(), more.end());
      }
      if (!f.cancel().cancelled()) {
        f.progress(0.8, "cross-validating");
        Outcome o;
        o.dataRows = cases.size();
        o.augmentRows = added.size();
        o.plain = crossValidate(cases, {}, spec);
        if (!augment.empty()) o.augmented = crossValidate(cases, added, spec);
        outcome = std::move(o);
      }
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    return [self, outcome, error, data, augment, specJson, set] {
      if (!self) return;
      self->job_ = 0;
      self->run_->setEnabled(true);
      if (!error.isEmpty() || !outcome) {
        self->status_->setText(error.isEmpty() ? tr("Cancelled.") : error);
        emit self->evaluated(error.isEmpty() ? tr("Cancelled.") : error);
        return;
      }
      const Outcome& o = *outcome;
      std::vector<const Evaluation*> results{&o.plain};
      QStringList headers{tr("Without augmentation")};
      if (o.augmented) {
        results.push_back(&*o.augmented);
        headers << tr("With %n added row(s)", nullptr, int(o.augmentRows));
      }
      const QStringList names{tr("Rows evaluated"),
                              tr("Training rows per fold"),
                              tr("Accuracy"),
                              tr("Precision (GPU positive)"),
                              tr("Recall"),
                              tr("Specificity"),
                              tr("Static mapping"),
                              tr("Speedup over static (mean)"),
                              tr("Speedup over static (geomean)"),
                              tr("Oracle speedup (mean)"),
                              tr("Oracle speedup (geomean)")};
      auto* t = self->table_;
      t->clear();
      t->setRowCount(int(names.size()));
      t->setColumnCount(int(results.size()));
      t->setHorizontalHeaderLabels(headers);
      t->setVerticalHeaderLabels(names);
      for (int c = 0; c < int(results.size()); ++c) {
        const Metrics& m = results[std::size_t(c)]->metrics;
        const QStringList values{QString::number(m.cases),
                                 QString::number(results[std::size_t(c)]->trainingCases),
                                 percent(m.accuracy),
                                 percent(m.precision),
                                 percent(m.recall),
                                 percent(m.specificity),
                                 tr("%1, right on %2").arg(QString::fromLatin1(deviceName(m.staticDevice)),
                                                           percent(m.staticAccuracy)),
                                 times(m.speedupMean),
                                 times(m.speedupGeomean),
                                 times(m.oracleMean),
                                 times(m.oracleGeomean)};
        for (int r = 0; r < values.size(); ++r)
          t->setItem(r, c, new QTableWidgetItem(values[r]));
      }

      // Per-benchmark bars: one category per program, a set per evaluation and the oracle.
      self->chart_->removeAllSeries();
      for (auto* axis : self->chart_->axes()) {
        self->chart_->removeAxis(axis); // gives up ownership
        delete axis;
      }
      auto* series = new QHorizontalBarSeries;
      QStringList categories;
      for (const auto& p : o.plain.programs)
        categories << QString::fromStdString(p.program);
      double top = 1;
      for (int c = 0; c < int(results.size()); ++c) {
        auto* set = new QBarSet(headers[c]);
        for (const auto& p : results[std::size_t(c)]->programs) {
          *set << p.speedupMean;
          top = std::max(top, p.speedupMean);
        }
        series->append(set);
      }
      auto* oracle = new QBarSet(tr("Oracle"));
      for (const auto& p : o.plain.programs) {
        *oracle << p.oracleMean;
        top = std::max(top, p.oracleMean);
      }
      series->append(oracle);
      self->chart_->addSeries(series);
      auto* y = new QBarCategoryAxis;
      y->append(categories);
      self->chart_->addAxis(y, Qt::AlignLeft);
      series->attachAxis(y);
      auto* x = new QValueAxis;
      x->setRange(0, top * 1.05);
      x->setTitleText(tr("speedup over static mapping (%1)")
                          .arg(QString::fromLatin1(deviceName(o.plain.metrics.staticDevice))));
      self->chart_->addAxis(x, Qt::AlignBottom);
      series->attachAxis(x);
      self->chartView_->setMinimumHeight(std::max(260, 14 * int(results.size() + 1) * int(categories.size()) + 140));

      // The same results in long format for Export CSV.
      std::string csv = "kind,name,evaluation,value\n";
      auto row = [&csv](const std::string& kind, const std::string& name, const std::string& evaluation,
                        const std::string& value) {
        csv += csvField(kind) + "," + csvField(name) + "," + csvField(evaluation) + "," + csvField(value) + "\n";
      };
      std::string augmentList;
      for (const auto& a : augment)
        augmentList += (augmentList.empty() ? "" : ";") + a;
      row("spec", "data", "", data);
      row("spec", "augment", "", augmentList);
      row("spec", "features", "", featureSetName(set));
      row("spec", "evaluation", "", specJson);
      for (std::size_t c = 0; c < results.size(); ++c) {
        const std::string ev = c ? "with_augmentation" : "without_augmentation";
        const Metrics& r = results[c]->metrics;
        const std::pair<const char*, double> metrics[] = {
            {"rows", double(r.cases)},          {"training_rows_per_fold", double(results[c]->trainingCases)},
            {"accuracy", r.accuracy},           {"precision", r.precision},
            {"recall", r.recall},               {"specificity", r.specificity},
            {"static_accuracy", r.staticAccuracy}, {"speedup_mean", r.speedupMean},
            {"speedup_geomean", r.speedupGeomean}, {"oracle_mean", r.oracleMean},
            {"oracle_geomean", r.oracleGeomean}};
        row("metric", "static_device", ev, deviceName(r.staticDevice));
        for (const auto& [name, value] : metrics)
          row("metric", name, ev, std::isnan(value) ? "" : formatNumber(value));
        for (const auto& p : results[c]->programs) {
          row("benchmark_rows", p.program, ev, std::to_string(p.cases));
          row("benchmark_speedup", p.program, ev, formatNumber(p.speedupMean));
          row("benchmark_oracle", p.program, ev, formatNumber(p.oracleMean));
        }
      }
      self->resultsCsv_ = QString::fromStdString(csv);
      self->export_->setEnabled(true);

      const Metrics& m = o.plain.metrics;
      QString text = tr("%n row(s) of %1 benchmark(s): accuracy %2, speedup over static %3 (oracle %4).", nullptr,
                        int(o.dataRows))
                         .arg(categories.size())
                         .arg(percent(m.accuracy), times(m.speedupMean), times(m.oracleMean));
      if (o.augmented)
        text += QLatin1Char(' ') + tr("With augmentation: accuracy %1, speedup %2.")
                                       .arg(percent(o.augmented->metrics.accuracy),
                                            times(o.augmented->metrics.speedupMean));
      self->status_->setText(text);
      emit self->evaluated(QString());
    };
  });
}

bool EvaluationPanel::exportCsv(const QString& given) {
  if (resultsCsv_.isEmpty()) {
    status_->setText(tr("Evaluate first: there are no results to export."));
    return false;
  }
  QString path = given;
  if (path.isEmpty()) {
    path = QFileDialog::getSaveFileName(this, tr("Export the evaluation"), QStringLiteral("grewe-evaluation.csv"),
                                        tr("CSV files (*.csv)"));
    if (path.isEmpty()) return false;
  }
  try {
    writeFileAtomically(path.toStdString(), resultsCsv_.toStdString());
  } catch (const std::exception& e) {
    status_->setText(QString::fromStdString(e.what()));
    return false;
  }
  status_->setText(tr("Wrote the evaluation to %1.").arg(path));
  return true;
}

int EvaluationPanel::metricRows() const { return table_->rowCount(); }
int EvaluationPanel::resultColumns() const { return table_->columnCount(); }
QString EvaluationPanel::cell(int row, int column) const {
  const auto* item = table_->item(row, column);
  return item ? item->text() : QString();
}
QString EvaluationPanel::metricName(int row) const {
  const auto* item = table_->verticalHeaderItem(row);
  return item ? item->text() : QString();
}
int EvaluationPanel::barCategories() const {
  for (auto* a : chart_->axes(Qt::Vertical))
    if (auto* c = qobject_cast<QBarCategoryAxis*>(a)) return c->count();
  return 0;
}
int EvaluationPanel::barSets() const {
  for (auto* s : chart_->series())
    if (auto* b = qobject_cast<QHorizontalBarSeries*>(s)) return b->count();
  return 0;
}
QString EvaluationPanel::statusText() const { return status_->text(); }

} // namespace steerbench::ui

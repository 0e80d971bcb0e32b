#include "SteeringPanel.h"

#include "EngineBridge.h"
#include "EngineState.h"

#include "common/Paths.h"
#include "explore/Explorer.h"
#include "features/Distance.h"
#include "steer/BeamSearch.h"
#include "steer/TargetSampling.h"
#include "steer/Combining.h"
#include "steer/Lineage.h"
#include "steer/RunSummary.h"
#include "store/Workspace.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace steerbench::ui {

namespace {

/// The part of `child` that differs from `parent`: after their common prefix,
/// before their common suffix (what the infill changed).
std::pair<int, int> changedSpan(const QString& parent, const QString& child) {
  int a = 0;
  const int n = int(std::min(parent.size(), child.size()));
  while (a < n && parent[a] == child[a])
    ++a;
  int b = 0;
  while (b < n - a && parent[parent.size() - 1 - b] == child[child.size() - 1 - b])
    ++b;
  return {a, std::max(0, int(child.size()) - a - b)};
}

QString distanceText(double d) { return d < 0 ? QStringLiteral("–") : QString::number(d, 'g', 5); }

/// A line of a diff, trimmed and cut to a readable length.
QString diffLine(QChar sign, const QString& line) {
  QString t = line.trimmed();
  if (t.size() > 90) t = t.left(87) + QStringLiteral("...");
  return sign + QLatin1Char(' ') + t;
}

/// What changed from `parent` to `child` (formatted kernels), line by line:
/// the lines between their common first and last lines, at most three each
/// way ("−" taken out, "+" put in).
QStringList lineDiff(const QString& parent, const QString& child) {
  const QStringList a = parent.split(QLatin1Char('\n')), b = child.split(QLatin1Char('\n'));
  int top = 0;
  while (top < a.size() && top < b.size() && a[top] == b[top])
    ++top;
  int bottom = 0;
  while (bottom < a.size() - top && bottom < b.size() - top && a[a.size() - 1 - bottom] == b[b.size() - 1 - bottom])
    ++bottom;
  QStringList out;
  auto side = [&](const QStringList& lines, QChar sign) {
    const int n = int(lines.size()) - top - bottom;
    for (int i = 0; i < std::min(n, 3); ++i)
      out << diffLine(sign, lines[top + i]);
    if (n > 3) out << SteeringPanel::tr("%1 ... %n more line(s)", nullptr, n - 3).arg(sign);
  };
  side(a, QChar(0x2212));
  side(b, QLatin1Char('+'));
  if (out.isEmpty()) out << SteeringPanel::tr("  (the same text)");
  return out;
}

} // namespace

QString SteeringPanel::stopReasonText(const std::string& reason) {
  if (reason == "exact match") return tr("exact match");
  if (reason == "depth") return tr("depth reached");
  if (reason == "time budget") return tr("time budget used");
  if (reason == "patience") return tr("no improvement (patience)");
  if (reason == "cancelled") return tr("cancelled");
  if (reason == "no candidates") return tr("no candidates");
  return QString::fromStdString(reason);
}

QString SteeringPanel::seedingText(const std::string& seeding, const std::string& why) {
  if (!why.empty()) return QString::fromStdString(why) + QLatin1Char('.'); // "seeds (auto): ...", auto's choice and why
  if (seeding == "nearest") return tr("Seeds: nearest corpus kernels.");
  if (seeding == "empty") return tr("Seeds: the empty kernel.");
  if (seeding == "generated") return tr("Seeds: generated for the target.");
  if (seeding == "given") return tr("Seeds: given kernels.");
  return tr("Seeds: %1.").arg(QString::fromStdString(seeding));
}

QSpinBox* SteeringPanel::intField(int steer::SteerSpec::*field, int lo, int hi, const QString& tip) {
  auto* box = new QSpinBox(this);
  box->setRange(lo, hi);
  box->setToolTip(tip);
  box->setValue(spec_.*field);
  connect(box, qOverload<int>(&QSpinBox::valueChanged), this, [this, field](int v) { spec_.*field = v; });
  readBack_.push_back([this, box, field] { box->setValue(spec_.*field); });
  return box;
}

QDoubleSpinBox* SteeringPanel::realField(double steer::SteerSpec::*field, double lo, double hi, double step,
                                         int decimals, const QString& tip) {
  auto* box = new QDoubleSpinBox(this);
  box->setRange(lo, hi);
  box->setDecimals(decimals);
  box->setSingleStep(step);
  box->setToolTip(tip);
  box->setValue(spec_.*field);
  connect(box, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this, field](double v) { spec_.*field = v; });
  readBack_.push_back([this, box, field] { box->setValue(spec_.*field); });
  return box;
}

QCheckBox* SteeringPanel::flagField(bool steer::SteerSpec::*field, const QString& text, const QString& tip) {
  auto* box = new QCheckBox(text, this);
  box->setToolTip(tip);
  box->setChecked(spec_.*field);
  connect(box, &QCheckBox::toggled, this, [this, field](bool on) { spec_.*field = on; });
  readBack_.push_back([this, box, field] { box->setChecked(spec_.*field); });
  return box;
}

void SteeringPanel::buildForm(QGridLayout* form) {
  // Each option: a field of steer::SteerSpec and its widget, one a row.
  using S = steer::SteerSpec;
  int cell = 0;
  auto add = [&](const QString& label, QWidget* field, QLayout* fields = nullptr) {
    form->addWidget(new QLabel(label, this), cell, 0);
    if (field) form->addWidget(field, cell, 1);
    else form->addLayout(fields, cell, 1);
    ++cell;
  };
  add(tr("Beam width:"), intField(&S::width, 1, 1024, tr("Beam members kept per generation")));
  add(tr("Candidates per member:"), intField(&S::candidatesPerMember, 1, 1024, tr("Infills per beam member and generation")));
  add(tr("Depth:"), intField(&S::depth, 1, 100000, tr("Generations after the seeds")));
  auto* holes = new QHBoxLayout;
  auto* holeMin = intField(&S::holeMin, 0, 256, tr("Fewest tokens a hole replaces"));
  auto* holeMax = intField(&S::holeMax, 0, 256, tr("Most tokens a hole replaces"));
  connect(holeMin, qOverload<int>(&QSpinBox::valueChanged), holeMax, [holeMax](int v) { holeMax->setValue(std::max(v, holeMax->value())); });
  holes->addWidget(holeMin);
  holes->addWidget(new QLabel(QStringLiteral("–"), this));
  holes->addWidget(holeMax);
  add(tr("Hole length (tokens):"), nullptr, holes);
  add(tr("Temperature:"), realField(&S::temperature, 0, 5, 0.1, 2, tr("Sampling temperature")));
  add(tr("Swap probability:"), realField(&S::swapProbability, 0, 1, 0.05, 2,
                                         tr("Probability that a kept slot is swapped for a lower-ranked candidate")));
  auto* budget = realField(&S::timeBudget, 0, 1e6, 60, 0, tr("Stop after this many seconds (0: no limit)"));
  budget->setSuffix(tr(" s"));
  add(tr("Time budget:"), budget);
  add(tr("Patience:"), intField(&S::patience, 0, 100000,
                                tr("Stop after this many generations without a better best of the run (0: never)")));
  seed_ = new QSpinBox(this);
  seed_->setRange(0, 1000000000);
  seed_->setToolTip(tr("Random seed: the same seed and target give the same run"));
  seed_->setValue(int(spec_.seed));
  connect(seed_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int v) { spec_.seed = std::uint64_t(v); });
  readBack_.push_back([this] { seed_->setValue(int(spec_.seed)); });
  add(tr("Random seed:"), seed_);
  seeding_ = new QComboBox(this);
  seeding_->setObjectName(QStringLiteral("steeringSeeding"));
  seeding_->addItem(tr("Automatic"), int(steer::Seeding::Auto));
  seeding_->addItem(tr("Nearest corpus kernels"), int(steer::Seeding::Nearest));
  seeding_->addItem(tr("Empty kernel"), int(steer::Seeding::Empty));
  seeding_->addItem(tr("Generated for the target"), int(steer::Seeding::Generated));
  seeding_->setToolTip(tr("Where generation 0 starts. Automatic: the nearest corpus kernels, or kernels generated "
                          "for the target where no corpus kernel is nearer to it than the empty kernel (the status "
                          "line says which, and why). \"Steer from here\" in the editor starts from its kernel."));
  connect(seeding_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this](int i) { spec_.seeding = steer::Seeding(seeding_->itemData(i).toInt()); });
  readBack_.push_back([this] {
    const int i = seeding_->findData(int(spec_.seeding));
    seeding_->setCurrentIndex(i < 0 ? 0 : i); // Given: the box's first, as "Steer from here" leaves it
  });
  add(tr("Seeds:"), seeding_);
  add(tr("Seeds per package:"), realField(&S::seedPackageShare, 0.05, 1, 0.05, 2,
                                          tr("Nearest corpus kernels: at most this share of the seeds from one "
                                             "package, and their drive checks take the packages in turn (1: the "
                                             "nearest, whatever their packages)")));
  auto* infills = new QVBoxLayout;
  infills->addWidget(flagField(&S::guard, tr("Grammar guard"),
                               tr("Never sample a mismatched bracket, close a hole that leaves brackets open, or use a "
                                  "name that is never declared")));
  infills->addWidget(flagField(&S::check, tr("Compiler checks"),
                               tr("Compile each statement an infill writes as it ends, and sample it again if it has "
                                  "an error")));
  add(tr("Infills:"), nullptr, infills);
  add(tr("Beam:"), flagField(&S::deadCode, tr("No dead code"),
                             tr("A candidate that could enter the beam is compiled at -O1 too, and not kept when the "
                                "IR shows its counts to be dead (folded away, no global memory written, or nothing "
                                "written that depends on the input)")));
  add(tr("Best:"), flagField(&S::driveCheck, tr("Must run"),
                             tr("A candidate becomes the run's best only once its -O1 IR shows no dead counts and the "
                                "drive worker PASSes it at 4096 work-items on one device, then at drive's sizes on "
                                "every device (checked at low priority while the search goes on). Off: the nearest "
                                "clean candidate is the best, runnable or not.")));
  add(tr("Repairs:"), flagField(&S::repairs, tr("Repair failing candidates"),
                                tr("With drive checks, a candidate nearer than the best that fails them comes back as "
                                   "repairs: each edit since its nearest ancestor that passed (or its seed, if never "
                                   "checked) undone in one, the search's other edits kept")));
  add(tr("Lineage checks:"), flagField(&S::lineageChecks, tr("Bisect failures, check members"),
                                     tr("With drive checks, the ancestors of a failing candidate are bisected to "
                                        "find the edit that broke it, and while the checks are idle the least known "
                                        "beam member is checked too; one that fails takes its descendants out of "
                                        "the beam")));
  add(tr("Combined pairs:"), intField(&S::combine, 0, 1024,
                                      tr("Each generation, also try up to this many pairs of one member's infills "
                                         "applied together, where their summed feature changes predict a nearer "
                                         "kernel (0: none)")));
  add(tr("Members per vector:"), intField(&S::maxPerVector, 0, 4096,
                                          tr("At most this many beam members share one feature vector, so the beam "
                                             "keeps other directions besides rewordings of the best (0: no cap)")));
  add(tr("Failing members:"), intField(&S::failingMembers, -1, 4096,
                                       tr("With drive checks, at most this many beam members come from a lineage "
                                          "that failed them (the member or its nearest checked ancestor); the rest "
                                          "of the beam goes to lineages that passed or were not checked yet (-1: any)")));
  add(tr("Reseed after:"), intField(&S::reseedAfter, 0, 100000,
                                    tr("After this many generations without a better best in the beam, the beam "
                                       "starts again from the seeds with new random draws; the run keeps its best "
                                       "(0: never)")));
  add(tr("Guided infills:"), realField(&S::guideLogits, 0, 10, 0.5, 1,
                                       tr("Added to the logits of the tokens that move a feature the beam member lacks "
                                          "toward the target, taken from those of a feature it has too much of (0: "
                                          "none)")));
  // Not the search's: how many kernels "Sample toward target" writes, and how far their vectors spread.
  sampleCount_ = new QSpinBox(this);
  sampleCount_->setObjectName(QStringLiteral("steeringSampleCount"));
  sampleCount_->setRange(1, 10000);
  sampleCount_->setValue(20);
  sampleCount_->setToolTip(tr("Kernels \"Sample toward target\" writes, each held near its vector and clean"));
  add(tr("Samples toward the target:"), sampleCount_);
  sampleSpread_ = new QDoubleSpinBox(this);
  sampleSpread_->setObjectName(QStringLiteral("steeringSampleSpread"));
  sampleSpread_->setRange(0, 1);
  sampleSpread_->setSingleStep(0.05);
  sampleSpread_->setDecimals(2);
  sampleSpread_->setValue(0.25);
  sampleSpread_->setToolTip(tr("Each sample asks for its own vector: every count of the target times a factor in "
                               "[1 - S, 1 + S] (0: all ask for the target)"));
  add(tr("Spread of their vectors:"), sampleSpread_);
  gridCells_ = new QSpinBox(this);
  gridCells_->setObjectName(QStringLiteral("steeringGridCells"));
  gridCells_->setRange(1, 16);
  gridCells_->setValue(4);
  gridCells_->setToolTip(tr("\"Sample a grid over this view\" (the plot's menu, on two Grewe counts): cells a side"));
  add(tr("Grid cells a side:"), gridCells_);
  gridPerCell_ = new QSpinBox(this);
  gridPerCell_->setObjectName(QStringLiteral("steeringGridPerCell"));
  gridPerCell_->setRange(1, 1000);
  gridPerCell_->setValue(5);
  gridPerCell_->setToolTip(tr("Kernels written toward each cell's vector, held near it and clean"));
  add(tr("Samples a grid cell:"), gridPerCell_);
  form->setColumnStretch(1, 1);
  form->setRowStretch(cell, 1);
}

SteeringPanel::SteeringPanel(EngineBridge* engine, QWidget* parent) : QWidget(parent), engine_(engine) {
  targetLabel_ = new QLabel(tr("No target: click empty space on the plot, or use a kernel's features."), this);
  targetLabel_->setWordWrap(true);

  // Two tabs: the run (progress, lineage, suggestions) and its parameters.
  auto* tabs = new QTabWidget(this);
  tabs->setObjectName(QStringLiteral("steeringTabs"));
  auto* run = new QWidget(tabs);
  auto* parameters = new QWidget(tabs);
  auto* form = new QGridLayout(parameters);
  buildForm(form);

  steer_ = new QPushButton(tr("Steer"), this);
  steer_->setToolTip(tr("Start a beam search toward the target"));
  stop_ = new QPushButton(tr("Stop"), this);
  stop_->setToolTip(tr("Stop the run (every complete generation is kept) or the sampling (every sample that arrived is kept)"));
  sample_ = new QPushButton(tr("Sample toward target"), this);
  sample_->setObjectName(QStringLiteral("steeringSample"));
  sample_->setToolTip(tr("Let the model write kernels toward the target's Grewe counts (a model trained with "
                         "conditions), spread around it as the Parameters tab says; each is stored as a sample and "
                         "drawn on the plot as it arrives"));
  connect(steer_, &QPushButton::clicked, this, [this] { steer(); });
  connect(sample_, &QPushButton::clicked, this, &SteeringPanel::sampleTowardTarget);
  connect(stop_, &QPushButton::clicked, this, &SteeringPanel::stop);
  resume_ = new QPushButton(tr("Resume"), this);
  resume_->setToolTip(tr("Go on with the chosen run, which did not finish, with its own parameters and model"));
  runs_ = new QComboBox(this);
  runs_->setObjectName(QStringLiteral("steeringRuns"));
  runs_->setToolTip(tr("The workspace's steering runs: choose one to see its lineage and best kernel"));
  runs_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  runs_->setMinimumContentsLength(12);
  connect(runs_, &QComboBox::activated, this, [this](int row) {
    if (row >= 0 && std::size_t(row) < runIds_.size()) openRun(runIds_[std::size_t(row)]);
  });
  connect(runs_, &QComboBox::currentIndexChanged, this, [this] { updateButtons(); });
  connect(resume_, &QPushButton::clicked, this, [this] {
    const int row = runs_->currentIndex();
    if (row >= 0 && std::size_t(row) < runIds_.size()) resumeRun(runIds_[std::size_t(row)]);
  });
  auto* runsRow = new QHBoxLayout;
  runsRow->addWidget(new QLabel(tr("Runs:"), this));
  runsRow->addWidget(runs_, 1);
  runsRow->addWidget(resume_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(steer_);
  buttons->addWidget(sample_);
  buttons->addWidget(stop_);
  buttons->addStretch();
  status_ = new QLabel(this);
  status_->setWordWrap(true);

  auto* chart = new QChart;
  chart->setTitle(tr("Distance to the target (y) per generation (x)"));
  best_ = new QLineSeries;
  best_->setName(tr("Nearest"));
  median_ = new QLineSeries;
  median_->setName(tr("Beam median"));
  chart->addSeries(best_);
  chart->addSeries(median_);
  axisX_ = new QValueAxis;
  axisX_->setTitleVisible(false); // the chart title says what the axes are: room for the ticks in a narrow dock
  axisX_->setLabelFormat(QStringLiteral("%d"));
  axisY_ = new QValueAxis;
  axisY_->setTitleVisible(false);
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  for (auto* s : {best_, median_}) {
    s->attachAxis(axisX_);
    s->attachAxis(axisY_);
  }
  chartView_ = new QChartView(chart, this);
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumHeight(190);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(4, 4, 4, 4));

  follow_ = new QCheckBox(tr("Follow the best"), this);
  follow_->setObjectName(QStringLiteral("followBest"));
  follow_->setChecked(true);
  follow_->setToolTip(tr("Show the run's best kernel in the editor as it changes; off: click a step of the lineage "
                         "to see it"));
  connect(follow_, &QCheckBox::toggled, this, [this](bool on) {
    if (on && !steps_.isEmpty()) {
      shownBest_ = 0;
      const auto& s = steps_.back();
      emit bestChanged(s.title, s.text, s.start, s.length);
    }
  });
  buttons->addWidget(follow_);
  lineage_ = new QListWidget(this);
  lineage_->setToolTip(tr("From the seed to the best candidate, each step a diff of the formatted kernels; click a "
                          "step to see its kernel"));
  lineage_->setWordWrap(true);
  lineage_->setAlternatingRowColors(true);
  connect(lineage_, &QListWidget::currentRowChanged, this, &SteeringPanel::showStep);

  suggest_ = new QPushButton(tr("Suggest targets"), this);
  suggest_->setToolTip(tr("Active learning: train a committee (MLPs, k-NN, K-means) on the workspace's labelled "
                          "drive cases and list the points where it disagrees most; the plot shades every point "
                          "scored by the disagreement"));
  connect(suggest_, &QPushButton::clicked, this, [this] { suggestTargets(); });
  suggestions_ = new QListWidget(this);
  suggestions_->setToolTip(tr("Click a suggestion to make it the target"));
  connect(suggestions_, &QListWidget::itemClicked, this,
          [this](QListWidgetItem* item) { useSuggestion(suggestions_->row(item)); });

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(chartView_);
  split->addWidget(lineage_);
  auto* suggestionsBox = new QWidget(split);
  auto* suggestionsLayout = new QVBoxLayout(suggestionsBox);
  suggestionsLayout->setContentsMargins(0, 0, 0, 0);
  auto* suggestRow = new QHBoxLayout;
  suggestRow->addWidget(suggest_);
  suggestRow->addStretch(1);
  suggestionsLayout->addLayout(suggestRow);
  suggestionsLayout->addWidget(suggestions_);
  split->addWidget(suggestionsBox);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 3);
  split->setStretchFactor(2, 1);

  auto* runLayout = new QVBoxLayout(run);
  runLayout->setContentsMargins(2, 2, 2, 2);
  runLayout->addWidget(targetLabel_);
  runLayout->addLayout(buttons);
  runLayout->addLayout(runsRow);
  runLayout->addWidget(status_);
  runLayout->addWidget(split, 1);
  tabs->addTab(run, tr("Run"));
  tabs->addTab(parameters, tr("Parameters"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs);
  // The job may end without its continuation: cancelled before it started, or
  // failed outside the search (a bad checkpoint). The panel must not stay busy.
  connect(engine_, &EngineBridge::jobFinished, this, [this](int id, bool cancelled, const QString& error) {
    if (!job_ || id != job_) return;
    job_ = 0;
    updateButtons();
    if (!error.isEmpty()) status_->setText(tr("Steering failed: %1").arg(error));
    else if (cancelled) status_->setText(tr("Stopped."));
    refreshRuns();
  });
  updateButtons();
}

void SteeringPanel::setWorkspace(const QString& workspacePath) {
  if (job_) stop();
  workspace_ = workspacePath;
  updateButtons();
  refreshRuns();
}

void SteeringPanel::refreshRuns() {
  if (workspace_.isEmpty()) return;
  QPointer<SteeringPanel> self(this);
  engine_->post(QStringLiteral("steering runs"), [self](EngineState& s) -> EngineBridge::Continuation {
    std::vector<steer::RunSummary> runs;
    QString error;
    try {
      runs = steer::summarizeRuns(s.ws());
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    return [self, runs, error] {
      if (!self) return;
      const std::int64_t chosen = self->runs_->currentIndex() >= 0 && std::size_t(self->runs_->currentIndex()) < self->runIds_.size()
                                      ? self->runIds_[std::size_t(self->runs_->currentIndex())]
                                      : 0;
      self->runs_->blockSignals(true);
      self->runs_->clear();
      self->runIds_.clear();
      self->runResumable_.clear();
      for (const auto& r : runs) {
        auto proximity = [](double distance, double p) {
          return distance < 0 ? QStringLiteral("–") : QStringLiteral("%1%").arg(p * 100, 0, 'f', 1);
        };
        const QString status = r.status == "finished" ? stopReasonText(r.stopReason) : QString::fromStdString(r.status);
        const QString text =
            !r.error.empty()
                ? tr("Run %1: cannot be read (%2)").arg(r.id).arg(QString::fromStdString(r.error))
                : tr("Run %1 (%2): %3, %4 generation(s); nearest %5, runnable %6 — %7")
                      .arg(r.id)
                      .arg(QString::fromStdString(r.space), status)
                      .arg(r.generations)
                      .arg(proximity(r.bestDistance, r.bestProximity), proximity(r.runnableDistance, r.runnableProximity),
                           QString::fromStdString(r.targetOrigin));
        self->runs_->addItem(text);
        self->runs_->setItemData(self->runs_->count() - 1, text, Qt::ToolTipRole); // the dock is narrow
        self->runIds_.push_back(r.id);
        self->runResumable_.push_back(r.resumable());
      }
      const auto at = std::find(self->runIds_.begin(), self->runIds_.end(), chosen);
      self->runs_->setCurrentIndex(at != self->runIds_.end() ? int(at - self->runIds_.begin()) : int(self->runIds_.size()) - 1);
      self->runs_->blockSignals(false);
      if (!error.isEmpty()) self->status_->setText(tr("Cannot list the steering runs: %1").arg(error));
      self->updateButtons();
      emit self->runsListed();
    };
  });
}

std::vector<std::int64_t> SteeringPanel::listedRuns() const { return runIds_; }

void SteeringPanel::openRun(std::int64_t run) {
  if (job_) {
    status_->setText(tr("A run or sampling is going on; stop it first."));
    return;
  }
  QPointer<SteeringPanel> self(this);
  engine_->post(QStringLiteral("open steering run"), [self, run](EngineState& s) -> EngineBridge::Continuation {
    std::vector<steer::LineageStep> steps;
    steer::RunSummary summary;
    QString error;
    try {
      const auto record = s.ws().steerRun(run);
      if (!record) throw std::runtime_error("there is no steering run " + std::to_string(run));
      summary = steer::summarizeRun(s.ws(), *record);
      // The summary already found the runnable best and the best: the lineage starts from it.
      if (summary.bestId) steps = steer::lineage(s.ws(), run, summary.runnableId ? summary.runnableId : summary.bestId);
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    return [self, run, steps, summary, error] {
      if (!self) return;
      if (!error.isEmpty()) {
        self->status_->setText(tr("Cannot open run %1: %2").arg(run).arg(error));
        return;
      }
      self->best_->clear();
      self->median_->clear();
      self->shownBest_ = 0;
      emit self->runStarted(); // the plot shows this run's path alone
      const bool follow = self->follow_->isChecked();
      self->follow_->blockSignals(true);
      self->follow_->setChecked(false); // the lineage is shown, the editor is moved once below
      self->showLineage(steps);
      self->follow_->setChecked(follow);
      self->follow_->blockSignals(false);
      const bool runnable = summary.runnableId != 0;
      QString text = tr("Run %1 (%2): %3 after %4 generation(s) in %5 s, toward %6.")
                         .arg(run)
                         .arg(QString::fromStdString(summary.space),
                              summary.status == "finished" ? stopReasonText(summary.stopReason)
                                                           : QString::fromStdString(summary.status))
                         .arg(summary.generations)
                         .arg(summary.elapsed, 0, 'f', 0)
                         .arg(QString::fromStdString(summary.targetOrigin));
      if (steps.empty()) text += QLatin1Char(' ') + tr("No candidate compiled.");
      else if (runnable)
        text += QLatin1Char(' ') + tr("Its lineage leads to the best runnable candidate, #%1 (proximity %2%).")
                                       .arg(summary.runnableId)
                                       .arg(summary.runnableProximity * 100, 0, 'f', 1);
      else
        text += QLatin1Char(' ') + tr("No candidate passed the drive checks; the lineage leads to the nearest, #%1 "
                                      "(proximity %2%).")
                                       .arg(summary.bestId)
                                       .arg(summary.bestProximity * 100, 0, 'f', 1);
      text += QLatin1Char(' ') + seedingText(summary.seeding, summary.seedingWhy);
      if (summary.resumable()) text += QLatin1Char(' ') + tr("It did not finish: Resume goes on with it.");
      self->status_->setText(text);
      if (!self->steps_.isEmpty()) {
        const auto& last = self->steps_.back();
        emit self->showKernel(tr("Run %1: %2").arg(run).arg(last.title), last.text, last.start, last.length);
      }
      emit self->runOpened(run);
    };
  });
}

void SteeringPanel::setTarget(const QString& space, const std::optional<std::vector<double>>& values,
                              const QString& origin) {
  space_ = space;
  target_ = values;
  origin_ = origin;
  if (!values) {
    targetLabel_->setText(tr("No target: click empty space on the plot, or use a kernel's features."));
  } else {
    QStringList v;
    for (double x : *values)
      v << QString::number(x, 'g', 4);
    targetLabel_->setText(tr("Target (%1): %2\n%3").arg(space, QString(origin).replace(QLatin1Char(','), QStringLiteral(", ")), v.join(QStringLiteral(", "))));
  }
  updateButtons();
}

void SteeringPanel::setSpec(const steer::SteerSpec& spec) {
  spec_ = spec;
  for (const auto& read : readBack_)
    read();
  spec_ = spec; // a read-back may have clamped a field through another's signal (hole min and max)
}

void SteeringPanel::setFollowBest(bool follow) { follow_->setChecked(follow); }
bool SteeringPanel::followsBest() const { return follow_->isChecked(); }

void SteeringPanel::updateButtons() {
  steer_->setEnabled(!job_ && target_.has_value() && !workspace_.isEmpty());
  sample_->setEnabled(!job_ && target_.has_value() && !workspace_.isEmpty() && space_ == QLatin1String("grewe"));
  stop_->setEnabled(job_ != 0);
  const int row = runs_->currentIndex();
  resume_->setEnabled(!job_ && row >= 0 && std::size_t(row) < runResumable_.size() && runResumable_[std::size_t(row)]);
  runs_->setEnabled(!job_ && runs_->count() > 0);
}

QString SteeringPanel::checkpointToStart(bool needsTarget) {
  if (job_) {
    status_->setText(tr("A run or sampling is going on; stop it first."));
    return {};
  }
  if ((needsTarget && !target_) || workspace_.isEmpty()) {
    status_->setText(tr("Set a target first: click empty space on the plot."));
    return {};
  }
  const QString ckpt = QString::fromStdString(modelForWorkspace(workspace_.toStdString()));
  if (ckpt.isEmpty())
    status_->setText(tr("No model: train one in the Training panel, or install the default model."));
  return ckpt;
}

void SteeringPanel::steer(const QString& seedText, const QString& seedName) {
  const QString ckpt = checkpointToStart();
  if (ckpt.isEmpty()) return;
  steer::SteerSpec spec = spec_;
  spec.target = {space_.toStdString(), *target_, origin_.toStdString()};
  spec.holeMax = std::max(spec.holeMin, spec.holeMax);
  if (!seedText.isEmpty()) {
    spec.seeding = steer::Seeding::Given;
    spec.seeds = {{seedName.isEmpty() ? std::string("editor") : seedName.toStdString(), seedText.toStdString()}};
  }
  startRun(ckpt, spec, 0);
}

void SteeringPanel::sampleTowardTarget() {
  if (!target_) {
    status_->setText(tr("Set a target first: click empty space on the plot."));
    return;
  }
  if (space_ != QLatin1String("grewe")) {
    status_->setText(tr("The model is told Grewe counts: set a target in the Grewe space to sample toward it."));
    return;
  }
  steer::TargetSamplingOptions o;
  o.target = *target_;
  o.count = sampleCount_->value();
  o.spread = sampleSpread_->value();
  startSampling(o);
}

void SteeringPanel::sampleGrid(const QString& grid) {
  if (space_ != QLatin1String("grewe")) {
    status_->setText(tr("The model is told Grewe counts: show the Grewe space to sample a grid of them."));
    return;
  }
  steer::TargetSamplingOptions o;
  o.target = target_ ? *target_ : std::vector<double>(6, 0.0); // the counts the grid does not set
  o.grid = grid.toStdString();
  o.cells = gridCells_->value();
  o.count = gridPerCell_->value();
  startSampling(o);
}

void SteeringPanel::startSampling(const steer::TargetSamplingOptions& options) {
  const QString ckpt = checkpointToStart(options.grid.empty());
  if (ckpt.isEmpty()) return;
  steer::TargetSamplingOptions o = options;
  o.seed = spec_.seed;
  o.checkpoint = ckpt.toStdString();
  const bool grid = !o.grid.empty();
  const int total = grid ? o.count * o.cells * o.cells : o.count;
  clearRunView();
  status_->setText(grid ? tr("Sampling %1 kernels over a grid of %2 x %2 cells (%3)...")
                              .arg(total)
                              .arg(o.cells)
                              .arg(QString::fromStdString(o.grid))
                        : tr("Sampling %1 kernels toward the target...").arg(total));
  emit runStarted();
  emit samplingStarted();
  const int token = ++runToken_;
  const std::string path = ckpt.toStdString(), space = space_.toStdString();
  QPointer<SteeringPanel> self(this);
  job_ = engine_->startJob(tr("Sampling"), [self, o, grid, total, path, space, token](EngineState& s, JobFeedback& f)
                                               -> EngineBridge::Continuation {
    SamplingTally tally;
    std::vector<double> proximities;         // of the samples that compile, to the counts each was asked for
    std::map<int, double> best; // a grid's cells: the best proximity of a compiling sample
    QString error;
    try {
      (void)steer::sampleTowardTarget(s.ws(), s.samplerFor(path), o, [&](const steer::TargetSample& t) {
        ++tally.made;
        tally.compiled += t.kernelId ? 1 : 0;
        tally.cut += !t.ended && t.cut ? 1 : 0;
        tally.nothing += !t.ended && !t.cut ? 1 : 0;
        auto& cell = best.try_emplace(t.cell, -std::numeric_limits<double>::infinity()).first->second;
        if (const auto g = t.vectors.find("grewe"); g != t.vectors.end() && g->second.size() >= t.asked.size()) {
          const double p = features::relativeProximity(
              std::vector<double>(g->second.begin(), g->second.begin() + std::ptrdiff_t(t.asked.size())), t.asked);
          proximities.push_back(p);
          cell = std::max(cell, p);
        }
        f.progress(double(tally.made) / total, "sample " + std::to_string(tally.made));
        std::vector<std::vector<double>> point;
        if (const auto v = t.vectors.find(space); v != t.vectors.end()) point.push_back(v->second);
        const QString title = t.kernelId ? tr("Sample %1 (kernel #%2)").arg(tally.made).arg(t.kernelId)
                                         : tr("Sample %1 (does not compile)").arg(tally.made);
        const QString text = QString::fromStdString(t.text);
        const int n = tally.made, c = tally.compiled;
        QMetaObject::invokeMethod(
            self.data(),
            [self, token, point, title, text, n, c, total] {
              if (!self || token != self->runToken_) return;
              if (!point.empty()) emit self->candidatesArrived(0, point);
              if (self->follow_->isChecked()) emit self->showKernel(title, text, 0, 0);
              self->status_->setText(tr("Sampling: %1 of %2, %3 compile.").arg(n).arg(total).arg(c));
            },
            Qt::QueuedConnection);
      }, &f.cancel());
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    const bool cancelled = f.cancel().cancelled();
    std::sort(proximities.begin(), proximities.end());
    tally.medianProximity = proximities.empty() ? std::nan("") : proximities[proximities.size() / 2];
    if (grid) {
      tally.cells = o.cells * o.cells;
      // Within 10% of the cell's vector: a proximity of 90% or more.
      tally.cellsNear = int(std::count_if(best.begin(), best.end(), [](const auto& c) { return c.second >= 0.9; }));
    }
    return [self, token, tally, cancelled, error] {
      if (self && token == self->runToken_) self->samplingDone(tally, cancelled, error);
    };
  });
  updateButtons();
}

void SteeringPanel::samplingDone(const SamplingTally& t, bool cancelled, const QString& error) {
  job_ = 0;
  updateButtons();
  if (!error.isEmpty()) {
    status_->setText(tr("Sampling failed: %1").arg(error));
  } else {
    const bool grid = t.cells > 0;
    QString text = (cancelled ? (grid ? tr("Stopped. Samples over the grid: %1, compiling: %2; they are stored.")
                                      : tr("Stopped. Samples toward the target: %1, compiling: %2; they are stored."))
                              : (grid ? tr("Samples over the grid: %1, compiling: %2; stored in the workspace as samples.")
                                      : tr("Samples toward the target: %1, compiling: %2; stored in the workspace as "
                                           "samples.")))
                       .arg(t.made)
                       .arg(t.compiled);
    text += QLatin1Char(' ') + tr("Held to their vectors: %1 ended by themselves; given up on the way, %2 end at "
                                  "their last clean statement and %3 have no kernel to end at.")
                                   .arg(t.made - t.cut - t.nothing)
                                   .arg(t.cut)
                                   .arg(t.nothing);
    if (!std::isnan(t.medianProximity))
      text += QLatin1Char(' ') + tr("Median proximity to the counts each asked for: %1%.")
                                     .arg(t.medianProximity * 100, 0, 'f', 1);
    if (grid)
      text += QLatin1Char(' ') + tr("Grid cells with a compiling sample within 10% of the cell's vector: %1 of %2.")
                                     .arg(t.cellsNear)
                                     .arg(t.cells);
    status_->setText(text);
  }
  emit samplingFinished(t.made, t.compiled);
}

void SteeringPanel::resumeRun(std::int64_t run) {
  if (job_) {
    status_->setText(tr("A run or sampling is going on; stop it first."));
    return;
  }
  const QString ckpt = QString::fromStdString(modelForWorkspace(workspace_.toStdString()));
  if (workspace_.isEmpty() || ckpt.isEmpty()) {
    status_->setText(tr("No model: train one in the Training panel, or install the default model."));
    return;
  }
  startRun(ckpt, spec_, run);
}

void SteeringPanel::clearRunView() {
  best_->clear();
  median_->clear();
  lineage_->clear();
  steps_.clear();
  stepTexts_.clear();
  shownBest_ = 0;
  axisX_->setRange(0, 1);
  axisY_->setRange(0, 1);
}

void SteeringPanel::startRun(const QString& checkpoint, const steer::SteerSpec& given, std::int64_t resume) {
  clearRunView();
  status_->setText(resume ? tr("Resuming run %1...").arg(resume) : tr("Steering..."));
  emit runStarted();
  const int token = ++runToken_;
  const std::string path = checkpoint.toStdString();
  QPointer<SteeringPanel> self(this);
  job_ = engine_->startJob(tr("Steering"), [self, given, path, token, resume](EngineState& s, JobFeedback& f)
                                               -> EngineBridge::Continuation {
    steer::BeamSearch search(s.ws(), s.samplerFor(path));
    // A resumed run goes on with the spec it was started with (progress reads its depth and budget).
    steer::SteerSpec spec = given;
    if (resume) try {
        if (const auto record = s.ws().steerRun(resume))
          if (const auto json = s.ws().spec(record->specHash); !json.empty())
            spec = steer::SteerSpec::fromJson(json, "steering run " + std::to_string(resume));
      } catch (const std::exception&) {
        // resume() below says what is wrong with the run
      }
    search.onMessage = [&](const std::string& m) { // what auto seeding chose, until the first generation's status
      if (m.rfind("seeds (auto)", 0) != 0) return;
      QMetaObject::invokeMethod(
          self.data(),
          [self, m, token] {
            if (self && token == self->runToken_) self->status_->setText(seedingText("auto", m));
          },
          Qt::QueuedConnection);
    };
    search.onGeneration = [&](const steer::GenerationReport& g) {
      double done = spec.depth > 0 ? double(g.generation) / spec.depth : 0;
      if (spec.timeBudget > 0) done = std::max(done, g.elapsed / spec.timeBudget);
      f.progress(std::min(1.0, done), "generation " + std::to_string(g.generation));
      auto steps = steer::lineage(s.ws(), g.run, g.bestId);
      QMetaObject::invokeMethod(
          self.data(),
          [self, g, steps = std::move(steps), token] {
            if (self && token == self->runToken_) self->addGeneration(g, steps);
          },
          Qt::QueuedConnection);
    };
    steer::SteerResult r;
    QString error;
    try {
      r = resume ? search.resume(resume, &f.cancel()) : search.run(spec, &f.cancel());
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    return [self, r, error, token] {
      if (self && token == self->runToken_) self->finished(r, error);
    };
  });
  updateButtons();
}

void SteeringPanel::stop() {
  if (job_) engine_->cancelJob(job_);
}

void SteeringPanel::addGeneration(const steer::GenerationReport& g, const std::vector<steer::LineageStep>& lineage) {
  // The curve follows the nearest clean candidate (what the search reached);
  // the status line says which candidate also runs.
  const double nearest = g.nearestDistance >= 0 ? g.nearestDistance : g.bestDistance;
  if (nearest >= 0) {
    best_->append(g.generation, nearest);
    median_->append(g.generation, g.medianDistance);
    double top = 1;
    for (const auto& p : median_->points())
      top = std::max(top, p.y());
    axisX_->setRange(0, std::max(1, g.generation));
    axisX_->setTickCount(std::min(6, std::max(1, g.generation) + 1));
    axisY_->setRange(0, top * 1.05);
  }
  status_->setText(tr("Generation %1: best distance %2 (proximity %3%), nearest %4; %5 of %6 candidates compile "
                      "(%7 unclean), %8 of %9 contenders ran; %10 candidates/s, %11 s")
                       .arg(g.generation)
                       .arg(distanceText(g.bestDistance))
                       .arg(std::isfinite(g.bestProximity) ? g.bestProximity * 100 : 0.0, 0, 'f', 1)
                       .arg(distanceText(g.nearestDistance))
                       .arg(g.compiled)
                       .arg(g.candidates)
                       .arg(g.unclean)
                       .arg(g.passed)
                       .arg(g.checked)
                       .arg(g.candidatesPerSecond, 0, 'f', 1)
                       .arg(g.elapsed, 0, 'f', 0));
  std::vector<std::vector<double>> vectors;
  for (const auto& p : g.points)
    vectors.push_back(p.values);
  emit candidatesArrived(g.generation, vectors);
  showLineage(lineage);
}

void SteeringPanel::showLineage(const std::vector<steer::LineageStep>& lineage) {
  // The lineage of the current best, each step a diff of the formatted kernels.
  steps_.clear();
  stepTexts_.clear();
  lineage_->blockSignals(true);
  lineage_->clear();
  std::vector<std::vector<double>> path;
  QString parentText;
  for (const auto& s : lineage) {
    const QString text = QString::fromStdString(s.text);
    Step step;
    step.text = text;
    QString item;
    if (s.parent) {
      const auto [start, length] = changedSpan(parentText, text);
      step.start = start;
      step.length = length;
      step.title = tr("Generation %1, candidate %2 (distance %3)").arg(s.generation).arg(s.id).arg(distanceText(s.distance));
      item = tr("gen %1  #%2  d=%3%4")
                 .arg(s.generation)
                 .arg(s.id)
                 .arg(distanceText(s.distance))
                 .arg(steer::isCombined(s.origin) ? tr("  (%1)").arg(QString::fromStdString(s.origin)) : QString()) +
             QLatin1Char('\n') + lineDiff(parentText, text).join(QLatin1Char('\n'));
    } else {
      step.title = tr("Seed: %1").arg(QString::fromStdString(s.origin));
      item = tr("gen %1  #%2  d=%3   seed: %4")
                 .arg(s.generation)
                 .arg(s.id)
                 .arg(distanceText(s.distance))
                 .arg(QString::fromStdString(s.origin));
    }
    auto* it = new QListWidgetItem(item, lineage_);
    it->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    steps_.push_back(step);
    stepTexts_ << item;
    parentText = text;
    path.push_back(s.values);
  }
  lineage_->scrollToBottom();
  lineage_->blockSignals(false);
  emit pathChanged(path);
  // The editor follows the best: shown again only when it changed.
  if (follow_->isChecked() && !lineage.empty() && lineage.back().id != shownBest_) {
    shownBest_ = lineage.back().id;
    const auto& best = steps_.back();
    emit bestChanged(tr("Best so far: %1").arg(best.title), best.text, best.start, best.length);
  }
}

void SteeringPanel::finished(const steer::SteerResult& r, const QString& error) {
  job_ = 0;
  updateButtons();
  refreshRuns();
  if (!error.isEmpty()) {
    status_->setText(tr("Steering failed: %1").arg(error));
    emit runFinished(0);
    return;
  }
  if (r.bestId == 0 && r.nearestId != 0) {
    status_->setText(tr("Run %1: %2 after %3 generation(s); no candidate passed the drive checks. The nearest, "
                        "candidate %4 at distance %5 (proximity %6%), ended %7.")
                         .arg(r.run)
                         .arg(stopReasonText(r.stopReason))
                         .arg(r.generations)
                         .arg(r.nearestId)
                         .arg(distanceText(r.nearestDistance))
                         .arg(r.nearestProximity * 100, 0, 'f', 1)
                         .arg(r.nearestOutcome.empty() ? tr("unchecked") : QString::fromStdString(r.nearestOutcome)));
  } else if (r.bestId == 0) {
    status_->setText(tr("Run %1 ended (%2) before any candidate compiled.")
                         .arg(r.run)
                         .arg(stopReasonText(r.stopReason)));
  } else {
    status_->setText(tr("Run %1: %2 after %3 generation(s) in %4 s. Best: distance %5, relative proximity %6%; it is "
                        "kernel #%7 (role steered).")
                         .arg(r.run)
                         .arg(stopReasonText(r.stopReason))
                         .arg(r.generations)
                         .arg(r.elapsed, 0, 'f', 0)
                         .arg(distanceText(r.bestDistance))
                         .arg(std::isfinite(r.bestProximity) ? r.bestProximity * 100 : 0.0, 0, 'f', 1)
                         .arg(r.bestKernelId));
  }
  emit runFinished(r.bestKernelId);
}

void SteeringPanel::showStep(int row) {
  if (row < 0 || row >= steps_.size()) return;
  follow_->setChecked(false); // the user looks at a step: the run no longer moves the editor
  const auto& s = steps_[row];
  emit showKernel(s.title, s.text, s.start, s.length);
}

QString SteeringPanel::stepText(int row) const { return row >= 0 && row < stepTexts_.size() ? stepTexts_[row] : QString(); }

void SteeringPanel::suggestTargets(int points) {
  if (workspace_.isEmpty()) return;
  const int seed = int(spec_.seed);
  status_->setText(tr("Training the committee..."));
  QPointer<SteeringPanel> self(this);
  engine_->post(tr("Cannot suggest targets"), [self, points, seed](EngineState& s) -> EngineBridge::Continuation {
    const auto set = explore::labelledCases(s.ws(), true);
    if (set.points.size() < 2 || set.labels.size() < 2) {
      const auto n = int(set.points.size());
      return [self, n] {
        if (!self) return;
        self->suggestions_->clear();
        self->suggested_.clear();
        self->status_->setText(tr("The committee needs kernels driven and labelled by two devices; %n labelled "
                                  "case(s) so far. Drive some kernels in the Devices dock first.",
                                  nullptr, n));
        emit self->suggestionsShown();
      };
    }
    const auto committee = explore::Committee::train(set.points, int(set.labels.size()), std::uint64_t(seed));
    auto scored = explore::scoreRandomPoints(committee, set, points, std::uint64_t(seed));
    std::vector<std::vector<double>> vectors;
    std::vector<double> entropies;
    for (const auto& p : scored) {
      vectors.push_back(explore::greweTargetOf(p.raw));
      entropies.push_back(p.entropy);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const explore::ScoredPoint& a, const explore::ScoredPoint& b) { return a.entropy > b.entropy; });
    scored.resize(std::min<std::size_t>(scored.size(), 8));
    const auto labelled = set.points.size();
    return [self, scored, vectors, entropies, labelled] {
      if (!self) return;
      self->suggestions_->clear();
      self->suggested_.clear();
      for (const auto& p : scored) {
        const auto t = explore::greweTargetOf(p.raw);
        const QString text = tr("entropy %1   comp %2, rational %3, mem %4, localmem %5, coalesced %6, atomic %7")
                                 .arg(p.entropy, 0, 'f', 3)
                                 .arg(t[0])
                                 .arg(t[1])
                                 .arg(t[2])
                                 .arg(t[3])
                                 .arg(t[4])
                                 .arg(t[5]);
        self->suggestions_->addItem(text);
        self->suggested_.push_back({t, tr("active learning: vote entropy %1").arg(p.entropy, 0, 'f', 3)});
      }
      self->status_->setText(tr("A committee of 18 trained on %1 labelled case(s) scored %2 points; the most "
                                "disputed are listed below and shaded on the plot.")
                                 .arg(labelled)
                                 .arg(vectors.size()));
      emit self->entropyLayerReady(vectors, entropies);
      emit self->suggestionsShown();
    };
  });
}

int SteeringPanel::suggestionCount() const { return int(suggested_.size()); }

void SteeringPanel::useSuggestion(int row) {
  if (row < 0 || row >= suggested_.size()) return;
  emit targetSuggested(suggested_[row].target, suggested_[row].origin);
}

int SteeringPanel::generationsShown() const { return int(best_->count()); }
int SteeringPanel::lineageSteps() const { return int(steps_.size()); }
QString SteeringPanel::statusText() const { return status_->text(); }

} // namespace steerbench::ui

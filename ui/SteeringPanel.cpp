#include "SteeringPanel.h"

#include "EngineBridge.h"
#include "EngineState.h"

#include "common/Paths.h"
#include "explore/Explorer.h"
#include "steer/BeamSearch.h"
#include "steer/Lineage.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
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

SteeringPanel::Settings::Settings() {
  const steer::SteerSpec d;
  width = d.width;
  candidates = d.candidatesPerMember;
  depth = d.depth;
  holeMin = d.holeMin;
  holeMax = d.holeMax;
  maxNewTokens = d.maxNewTokens;
  seed = int(d.seed);
  patience = d.patience;
  combine = d.combine;
  maxPerVector = d.maxPerVector;
  reseedAfter = d.reseedAfter;
  temperature = d.temperature;
  swap = d.swapProbability;
  endHoleBias = d.endHoleBias;
  guideLogits = d.guideLogits;
  timeBudget = d.timeBudget;
  guard = d.guard;
  check = d.check;
}

SteeringPanel::SteeringPanel(EngineBridge* engine, QWidget* parent) : QWidget(parent), engine_(engine) {
  targetLabel_ = new QLabel(tr("No target: click empty space on the plot, or use a kernel's features."), this);
  targetLabel_->setWordWrap(true);

  auto spin = [this](int lo, int hi, int value, const QString& tip) {
    auto* s = new QSpinBox(this);
    s->setRange(lo, hi);
    s->setValue(value);
    s->setToolTip(tip);
    return s;
  };
  auto dspin = [this](double lo, double hi, double value, double step, int decimals, const QString& tip) {
    auto* s = new QDoubleSpinBox(this);
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setSingleStep(step);
    s->setValue(value);
    s->setToolTip(tip);
    return s;
  };
  const Settings d;
  width_ = spin(1, 1024, d.width, tr("Beam members kept per generation"));
  candidates_ = spin(1, 1024, d.candidates, tr("Infills per beam member and generation"));
  depth_ = spin(1, 100000, d.depth, tr("Generations after the seeds"));
  holeMin_ = spin(0, 256, d.holeMin, tr("Fewest tokens a hole replaces"));
  holeMax_ = spin(0, 256, d.holeMax, tr("Most tokens a hole replaces"));
  seed_ = spin(0, 1000000000, d.seed, tr("Random seed: the same seed and target give the same run"));
  temperature_ = dspin(0, 5, d.temperature, 0.1, 2, tr("Sampling temperature"));
  swap_ = dspin(0, 1, d.swap, 0.05, 2, tr("Probability that a kept slot is swapped for a lower-ranked candidate"));
  timeBudget_ = dspin(0, 1e6, d.timeBudget, 60, 0, tr("Stop after this many seconds (0: no limit)"));
  timeBudget_->setSuffix(tr(" s"));
  patience_ = spin(0, 100000, d.patience,
                   tr("Stop after this many generations without a better best of the run (0: never)"));
  combine_ = spin(0, 1024, d.combine,
                  tr("Each generation, also try up to this many pairs of one member's infills applied together, "
                     "where their summed feature changes predict a nearer kernel (0: none)"));
  maxPerVector_ = spin(0, 4096, d.maxPerVector,
                       tr("At most this many beam members share one feature vector, so the beam keeps other "
                          "directions besides rewordings of the best (0: no cap)"));
  reseedAfter_ = spin(0, 100000, d.reseedAfter,
                      tr("After this many generations without a better best in the beam, the beam starts again from "
                         "the seeds with new random draws; the run keeps its best (0: never)"));
  seeding_ = new QComboBox(this);
  seeding_->addItem(tr("Nearest corpus kernels"));
  seeding_->addItem(tr("Empty kernel"));
  seeding_->setToolTip(tr("Where generation 0 starts. \"Steer from here\" in the editor starts from its kernel."));
  guard_ = new QCheckBox(tr("Grammar guard"), this);
  guard_->setChecked(d.guard);
  guard_->setToolTip(tr("Never sample a mismatched bracket, close a hole that leaves brackets open, or use a name "
                        "that is never declared"));
  check_ = new QCheckBox(tr("Compiler checks"), this);
  check_->setChecked(d.check);
  check_->setToolTip(tr("Compile each statement an infill writes as it ends, and sample it again if it has an error"));
  auto* infills = new QHBoxLayout;
  infills->addWidget(guard_);
  infills->addWidget(check_);
  infills->addStretch(1);

  // Two label-field pairs per row: the chart and the lineage get the height.
  auto* form = new QGridLayout;
  auto* holes = new QHBoxLayout;
  holes->addWidget(holeMin_);
  holes->addWidget(new QLabel(QStringLiteral("–"), this));
  holes->addWidget(holeMax_);
  int cell = 0;
  auto add = [&](const QString& label, QWidget* field, QLayout* fields = nullptr) {
    const int row = cell / 2, col = (cell % 2) * 2;
    form->addWidget(new QLabel(label, this), row, col);
    if (field) form->addWidget(field, row, col + 1);
    else form->addLayout(fields, row, col + 1);
    ++cell;
  };
  add(tr("Beam width:"), width_);
  add(tr("Candidates per member:"), candidates_);
  add(tr("Depth:"), depth_);
  add(tr("Hole length (tokens):"), nullptr, holes);
  add(tr("Temperature:"), temperature_);
  add(tr("Swap probability:"), swap_);
  add(tr("Time budget:"), timeBudget_);
  add(tr("Patience:"), patience_);
  add(tr("Random seed:"), seed_);
  add(tr("Seeds:"), seeding_);
  add(tr("Infills:"), nullptr, infills);
  add(tr("Combined pairs:"), combine_);
  add(tr("Members per vector:"), maxPerVector_);
  add(tr("Reseed after:"), reseedAfter_);
  form->setColumnStretch(1, 1);
  form->setColumnStretch(3, 1);

  steer_ = new QPushButton(tr("Steer"), this);
  steer_->setToolTip(tr("Start a beam search toward the target"));
  stop_ = new QPushButton(tr("Stop"), this);
  stop_->setToolTip(tr("Stop the run; every complete generation is kept"));
  connect(steer_, &QPushButton::clicked, this, [this] { steer(); });
  connect(stop_, &QPushButton::clicked, this, &SteeringPanel::stop);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(steer_);
  buttons->addWidget(stop_);
  buttons->addStretch();
  status_ = new QLabel(this);
  status_->setWordWrap(true);

  auto* chart = new QChart;
  chart->setTitle(tr("Distance to the target per generation"));
  best_ = new QLineSeries;
  best_->setName(tr("Best"));
  median_ = new QLineSeries;
  median_->setName(tr("Beam median"));
  chart->addSeries(best_);
  chart->addSeries(median_);
  axisX_ = new QValueAxis;
  axisX_->setTitleText(tr("Generation"));
  axisX_->setLabelFormat(QStringLiteral("%d"));
  axisY_ = new QValueAxis;
  axisY_->setTitleText(tr("Distance"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  for (auto* s : {best_, median_}) {
    s->attachAxis(axisX_);
    s->attachAxis(axisY_);
  }
  chartView_ = new QChartView(chart, this);
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumHeight(200);
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->setMargins(QMargins(4, 4, 4, 4));

  lineage_ = new QListWidget(this);
  lineage_->setToolTip(tr("From the seed to the best candidate; click a step to see its kernel"));
  connect(lineage_, &QListWidget::currentRowChanged, this, &SteeringPanel::showStep);

  suggest_ = new QPushButton(tr("Suggest targets"), this);
  suggest_->setToolTip(tr("Active learning: train a committee (MLPs, k-NN, K-means) on the workspace's labelled "
                          "drive cases and list the points where it disagrees most; the plot shades every point "
                          "scored by the disagreement"));
  connect(suggest_, &QPushButton::clicked, this, [this] { suggestTargets(); });
  buttons->insertWidget(2, suggest_);
  suggestions_ = new QListWidget(this);
  suggestions_->setToolTip(tr("Click a suggestion to make it the target"));
  connect(suggestions_, &QListWidget::itemClicked, this,
          [this](QListWidgetItem* item) { useSuggestion(suggestions_->row(item)); });

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(chartView_);
  split->addWidget(lineage_);
  split->addWidget(suggestions_);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(targetLabel_);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(status_);
  layout->addWidget(split, 1);
  // The job may end without its continuation: cancelled before it started, or
  // failed outside the search (a bad checkpoint). The panel must not stay busy.
  connect(engine_, &EngineBridge::jobFinished, this, [this](int id, bool cancelled, const QString& error) {
    if (!job_ || id != job_) return;
    job_ = 0;
    updateButtons();
    if (!error.isEmpty()) status_->setText(tr("Steering failed: %1").arg(error));
    else if (cancelled) status_->setText(tr("Stopped."));
  });
  updateButtons();
}

void SteeringPanel::setWorkspace(const QString& workspacePath) {
  if (job_) stop();
  workspace_ = workspacePath;
  updateButtons();
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
    targetLabel_->setText(tr("Target (%1): %2\n%3").arg(space, origin, v.join(QStringLiteral(", "))));
  }
  updateButtons();
}

void SteeringPanel::setSettings(const Settings& s) {
  width_->setValue(s.width);
  candidates_->setValue(s.candidates);
  depth_->setValue(s.depth);
  holeMin_->setValue(s.holeMin);
  holeMax_->setValue(s.holeMax);
  seed_->setValue(s.seed);
  temperature_->setValue(s.temperature);
  swap_->setValue(s.swap);
  timeBudget_->setValue(s.timeBudget);
  patience_->setValue(s.patience);
  combine_->setValue(s.combine);
  maxPerVector_->setValue(s.maxPerVector);
  reseedAfter_->setValue(s.reseedAfter);
  seeding_->setCurrentIndex(s.seeding);
  guard_->setChecked(s.guard);
  check_->setChecked(s.check);
  maxNewTokens_ = s.maxNewTokens;
  endHoleBias_ = s.endHoleBias;
  guideLogits_ = s.guideLogits;
}

SteeringPanel::Settings SteeringPanel::settings() const {
  Settings s;
  s.width = width_->value();
  s.candidates = candidates_->value();
  s.depth = depth_->value();
  s.holeMin = holeMin_->value();
  s.holeMax = std::max(holeMin_->value(), holeMax_->value());
  s.seed = seed_->value();
  s.temperature = temperature_->value();
  s.swap = swap_->value();
  s.timeBudget = timeBudget_->value();
  s.patience = patience_->value();
  s.combine = combine_->value();
  s.maxPerVector = maxPerVector_->value();
  s.reseedAfter = reseedAfter_->value();
  s.seeding = seeding_->currentIndex();
  s.guard = guard_->isChecked();
  s.check = check_->isChecked();
  s.maxNewTokens = maxNewTokens_;
  s.endHoleBias = endHoleBias_;
  s.guideLogits = guideLogits_;
  return s;
}

void SteeringPanel::updateButtons() {
  steer_->setEnabled(!job_ && target_.has_value() && !workspace_.isEmpty());
  stop_->setEnabled(job_ != 0);
}

void SteeringPanel::steer(const QString& seedText, const QString& seedName) {
  if (job_) {
    status_->setText(tr("A run is steering; stop it first."));
    return;
  }
  if (!target_ || workspace_.isEmpty()) {
    status_->setText(tr("Set a target first: click empty space on the plot."));
    return;
  }
  const QString ckpt = QString::fromStdString(modelForWorkspace(workspace_.toStdString()));
  if (ckpt.isEmpty()) {
    status_->setText(tr("No model: train one in the Training panel, or install the default model."));
    return;
  }
  const auto st = settings();
  steer::SteerSpec spec;
  spec.target = {space_.toStdString(), *target_, origin_.toStdString()};
  spec.width = st.width;
  spec.candidatesPerMember = st.candidates;
  spec.depth = st.depth;
  spec.holeMin = st.holeMin;
  spec.holeMax = st.holeMax;
  spec.maxNewTokens = st.maxNewTokens;
  spec.endHoleBias = st.endHoleBias;
  spec.guideLogits = st.guideLogits;
  spec.guard = st.guard;
  spec.check = st.check;
  spec.temperature = st.temperature;
  spec.swapProbability = st.swap;
  spec.timeBudget = st.timeBudget;
  spec.patience = st.patience;
  spec.combine = st.combine;
  spec.maxPerVector = st.maxPerVector;
  spec.reseedAfter = st.reseedAfter;
  spec.seed = std::uint64_t(st.seed);
  spec.seeding = st.seeding == 1 ? steer::Seeding::Empty : steer::Seeding::Nearest;
  if (!seedText.isEmpty()) {
    spec.seeding = steer::Seeding::Given;
    spec.seeds = {{seedName.isEmpty() ? std::string("editor") : seedName.toStdString(), seedText.toStdString()}};
  }
  best_->clear();
  median_->clear();
  lineage_->clear();
  steps_.clear();
  axisX_->setRange(0, 1);
  axisY_->setRange(0, 1);
  status_->setText(tr("Steering..."));
  emit runStarted();
  const int token = ++runToken_;
  const std::string path = ckpt.toStdString();
  QPointer<SteeringPanel> self(this);
  job_ = engine_->startJob(tr("Steering"), [self, spec, path, token](EngineState& s, JobFeedback& f)
                                               -> EngineBridge::Continuation {
    if (!s.sampler || s.samplerCheckpoint != path) {
      s.sampler = std::make_unique<model::Sampler>(path, 0);
      s.samplerCheckpoint = path;
    }
    steer::BeamSearch search(s.ws(), *s.sampler);
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
      r = search.run(spec, &f.cancel());
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
  if (g.bestDistance >= 0) {
    best_->append(g.generation, g.bestDistance);
    median_->append(g.generation, g.medianDistance);
    double top = 1;
    for (const auto& p : median_->points())
      top = std::max(top, p.y());
    axisX_->setRange(0, std::max(1, g.generation));
    axisX_->setTickCount(std::min(6, std::max(1, g.generation) + 1));
    axisY_->setRange(0, top * 1.05);
  }
  status_->setText(tr("Generation %1: best distance %2 (proximity %3%), %4 of %5 candidates compile, %6 candidates/s, "
                      "%7 s")
                       .arg(g.generation)
                       .arg(distanceText(g.bestDistance))
                       .arg(std::isfinite(g.bestProximity) ? g.bestProximity * 100 : 0.0, 0, 'f', 1)
                       .arg(g.compiled)
                       .arg(g.candidates)
                       .arg(g.candidatesPerSecond, 0, 'f', 1)
                       .arg(g.elapsed, 0, 'f', 0));
  std::vector<std::vector<double>> vectors;
  for (const auto& p : g.points)
    vectors.push_back(p.values);
  emit candidatesArrived(g.generation, vectors);
  // The lineage of the current best.
  steps_.clear();
  lineage_->blockSignals(true);
  lineage_->clear();
  std::vector<std::vector<double>> path;
  QString parentText;
  for (const auto& s : lineage) {
    const QString text = QString::fromStdString(s.text);
    Step step;
    step.text = text;
    if (s.parent) {
      const auto [start, length] = changedSpan(parentText, text);
      step.start = start;
      step.length = length;
      step.title = tr("Generation %1, candidate %2").arg(s.generation).arg(s.id);
      lineage_->addItem(tr("gen %1  #%2  d=%3   − %4   + %5")
                            .arg(s.generation)
                            .arg(s.id)
                            .arg(distanceText(s.distance))
                            .arg(s.replaced.empty() ? tr("(nothing)") : QString::fromStdString(s.replaced))
                            .arg(s.infill.empty() ? tr("(nothing)") : QString::fromStdString(s.infill)));
    } else {
      step.title = tr("Seed: %1").arg(QString::fromStdString(s.origin));
      lineage_->addItem(tr("gen %1  #%2  d=%3   seed: %4")
                            .arg(s.generation)
                            .arg(s.id)
                            .arg(distanceText(s.distance))
                            .arg(QString::fromStdString(s.origin)));
    }
    steps_.push_back(step);
    parentText = text;
    path.push_back(s.values);
  }
  lineage_->blockSignals(false);
  emit pathChanged(path);
}

void SteeringPanel::finished(const steer::SteerResult& r, const QString& error) {
  job_ = 0;
  updateButtons();
  if (!error.isEmpty()) {
    status_->setText(tr("Steering failed: %1").arg(error));
    emit runFinished(0);
    return;
  }
  if (r.bestId == 0) {
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
  const auto& s = steps_[row];
  emit showKernel(s.title, s.text, s.start, s.length);
}

void SteeringPanel::suggestTargets(int points) {
  if (workspace_.isEmpty()) return;
  const int seed = seed_->value();
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

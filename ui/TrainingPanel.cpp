#include "TrainingPanel.h"

#include "EngineBridge.h"
#include "EngineState.h"

#include "common/Paths.h"
#include "model/InfillModelInfo.h"
#include "model/Trainer.h"
#include "model/TrainingSession.h"

#include "common/Error.h"

#include <QChart>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QEventLoop>
#include <QTimer>
#include <QChartView>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>
#include <filesystem>
#include <cstdlib>
#include <vector>

namespace steerbench::ui {
namespace {

QString duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("?");
  const long s = long(seconds);
  if (s >= 3600) return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s / 60) % 60, 2, 10, QLatin1Char('0'));
  return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QSpinBox* spin(int lo, int hi, int value, QWidget* parent) {
  auto* s = new QSpinBox(parent);
  s->setRange(lo, hi);
  s->setValue(value);
  return s;
}

} // namespace

TrainingPanel::TrainingPanel(EngineBridge* engine, QWidget* parent) : QWidget(parent), engine_(engine) {
  auto* layout = new QVBoxLayout(this);

  model_ = new QLabel(this);
  model_->setWordWrap(true);
  model_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(model_);

  auto* form = new QFormLayout;
  auto* runRow = new QHBoxLayout;
  steps_ = spin(1, 10000000, 4000, this);
  batch_ = spin(1, 4096, 16, this);
  seed_ = spin(0, 1 << 30, 1, this);
  runRow->addWidget(new QLabel(tr("Steps"), this));
  runRow->addWidget(steps_);
  runRow->addWidget(new QLabel(tr("Batch"), this));
  runRow->addWidget(batch_);
  runRow->addWidget(new QLabel(tr("Seed"), this));
  runRow->addWidget(seed_);
  form->addRow(tr("Run"), runRow);
  shape_ = new QWidget(this);
  auto* shapeRow = new QHBoxLayout(shape_);
  shapeRow->setContentsMargins(0, 0, 0, 0);
  arch_ = new QComboBox(shape_);
  arch_->addItem(tr("Encoder"));
  arch_->addItem(tr("Decoder"));
  arch_->setToolTip(tr("Encoder: reads a hole both ways, run again for every token it writes. Decoder: reads the "
                       "kernel before and after the hole, then writes the hole left to right with a key/value cache, "
                       "one step a token."));
  shapeRow->addWidget(arch_);
  layers_ = spin(1, 48, 3, shape_);
  hidden_ = spin(8, 4096, 192, shape_);
  heads_ = spin(1, 64, 4, shape_);
  ffn_ = spin(8, 16384, 768, shape_);
  hidden_->setSingleStep(32);
  ffn_->setSingleStep(128);
  for (auto [label, box] : {std::pair{tr("Layers"), layers_}, std::pair{tr("Hidden"), hidden_},
                            std::pair{tr("Heads"), heads_}, std::pair{tr("FFN"), ffn_}}) {
    shapeRow->addWidget(new QLabel(label, shape_));
    shapeRow->addWidget(box);
  }
  shape_->setToolTip(tr("The shape of a new model. A model in training keeps its shape: delete its checkpoint to "
                        "start another."));
  form->addRow(tr("Model"), shape_);
  layout->addLayout(form);

  auto* buttons = new QHBoxLayout;
  startButton_ = new QPushButton(tr("Start training"), this);
  pauseButton_ = new QPushButton(tr("Pause"), this);
  pauseButton_->setToolTip(tr("Stops at the end of the current step and writes the checkpoint; Resume goes on from it."));
  connect(startButton_, &QPushButton::clicked, this, &TrainingPanel::start);
  connect(pauseButton_, &QPushButton::clicked, this, &TrainingPanel::pause);
  buttons->addWidget(startButton_);
  buttons->addWidget(pauseButton_);
  buttons->addStretch();
  layout->addLayout(buttons);

  status_ = new QLabel(tr("No training in progress."), this);
  status_->setWordWrap(true);
  layout->addWidget(status_);

  chart_ = new QChart;
  chart_->setTitle(tr("Loss"));
  chart_->legend()->setAlignment(Qt::AlignBottom);
  loss_ = new QLineSeries(chart_);
  loss_->setName(tr("training loss (per step)"));
  validation_ = new QLineSeries(chart_);
  validation_->setName(tr("validation loss (held-out kernels, one hole)"));
  validationDots_ = new QScatterSeries(chart_);
  validationDots_->setMarkerSize(6);
  chart_->addSeries(loss_);
  chart_->addSeries(validation_);
  chart_->addSeries(validationDots_);
  QPen thin = loss_->pen();
  thin.setWidthF(1.0);
  loss_->setPen(thin);
  QPen bold = validation_->pen();
  bold.setWidthF(2.5);
  validation_->setPen(bold);
  validationDots_->setColor(validation_->color());
  validationDots_->setBorderColor(validation_->color());
  xAxis_ = new QValueAxis(chart_);
  yAxis_ = new QValueAxis(chart_);
  xAxis_->setTitleText(tr("step"));
  yAxis_->setTitleText(tr("cross-entropy (nats)"));
  xAxis_->setLabelFormat(QStringLiteral("%d"));
  chart_->addAxis(xAxis_, Qt::AlignBottom);
  chart_->addAxis(yAxis_, Qt::AlignLeft);
  for (auto* s : std::initializer_list<QXYSeries*>{loss_, validation_, validationDots_}) {
    s->attachAxis(xAxis_);
    s->attachAxis(yAxis_);
  }
  chart_->legend()->markers(validationDots_).front()->setVisible(false);
  view_ = new QChartView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(220);
  layout->addWidget(view_, 1);

  recipe_ = new QPlainTextEdit(this);
  recipe_->setReadOnly(true);
  recipe_->setMaximumHeight(90);
  recipe_->setPlaceholderText(tr("The recipe of the model: the command, corpus and seed that made it."));
  layout->addWidget(recipe_);

  // More steps let a finished model train on (its schedule then spans the new total).
  connect(steps_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int v) {
    if (!running_) {
      totalSteps_ = v;
      updateButtons();
    }
  });
  connect(engine_, &EngineBridge::jobFinished, this, &TrainingPanel::onJobFinished);
  // A failure to prepare re-enables Start (the bridge shows the message).
  connect(engine_, &EngineBridge::failed, this, [this](const QString& what, const QString&) {
    if (preparing_ && what == tr("Cannot start training")) {
      preparing_ = false;
      status_->setText(tr("Training could not start."));
      updateButtons();
    }
  });
  clearCurves();
  updateButtons();
}

QString TrainingPanel::checkpoint() const {
  return workspace_.isEmpty() ? QString() : QString::fromStdString(workspaceModelPath(workspace_.toStdString()));
}

void TrainingPanel::setSettings(const Settings& s) {
  steps_->setValue(s.steps);
  batch_->setValue(s.batch);
  seed_->setValue(s.seed);
  arch_->setCurrentIndex(s.decoder ? 1 : 0);
  layers_->setValue(s.layers);
  hidden_->setValue(s.hidden);
  heads_->setValue(s.heads);
  ffn_->setValue(s.ffn);
  hidden_settings_ = s;
}

TrainingPanel::Settings TrainingPanel::settings() const {
  Settings s = hidden_settings_;
  s.steps = steps_->value();
  s.batch = batch_->value();
  s.seed = seed_->value();
  s.decoder = arch_->currentIndex() == 1;
  s.layers = layers_->value();
  s.hidden = hidden_->value();
  s.heads = heads_->value();
  s.ffn = ffn_->value();
  return s;
}

int TrainingPanel::lossPoints() const { return int(loss_->count()); }
int TrainingPanel::validationPoints() const { return int(validation_->count()); }
QString TrainingPanel::statusText() const { return status_->text(); }
QString TrainingPanel::modelText() const { return model_->text() + QLatin1Char('\n') + recipe_->toPlainText(); }

void TrainingPanel::setWorkspace(const QString& workspacePath) {
  if (running_ && workspacePath == workspace_) return; // the live curve stays
  if (running_) {
    // The run belongs to the old workspace, which is no longer open (MainWindow
    // pauses training before it switches, so this is a fallback): pause it; the
    // checkpoint is written, and steps not yet stored there are lost.
    engine_->cancelJob(job_);
    running_ = false;
    job_ = 0;
    ++generation_; // its queued progress and end belong to the old workspace
  }
  workspace_ = workspacePath;
  status_->setText(tr("No training in progress."));
  clearCurves();
  loadHistory();
  showModelInfo();
  updateButtons();
}

void TrainingPanel::clearCurves() {
  loss_->clear();
  validation_->clear();
  validationDots_->clear();
  yMax_ = 0;
  yMin_ = 1e30;
  lastStep_ = 0;
  xAxis_->setRange(0, std::max<double>(10, double(totalSteps_)));
  yAxis_->setRange(0, 1);
}

void TrainingPanel::addPoint(std::int64_t step, double loss, double validation) {
  loss_->append(double(step), loss);
  yMax_ = std::max(yMax_, loss);
  yMin_ = std::min(yMin_, loss);
  if (validation >= 0) {
    validation_->append(double(step), validation);
    validationDots_->append(double(step), validation);
    yMax_ = std::max(yMax_, validation);
    yMin_ = std::min(yMin_, validation);
  }
  lastStep_ = step;
  xAxis_->setRange(0, std::max<double>({10.0, double(totalSteps_), double(step)}));
  yAxis_->setRange(std::max(0.0, std::floor(yMin_ * 0.9)), std::ceil(yMax_ * 1.05));
}

void TrainingPanel::loadHistory() {
  if (workspace_.isEmpty()) return;
  const std::string ckpt = checkpoint().toStdString();
  struct Row {
    std::int64_t step;
    double loss, validation;
  };
  engine_->post(QStringLiteral("training history"), [this, ckpt](EngineState& s) -> EngineBridge::Continuation {
    const auto run = s.ws().trainingRunFor(ckpt);
    if (!run)
      return [this] {
        if (running_) return;
        totalSteps_ = 0;
        clearCurves();
        status_->setText(tr("This workspace has no training run yet."));
        updateButtons();
      };
    std::vector<Row> rows;
    for (const auto& r : s.ws().rows("SELECT step, loss, coalesce(validation_loss, -1) FROM training_steps WHERE run_id = " +
                                     std::to_string(run) + " ORDER BY step"))
      rows.push_back({std::atoll(r[0].c_str()), std::atof(r[1].c_str()), std::atof(r[2].c_str())});
    std::string spec, status;
    for (const auto& r : s.ws().rows("SELECT spec, status FROM training_runs WHERE id = " + std::to_string(run))) {
      spec = r[0];
      status = r[1];
    }
    return [this, rows = std::move(rows), spec, status] {
      if (running_) return; // the live curve is authoritative
      // The run's own options, as resuming will use them (the same reader).
      Settings st = settings();
      model::TrainOptions base;
      base.steps = st.steps;
      base.batchSize = st.batch;
      base.seed = std::uint64_t(st.seed);
      base.model.arch = st.decoder ? model::ModelConfig::Arch::Decoder : model::ModelConfig::Arch::Encoder;
      base.model.layers = st.layers;
      base.model.hidden = st.hidden;
      base.model.heads = st.heads;
      base.model.ffn = st.ffn;
      const auto o = model::TrainingSession::optionsFromRecipe(spec, base);
      st.batch = o.batchSize;
      st.seed = int(o.seed);
      st.decoder = o.model.decoder();
      st.layers = o.model.layers;
      st.hidden = o.model.hidden;
      st.heads = o.model.heads;
      st.ffn = o.model.ffn;
      st.steps = o.steps;
      setSettings(st);
      totalSteps_ = st.steps;
      clearCurves();
      for (const auto& r : rows)
        addPoint(r.step, r.loss, r.validation);
      if (!rows.empty())
        status_->setText(tr("Step %1 of %2 (%3). %4")
                             .arg(rows.back().step)
                             .arg(totalSteps_)
                             .arg(status == "running" ? tr("interrupted") : QString::fromStdString(status))
                             .arg(rows.back().step < totalSteps_ ? tr("Resume goes on from the checkpoint.")
                                                                 : tr("Training is complete.")));
      updateButtons();
    };
  });
}

void TrainingPanel::showModelInfo() {
  if (workspace_.isEmpty()) {
    model_->setText(tr("No workspace is open."));
    return;
  }
  const std::string ws = workspace_.toStdString();
  engine_->post(QStringLiteral("training model info"), [this, ws](EngineState&) -> EngineBridge::Continuation {
    const std::string own = workspaceModelPath(ws);
    const std::string used = modelForWorkspace(ws);
    if (used.empty())
      return [this, own] {
        model_->setText(tr("This workspace has no model yet, and no default model is installed. Start training "
                           "to make %1.")
                            .arg(QString::fromStdString(own)));
        recipe_->clear();
      };
    const auto s = model::summarizeCheckpoint(used);
    const bool isOwn = used == own;
    return [this, s, used, isOwn] {
      model_->setText(
          (isOwn ? tr("<b>Model of this workspace</b>: %1") : tr("<b>Default model</b> (this workspace has none of its own yet): %1"))
              .arg(QString::fromStdString(used)) +
          QStringLiteral("<br>") +
          tr("%1; %2 parameters; step %3; sha256 %4")
              .arg(QString::fromStdString(s.config))
              .arg(s.parameters)
              .arg(s.step)
              .arg(QString::fromStdString(s.fileSha256.substr(0, 16))));
      recipe_->setPlainText(tr("Recipe: %1\nCorpus sha256: %2\nTokenizer sha256: %3")
                                .arg(QString::fromStdString(s.recipe), QString::fromStdString(s.corpusHash),
                                     QString::fromStdString(s.tokenizerHash)));
    };
  });
}

void TrainingPanel::updateButtons() {
  const bool haveCheckpoint = !workspace_.isEmpty() && QFileInfo::exists(checkpoint());
  const bool complete = haveCheckpoint && lastStep_ >= totalSteps_ && totalSteps_ > 0;
  startButton_->setText(haveCheckpoint ? tr("Resume training") : tr("Start training"));
  startButton_->setEnabled(!workspace_.isEmpty() && !running_ && !preparing_ && !complete);
  pauseButton_->setEnabled(running_);
  shape_->setEnabled(!haveCheckpoint && !running_);
  steps_->setEnabled(!running_);
  batch_->setEnabled(!haveCheckpoint && !running_);
  seed_->setEnabled(!haveCheckpoint && !running_);
}

void TrainingPanel::start() {
  if (workspace_.isEmpty() || running_ || preparing_) return;
  const Settings st = settings();
  model::TrainOptions o;
  o.steps = st.steps;
  o.batchSize = st.batch;
  o.seed = std::uint64_t(st.seed);
  o.model.arch = st.decoder ? model::ModelConfig::Arch::Decoder : model::ModelConfig::Arch::Encoder;
  o.model.layers = st.layers;
  o.model.hidden = st.hidden;
  o.model.heads = st.heads;
  o.model.ffn = st.ffn;
  o.model.maxLength = st.maxLength;
  o.data.minHoles = 1;
  o.data.maxHoles = 8;
  o.data.maskProbability = 0.1;
  o.data.continuationProbability = 0.3;
  o.validateEvery = st.validateEvery;
  o.checkpointEvery = st.checkpointEvery;
  o.threads = st.threads;
  o.checkpoint = checkpoint().toStdString();
  totalSteps_ = st.steps;
  preparing_ = true;
  updateButtons();
  status_->setText(tr("Preparing: reading the corpus and building the tokenizer..."));
  const QString ws = workspace_;
  engine_->post(tr("Cannot start training"), [this, o, ws](EngineState& s) -> EngineBridge::Continuation {
    if (s.ws().path() != ws.toStdString())
      throw InputError("the workspace changed before training could start; press Start again");
    // A checkpoint goes on with the options it was trained with (objective,
    // batch, seed, schedule), whoever started it; only the step count is the panel's.
    model::TrainOptions options = o;
    std::error_code ec;
    if (std::filesystem::exists(o.checkpoint, ec)) {
      options = model::TrainingSession::optionsFromRecipe(model::checkpointRecipe(o.checkpoint), o);
      options.steps = o.steps;
      options.checkpoint = o.checkpoint;
    }
    auto training = std::make_shared<const model::TrainingSession>(s.ws(), options, 4000u);
    return [this, training, ws] {
      preparing_ = false;
      if (ws != workspace_) { // the workspace changed meanwhile
        updateButtons();
        return;
      }
      launch(training);
    };
  });
}

void TrainingPanel::launch(std::shared_ptr<const model::TrainingSession> training) {
  run_ = training;
  running_ = true;
  pausing_ = false;
  recordFailed_ = false;
  runWorkspace_ = workspace_;
  const int generation = ++generation_;
  if (!training->resuming()) clearCurves();
  status_->setText(training->resuming() ? tr("Resuming from the checkpoint...") : tr("Training a new model..."));
  QPointer<TrainingPanel> self(this);
  EngineBridge* bridge = engine_;
  const std::string ws = runWorkspace_.toStdString();
  job_ = engine_->startBackgroundJob(
      tr("Training"), [self, bridge, training, generation, ws](JobFeedback& f) -> EngineBridge::Continuation {
        QString error;
        bool cancelled = false;
        std::int64_t step = 0;
        try {
          (void)model::useThreads(training->options().threads);
          const auto result = training->train(
              [&](const model::TrainProgress& p) {
                f.progress(p.steps > 0 ? double(p.step) / double(p.steps) : 0.0, "step " + std::to_string(p.step));
                // Each step is stored by the engine, the workspace's writer.
                f.onEngine([self, training, p, ws, generation](EngineState& s) -> EngineBridge::Continuation {
                  if (!s.workspace || s.workspace->path() != ws) return {};
                  try {
                    training->record(*s.workspace, p);
                  } catch (const std::exception& e) {
                    return [self, generation, message = QString::fromStdString(e.what())] {
                      if (self) self->recordFailed(generation, message);
                    };
                  }
                  return {};
                });
                QMetaObject::invokeMethod(
                    bridge, [self, generation, p] { if (self) self->onProgress(generation, p); }, Qt::QueuedConnection);
              },
              &f.cancel());
          cancelled = result.cancelled;
          step = result.step;
        } catch (const std::exception& e) {
          error = QString::fromStdString(e.what());
        }
        model::TrainResult result;
        result.cancelled = cancelled || !error.isEmpty();
        f.onEngine([training, result, ws](EngineState& s) -> EngineBridge::Continuation {
          if (s.workspace && s.workspace->path() == ws) training->finish(*s.workspace, result);
          return {};
        });
        return [self, generation, cancelled, error, step] {
          if (self) self->onEnded(generation, cancelled, error, step);
        };
      });
  updateButtons();
}

void TrainingPanel::stopAndFlush() {
  if (!running_) return;
  QEventLoop loop;
  connect(this, &TrainingPanel::trainingEnded, &loop, &QEventLoop::quit);
  QTimer::singleShot(120000, &loop, &QEventLoop::quit); // a step and a checkpoint take seconds
  pause();
  if (running_) loop.exec();
  // Then the engine stores the steps and the run's end.
  QElapsedTimer waited;
  waited.start();
  while (!engine_->idle() && waited.elapsed() < 30000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
}

void TrainingPanel::pause() {
  if (!running_ || !job_) return;
  engine_->cancelJob(job_);
  pausing_ = true;
  pauseButton_->setEnabled(false);
  status_->setText(tr("Pausing at the end of this step..."));
}

void TrainingPanel::recordFailed(int generation, const QString& message) {
  // Progress that cannot be stored (a full disk, ...) pauses training once, with the reason.
  if (generation != generation_ || recordFailed_) return;
  recordFailed_ = true;
  pause();
  status_->setText(tr("Training paused: its progress cannot be stored (%1). Free some space and Resume.").arg(message));
}

void TrainingPanel::onJobFinished(int id, bool, const QString& error) {
  if (id != job_) return;
  job_ = 0;
  if (!running_) return; // onEnded ran
  // The job never reached its own end: cancelled before it began, or failed around it.
  running_ = false;
  status_->setText(error.isEmpty() ? tr("Training did not start.") : tr("Training stopped at an error: %1").arg(error));
  updateButtons();
  emit trainingEnded(true, error);
}

void TrainingPanel::onProgress(int generation, const model::TrainProgress& p) {
  if (!running_ || generation != generation_) return;
  totalSteps_ = p.steps;
  addPoint(p.step, p.loss, p.validationLoss);
  if (!pausing_)
    status_->setText(tr("Step %1 of %2: loss %3%4. %5 tokens/s, %6 labels/s. Elapsed %7, ETA %8.")
                         .arg(p.step)
                         .arg(p.steps)
                         .arg(p.loss, 0, 'f', 3)
                         .arg(p.validationLoss >= 0 ? tr(", validation %1").arg(p.validationLoss, 0, 'f', 3) : QString())
                         .arg(p.tokensPerSecond, 0, 'f', 0)
                         .arg(p.labelsPerSecond, 0, 'f', 0)
                         .arg(duration(p.elapsedSeconds), duration(p.etaSeconds)));
  emit stepShown(p.step);
}

void TrainingPanel::onEnded(int generation, bool cancelled, const QString& error, std::int64_t step) {
  if (generation != generation_) return; // a run stopped by a workspace switch
  running_ = false;
  pausing_ = false;
  if (!error.isEmpty())
    status_->setText(tr("Training stopped at an error: %1").arg(error));
  else if (cancelled && !recordFailed_) // (when storing failed, the reason is already shown)
    status_->setText(tr("Paused at step %1 of %2; the checkpoint is written. Resume goes on from it.")
                         .arg(step)
                         .arg(totalSteps_));
  else if (!cancelled)
    status_->setText(tr("Training is complete: %1 steps.").arg(step));
  showModelInfo();
  updateButtons();
  emit modelChanged();
  emit trainingEnded(cancelled, error);
}

} // namespace steerbench::ui

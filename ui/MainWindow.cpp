#include "MainWindow.h"

#include "DevicePanel.h"
#include "EditorController.h"
#include "EngineBridge.h"
#include "EvaluationPanel.h"
#include "FeaturesView.h"
#include "JobStatus.h"
#include "KernelEditor.h"
#include "KernelList.h"
#include "MainActions.h"
#include "PlotLegend.h"
#include "SelectionModel.h"
#include "SteeringPanel.h"
#include "TargetController.h"
#include "TargetTable.h"
#include "TrainingPanel.h"
#include "UndoCommands.h"
#include "WorkspaceController.h"

#include "common/Version.h"
#include "drive/host/Platforms.h"
#include "features/FeatureSpace.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QSettings>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

namespace steerbench::ui {
namespace {

bool paletteIsDark(const QPalette& p) { return p.color(QPalette::Window).lightness() < 128; }

QPalette darkPalette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(45, 45, 48));
  p.setColor(QPalette::WindowText, QColor(220, 220, 220));
  p.setColor(QPalette::Base, QColor(30, 30, 34));
  p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
  p.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
  p.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
  p.setColor(QPalette::Text, QColor(220, 220, 220));
  p.setColor(QPalette::Button, QColor(55, 55, 58));
  p.setColor(QPalette::ButtonText, QColor(220, 220, 220));
  p.setColor(QPalette::Highlight, QColor(60, 120, 200));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(120, 170, 255));
  p.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
  p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(120, 120, 120));
  p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
  return p;
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), prefs_(Preferences::load()) {
  setWindowTitle(tr("Steerbench"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/steerbench.svg")));
  bench_.window = this;
  bench_.prefs = &prefs_;
  bench_.showError = [this](const QString& title, const QString& text) { showError(title, text); };
  bench_.engine = new EngineBridge(this);
  bench_.selection = new SelectionModel(this);
  bench_.undo = new QUndoStack(this);
  bench_.plot = new FeaturePlot(this);
  bench_.plot->setOpenGlAllowed(prefs_.openGl);
  bench_.editor = new KernelEditor(this);
  bench_.targets = new TargetTable(bench_.selection, this);
  bench_.list = new KernelList(this);
  bench_.features = new FeaturesView(this);
  bench_.workspaceLabel = new QLabel(tr("No workspace"), this);
  workspaces_ = new WorkspaceController(bench_, this);
  workspaces_->beforeSwitch = [this](const QString&) {
    if (training_->training()) training_->stopAndFlush(); // training belongs to the open workspace
  };
  editorControl_ = new EditorController(bench_, [this] { return workspaces_->path(); }, this);
  targetControl_ = new TargetController(bench_, this);
  buildCentre();
  buildDocks();
  defaultState_ = saveState();
  actions_ = new MainActions(this);

  jobs_ = new JobStatus(bench_.engine, this);
  // Permanent (right-aligned): a temporary message on the left never draws over it.
  statusBar()->addPermanentWidget(bench_.workspaceLabel);
  statusBar()->addPermanentWidget(jobs_);

  try {
    (void)features::featureSpace(prefs_.space.toStdString());
  } catch (const std::exception&) {
    prefs_.space = QStringLiteral("grewe");
  }
  bench_.selection->setSpace(prefs_.space);
  actions_->showSpace(bench_.selection->space());

  connectSelection();
  connectSteering();
  connectViews();

  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  if (!settings.contains(QStringLiteral("window/geometry"))) resize(1400, 990);
  applyTheme();
}

MainWindow::~MainWindow() {
  delete bench_.engine; // stops the engine thread before the views its continuations touch go away
  bench_.engine = nullptr;
}

void MainWindow::buildCentre() {
  // The plot (with its legend) and the editor share the centre, side by side.
  auto* pane = new QWidget(this);
  pane->setObjectName(QStringLiteral("plotPane"));
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  legend_ = new PlotLegend(bench_.plot, pane);
  layout->addWidget(bench_.plot, 1);
  layout->addWidget(legend_);
  centre_ = new QSplitter(Qt::Horizontal, this);
  centre_->setObjectName(QStringLiteral("centreSplitter"));
  centre_->addWidget(pane);
  centre_->addWidget(bench_.editor);
  centre_->setChildrenCollapsible(false);
  centre_->setStretchFactor(0, 3);
  centre_->setStretchFactor(1, 2);
  setCentralWidget(centre_);
}

void MainWindow::buildDocks() {
  setDockNestingEnabled(true);
  // The left column runs the window's full height; the bottom docks sit under the centre.
  setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  auto dock = [this](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    // In a scroll area: a panel taller than its dock scrolls, instead of
    // taking the height the plot and the editor need.
    auto* scroll = new QScrollArea(d);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(w);
    d->setWidget(scroll);
    addDockWidget(area, d);
    return d;
  };
  training_ = new TrainingPanel(bench_.engine, this);
  devices_ = new DevicePanel(bench_.engine, this);
  steering_ = new SteeringPanel(bench_.engine, this);
  evaluation_ = new EvaluationPanel(bench_.engine, this);
  auto* target = dock(bench_.targets, tr("Target"), QStringLiteral("targetDock"), Qt::LeftDockWidgetArea);
  auto* steering = dock(steering_, tr("Steering"), QStringLiteral("steeringDock"), Qt::LeftDockWidgetArea);
  auto* features = dock(bench_.features, tr("Features"), QStringLiteral("featuresDock"), Qt::BottomDockWidgetArea);
  auto* kernels = dock(bench_.list, tr("Kernels"), QStringLiteral("kernelsDock"), Qt::BottomDockWidgetArea);
  auto* training = dock(training_, tr("Training"), QStringLiteral("trainingDock"), Qt::BottomDockWidgetArea);
  auto* devices = dock(devices_, tr("Devices"), QStringLiteral("devicesDock"), Qt::BottomDockWidgetArea);
  auto* evaluation = dock(evaluation_, tr("Evaluation"), QStringLiteral("evaluationDock"), Qt::BottomDockWidgetArea);
  splitDockWidget(target, steering, Qt::Vertical);
  tabifyDockWidget(features, kernels);
  tabifyDockWidget(kernels, training);
  tabifyDockWidget(training, devices);
  tabifyDockWidget(devices, evaluation);
  features->raise();
}

void MainWindow::resetLayout() {
  restoreState(defaultState_);
  for (auto* d : findChildren<QDockWidget*>()) {
    d->setFloating(false);
    d->show();
  }
  findChild<QDockWidget*>(QStringLiteral("featuresDock"))->raise();
  applyDefaultSizes();
  QTimer::singleShot(0, this, &MainWindow::applyDefaultSizes); // again once the docks have their final sizes
}

void MainWindow::applyDefaultSizes() {
  // Sizes for this window: the left column, the bottom docks, and the editor
  // at least a third of the window's width.
  const int w = width(), h = height();
  const int left = std::clamp(w * 29 / 100, 320, 460);
  resizeDocks({findChild<QDockWidget*>(QStringLiteral("targetDock"))}, {left}, Qt::Horizontal);
  resizeDocks({findChild<QDockWidget*>(QStringLiteral("targetDock")), findChild<QDockWidget*>(QStringLiteral("steeringDock"))},
              {h * 30 / 100, h * 70 / 100}, Qt::Vertical);
  resizeDocks({findChild<QDockWidget*>(QStringLiteral("featuresDock"))}, {std::clamp(h * 22 / 100, 160, 300)}, Qt::Vertical);
  const int centre = centre_->width() > 0 ? centre_->width() : std::max(200, w - left);
  const int editor = std::min(centre - 200, w / 3 + 16);
  centre_->setSizes({centre - editor, editor});
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  if (laidOut_) return;
  laidOut_ = true;
  // A saved layout wins; the first run gets the default one.
  QSettings settings;
  const auto state = settings.value(QStringLiteral("window/state")).toByteArray();
  const auto centre = settings.value(QStringLiteral("window/centre")).toByteArray();
  if (!state.isEmpty() && restoreState(state) && !centre.isEmpty() && centre_->restoreState(centre)) return;
  resetLayout();
}

void MainWindow::connectSelection() {
  auto* selection = bench_.selection;
  auto* plot = bench_.plot;
  connect(bench_.engine, &EngineBridge::failed, this, [this](const QString& what, const QString& message) {
    static const QMap<QString, const char*> titles = {
        {QStringLiteral("plot"), QT_TR_NOOP("Cannot load the plot")},
        {QStringLiteral("kernel"), QT_TR_NOOP("Cannot show the kernel")},
        {QStringLiteral("evaluate"), QT_TR_NOOP("Cannot evaluate the kernel")},
        {QStringLiteral("nearest"), QT_TR_NOOP("Cannot list the nearest kernels")},
        {QStringLiteral("click target"), QT_TR_NOOP("Cannot set the target")},
        {QStringLiteral("about"), QT_TR_NOOP("About Steerbench")}};
    showError(titles.contains(what) ? tr(titles.value(what)) : what, message);
  });
  connect(bench_.engine, &EngineBridge::jobFinished, this, [this](int, bool cancelled, const QString&) {
    if (cancelled) statusBar()->showMessage(tr("Cancelled: what was finished is kept."), 8000);
  });
  connect(selection, &SelectionModel::spaceChanged, this, [this, selection, plot](const QString& space) {
    if (selection->target() && selection->target()->space != space)
      bench_.undo->push(new SetTargetCommand(selection, std::nullopt, tr("Change space")));
    actions_->showSpace(space);
    plot->setEvaluated(std::nullopt);
    plot->clearSteering(); // its vectors belong to the other space
    plot->setEntropyLayer({}, {});
    reloadPlot();
  });
  connect(selection, &SelectionModel::currentKernelChanged, this, [this, plot](std::int64_t id) {
    plot->setSelectedKernel(id);
    if (id > 0) editorControl_->showKernel(id);
  });
  connect(selection, &SelectionModel::targetChanged, this, [this, selection, plot] {
    const auto& t = selection->target();
    const bool here = t && t->space == selection->space();
    plot->setTargetVector(here ? std::optional(t->values) : std::nullopt);
    plot->setTargetClick(here ? t->click : std::nullopt);
    steering_->setTarget(t ? t->space : selection->space(), t ? std::optional(t->values) : std::nullopt,
                         t ? t->origin : QString());
  });
}

void MainWindow::connectSteering() {
  // The plot shows each generation's candidates and the path to the best; the
  // editor follows the best (or shows the lineage step clicked).
  auto* plot = bench_.plot;
  connect(steering_, &SteeringPanel::runStarted, this, [this, plot] {
    plot->clearSteering();
    editorControl_->runStarted();
  });
  connect(steering_, &SteeringPanel::samplingStarted, plot,
          [plot] { plot->setSteeringTitle(FeaturePlot::tr("Samples as they arrive")); });
  connect(steering_, &SteeringPanel::candidatesArrived, this,
          [plot](int generation, const std::vector<std::vector<double>>& vectors) {
            if (!vectors.empty() && vectors.front().size() == plot->workspaceTable().dimensions.size())
              plot->addSteeringPoints(generation, vectors);
          });
  connect(steering_, &SteeringPanel::pathChanged, this, [plot](const std::vector<std::vector<double>>& path) {
    if (!path.empty() && path.front().size() == plot->workspaceTable().dimensions.size()) plot->setSteeringPath(path);
  });
  connect(steering_, &SteeringPanel::showKernel, this, [this](const QString& title, const QString& text, int start, int length) {
    editorControl_->showSteered(title, text, start, length, false);
  });
  connect(steering_, &SteeringPanel::bestChanged, this, [this](const QString& title, const QString& text, int start, int length) {
    editorControl_->showSteered(title, text, start, length, true);
  });
  connect(steering_, &SteeringPanel::entropyLayerReady, this,
          [this, plot](const std::vector<std::vector<double>>& vectors, const std::vector<double>& entropies) {
            if (bench_.selection->space() != QLatin1String("grewe")) {
              statusBar()->showMessage(tr("The committee's layer is in the Grewe space: switch to it to see it."),
                                       8000);
              return;
            }
            plot->setEntropyLayer(vectors, entropies);
          });
  connect(steering_, &SteeringPanel::targetSuggested, this, [this](const std::vector<double>& values, const QString& origin) {
    if (bench_.selection->space() != QLatin1String("grewe")) bench_.selection->setSpace(QStringLiteral("grewe"));
    bench_.undo->push(new SetTargetCommand(bench_.selection, Target{QStringLiteral("grewe"), values, origin, {}, {}},
                                           tr("Use a suggested target")));
  });
  connect(steering_, &SteeringPanel::runFinished, this, [this](qint64 bestKernelId) {
    if (bestKernelId > 0) reloadPlot(); // the best candidate is a workspace kernel now
  });
  connect(steering_, &SteeringPanel::samplingFinished, this, [this](int, int compiled) {
    if (compiled > 0) reloadPlot(); // the samples that compile are workspace kernels now
  });
  connect(bench_.plot, &FeaturePlot::gridSamplingRequested, this, [this](const QString& grid) {
    raiseDock(QStringLiteral("steering"));
    steering_->sampleGrid(grid);
  });
  connect(bench_.editor, &KernelEditor::steerRequested, this, [this](const QString& source) {
    raiseDock(QStringLiteral("steering"));
    steering_->steer(source, bench_.editor->title());
  });
}

void MainWindow::connectViews() {
  auto* plot = bench_.plot;
  auto* editor = bench_.editor;
  connect(plot, &FeaturePlot::pointClicked, this, [this, plot](const FeaturePlot::PointRef& p) {
    if (const auto id = plot->kernelId(p)) {
      bench_.selection->setCurrentKernel(id);
    } else if (p.layer == FeaturePlot::Layer::Reference) {
      const auto& ref = plot->referenceTable();
      const auto r = std::size_t(p.row);
      bench_.selection->setCurrentKernel(0);
      bench_.undo->push(new EditorContentCommand(
          bench_.editor, {0, tr("Reference %1 (not in the workspace)").arg(QString::fromStdString(ref.names[r])),
                          r < ref.sources.size() ? QString::fromStdString(ref.sources[r]) : QString()},
          tr("Show reference kernel"), bench_.selection));
      bench_.features->showVectors(QString::fromStdString(ref.names[r]),
                                   {SpaceVector{QString::fromStdString(ref.space), ref.dimensions, ref.rows[r],
                                                tr("from the reference CSV")}});
    }
  });
  connect(plot, &FeaturePlot::emptyClicked, targetControl_, &TargetController::fromClick);
  connect(plot, &FeaturePlot::targetRequested, this, [this, plot](const std::vector<double>& values, const QString& origin) {
    if (!targetControl_->plotCurrent() || values.size() != plot->workspaceTable().dimensions.size()) return;
    bench_.undo->push(new SetTargetCommand(bench_.selection, Target{bench_.selection->space(), values, origin, {}, {}},
                                           tr("Use as target")));
  });
  connect(plot, &FeaturePlot::pointsPicked, this, [this, plot](const QVector<FeaturePlot::PointRef>& points) {
    QVector<KernelList::Entry> entries;
    QVector<std::int64_t> ids;
    for (const auto& p : points) {
      const auto r = std::size_t(p.row);
      if (p.layer == FeaturePlot::Layer::Reference) {
        entries.push_back({0, QString::fromStdString(plot->referenceTable().names[r]), tr("reference"), -1});
      } else {
        const auto& t = plot->workspaceTable();
        entries.push_back({t.ids[r], QString::fromStdString(t.names[r]), QString::fromStdString(t.groups[r]), -1});
        ids.push_back(t.ids[r]);
      }
    }
    bench_.selection->setPicked(ids);
    bench_.list->setEntries(tr("%n kernel(s) inside the rectangle", nullptr, int(entries.size())), entries);
    raiseDock(QStringLiteral("kernels"));
  });
  connect(bench_.list, &KernelList::kernelActivated, bench_.selection, &SelectionModel::setCurrentKernel);
  connect(editor, &KernelEditor::evaluateRequested, editorControl_, &EditorController::evaluate);
  connect(editor, &KernelEditor::saveRequested, editorControl_, &EditorController::save);
  connect(editor, &KernelEditor::fillRequested, editorControl_, &EditorController::fillHoles);
  connect(editorControl_, &EditorController::kernelShown, this, &MainWindow::kernelShown);
  connect(editorControl_, &EditorController::evaluated, this, &MainWindow::evaluated);
  connect(editorControl_, &EditorController::kernelSaved, this, &MainWindow::kernelSaved);
  connect(editorControl_, &EditorController::holesFilled, this, &MainWindow::holesFilled);
  connect(editorControl_, &EditorController::kernelsChanged, this, [this](std::int64_t kernels) {
    bench_.workspaceLabel->setText(tr("Workspace %1: %n kernel(s)", nullptr, int(kernels)).arg(workspaces_->path()));
    reloadPlot();
  });
  connect(workspaces_, &WorkspaceController::opened, this, &MainWindow::workspaceOpened);
  connect(workspaces_, &WorkspaceController::plotReloaded, this, [this] {
    actions_->updateAxisChoices();
    emit plotReloaded();
  });
  connect(workspaces_, &WorkspaceController::jobDone, this, &MainWindow::jobDone);
  connect(this, &MainWindow::workspaceOpened, training_, &TrainingPanel::setWorkspace);
  connect(this, &MainWindow::workspaceOpened, devices_, &DevicePanel::setWorkspace);
  connect(this, &MainWindow::workspaceOpened, steering_, &SteeringPanel::setWorkspace);
  connect(devices_, &DevicePanel::runEditorRequested, this,
          [this] { devices_->driveSource(bench_.editor->title(), bench_.editor->text()); });
  connect(devices_, &DevicePanel::runSelectedRequested, this, [this] {
    auto ids = bench_.selection->picked();
    if (ids.isEmpty() && bench_.selection->currentKernel()) ids = {bench_.selection->currentKernel()};
    devices_->driveKernels(ids);
  });
  connect(bench_.targets, &TargetTable::valueEdited, targetControl_, &TargetController::editValue);
  connect(bench_.targets, &TargetTable::nearestRequested, targetControl_, &TargetController::nearestKernels);
  connect(bench_.targets, &TargetTable::clearRequested, targetControl_, &TargetController::clear);
}

bool MainWindow::raiseDock(const QString& name) {
  auto* d = findChild<QDockWidget*>(name + QStringLiteral("Dock"));
  if (!d) return false;
  d->show();
  d->raise();
  return true;
}

bool MainWindow::busy() const { return bench_.engine && !bench_.engine->idle(); }
QString MainWindow::workspacePath() const { return workspaces_->path(); }
QString MainWindow::checkpointPath() const { return workspaces_->checkpointPath(); }
void MainWindow::openWorkspace(const QString& path, bool create) { workspaces_->open(path, create); }
void MainWindow::openDefaultWorkspace() { workspaces_->openDefault(); }
void MainWindow::importReference(const QString& csvPath) { workspaces_->importReference(csvPath); }
void MainWindow::addKernelFiles(const QStringList& paths) { workspaces_->addKernelFiles(paths); }
void MainWindow::ingestFolder(const QString& folder) { workspaces_->ingestFolder(folder); }
void MainWindow::reloadPlot() { workspaces_->reloadPlot(); }

void MainWindow::setSpace(const QString& space) {
  try {
    (void)features::featureSpace(space.toStdString());
  } catch (const std::exception& e) {
    showError(tr("Unknown feature space"), QString::fromStdString(e.what()));
    return;
  }
  bench_.selection->setSpace(space);
}

void MainWindow::exportPlot() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QDir::homePath() + QStringLiteral("/plot.png"),
                                                    tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (path.isEmpty()) return;
  const QString error = bench_.plot->exportTo(path);
  if (!error.isEmpty())
    showError(tr("Cannot export the plot"), error);
  else
    statusBar()->showMessage(tr("Plot written to %1").arg(path), 8000);
}

void MainWindow::showError(const QString& title, const QString& text) {
  lastError_ = text;
  auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setObjectName(QStringLiteral("errorDialog"));
  box->open(); // window-modal, never blocks the event loop
  emit errorShown(title, text);
}

void MainWindow::showAbout() {
  bench_.engine->post(QStringLiteral("about"), [this](EngineState&) -> EngineBridge::Continuation {
    QStringList lines;
    for (const auto& p : drive::openclPlatforms()) {
      QStringList devices;
      for (const auto& d : p.devices)
        devices << QStringLiteral("%1 (%2)").arg(QString::fromStdString(d.name), QString::fromStdString(d.type));
      lines << QStringLiteral("%1: %2; %3")
                   .arg(QString::fromStdString(p.name), QString::fromStdString(p.version), devices.join(QStringLiteral(", ")));
    }
    return [this, lines] {
      const QString opencl = lines.isEmpty() ? tr("no OpenCL platform found (install pocl-opencl-icd)")
                                             : lines.join(QStringLiteral("<br>"));
      auto* box = new QMessageBox(this);
      box->setAttribute(Qt::WA_DeleteOnClose);
      box->setObjectName(QStringLiteral("aboutDialog"));
      box->setWindowTitle(tr("About Steerbench"));
      box->setIconPixmap(windowIcon().pixmap(64, 64));
      box->setText(tr("<h3>Steerbench %1</h3><p>Generates OpenCL kernels steered toward the feature vectors you "
                      "choose, runs them, and exports labelled datasets.</p>"
                      "<p>Qt %2 (built with %3)<br>LLVM and Clang %4<br>libtorch %5<br>OpenCL: %6</p>"
                      "<p>License: GPL-3.0-or-later.</p>")
                       .arg(QString::fromUtf8(kAppVersion), QString::fromUtf8(qVersion()), QStringLiteral(QT_VERSION_STR),
                            QString::fromUtf8(kLlvmVersion), QString::fromUtf8(kTorchVersion), opencl));
      box->open();
    };
  });
}

void MainWindow::showPreferences() {
  auto* dialog = new PreferencesDialog(prefs_, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this, [this, dialog] {
    const Preferences before = prefs_;
    prefs_ = dialog->preferences();
    prefs_.save();
    bench_.plot->setOpenGlAllowed(prefs_.openGl);
    if (prefs_.theme != before.theme) applyTheme();
  });
  dialog->open();
}

void MainWindow::applyTheme() {
  static const QPalette systemPalette = QApplication::palette();
  static const QString systemStyle = QApplication::style()->name();
  if (prefs_.theme == QLatin1String("dark")) {
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(darkPalette());
  } else if (prefs_.theme == QLatin1String("light")) {
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(QApplication::style()->standardPalette());
  } else {
    QApplication::setStyle(QStyleFactory::create(systemStyle));
    QApplication::setPalette(systemPalette);
  }
  const bool dark = paletteIsDark(QApplication::palette());
  bench_.plot->setDarkTheme(dark);
  bench_.editor->setDarkTheme(dark);
}

void MainWindow::changeEvent(QEvent* e) {
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ThemeChange) {
    const bool dark = paletteIsDark(QApplication::palette());
    bench_.plot->setDarkTheme(dark);
    bench_.editor->setDarkTheme(dark);
  }
  QMainWindow::changeEvent(e);
}

void MainWindow::closeEvent(QCloseEvent* e) {
  training_->stopAndFlush(); // its checkpoint written and its steps stored
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  settings.setValue(QStringLiteral("window/centre"), centre_->saveState());
  e->accept();
}

} // namespace steerbench::ui

#include "MainWindow.h"

#include "EngineBridge.h"
#include "EngineState.h"
#include "FeaturesView.h"
#include "JobStatus.h"
#include "KernelEditor.h"
#include "KernelList.h"
#include "SelectionModel.h"
#include "TargetTable.h"
#include "DevicePanel.h"
#include "SteeringPanel.h"
#include "EvaluationPanel.h"
#include "TrainingPanel.h"
#include "UndoCommands.h"

#include "common/Error.h"
#include "common/Paths.h"
#include "common/Version.h"
#include "corpus/CorpusIngest.h"
#include "corpus/DebianPreset.h"
#include "drive/host/Platforms.h"
#include "engine/FeatureJob.h"
#include "engine/FeatureTable.h"
#include "clang/OpenCLFrontend.h"
#include "features/Measurement.h"
#include "model/Sampler.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QToolBar>
#include <QUndoStack>
#include <Qsci/qsciscintilla.h>

#include <cmath>

namespace steerbench::ui {
namespace {

const features::FeatureSpace& spaceNamed(const QString& name) { return features::featureSpace(name.toStdString()); }

QVector<EditorDiagnostic> editorDiagnostics(const features::FileMeasurement& m) {
  QVector<EditorDiagnostic> out;
  for (const auto& d : m.diagnostics)
    out.push_back({int(d.line), int(d.column), QString::fromUtf8(clangfe::severityName(d.severity)),
                   QString::fromStdString(d.message)});
  return out;
}

QVector<SpaceVector> spaceVectors(const features::FileMeasurement& m, std::size_t kernel) {
  QVector<SpaceVector> out;
  for (const auto& s : m.spaces) {
    SpaceVector v{QString::fromStdString(s.space->name), s.space->dimensions, {}, QString::fromStdString(s.error)};
    if (kernel < s.kernels.size()) {
      v.values = s.kernels[kernel].values;
      if (s.kernels[kernel].fromErrors) v.note = MainWindow::tr("measured on the AST Clang recovered from errors");
    }
    out.push_back(std::move(v));
  }
  return out;
}

features::MeasureOptions allSpaces() {
  features::MeasureOptions o;
  for (const auto& s : features::featureSpaces())
    o.spaces.push_back(&s);
  return o;
}

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
  engine_ = new EngineBridge(this);
  selection_ = new SelectionModel(this);
  undo_ = new QUndoStack(this);
  plot_ = new FeaturePlot(this);
  plot_->setOpenGlAllowed(prefs_.openGl);
  setCentralWidget(plot_);
  buildDocks();
  buildActions();

  jobs_ = new JobStatus(engine_, this);
  workspaceLabel_ = new QLabel(tr("No workspace"), this);
  // Permanent (right-aligned): a temporary message on the left never draws over it.
  statusBar()->addPermanentWidget(workspaceLabel_);
  statusBar()->addPermanentWidget(jobs_);

  try {
    (void)spaceNamed(prefs_.space);
  } catch (const std::exception&) {
    prefs_.space = QStringLiteral("grewe");
  }
  selection_->setSpace(prefs_.space);
  spaceBox_->setCurrentText(selection_->space());

  connect(engine_, &EngineBridge::failed, this, [this](const QString& what, const QString& message) {
    static const QMap<QString, const char*> titles = {
        {QStringLiteral("plot"), QT_TR_NOOP("Cannot load the plot")},
        {QStringLiteral("kernel"), QT_TR_NOOP("Cannot show the kernel")},
        {QStringLiteral("evaluate"), QT_TR_NOOP("Cannot evaluate the kernel")},
        {QStringLiteral("nearest"), QT_TR_NOOP("Cannot list the nearest kernels")},
        {QStringLiteral("about"), QT_TR_NOOP("About Steerbench")}};
    showError(titles.contains(what) ? tr(titles.value(what)) : what, message);
  });
  connect(engine_, &EngineBridge::jobFinished, this, [this](int, bool cancelled, const QString&) {
    if (cancelled) statusBar()->showMessage(tr("Cancelled: what was finished is kept."), 8000);
  });
  connect(selection_, &SelectionModel::spaceChanged, this, [this](const QString& space) {
    if (selection_->target() && selection_->target()->space != space)
      undo_->push(new SetTargetCommand(selection_, std::nullopt, tr("Change space")));
    spaceBox_->setCurrentText(space);
    plot_->setEvaluated(std::nullopt);
    plot_->clearSteering(); // its vectors belong to the other space
    plot_->setEntropyLayer({}, {});
    reloadPlot();
  });
  connect(selection_, &SelectionModel::currentKernelChanged, this, [this](std::int64_t id) {
    plot_->setSelectedKernel(id);
    if (id > 0) showKernel(id);
  });
  connect(selection_, &SelectionModel::targetChanged, this, [this] {
    const auto& t = selection_->target();
    plot_->setTargetVector(t && t->space == selection_->space() ? std::optional(t->values) : std::nullopt);
    steering_->setTarget(t ? t->space : selection_->space(), t ? std::optional(t->values) : std::nullopt,
                         t ? t->origin : QString());
  });
  // Steering: the plot shows each generation's candidates and the path to the best;
  // a lineage step opens in the editor with its infill highlighted.
  connect(steering_, &SteeringPanel::runStarted, plot_, &FeaturePlot::clearSteering);
  connect(steering_, &SteeringPanel::candidatesArrived, this,
          [this](int generation, const std::vector<std::vector<double>>& vectors) {
            if (!vectors.empty() && vectors.front().size() == plot_->workspaceTable().dimensions.size())
              plot_->addSteeringPoints(generation, vectors);
          });
  connect(steering_, &SteeringPanel::pathChanged, this, [this](const std::vector<std::vector<double>>& path) {
    if (!path.empty() && path.front().size() == plot_->workspaceTable().dimensions.size())
      plot_->setSteeringPath(path);
  });
  connect(steering_, &SteeringPanel::showKernel, this,
          [this](const QString& title, const QString& text, int start, int length) {
            selection_->setCurrentKernel(0);
            editor_->setKernel(0, title, text);
            editor_->highlight(start, length);
          });
  connect(steering_, &SteeringPanel::entropyLayerReady, this,
          [this](const std::vector<std::vector<double>>& vectors, const std::vector<double>& entropies) {
            if (selection_->space() != QLatin1String("grewe")) {
              statusBar()->showMessage(tr("The committee's layer is in the Grewe space: switch to it to see it."),
                                       8000);
              return;
            }
            plot_->setEntropyLayer(vectors, entropies);
          });
  connect(steering_, &SteeringPanel::targetSuggested, this,
          [this](const std::vector<double>& values, const QString& origin) {
            if (selection_->space() != QLatin1String("grewe")) selection_->setSpace(QStringLiteral("grewe"));
            undo_->push(new SetTargetCommand(selection_, Target{QStringLiteral("grewe"), values, origin},
                                             tr("Use a suggested target")));
          });
  connect(steering_, &SteeringPanel::runFinished, this, [this](qint64 bestKernelId) {
    if (bestKernelId > 0) reloadPlot(); // the best candidate is a workspace kernel now
  });
  connect(editor_, &KernelEditor::steerRequested, this, [this](const QString& source) {
    raiseDock(QStringLiteral("steering"));
    steering_->steer(source, editor_->title());
  });
  connect(plot_, &FeaturePlot::pointClicked, this, [this](const FeaturePlot::PointRef& p) {
    if (const auto id = plot_->kernelId(p)) {
      selection_->setCurrentKernel(id);
    } else if (p.layer == FeaturePlot::Layer::Reference) {
      const auto& ref = plot_->referenceTable();
      const auto r = std::size_t(p.row);
      selection_->setCurrentKernel(0);
      undo_->push(new EditorContentCommand(
          editor_, {0, tr("Reference %1 (not in the workspace)").arg(QString::fromStdString(ref.names[r])),
                    r < ref.sources.size() ? QString::fromStdString(ref.sources[r]) : QString()},
          tr("Show reference kernel"), selection_));
      features_->showVectors(QString::fromStdString(ref.names[r]),
                             {SpaceVector{QString::fromStdString(ref.space), ref.dimensions, ref.rows[r],
                                          tr("from the reference CSV")}});
    }
  });
  connect(plot_, &FeaturePlot::emptyClicked, this, &MainWindow::targetFromPoint);
  connect(plot_, &FeaturePlot::targetRequested, this, [this](const std::vector<double>& values, const QString& origin) {
    if (!plotCurrent() || values.size() != plot_->workspaceTable().dimensions.size()) return;
    undo_->push(new SetTargetCommand(selection_, Target{selection_->space(), values, origin}, tr("Use as target")));
  });
  connect(plot_, &FeaturePlot::pointsPicked, this, [this](const QVector<FeaturePlot::PointRef>& points) {
    QVector<KernelList::Entry> entries;
    QVector<std::int64_t> ids;
    for (const auto& p : points) {
      const auto r = std::size_t(p.row);
      if (p.layer == FeaturePlot::Layer::Reference) {
        entries.push_back({0, QString::fromStdString(plot_->referenceTable().names[r]), tr("reference"), -1});
      } else {
        const auto& t = plot_->workspaceTable();
        entries.push_back({t.ids[r], QString::fromStdString(t.names[r]), QString::fromStdString(t.groups[r]), -1});
        ids.push_back(t.ids[r]);
      }
    }
    selection_->setPicked(ids);
    list_->setEntries(tr("%n kernel(s) inside the rectangle", nullptr, int(entries.size())), entries);
  });
  connect(list_, &KernelList::kernelActivated, selection_, &SelectionModel::setCurrentKernel);
  connect(editor_, &KernelEditor::evaluateRequested, this, &MainWindow::evaluate);
  connect(editor_, &KernelEditor::saveRequested, this, &MainWindow::saveKernel);
  connect(editor_, &KernelEditor::fillRequested, this, &MainWindow::fillHoles);
  connect(this, &MainWindow::workspaceOpened, training_, &TrainingPanel::setWorkspace);
  connect(this, &MainWindow::workspaceOpened, devices_, &DevicePanel::setWorkspace);
  connect(this, &MainWindow::workspaceOpened, steering_, &SteeringPanel::setWorkspace);
  connect(devices_, &DevicePanel::runEditorRequested, this,
          [this] { devices_->driveSource(editor_->title(), editor_->text()); });
  connect(devices_, &DevicePanel::runSelectedRequested, this, [this] {
    auto ids = selection_->picked();
    if (ids.isEmpty() && selection_->currentKernel()) ids = {selection_->currentKernel()};
    devices_->driveKernels(ids);
  });
  connect(targets_, &TargetTable::valueEdited, this, &MainWindow::editTargetValue);
  connect(targets_, &TargetTable::nearestRequested, this, &MainWindow::nearestKernels);
  connect(targets_, &TargetTable::clearRequested, this, [this] {
    if (selection_->target()) undo_->push(new SetTargetCommand(selection_, std::nullopt, tr("Clear target")));
  });

  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  if (!settings.contains(QStringLiteral("window/geometry"))) resize(1400, 900);
  applyTheme();
}

MainWindow::~MainWindow() {
  delete engine_; // stops the engine thread before the views its continuations touch go away
  engine_ = nullptr;
}

bool MainWindow::raiseDock(const QString& name) {
  auto* d = findChild<QDockWidget*>(name + QStringLiteral("Dock"));
  if (!d) return false;
  d->show();
  d->raise();
  return true;
}

bool MainWindow::busy() const { return engine_ && !engine_->idle(); }

void MainWindow::buildDocks() {
  setDockNestingEnabled(true);
  editor_ = new KernelEditor(this);
  targets_ = new TargetTable(selection_, this);
  list_ = new KernelList(this);
  features_ = new FeaturesView(this);
  auto dock = [this](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(w);
    addDockWidget(area, d);
    return d;
  };
  auto* editorDock = dock(editor_, tr("Kernel editor"), QStringLiteral("editorDock"), Qt::RightDockWidgetArea);
  auto* featuresDock = dock(features_, tr("Features"), QStringLiteral("featuresDock"), Qt::RightDockWidgetArea);
  auto* targetDock = dock(targets_, tr("Target"), QStringLiteral("targetDock"), Qt::LeftDockWidgetArea);
  auto* listDock = dock(list_, tr("Kernels"), QStringLiteral("kernelsDock"), Qt::LeftDockWidgetArea);
  training_ = new TrainingPanel(engine_, this);
  auto* trainingDock = dock(training_, tr("Training"), QStringLiteral("trainingDock"), Qt::RightDockWidgetArea);
  devices_ = new DevicePanel(engine_, this);
  auto* devicesDock = dock(devices_, tr("Devices"), QStringLiteral("devicesDock"), Qt::RightDockWidgetArea);
  steering_ = new SteeringPanel(engine_, this);
  auto* steeringDock = dock(steering_, tr("Steering"), QStringLiteral("steeringDock"), Qt::RightDockWidgetArea);
  evaluation_ = new EvaluationPanel(engine_, this);
  auto* evaluationDock =
      dock(evaluation_, tr("Evaluation"), QStringLiteral("evaluationDock"), Qt::RightDockWidgetArea);
  splitDockWidget(editorDock, featuresDock, Qt::Vertical);
  splitDockWidget(targetDock, listDock, Qt::Vertical);
  tabifyDockWidget(featuresDock, trainingDock);
  tabifyDockWidget(trainingDock, devicesDock);
  tabifyDockWidget(devicesDock, steeringDock);
  tabifyDockWidget(steeringDock, evaluationDock);
  featuresDock->raise();
  resizeDocks({editorDock, targetDock}, {480, 250}, Qt::Horizontal);
  resizeDocks({editorDock, featuresDock}, {600, 250}, Qt::Vertical);
}

void MainWindow::buildActions() {
  auto* file = menuBar()->addMenu(tr("&File"));
  auto* newWs = file->addAction(QIcon::fromTheme(QStringLiteral("document-new")), tr("&New Workspace..."), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("New workspace"), QDir::homePath(),
                                                      tr("Steerbench workspaces (*.sbw)"));
    if (path.isEmpty()) return;
    if (QFileInfo::exists(path)) {
      showError(tr("Cannot create the workspace"),
                tr("%1 already exists. Open it with File > Open, or pick a new name.").arg(path));
      return;
    }
    openWorkspace(path, true);
  });
  newWs->setShortcut(QKeySequence::New);
  auto* open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open Workspace..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open workspace"), QDir::homePath(),
                                                      tr("Steerbench workspaces (*.sbw);;All files (*)"));
    if (!path.isEmpty()) openWorkspace(path);
  });
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  updateRecentMenu();
  file->addAction(tr("Open &Default Workspace"), this, &MainWindow::openDefaultWorkspace);
  file->addSeparator();
  file->addAction(tr("&Add Kernel Files..."), this, [this] {
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Add kernel files to the workspace"),
                                                            QDir::homePath(), tr("OpenCL C (*.cl);;All files (*)"));
    if (!paths.isEmpty()) addKernelFiles(paths);
  });
  file->addAction(tr("Ingest &Corpus Folder..."), this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Ingest a folder of OpenCL code"), QDir::homePath());
    if (!dir.isEmpty()) ingestFolder(dir);
  });
  auto* import = file->addAction(tr("&Import Reference CSV..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import reference benchmarks (DevMap layout)"),
                                                      QDir::homePath(), tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty()) importReference(path);
  });
  import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
  auto* exportAct = file->addAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("&Export Plot..."), this,
                                    &MainWindow::exportPlot);
  exportAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  file->addAction(QIcon::fromTheme(QStringLiteral("x-office-spreadsheet")), tr("Export &Labelled Kernels (CSV)..."),
                  this, [this] { devices_->exportCsv(); });
  file->addSeparator();
  auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  auto* edit = menuBar()->addMenu(tr("&Edit"));
  auto* undoAct = undo_->createUndoAction(this, tr("&Undo"));
  undoAct->setShortcut(QKeySequence::Undo);
  auto* redoAct = undo_->createRedoAction(this, tr("&Redo"));
  redoAct->setShortcut(QKeySequence::Redo);
  // In the editor, Ctrl+Z undoes typing (QScintilla); elsewhere it undoes target and kernel changes.
  undoAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  redoAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  plot_->addAction(undoAct);
  plot_->addAction(redoAct);
  targets_->addAction(undoAct);
  targets_->addAction(redoAct);
  edit->addAction(undoAct);
  edit->addAction(redoAct);
  edit->addSeparator();
  auto* asTarget = edit->addAction(tr("Use Selected Kernel as &Target"), this, [this] {
    const auto id = selection_->currentKernel();
    const auto& t = plot_->workspaceTable();
    for (std::size_t r = 0; r < t.ids.size(); ++r)
      if (t.ids[r] == id) {
        useAsTarget({t.groups[r] == "user" ? FeaturePlot::Layer::User : FeaturePlot::Layer::Corpus, int(r)});
        return;
      }
    statusBar()->showMessage(tr("Select a kernel on the plot first."), 5000);
  });
  asTarget->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
  auto* nearest = edit->addAction(tr("&Nearest Kernels"), this, &MainWindow::nearestKernels);
  nearest->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
  edit->addSeparator();
  auto* prefs = edit->addAction(QIcon::fromTheme(QStringLiteral("preferences-system")), tr("&Preferences..."), this,
                                &MainWindow::showPreferences);
  prefs->setShortcut(QKeySequence::Preferences);
  if (prefs->shortcut().isEmpty()) prefs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  auto* layers = viewMenu_->addMenu(tr("&Layers"));
  const QString layerNames[] = {tr("Corpus kernels"), tr("Your kernels"), tr("Reference benchmarks"),
                                tr("Evaluated kernel"), tr("Target")};
  for (int l = 0; l < FeaturePlot::kLayers; ++l) {
    auto* a = layers->addAction(layerNames[l]);
    a->setCheckable(true);
    a->setChecked(true);
    a->setObjectName(QStringLiteral("layer%1").arg(l));
    connect(a, &QAction::toggled, this, [this, l](bool on) { plot_->setLayerVisible(FeaturePlot::Layer(l), on); });
  }
  auto* reset = viewMenu_->addAction(QIcon::fromTheme(QStringLiteral("zoom-original")), tr("&Reset Zoom"), plot_,
                                     &FeaturePlot::resetZoom);
  reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  viewMenu_->addAction(tr("Zoom &In"), this, [this] {
    plot_->setFocus();
    plot_->zoomBy(1.25, plot_->valueAt(plot_->viewport()->rect().center()));
  })->setShortcut(QKeySequence::ZoomIn);
  viewMenu_->addAction(tr("Zoom &Out"), this, [this] {
    plot_->zoomBy(0.8, plot_->valueAt(plot_->viewport()->rect().center()));
  })->setShortcut(QKeySequence::ZoomOut);
  viewMenu_->addSeparator();
  for (auto* d : findChildren<QDockWidget*>())
    viewMenu_->addAction(d->toggleViewAction());

  auto* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Steerbench"), this, &MainWindow::showAbout);

  // Tool bar: space, axes, and the common actions.
  auto* bar = addToolBar(tr("Plot"));
  bar->setObjectName(QStringLiteral("plotToolBar"));
  bar->addWidget(new QLabel(tr("Space "), bar));
  spaceBox_ = new QComboBox(bar);
  spaceBox_->setObjectName(QStringLiteral("spaceBox"));
  int shortcut = 1;
  for (const auto& s : features::featureSpaces()) {
    spaceBox_->addItem(QString::fromStdString(s.name));
    spaceBox_->setItemData(spaceBox_->count() - 1, QString::fromStdString(s.description), Qt::ToolTipRole);
    auto* a = viewMenu_->addAction(tr("Show the %1 space").arg(QString::fromStdString(s.name)), this,
                                   [this, n = QString::fromStdString(s.name)] { setSpace(n); });
    a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_0 + shortcut++)));
  }
  spaceBox_->setCurrentText(selection_->space());
  connect(spaceBox_, &QComboBox::currentTextChanged, this, &MainWindow::setSpace);
  bar->addWidget(spaceBox_);
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" X "), bar));
  xBox_ = new QComboBox(bar);
  xBox_->setObjectName(QStringLiteral("xAxisBox"));
  bar->addWidget(xBox_);
  bar->addWidget(new QLabel(tr(" Y "), bar));
  yBox_ = new QComboBox(bar);
  yBox_->setObjectName(QStringLiteral("yAxisBox"));
  bar->addWidget(yBox_);
  auto axesChanged = [this] {
    if (updatingAxes_) return;
    setAxes(xBox_->currentIndex() - 1, std::max(0, yBox_->currentIndex() - 1));
  };
  connect(xBox_, &QComboBox::currentIndexChanged, this, axesChanged);
  connect(yBox_, &QComboBox::currentIndexChanged, this, axesChanged);
  bar->addWidget(new QLabel(tr(" PCA on "), bar));
  auto* fitBox = new QComboBox(bar);
  fitBox->setObjectName(QStringLiteral("pcaLayerBox"));
  fitBox->setToolTip(tr("The layer PCA-2 is fitted on (standardized vectors)"));
  fitBox->addItem(tr("corpus"), QStringLiteral("corpus"));
  fitBox->addItem(tr("all workspace kernels"), QStringLiteral("workspace"));
  fitBox->addItem(tr("reference"), QStringLiteral("reference"));
  fitBox->setCurrentIndex(std::max(0, fitBox->findData(prefs_.pcaLayer)));
  connect(fitBox, &QComboBox::currentIndexChanged, this, [this, fitBox] {
    prefs_.pcaLayer = fitBox->currentData().toString();
    prefs_.save();
    reloadPlot();
  });
  bar->addWidget(fitBox);
  bar->addSeparator();
  bar->addAction(reset);
  bar->addAction(exportAct);
  bar->addAction(nearest);
}

void MainWindow::updateAxisChoices() {
  updatingAxes_ = true;
  const auto& dims = plot_->workspaceTable().dimensions;
  xBox_->clear();
  yBox_->clear();
  xBox_->addItem(tr("PCA-2"));
  yBox_->addItem(tr("(PCA-2)"));
  for (const auto& d : dims) {
    xBox_->addItem(QString::fromStdString(d));
    yBox_->addItem(QString::fromStdString(d));
  }
  xBox_->setCurrentIndex(plot_->pcaAxes() ? 0 : plot_->dimX() + 1);
  yBox_->setCurrentIndex(plot_->pcaAxes() ? 0 : plot_->dimY() + 1);
  yBox_->setEnabled(!plot_->pcaAxes());
  updatingAxes_ = false;
}

void MainWindow::setSpace(const QString& space) {
  try {
    (void)spaceNamed(space);
  } catch (const std::exception& e) {
    showError(tr("Unknown feature space"), QString::fromStdString(e.what()));
    return;
  }
  selection_->setSpace(space);
}

void MainWindow::setAxes(int dimX, int dimY) {
  const int dims = int(plot_->workspaceTable().dimensions.size());
  if (dimX >= 0 && dimY == dimX && dims > 1) dimY = (dimX + 1) % dims;
  plot_->setAxes(dimX, dimY);
  updateAxisChoices();
}

void MainWindow::openWorkspace(const QString& path, bool create) {
  const QFileInfo info(path);
  if (info.exists() && !info.isFile()) {
    showError(tr("Cannot open the workspace"), tr("%1 is a folder, not a workspace file.").arg(path));
    return;
  }
  if (!info.exists() && !create) {
    showError(tr("Cannot open the workspace"),
              tr("%1 does not exist. Use File > New Workspace to create one.").arg(path));
    return;
  }
  // Write permission as the file says it (root may write anyway, but a file
  // marked read-only is one the user means to keep unchanged).
  const bool readOnly = info.exists() && (!info.isWritable() || !(info.permissions() & QFileDevice::WriteOwner) ||
                                          !QFileInfo(info.absolutePath()).isWritable());
  if (readOnly) {
    showError(tr("Cannot open the workspace"),
              tr("%1 is read-only (the file or its folder). Steerbench stores its results in the workspace it "
                 "opens. Copy the file to a folder you can write to, or change its permissions, and open it "
                 "again. The file was not changed.")
                  .arg(path));
    return;
  }
  // Training belongs to the open workspace: pause it there first.
  if (training_->training() && path != workspacePath_) training_->stopAndFlush();
  const bool isDefault = QFileInfo(path).absoluteFilePath() ==
                         QFileInfo(QString::fromStdString(defaultWorkspacePath())).absoluteFilePath();
  engine_->post(tr("Cannot open the workspace"), [this, path, create, isDefault](EngineState& s) -> EngineBridge::Continuation {
    auto ws = std::make_unique<store::Workspace>(store::Workspace::open(
        path.toStdString(), create ? store::Workspace::Mode::OpenOrCreate : store::Workspace::Mode::OpenExisting));
    const auto kernels = ws->kernelCount();
    s.workspace = std::move(ws); // the previous one closes only now, after this one opened
    return [this, path, kernels, isDefault] {
      workspacePath_ = path;
      Preferences::addRecentWorkspace(path);
      updateRecentMenu();
      showKernelCount(kernels);
      setWindowTitle(tr("%1 - Steerbench").arg(QFileInfo(path).fileName()));
      undo_->clear();
      selection_->setCurrentKernel(0);
      emit workspaceOpened(path);
      reloadPlot();
      // First run, or a first run that was stopped: build (or go on building) the default corpus.
      if (isDefault && (kernels == 0 || QSettings().value(QStringLiteral("defaultCorpus/incomplete")).toBool()))
        buildDefaultCorpus();
    };
  });
}

void MainWindow::openDefaultWorkspace() {
  const QString path = QString::fromStdString(defaultWorkspacePath());
  QDir().mkpath(QFileInfo(path).absolutePath());
  openWorkspace(path, true);
}

void MainWindow::buildDefaultCorpus() {
  statusBar()->showMessage(tr("First run: building the default workspace from the OpenCL code Debian ships. "
                              "This takes a few minutes; you can cancel and resume later."));
  QSettings().setValue(QStringLiteral("defaultCorpus/incomplete"), true);
  ingest(
      tr("Building the default corpus"),
      [] {
        std::vector<std::string> missing;
        auto inputs = corpus::debianPresetSources(&missing);
        if (inputs.empty())
          throw InputError("none of the Debian packages of the default corpus is installed or unpacked. Run "
                           "steerbench-fetch-corpus (in a source checkout: scripts/fetch-debian-corpus), then "
                           "File > Open Default Workspace.");
        return inputs;
      },
      [this](const corpus::IngestSummary& summary, std::int64_t kernels) {
        if (!summary.cancelled) QSettings().setValue(QStringLiteral("defaultCorpus/incomplete"), false);
        statusBar()->showMessage(
            summary.cancelled
                ? tr("Stopped: %1 kernels are stored; open the default workspace again to go on.").arg(kernels)
                : tr("The default corpus is ready: %1 kernels from %2 files.").arg(kernels).arg(summary.files),
            15000);
      });
}

void MainWindow::ingest(const QString& title, std::function<std::vector<corpus::SourceInput>()> inputs,
                        std::function<void(const corpus::IngestSummary&, std::int64_t kernels)> done) {
  const unsigned jobs = jobThreads();
  engine_->startJob(title, [this, inputs, done, jobs](EngineState& s, JobFeedback& f) -> EngineBridge::Continuation {
    corpus::CorpusIngestOptions o;
    o.jobs = jobs;
    o.referenceCsvs = corpus::defaultReferenceCsvs();
    o.progress = [&f](std::size_t n, std::size_t total) { f.progress(total ? double(n) / double(total) : 1.0, "ingest"); };
    o.cancel = &f.cancel();
    const auto summary = corpus::ingestCorpus(s.ws(), inputs(), o);
    const auto kernels = s.ws().kernelCount();
    return [this, done, summary, kernels] {
      done(summary, kernels);
      showKernelCount(kernels);
      reloadPlot();
    };
  });
}

unsigned MainWindow::jobThreads() const { return prefs_.jobs > 0 ? unsigned(prefs_.jobs) : engine::hardwareJobs(); }

void MainWindow::showKernelCount(std::int64_t kernels) {
  workspaceLabel_->setText(tr("Workspace %1: %n kernel(s)", nullptr, int(kernels)).arg(workspacePath_));
}

void MainWindow::addKernelFiles(const QStringList& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths)
    files.push_back(p.toStdString());
  const unsigned jobs = jobThreads();
  engine_->startJob(tr("Measuring %n kernel file(s)", nullptr, int(files.size())),
                    [this, files, jobs](EngineState& s, JobFeedback& f) -> EngineBridge::Continuation {
                      engine::FeatureJobOptions o;
                      o.measure = allSpaces();
                      o.jobs = jobs;
                      o.workspace = &s.ws();
                      o.cancel = &f.cancel();
                      o.progress = [&f](std::size_t done, std::size_t total) {
                        f.progress(total ? double(done) / double(total) : 1.0, "measure");
                      };
                      const auto results = engine::runFeatureJob(files, o);
                      int ok = 0;
                      QStringList failed;
                      for (const auto& r : results) {
                        if (r.ok())
                          ++ok;
                        else if (!r.cancelled) // a cancelled file is not a failed one
                          failed << QString::fromStdString(r.path + ": " + r.error);
                      }
                      return [this, ok, failed, total = int(files.size())] {
                        const QString summary = tr("Added %1 of %2 files.").arg(ok).arg(total);
                        statusBar()->showMessage(summary, 10000);
                        if (!failed.isEmpty())
                          showError(tr("Some files were not added"),
                                    tr("%n file(s) could not be measured; the others were added.\n\n", nullptr,
                                       int(failed.size())) +
                                        failed.mid(0, 20).join(QLatin1Char('\n')));
                        reloadPlot();
                        emit jobDone(summary);
                      };
                    });
}

void MainWindow::ingestFolder(const QString& folder) {
  const std::string path = folder.toStdString();
  ingest(
      tr("Ingesting %1").arg(folder), [path] { return corpus::collectSources(path); },
      [this](const corpus::IngestSummary& summary, std::int64_t) {
        const QString text = tr("Ingested %1 files: %2 kernels stored, %3 duplicates, %4 rejected%5.")
                                 .arg(summary.files)
                                 .arg(summary.stored)
                                 .arg(summary.duplicates)
                                 .arg(summary.kernelsRejected)
                                 .arg(summary.cancelled ? tr(" (stopped early; run it again to go on)") : QString());
        statusBar()->showMessage(text, 15000);
        emit jobDone(text);
      });
}

void MainWindow::importReference(const QString& csvPath) {
  const std::string path = csvPath.toStdString();
  engine_->post(tr("Cannot import the reference CSV"), [this, path, csvPath](EngineState&) -> EngineBridge::Continuation {
    // Read it once here so a wrong file is reported before it replaces the current layer.
    (void)engine::loadReferenceTable(path, features::featureSpace("grewe"), 1);
    return [this, csvPath] {
      prefs_.referenceCsv = csvPath;
      prefs_.save();
      reloadPlot();
    };
  });
}

void MainWindow::reloadPlot() {
  if (workspacePath_.isEmpty()) return;
  const std::string space = selection_->space().toStdString();
  std::string reference = prefs_.referenceCsv.toStdString();
  if (reference.empty()) {
    const auto defaults = corpus::defaultReferenceCsvs();
    if (!defaults.empty()) reference = defaults.front();
  }
  const unsigned jobs = jobThreads();
  const std::string fitOn = prefs_.pcaLayer.toStdString();
  engine_->post(QStringLiteral("plot"), [this, space, reference, jobs, fitOn](EngineState& s) -> EngineBridge::Continuation {
    const auto& fs = features::featureSpace(space);
    auto table = std::make_shared<engine::FeatureTable>(engine::loadWorkspaceTable(s.ws(), fs));
    auto ref = std::make_shared<engine::FeatureTable>();
    QString refError;
    if (!reference.empty()) {
      const auto key = std::make_pair(reference, space);
      if (!s.referenceErrors.count(reference)) {
        try {
          if (!s.references.count(key)) {
            auto loaded = engine::loadReferenceTable(reference, fs, jobs, s.shutdown);
            if (s.shutdown && s.shutdown->cancelled()) return {};
            s.references[key] = std::move(loaded);
          }
          *ref = s.references[key];
        } catch (const std::exception& e) {
          s.referenceErrors[reference] = e.what(); // said once, not at every reload
          refError = QString::fromStdString(e.what());
        }
      }
    }
    // PCA-2 is fitted on the layer the user chose (docs/features.md): the corpus
    // by default; when that layer has fewer than two vectors, on what there is.
    std::optional<features::Pca> pca;
    QString fit;
    std::vector<std::vector<double>> corpusRows;
    for (std::size_t r = 0; r < table->size(); ++r)
      if (table->groups[r] != "user") corpusRows.push_back(table->rows[r]);
    if (fitOn == "reference" && ref->size() >= 2) {
      pca = features::Pca::fit(ref->rows);
      fit = tr("the reference benchmarks");
    } else if (fitOn != "workspace" && corpusRows.size() >= 2) {
      pca = features::Pca::fit(corpusRows);
      fit = tr("the corpus kernels");
    } else if (table->size() >= 2) {
      pca = features::Pca::fit(table->rows);
      fit = tr("all the workspace kernels");
    } else if (ref->size() >= 2) {
      pca = features::Pca::fit(ref->rows);
      fit = tr("the reference benchmarks");
    }
    return [this, table, ref, pca, fit, refError] {
      plot_->setTables(*table, *ref, pca, fit);
      targets_->setDimensions(table->dimensions);
      const auto& t = selection_->target();
      plot_->setTargetVector(t && t->space == selection_->space() ? std::optional(t->values) : std::nullopt);
      updateAxisChoices();
      if (!refError.isEmpty()) {
        prefs_.referenceCsv.clear();
        prefs_.save();
        showError(tr("Cannot show the reference layer"), refError);
      }
      emit plotReloaded();
    };
  });
}

void MainWindow::showKernel(std::int64_t id) {
  engine_->post(QStringLiteral("kernel"), [this, id](EngineState& s) -> EngineBridge::Continuation {
    const auto k = s.ws().kernel(id);
    if (!k) throw WorkspaceError("kernel #" + std::to_string(id) + " is not in this workspace");
    QVector<SpaceVector> vectors;
    for (const auto& space : features::featureSpaces()) {
      SpaceVector v{QString::fromStdString(space.name), space.dimensions, {}, tr("not measured")};
      if (const auto f = s.ws().features(id, space.name, space.version)) {
        v.values = f->values;
        v.note = f->fromErrors ? tr("measured on the AST Clang recovered from errors") : QString();
      }
      vectors.push_back(std::move(v));
    }
    const QString title = tr("Kernel #%1 %2 (%3%4)")
                              .arg(id)
                              .arg(QString::fromStdString(k->name), QString::fromStdString(k->role),
                                   k->package.empty() ? QString() : QStringLiteral(", ") + QString::fromStdString(k->package));
    const QString source = QString::fromStdString(k->source);
    return [this, id, title, source, vectors] {
      if (selection_->currentKernel() != id) return; // a newer selection won
      if (editor_->kernelId() != id) // (an undo may have brought this kernel back, edits and all)
        undo_->push(new EditorContentCommand(editor_, {id, title, source}, tr("Show kernel #%1").arg(id), selection_));
      features_->showVectors(title, vectors);
      emit kernelShown(id);
    };
  });
}

void MainWindow::evaluate(const QString& source) {
  const std::string text = source.toStdString();
  const QString space = selection_->space();
  engine_->post(QStringLiteral("evaluate"), [this, text, space](EngineState&) -> EngineBridge::Continuation {
    auto m = std::make_shared<features::FileMeasurement>(features::measureSource(text, "editor.cl", allSpaces()));
    return [this, m, space] {
      const bool compiled = m->ok();
      QString summary;
      if (compiled)
        summary = tr("Compiles: %n kernel(s) (%1). Features below; the first kernel is on the plot.", nullptr,
                     int(m->kernels.size()))
                      .arg(QString::fromStdString([&] {
                        std::string all;
                        for (const auto& k : m->kernels)
                          all += (all.empty() ? "" : ", ") + k;
                        return all;
                      }()));
      else
        summary = tr("Does not compile: %1").arg(QString::fromStdString(m->error));
      editor_->setDiagnostics(editorDiagnostics(*m), summary);
      features_->showVectors(tr("Evaluated kernel"), spaceVectors(*m, 0));
      std::optional<std::vector<double>> point;
      for (const auto& s : m->spaces)
        if (QString::fromStdString(s.space->name) == space && !s.kernels.empty() && compiled)
          point = s.kernels.front().values;
      plot_->setEvaluated(point);
      if (m->compilerCrashed)
        showError(tr("The compiler crashed"), QString::fromStdString(m->error) +
                                                  tr("\n\nYour text is still in the editor; change the construct "
                                                     "on the marked line and Evaluate again."));
      emit evaluated(compiled);
    };
  });
}

void MainWindow::saveKernel(const QString& source) {
  const std::string text = source.toStdString();
  const std::int64_t parent = editor_->kernelId();
  const QString parentTitle = editor_->title();
  engine_->post(tr("Cannot save the kernel"), [this, text, parent, parentTitle](EngineState& s) -> EngineBridge::Continuation {
    const auto mo = allSpaces();
    const auto m = features::measureSource(text, "editor.cl", mo);
    if (!m.ok())
      throw InputError("the kernel was not saved because it does not compile (" + m.error +
                       "). Evaluate shows the errors in the editor; fix them and save again. Your text is still in "
                       "the editor.");
    std::int64_t first = 0;
    const std::string spec = engine::featureSpecJson(mo);
    s.ws().transaction([&] {
      for (std::size_t k = 0; k < m.kernels.size(); ++k) {
        store::KernelRecord r;
        r.name = m.kernels[k];
        r.source = text;
        r.role = "user";
        r.originFile = parent > 0 ? "editor: edited from kernel #" + std::to_string(parent)
                                  : "editor: " + parentTitle.toStdString();
        r.flags = "-cl-std=CL1.2";
        const auto id = s.ws().addKernel(r);
        if (!first) first = id;
        for (const auto& sp : m.spaces)
          if (k < sp.kernels.size())
            s.ws().putFeatures({id, sp.space->name, sp.space->version, sp.kernels[k].values, false, spec});
      }
    });
    const auto kernels = s.ws().kernelCount();
    return [this, first, kernels] {
      statusBar()->showMessage(tr("Saved as kernel #%1 in the workspace.").arg(first), 8000);
      showKernelCount(kernels);
      editor_->scintilla()->setModified(false);
      reloadPlot();
      selection_->setCurrentKernel(first);
      emit kernelSaved(first);
    };
  });
}

QString MainWindow::checkpointPath() const {
  if (workspacePath_.isEmpty()) return {};
  return QString::fromStdString(workspaceModelPath(workspacePath_.toStdString()));
}

void MainWindow::fillHoles(const QString& source) {
  if (!source.contains(QLatin1String("[HOLE]"))) {
    statusBar()->showMessage(tr("Put [HOLE] where the model should write, then Fill holes."), 8000);
    return;
  }
  // The workspace's own model when it has one, else the default model Steerbench ships.
  const QString ckpt = workspacePath_.isEmpty()
                           ? QString()
                           : QString::fromStdString(modelForWorkspace(workspacePath_.toStdString()));
  if (ckpt.isEmpty()) {
    showError(tr("No model to fill holes"),
              tr("There is no trained model for this workspace (%1), and no default model is installed. Train one "
                 "with:\n\n  steerbench-cli train -w %2\n\nand Fill holes again.")
                  .arg(checkpointPath(), workspacePath_));
    return;
  }
  const std::string text = source.toStdString(), path = ckpt.toStdString();
  const std::int64_t id = editor_->kernelId();
  const QString title = editor_->title();
  const unsigned seed = unsigned(QDateTime::currentMSecsSinceEpoch() & 0xffffffu);
  engine_->post(tr("Cannot fill the holes"), [this, text, path, id, title, seed](EngineState& s) -> EngineBridge::Continuation {
    if (!s.sampler || s.samplerCheckpoint != path) {
      s.sampler = std::make_unique<model::Sampler>(path, 0);
      s.samplerCheckpoint = path;
    }
    model::SampleOptions o;
    o.batchSize = 1;
    o.maxNewTokens = 256;
    o.seed = seed;
    o.check = clangfe::firstErrorOffset; // statements that compile
    const auto out = s.sampler->sample({text}, 1, o);
    if (out.empty()) return {};
    const auto filled = out.front();
    const QString hash = QString::fromStdString(s.sampler->modelHash().substr(0, 12));
    return [this, filled, id, title, hash, seed] {
      undo_->push(new EditorContentCommand(editor_, {id, title, QString::fromStdString(filled.text)}, tr("Fill holes"),
                                           selection_));
      statusBar()->showMessage(
          (filled.complete ? tr("The model wrote %1 tokens (model %2, seed %3). Ctrl+Z takes them back.")
                           : tr("The model wrote %1 tokens and stopped before closing every hole: the token limit, or "
                                "statements that would not compile (model %2, seed %3)."))
              .arg(filled.newTokens)
              .arg(hash)
              .arg(seed),
          15000);
      emit holesFilled(filled.complete);
    };
  });
}

void MainWindow::nearestKernels() {
  if (!plotCurrent()) {
    statusBar()->showMessage(tr("The plot is still loading the new space; try again in a moment."), 5000);
    return;
  }
  std::vector<double> query;
  std::int64_t exclude = 0;
  QString about;
  const auto& t = selection_->target();
  if (t && t->space == selection_->space()) {
    query = t->values;
    about = tr("the target");
  } else if (const auto id = selection_->currentKernel()) {
    const auto& table = plot_->workspaceTable();
    for (std::size_t r = 0; r < table.ids.size(); ++r)
      if (table.ids[r] == id) query = table.rows[r];
    exclude = id;
    about = tr("kernel #%1").arg(id);
  }
  if (query.empty()) {
    statusBar()->showMessage(tr("Set a target or select a kernel first."), 5000);
    return;
  }
  auto table = std::make_shared<engine::FeatureTable>(plot_->workspaceTable());
  const int k = prefs_.nearestK;
  engine_->post(QStringLiteral("nearest"), [this, table, query, exclude, k, about](EngineState&) -> EngineBridge::Continuation {
    const auto found = engine::nearestRows(*table, query, std::size_t(k), exclude);
    QVector<KernelList::Entry> entries;
    for (const auto& n : found)
      entries.push_back({table->ids[n.row], QString::fromStdString(table->names[n.row]),
                         QString::fromStdString(table->groups[n.row]), n.distance});
    return [this, entries, about, space = table->space] {
      list_->setEntries(tr("The %1 kernels nearest %2 in the full %3 space").arg(entries.size()).arg(about, QString::fromStdString(space)),
                        entries);
    };
  });
}

bool MainWindow::plotCurrent() const {
  return plot_->workspaceTable().space == selection_->space().toStdString() && !plot_->workspaceTable().dimensions.empty();
}

void MainWindow::targetFromPoint(QPointF point) {
  if (!plotCurrent()) return; // the plot still shows the previous space
  const auto& space = spaceNamed(selection_->space());
  std::vector<double> values;
  QString origin;
  if (plot_->pcaAxes()) {
    if (!plot_->pca()) return;
    values = engine::targetFromPoint(*plot_->pca(), space, {point.x(), point.y()});
    origin = tr("a plot click at PCA (%1, %2)").arg(point.x(), 0, 'g', 4).arg(point.y(), 0, 'g', 4);
  } else {
    const auto& t = selection_->target();
    values = t && t->space == selection_->space() ? t->values : std::vector<double>(space.dimensions.size(), 0.0);
    const auto counts = engine::countDimensions(space);
    auto set = [&](int dim, double v) {
      v = std::max(0.0, v);
      values[std::size_t(dim)] = counts[std::size_t(dim)] ? std::round(v) : v;
    };
    set(plot_->dimX(), point.x());
    set(plot_->dimY(), point.y());
    origin = tr("a plot click on %1 and %2")
                 .arg(QString::fromStdString(space.dimensions[std::size_t(plot_->dimX())]),
                      QString::fromStdString(space.dimensions[std::size_t(plot_->dimY())]));
  }
  undo_->push(new SetTargetCommand(selection_, Target{selection_->space(), values, origin}, tr("Set target")));
}

void MainWindow::useAsTarget(const FeaturePlot::PointRef& point) {
  if (!plotCurrent()) return;
  const auto values = plot_->vectorOf(point);
  if (values.empty()) return;
  QString origin = plot_->describe(point).section(QLatin1Char('\n'), 0, 0);
  undo_->push(new SetTargetCommand(selection_, Target{selection_->space(), values, origin}, tr("Use as target")));
}

void MainWindow::editTargetValue(int dim, double value) {
  auto t = selection_->target();
  if (!t || dim < 0 || std::size_t(dim) >= t->values.size() || t->values[std::size_t(dim)] == value) return;
  t->values[std::size_t(dim)] = value;
  t->origin = tr("edited values");
  undo_->push(new SetTargetCommand(selection_, t, tr("Edit target")));
}

void MainWindow::exportPlot() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QDir::homePath() + QStringLiteral("/plot.png"),
                                                    tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (path.isEmpty()) return;
  const QString error = plot_->exportTo(path);
  if (!error.isEmpty())
    showError(tr("Cannot export the plot"), error);
  else
    statusBar()->showMessage(tr("Plot written to %1").arg(path), 8000);
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  for (const auto& path : Preferences::recentWorkspaces())
    recentMenu_->addAction(path, this, [this, path] { openWorkspace(path); });
  recentMenu_->setEnabled(!recentMenu_->isEmpty());
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
  engine_->post(QStringLiteral("about"), [this](EngineState&) -> EngineBridge::Continuation {
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
    plot_->setOpenGlAllowed(prefs_.openGl);
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
  plot_->setDarkTheme(dark);
  editor_->setDarkTheme(dark);
}

void MainWindow::changeEvent(QEvent* e) {
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ThemeChange) {
    const bool dark = paletteIsDark(QApplication::palette());
    plot_->setDarkTheme(dark);
    editor_->setDarkTheme(dark);
  }
  QMainWindow::changeEvent(e);
}

void MainWindow::closeEvent(QCloseEvent* e) {
  training_->stopAndFlush(); // its checkpoint written and its steps stored
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  e->accept();
}

} // namespace steerbench::ui

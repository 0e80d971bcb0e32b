#include "MainActions.h"

#include "DevicePanel.h"
#include "FeaturePlot.h"
#include "MainWindow.h"
#include "SelectionModel.h"
#include "TargetController.h"
#include "TargetTable.h"
#include "WorkspaceController.h"

#include "features/FeatureSpace.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>

namespace steerbench::ui {

MainActions::MainActions(MainWindow* window) : QObject(window), w_(window) {
  buildFileMenu();
  buildEditMenu();
  buildViewMenu();
  auto* help = w_->menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Steerbench"), w_, &MainWindow::showAbout);
  buildToolBar();
}

void MainActions::buildFileMenu() {
  auto* file = w_->menuBar()->addMenu(tr("&File"));
  auto* ws = w_->workspaces();
  auto* newWs = file->addAction(QIcon::fromTheme(QStringLiteral("document-new")), tr("&New Workspace..."), this, [this] {
    const QString path = QFileDialog::getSaveFileName(w_, tr("New workspace"), QDir::homePath(),
                                                      tr("Steerbench workspaces (*.sbw)"));
    if (path.isEmpty()) return;
    if (QFileInfo::exists(path)) {
      w_->showError(tr("Cannot create the workspace"),
                    tr("%1 already exists. Open it with File > Open, or pick a new name.").arg(path));
      return;
    }
    w_->openWorkspace(path, true);
  });
  newWs->setShortcut(QKeySequence::New);
  auto* open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open Workspace..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(w_, tr("Open workspace"), QDir::homePath(),
                                                      tr("Steerbench workspaces (*.sbw);;All files (*)"));
    if (!path.isEmpty()) w_->openWorkspace(path);
  });
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  updateRecentMenu();
  connect(ws, &WorkspaceController::recentChanged, this, &MainActions::updateRecentMenu);
  file->addAction(tr("Open &Default Workspace"), w_, &MainWindow::openDefaultWorkspace);
  file->addSeparator();
  file->addAction(tr("&Add Kernel Files..."), this, [this] {
    const QStringList paths = QFileDialog::getOpenFileNames(w_, tr("Add kernel files to the workspace"),
                                                            QDir::homePath(), tr("OpenCL C (*.cl);;All files (*)"));
    if (!paths.isEmpty()) w_->addKernelFiles(paths);
  });
  file->addAction(tr("Ingest &Corpus Folder..."), this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(w_, tr("Ingest a folder of OpenCL code"), QDir::homePath());
    if (!dir.isEmpty()) w_->ingestFolder(dir);
  });
  auto* import = file->addAction(tr("&Import Reference CSV..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(w_, tr("Import reference benchmarks (DevMap layout)"),
                                                      QDir::homePath(), tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty()) w_->importReference(path);
  });
  import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
  exportPlot_ = file->addAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("&Export Plot..."), w_,
                                &MainWindow::exportPlot);
  exportPlot_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  file->addAction(QIcon::fromTheme(QStringLiteral("x-office-spreadsheet")), tr("Export &Labelled Kernels (CSV)..."),
                  this, [this] { w_->devicePanel()->exportCsv(); });
  file->addSeparator();
  auto* quit = file->addAction(tr("&Quit"), w_, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
}

void MainActions::buildEditMenu() {
  auto* edit = w_->menuBar()->addMenu(tr("&Edit"));
  auto* undo = w_->undoStack();
  auto* undoAct = undo->createUndoAction(this, tr("&Undo"));
  undoAct->setShortcut(QKeySequence::Undo);
  auto* redoAct = undo->createRedoAction(this, tr("&Redo"));
  redoAct->setShortcut(QKeySequence::Redo);
  // In the editor, Ctrl+Z undoes typing (QScintilla); elsewhere it undoes target and kernel changes.
  undoAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  redoAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  for (QWidget* w : {static_cast<QWidget*>(w_->plot()), static_cast<QWidget*>(w_->targetTable())}) {
    w->addAction(undoAct);
    w->addAction(redoAct);
  }
  edit->addAction(undoAct);
  edit->addAction(redoAct);
  edit->addSeparator();
  auto* asTarget = edit->addAction(tr("Use Selected Kernel as &Target"), w_->targets(), &TargetController::useSelectedKernel);
  asTarget->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
  nearest_ = edit->addAction(tr("&Nearest Kernels"), w_->targets(), &TargetController::nearestKernels);
  nearest_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
  edit->addSeparator();
  auto* prefs = edit->addAction(QIcon::fromTheme(QStringLiteral("preferences-system")), tr("&Preferences..."), w_,
                                &MainWindow::showPreferences);
  prefs->setShortcut(QKeySequence::Preferences);
  if (prefs->shortcut().isEmpty()) prefs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
}

void MainActions::buildViewMenu() {
  viewMenu_ = w_->menuBar()->addMenu(tr("&View"));
  auto* plot = w_->plot();
  auto* layers = viewMenu_->addMenu(tr("&Layers"));
  for (int l = 0; l < FeaturePlot::kLayers; ++l) {
    auto* a = layers->addAction(FeaturePlot::layerTitle(FeaturePlot::Layer(l)));
    a->setCheckable(true);
    a->setChecked(true);
    a->setObjectName(QStringLiteral("layer%1").arg(l));
    connect(a, &QAction::toggled, plot, [plot, l](bool on) { plot->setLayerVisible(FeaturePlot::Layer(l), on); });
  }
  resetZoom_ = viewMenu_->addAction(QIcon::fromTheme(QStringLiteral("zoom-original")), tr("&Reset Zoom"), plot,
                                    &FeaturePlot::resetZoom);
  resetZoom_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  viewMenu_->addAction(tr("Zoom &In"), this, [plot] {
    plot->setFocus();
    plot->zoomBy(1.25, plot->valueAt(plot->viewport()->rect().center()));
  })->setShortcut(QKeySequence::ZoomIn);
  viewMenu_->addAction(tr("Zoom &Out"), this, [plot] {
    plot->zoomBy(0.8, plot->valueAt(plot->viewport()->rect().center()));
  })->setShortcut(QKeySequence::ZoomOut);
  viewMenu_->addSeparator();
  for (auto* d : w_->findChildren<QDockWidget*>())
    viewMenu_->addAction(d->toggleViewAction());
  auto* reset = viewMenu_->addAction(tr("Reset &Layout"), w_, &MainWindow::resetLayout);
  reset->setObjectName(QStringLiteral("resetLayout"));
  viewMenu_->addSeparator();
}

void MainActions::buildToolBar() {
  auto* bar = w_->addToolBar(tr("Plot"));
  bar->setObjectName(QStringLiteral("plotToolBar"));
  bar->addWidget(new QLabel(tr("Space "), bar));
  spaceBox_ = new QComboBox(bar);
  spaceBox_->setObjectName(QStringLiteral("spaceBox"));
  int shortcut = 1;
  for (const auto& s : features::featureSpaces()) {
    spaceBox_->addItem(QString::fromStdString(s.name));
    spaceBox_->setItemData(spaceBox_->count() - 1, QString::fromStdString(s.description), Qt::ToolTipRole);
    auto* a = viewMenu_->addAction(tr("Show the %1 space").arg(QString::fromStdString(s.name)), this,
                                   [this, n = QString::fromStdString(s.name)] { w_->setSpace(n); });
    a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_0 + shortcut++)));
  }
  spaceBox_->setCurrentText(w_->selection()->space());
  connect(spaceBox_, &QComboBox::currentTextChanged, w_, &MainWindow::setSpace);
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
  fitBox->setCurrentIndex(std::max(0, fitBox->findData(w_->preferences().pcaLayer)));
  connect(fitBox, &QComboBox::currentIndexChanged, this, [this, fitBox] {
    w_->preferences().pcaLayer = fitBox->currentData().toString();
    w_->preferences().save();
    w_->reloadPlot();
  });
  bar->addWidget(fitBox);
  bar->addSeparator();
  bar->addAction(resetZoom_);
  bar->addAction(exportPlot_);
  bar->addAction(nearest_);
}

void MainActions::showSpace(const QString& space) { spaceBox_->setCurrentText(space); }

void MainActions::updateAxisChoices() {
  updatingAxes_ = true;
  auto* plot = w_->plot();
  const auto& dims = plot->workspaceTable().dimensions;
  xBox_->clear();
  yBox_->clear();
  xBox_->addItem(tr("PCA-2"));
  yBox_->addItem(tr("(PCA-2)"));
  for (const auto& d : dims) {
    xBox_->addItem(QString::fromStdString(d));
    yBox_->addItem(QString::fromStdString(d));
  }
  xBox_->setCurrentIndex(plot->pcaAxes() ? 0 : plot->dimX() + 1);
  yBox_->setCurrentIndex(plot->pcaAxes() ? 0 : plot->dimY() + 1);
  yBox_->setEnabled(!plot->pcaAxes());
  updatingAxes_ = false;
}

void MainActions::setAxes(int dimX, int dimY) {
  auto* plot = w_->plot();
  const int dims = int(plot->workspaceTable().dimensions.size());
  if (dimX >= 0 && dimY == dimX && dims > 1) dimY = (dimX + 1) % dims;
  plot->setAxes(dimX, dimY);
  updateAxisChoices();
}

void MainActions::updateRecentMenu() {
  recentMenu_->clear();
  for (const auto& path : Preferences::recentWorkspaces())
    recentMenu_->addAction(path, this, [this, path] { w_->openWorkspace(path); });
  recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

} // namespace steerbench::ui

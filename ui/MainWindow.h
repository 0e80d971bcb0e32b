// The workbench window: the plot and the kernel editor side by side in the
// centre, the Target and Steering docks to their left, Features, Kernels,
// Training, Devices and Evaluation below; one shared selection; jobs in the
// status bar; preferences, undo and About. The work is the controllers'
// (WorkspaceController, EditorController, TargetController) and the
// panels'; the window lays them out and wires them together.
#pragma once

#include "FeaturePlot.h"
#include "Preferences.h"
#include "Workbench.h"

#include <QByteArray>
#include <QMainWindow>

class QSplitter;
class QUndoStack;

namespace steerbench::ui {

class DevicePanel;
class EditorController;
class EngineBridge;
class EvaluationPanel;
class FeaturesView;
class JobStatus;
class KernelEditor;
class KernelList;
class MainActions;
class PlotLegend;
class SelectionModel;
class SteeringPanel;
class TargetController;
class TargetTable;
class TrainingPanel;
class WorkspaceController;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Opens a workspace (on the engine thread). An existing file that cannot
  /// be opened (corrupt, newer, read-only, not a workspace) gets a dialog and
  /// the current workspace stays open. `create` makes a missing file.
  void openWorkspace(const QString& path, bool create = false);
  /// Opens the default workspace; on first run it is built from the Debian
  /// corpus preset, with progress in the status bar.
  void openDefaultWorkspace();
  /// Shows a DevMap-layout CSV as the reference layer (a clear dialog when it is not).
  void importReference(const QString& csvPath);
  /// Measures kernel files and stores them as your kernels (a job).
  void addKernelFiles(const QStringList& paths);
  /// Ingests a folder of OpenCL code into the corpus (a job, resumable).
  void ingestFolder(const QString& folder);
  void setSpace(const QString& space);
  /// Brings a dock to the front: features, training, devices, steering, evaluation, target or
  /// kernels. False if no such dock.
  bool raiseDock(const QString& name);
  /// The default layout: plot and editor side by side (the editor a third of
  /// the window), the docks around them. View > Reset Layout.
  void resetLayout();

  // For tests, benches and scripts.
  [[nodiscard]] FeaturePlot* plot() const { return bench_.plot; }
  [[nodiscard]] PlotLegend* legend() const { return legend_; }
  [[nodiscard]] KernelEditor* editor() const { return bench_.editor; }
  [[nodiscard]] TargetTable* targetTable() const { return bench_.targets; }
  [[nodiscard]] KernelList* kernelList() const { return bench_.list; }
  [[nodiscard]] FeaturesView* featuresView() const { return bench_.features; }
  [[nodiscard]] TrainingPanel* trainingPanel() const { return training_; }
  [[nodiscard]] DevicePanel* devicePanel() const { return devices_; }
  [[nodiscard]] SteeringPanel* steeringPanel() const { return steering_; }
  [[nodiscard]] EvaluationPanel* evaluationPanel() const { return evaluation_; }
  [[nodiscard]] SelectionModel* selection() const { return bench_.selection; }
  [[nodiscard]] EngineBridge* engine() const { return bench_.engine; }
  [[nodiscard]] QUndoStack* undoStack() const { return bench_.undo; }
  [[nodiscard]] QString workspacePath() const;
  /// True while the engine has queued or running work.
  [[nodiscard]] bool busy() const;
  /// The last error dialog's text (empty if none was shown).
  [[nodiscard]] QString lastError() const { return lastError_; }
  /// The model this workspace trains: WORKSPACE.model.ckpt, as `train` writes it. Fill holes
  /// uses it when it exists, else the default model.
  [[nodiscard]] QString checkpointPath() const;

  // What the menus reach.
  [[nodiscard]] WorkspaceController* workspaces() const { return workspaces_; }
  [[nodiscard]] TargetController* targets() const { return targetControl_; }
  [[nodiscard]] Preferences& preferences() { return prefs_; }
  void reloadPlot();
  void exportPlot();
  void showPreferences();
  void showAbout();
  void showError(const QString& title, const QString& text);

signals:
  void workspaceOpened(const QString& path);
  void plotReloaded();
  void kernelShown(qint64 id);
  void evaluated(bool compiled);
  void kernelSaved(qint64 id);
  void holesFilled(bool complete);
  void errorShown(const QString& title, const QString& text);
  /// A job of addKernelFiles or ingestFolder finished (also when cancelled).
  void jobDone(const QString& summary);

protected:
  void closeEvent(QCloseEvent* e) override;
  void changeEvent(QEvent* e) override;
  void showEvent(QShowEvent* e) override;

private:
  void buildCentre();
  void buildDocks();
  void connectSelection();
  void connectSteering();
  void connectViews();
  void applyTheme();
  /// The default layout's sizes for the window's present size.
  void applyDefaultSizes();

  Preferences prefs_;
  Workbench bench_;
  PlotLegend* legend_ = nullptr;
  QSplitter* centre_ = nullptr;
  TrainingPanel* training_ = nullptr;
  DevicePanel* devices_ = nullptr;
  SteeringPanel* steering_ = nullptr;
  EvaluationPanel* evaluation_ = nullptr;
  JobStatus* jobs_ = nullptr;
  WorkspaceController* workspaces_ = nullptr;
  EditorController* editorControl_ = nullptr;
  TargetController* targetControl_ = nullptr;
  MainActions* actions_ = nullptr;
  QByteArray defaultState_; ///< the docks as built, before a saved layout is restored
  bool laidOut_ = false;    ///< the first show placed the docks (saved layout or default)
  QString lastError_;
};

} // namespace steerbench::ui

// The views and services the main window's controllers share: one engine
// bridge, one selection, one undo stack, the plot, the editor and the docks'
// views, the preferences, and how to tell the user something.
#pragma once

#include <QString>

#include <functional>

class QLabel;
class QMainWindow;
class QUndoStack;

namespace steerbench::ui {

class EngineBridge;
class FeaturePlot;
class FeaturesView;
class KernelEditor;
class KernelList;
class SelectionModel;
class TargetTable;
struct Preferences;

struct Workbench {
  QMainWindow* window = nullptr;
  EngineBridge* engine = nullptr;
  SelectionModel* selection = nullptr;
  QUndoStack* undo = nullptr;
  FeaturePlot* plot = nullptr;
  KernelEditor* editor = nullptr;
  FeaturesView* features = nullptr;
  KernelList* list = nullptr;
  TargetTable* targets = nullptr;
  QLabel* workspaceLabel = nullptr; ///< in the status bar
  Preferences* prefs = nullptr;
  /// A window-modal error dialog (never blocks the event loop).
  std::function<void(const QString& title, const QString& text)> showError;

  /// A message in the status bar for `ms` milliseconds (0: until replaced).
  void message(const QString& text, int ms = 8000) const;
  /// Threads for engine jobs: the preference, or every core.
  [[nodiscard]] unsigned jobThreads() const;
};

} // namespace steerbench::ui

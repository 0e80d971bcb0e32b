// The main window's menus and tool bar: File (workspaces, kernel files,
// corpus folders, reference CSVs, exports), Edit (undo, targets,
// preferences), View (layers, zoom, docks, spaces, Reset Layout), Help; and
// the plot's tool bar (space, axes, the layer PCA-2 is fitted on).
#pragma once

#include <QObject>

class QAction;
class QComboBox;
class QMenu;

namespace steerbench::ui {

class MainWindow;

class MainActions : public QObject {
  Q_OBJECT
public:
  explicit MainActions(MainWindow* window);
  /// The axis boxes follow the plot (its space's dimensions, PCA-2 or raw).
  void updateAxisChoices();
  void updateRecentMenu();
  /// The space box follows the selection.
  void showSpace(const QString& space);

private:
  void buildFileMenu();
  void buildEditMenu();
  void buildViewMenu();
  void buildToolBar();
  /// PCA-2 (dimX < 0) or two raw dimensions.
  void setAxes(int dimX, int dimY);

  MainWindow* w_;
  QComboBox* spaceBox_ = nullptr;
  QComboBox* xBox_ = nullptr;
  QComboBox* yBox_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QAction* resetZoom_ = nullptr;
  QAction* exportPlot_ = nullptr;
  QAction* nearest_ = nullptr;
  bool updatingAxes_ = false;
};

} // namespace steerbench::ui

// The current target, one row per dimension of its space. Every value can be
// edited exactly; edits go through the undo stack.
#pragma once

#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

namespace steerbench::ui {

class SelectionModel;

class TargetTable : public QWidget {
  Q_OBJECT
public:
  TargetTable(SelectionModel* selection, QWidget* parent = nullptr);
  /// The dimension names of the space shown.
  void setDimensions(const std::vector<std::string>& dimensions);
  [[nodiscard]] QTableWidget* table() const { return table_; }
  /// Why the target is not where the plot was clicked (empty when it is, or it was not clicked).
  [[nodiscard]] QString note() const;

signals:
  /// The user typed a new value for dimension `dim`.
  void valueEdited(int dim, double value);
  void nearestRequested();
  void clearRequested();

private:
  void refresh();
  SelectionModel* selection_;
  QTableWidget* table_;
  QLabel* origin_;
  QLabel* note_;
  std::vector<std::string> dims_;
  bool filling_ = false;
};

} // namespace steerbench::ui

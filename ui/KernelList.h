// A list of kernels: those inside a dragged rectangle, or the nearest ones to
// a target. Activating a row selects its kernel.
#pragma once

#include <QWidget>

#include <cstdint>

class QLabel;
class QTreeWidget;

namespace steerbench::ui {

class KernelList : public QWidget {
  Q_OBJECT
public:
  struct Entry {
    std::int64_t id = 0; ///< 0 for a reference benchmark
    QString name, group;
    double distance = -1; ///< < 0: not shown
  };
  explicit KernelList(QWidget* parent = nullptr);
  void setEntries(const QString& title, const QVector<Entry>& entries);
  [[nodiscard]] QTreeWidget* tree() const { return tree_; }
  [[nodiscard]] int count() const;

signals:
  void kernelActivated(std::int64_t id);

private:
  QLabel* title_;
  QTreeWidget* tree_;
};

} // namespace steerbench::ui

#include "KernelList.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace steerbench::ui {

KernelList::KernelList(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  title_ = new QLabel(tr("Drag a rectangle on the plot, or ask for the nearest kernels."), this);
  title_->setWordWrap(true);
  layout->addWidget(title_);
  tree_ = new QTreeWidget(this);
  tree_->setHeaderLabels({tr("Id"), tr("Kernel"), tr("Role"), tr("Distance")});
  tree_->setRootIsDecorated(false);
  tree_->setSortingEnabled(true);
  tree_->setUniformRowHeights(true);
  layout->addWidget(tree_, 1);
  auto activate = [this](QTreeWidgetItem* item) {
    if (item && item->data(0, Qt::UserRole).toLongLong() > 0) emit kernelActivated(item->data(0, Qt::UserRole).toLongLong());
  };
  // Keyboard moves and clicks both select (a click on the current row too).
  connect(tree_, &QTreeWidget::currentItemChanged, this, activate);
  connect(tree_, &QTreeWidget::itemClicked, this, activate);
}

void KernelList::setEntries(const QString& title, const QVector<Entry>& entries) {
  title_->setText(title);
  tree_->setSortingEnabled(false);
  tree_->clear();
  QList<QTreeWidgetItem*> items;
  for (const auto& e : entries) {
    auto* item = new QTreeWidgetItem;
    item->setData(0, Qt::DisplayRole, e.id > 0 ? QVariant(qlonglong(e.id)) : QVariant(QStringLiteral("-")));
    item->setData(0, Qt::UserRole, qlonglong(e.id));
    item->setText(1, e.name);
    item->setText(2, e.group);
    if (e.distance >= 0) item->setData(3, Qt::DisplayRole, e.distance);
    items << item;
  }
  tree_->addTopLevelItems(items);
  tree_->setSortingEnabled(true);
  const bool ranked = std::any_of(entries.begin(), entries.end(), [](const Entry& e) { return e.distance >= 0; });
  tree_->sortByColumn(ranked ? 3 : 0, Qt::AscendingOrder);
  for (int c = 0; c < 4; ++c)
    tree_->resizeColumnToContents(c);
}

int KernelList::count() const { return tree_->topLevelItemCount(); }

} // namespace steerbench::ui

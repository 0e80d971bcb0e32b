#include "FeaturesView.h"

#include <QHeaderView>

namespace steerbench::ui {

FeaturesView::FeaturesView(QWidget* parent) : QTreeWidget(parent) {
  setHeaderLabels({tr("Feature"), tr("Value")});
  setUniformRowHeights(true);
}

void FeaturesView::showVectors(const QString& title, const QVector<SpaceVector>& vectors) {
  vectors_ = vectors;
  clear();
  setHeaderLabels({title, tr("Value")});
  for (const auto& v : vectors) {
    auto* top = new QTreeWidgetItem(this, {v.space, v.values.empty() ? v.note : v.note.isEmpty() ? tr("%1 dimensions").arg(v.values.size()) : v.note});
    for (std::size_t i = 0; i < v.values.size() && i < v.dimensions.size(); ++i)
      new QTreeWidgetItem(top, {QString::fromStdString(v.dimensions[i]), QString::number(v.values[i], 'g', 8)});
    top->setExpanded(v.space == QLatin1String("grewe"));
  }
  resizeColumnToContents(0);
}

} // namespace steerbench::ui

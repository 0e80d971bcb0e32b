#include "TargetTable.h"

#include "SelectionModel.h"

#include "features/FeatureSpace.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace steerbench::ui {

TargetTable::TargetTable(SelectionModel* selection, QWidget* parent) : QWidget(parent), selection_(selection) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  origin_ = new QLabel(tr("No target: click empty space on the plot, or use a kernel's features."), this);
  origin_->setWordWrap(true);
  layout->addWidget(origin_);
  note_ = new QLabel(this);
  note_->setObjectName(QStringLiteral("targetNote"));
  note_->setWordWrap(true);
  note_->setVisible(false);
  layout->addWidget(note_);
  table_ = new QTableWidget(0, 2, this);
  table_->setHorizontalHeaderLabels({tr("Dimension"), tr("Target value")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->setVisible(false);
  layout->addWidget(table_, 1);
  auto* buttons = new QHBoxLayout;
  auto* nearest = new QPushButton(tr("Nearest kernels"), this);
  nearest->setToolTip(tr("List the corpus kernels nearest this target in the full space"));
  auto* clear = new QPushButton(tr("Clear target"), this);
  buttons->addWidget(nearest);
  buttons->addWidget(clear);
  layout->addLayout(buttons);
  connect(nearest, &QPushButton::clicked, this, &TargetTable::nearestRequested);
  connect(clear, &QPushButton::clicked, this, &TargetTable::clearRequested);
  connect(selection_, &SelectionModel::targetChanged, this, &TargetTable::refresh);
  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (filling_ || item->column() != 1) return;
    bool ok = false;
    const double v = item->text().trimmed().toDouble(&ok);
    if (!ok || v < 0) {
      refresh(); // not a number: show the stored value again
      return;
    }
    emit valueEdited(item->row(), v);
  });
}

QString TargetTable::note() const { return note_->isHidden() ? QString() : note_->text(); }

void TargetTable::setDimensions(const std::vector<std::string>& dimensions) {
  dims_ = dimensions;
  refresh();
}

void TargetTable::refresh() {
  filling_ = true;
  const auto& t = selection_->target();
  // A target names its space: show its own dimensions (an undo can bring
  // back a target of another space than the one on the plot).
  std::vector<std::string> dims = dims_;
  if (t) {
    try {
      dims = features::featureSpace(t->space.toStdString()).dimensions;
    } catch (const std::exception&) {
    }
  }
  table_->setRowCount(int(dims.size()));
  for (int r = 0; r < int(dims.size()); ++r) {
    auto* name = new QTableWidgetItem(QString::fromStdString(dims[std::size_t(r)]));
    name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    table_->setItem(r, 0, name);
    const bool has = t && std::size_t(r) < t->values.size();
    auto* value = new QTableWidgetItem(has ? QString::number(t->values[std::size_t(r)], 'g', 10) : QString());
    value->setFlags(has ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable : Qt::ItemIsEnabled);
    table_->setItem(r, 1, value);
  }
  origin_->setText(t ? tr("Target in the %1 space, from %2.").arg(t->space, QString(t->origin).replace(QLatin1Char(','), QStringLiteral(", "))) // lines may break after a comma
                     : tr("No target: click empty space on the plot, or use a kernel's features."));
  note_->setText(t ? t->note : QString());
  note_->setVisible(t && !t->note.isEmpty());
  filling_ = false;
}

} // namespace steerbench::ui

#include "SelectionModel.h"

namespace steerbench::ui {

void SelectionModel::setSpace(const QString& space) {
  if (space == space_) return;
  space_ = space;
  emit spaceChanged(space_);
}

void SelectionModel::setCurrentKernel(std::int64_t id) {
  if (id == kernel_) return;
  kernel_ = id;
  emit currentKernelChanged(id);
}

void SelectionModel::setTarget(const std::optional<Target>& target) {
  if (target == target_) return;
  target_ = target;
  emit targetChanged();
}

void SelectionModel::setPicked(const QVector<std::int64_t>& ids) {
  picked_ = ids;
  emit pickedChanged();
}

} // namespace steerbench::ui

// Targets: a click on empty plot space (in PCA axes the feasible vector
// nearest the click, from core's steer::targetFromPcaClick, with the click
// kept so the plot joins it to the target; in raw axes the two dimensions
// set exactly), a kernel's features, typed values; and the kernels nearest
// the target. Every change goes through the undo stack.
#pragma once

#include "FeaturePlot.h"
#include "Workbench.h"

#include <QObject>
#include <QPointF>

namespace steerbench::ui {

class TargetController : public QObject {
  Q_OBJECT
public:
  TargetController(const Workbench& bench, QObject* parent = nullptr);

  /// A click on empty plot space at `point` (axis values).
  void fromClick(QPointF point);
  /// A point's features as the target.
  void useAsTarget(const FeaturePlot::PointRef& point);
  /// The selected kernel's features as the target (Edit menu).
  void useSelectedKernel();
  /// The user typed a value for dimension `dim`.
  void editValue(int dim, double value);
  void clear();
  /// Lists the kernels nearest the target (or the selected kernel) in the full space.
  void nearestKernels();
  /// True when the plot shows the selected space (not the previous one, still loading).
  [[nodiscard]] bool plotCurrent() const;

signals:
  /// A click's target was set (after the engine found it).
  void clickTargetSet();

private:
  Workbench bench_;
};

} // namespace steerbench::ui

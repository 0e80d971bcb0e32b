// The one shared selection: the feature space shown, the current kernel, the
// current target and the kernels picked together. Views observe it and never
// call each other; a click in one view moves the others.
#pragma once

#include <QObject>
#include <QPointF>
#include <QString>
#include <QVector>

#include <cstdint>
#include <optional>
#include <vector>

namespace steerbench::ui {

/// A point in feature space that steering would aim at. It always names its space.
struct Target {
  QString space;
  std::vector<double> values;
  QString origin; ///< how it was made: "plot click", "kernel #12", "edited"
  /// A click on the PCA plot: where it was (the target is the feasible vector
  /// nearest it, which may project elsewhere), and why they differ.
  std::optional<QPointF> click;
  QString note;
  bool operator==(const Target& o) const {
    return space == o.space && values == o.values && origin == o.origin && click == o.click && note == o.note;
  }
};

class SelectionModel : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;

  [[nodiscard]] const QString& space() const { return space_; }
  [[nodiscard]] std::int64_t currentKernel() const { return kernel_; }
  [[nodiscard]] const std::optional<Target>& target() const { return target_; }
  [[nodiscard]] const QVector<std::int64_t>& picked() const { return picked_; }

public slots:
  void setSpace(const QString& space);
  /// 0 clears the selection.
  void setCurrentKernel(std::int64_t id);
  void setTarget(const std::optional<Target>& target);
  void setPicked(const QVector<std::int64_t>& ids);

signals:
  void spaceChanged(const QString& space);
  void currentKernelChanged(std::int64_t id);
  void targetChanged();
  void pickedChanged();

private:
  QString space_ = QStringLiteral("grewe");
  std::int64_t kernel_ = 0;
  std::optional<Target> target_;
  QVector<std::int64_t> picked_;
};

} // namespace steerbench::ui

// The feature vectors of the kernel in hand, in every space.
#pragma once

#include <QTreeWidget>

#include <string>
#include <vector>

namespace steerbench::ui {

struct SpaceVector {
  QString space;
  std::vector<std::string> dimensions;
  std::vector<double> values; ///< empty when it could not be measured
  QString note;               ///< e.g. "measured on the AST recovered from errors", or the error
};

class FeaturesView : public QTreeWidget {
  Q_OBJECT
public:
  explicit FeaturesView(QWidget* parent = nullptr);
  void showVectors(const QString& title, const QVector<SpaceVector>& vectors);
  [[nodiscard]] const QVector<SpaceVector>& vectors() const { return vectors_; }

private:
  QVector<SpaceVector> vectors_;
};

} // namespace steerbench::ui

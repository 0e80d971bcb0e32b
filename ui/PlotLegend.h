// The feature plot's legend: every layer's full name, colour and marker, on
// as many lines as the plot's width needs (a chart's own legend cuts names
// short in a narrow window). Follows FeaturePlot::legendChanged.
#pragma once

#include <QLabel>

namespace steerbench::ui {

class FeaturePlot;

class PlotLegend : public QLabel {
  Q_OBJECT
public:
  PlotLegend(FeaturePlot* plot, QWidget* parent = nullptr);
  /// The names shown, in order (for tests).
  [[nodiscard]] QStringList names() const { return names_; }
  /// True when every line of the legend fits the height it has.
  [[nodiscard]] bool fits() const;

private:
  void refresh();
  FeaturePlot* plot_;
  QStringList names_;
};

} // namespace steerbench::ui

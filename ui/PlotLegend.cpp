#include "PlotLegend.h"

#include "FeaturePlot.h"

namespace steerbench::ui {

PlotLegend::PlotLegend(FeaturePlot* plot, QWidget* parent) : QLabel(parent), plot_(plot) {
  setObjectName(QStringLiteral("plotLegend"));
  setWordWrap(true);
  setTextFormat(Qt::RichText);
  setAlignment(Qt::AlignHCenter | Qt::AlignTop);
  setContentsMargins(4, 2, 4, 4);
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  connect(plot_, &FeaturePlot::legendChanged, this, &PlotLegend::refresh);
  refresh();
}

void PlotLegend::refresh() {
  names_.clear();
  QStringList items;
  for (const auto& e : plot_->legendEntries()) {
    names_ << e.name;
    // Non-breaking spaces inside an entry: lines break between entries only.
    QString name = e.name.toHtmlEscaped();
    name.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
    items << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                 .arg(e.color.name(), e.marker.toHtmlEscaped(), name);
  }
  setText(items.join(QStringLiteral(" &nbsp;&nbsp; ")));
}

bool PlotLegend::fits() const { return height() >= heightForWidth(width()); }

} // namespace steerbench::ui

#include "FeaturePlot.h"

#include "PlotItems.h"

#include "model/Conditioning.h"

#include <QApplication>
#include <QChart>
#include <QContextMenuEvent>
#include <QFile>
#include <QGuiApplication>
#include <QImageWriter>
#include <QMenu>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QPainter>
#include <QRubberBand>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QToolTip>
#include <QGraphicsItem>
#include <QLegendMarker>
#include <QLocale>
#include <QLineSeries>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace steerbench::ui {
namespace {

using Layer = FeaturePlot::Layer;

/// Short names for the legend (the long ones are in menus and tooltips).
QString legendName(Layer l) {
  switch (l) {
  case Layer::Corpus: return FeaturePlot::tr("Corpus");
  case Layer::User: return FeaturePlot::tr("Yours");
  case Layer::Generated: return FeaturePlot::tr("Generated");
  case Layer::Reference: return FeaturePlot::tr("Reference");
  case Layer::Evaluated: return FeaturePlot::tr("Evaluated");
  case Layer::Target: return FeaturePlot::tr("Target");
  }
  return {};
}

bool workspaceLayer(Layer l) { return l == Layer::Corpus || l == Layer::User || l == Layer::Generated; }
bool bigLayer(Layer l) { return workspaceLayer(l) || l == Layer::Reference; }

/// Each layer's colour and its legend's marker, by Layer.
struct LayerStyle {
  QColor color;
  QString marker;
};
LayerStyle layerStyle(Layer l) {
  switch (l) {
  case Layer::Corpus: return {QColor(70, 130, 200), QStringLiteral("■")};
  case Layer::User: return {QColor(240, 150, 30), QStringLiteral("■")};
  case Layer::Generated: return {QColor(0, 170, 170), QStringLiteral("■")};
  case Layer::Reference: return {QColor(40, 170, 90), QStringLiteral("▲")};
  case Layer::Evaluated: return {QColor(200, 60, 200), QStringLiteral("◆")};
  case Layer::Target: return {QColor(220, 40, 40), QStringLiteral("★")};
  }
  return {};
}

} // namespace

QString FeaturePlot::layerTitle(Layer l) {
  switch (l) {
  case Layer::Corpus: return tr("Corpus kernels");
  case Layer::User: return tr("Your kernels");
  case Layer::Generated: return tr("Generated kernels");
  case Layer::Reference: return tr("Reference benchmarks");
  case Layer::Evaluated: return tr("Evaluated kernel");
  case Layer::Target: return tr("Target");
  }
  return {};
}

FeaturePlot::Layer FeaturePlot::layerOfRole(const std::string& role) {
  switch (engine::originOfRole(role)) {
  case engine::KernelOrigin::User: return Layer::User;
  case engine::KernelOrigin::Generated: return Layer::Generated;
  case engine::KernelOrigin::Corpus: break;
  }
  return Layer::Corpus;
}

FeaturePlot::FeaturePlot(QWidget* parent) : QChartView(new QChart, parent) {
  setRenderHint(QPainter::Antialiasing, false);
  setRubberBand(QChartView::NoRubberBand);
  setDragMode(QGraphicsView::NoDrag);
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  // The legend is the plot pane's own (PlotLegend): it wraps, where the
  // chart's would cut names short in a narrow window.
  chart()->legend()->hide();
  chart()->setAnimationOptions(QChart::NoAnimation);
  axisX_ = new QValueAxis;
  axisY_ = new QValueAxis;
  chart()->addAxis(axisX_, Qt::AlignBottom);
  chart()->addAxis(axisY_, Qt::AlignLeft);
  band_ = new QRubberBand(QRubberBand::Rectangle, viewport());
  for (int l = 0; l < kLayers; ++l)
    if (bigLayer(Layer(l))) clouds_[std::size_t(l)] = new PointCloudItem(chart(), axisX_, axisY_);
  steerCloud_ = new SteeringCloudItem(chart(), axisX_, axisY_);
  auto repaintClouds = [this] {
    for (auto* c : clouds_)
      if (c) c->update();
  };
  connect(axisX_, &QValueAxis::rangeChanged, this, repaintClouds);
  connect(axisY_, &QValueAxis::rangeChanged, this, repaintClouds);
  connect(axisX_, &QValueAxis::rangeChanged, this, [this] { steerCloud_->update(); });
  connect(axisY_, &QValueAxis::rangeChanged, this, [this] { steerCloud_->update(); });
  connect(chart(), &QChart::plotAreaChanged, this, [this] {
    steerCloud_->areaChanged();
    for (auto* c : clouds_)
      if (c) c->areaChanged();
  });
  rebuild();
}

bool FeaturePlot::wantsGl() const {
  // OpenGL draws big layers faster than raster can, but with it every repaint
  // of the window is composed through OpenGL (about 30 ms a frame on a
  // software renderer such as Mesa's llvmpipe under Xvfb). Small plots are
  // drawn on raster, which is then faster.
  if (!glAllowed_ || !openGlAvailable()) return false;
  return int(workspace_.size()) > kDetailThreshold || int(reference_.size()) > kDetailThreshold;
}

bool FeaturePlot::openGlAvailable() {
  static const bool available = [] {
    const QString platform = QGuiApplication::platformName();
    if (platform != QLatin1String("xcb") && !platform.startsWith(QLatin1String("wayland"))) return false;
    QOpenGLContext context;
    if (!context.create()) return false;
    QOffscreenSurface surface;
    surface.create();
    const bool ok = surface.isValid() && context.makeCurrent(&surface);
    if (ok) context.doneCurrent();
    return ok;
  }();
  return available;
}

void FeaturePlot::setOpenGlAllowed(bool allowed) {
  glAllowed_ = allowed;
  if (wantsGl() == useGl_) return;
  useGl_ = wantsGl();
  rebuild();
}

void FeaturePlot::setTables(engine::FeatureTable workspace, engine::FeatureTable reference,
                            std::optional<features::Pca> pca, const QString& fitNote) {
  const bool sameSpace = workspace.space == workspace_.space && workspace.dimensions == workspace_.dimensions;
  workspace_ = std::move(workspace);
  reference_ = std::move(reference);
  totalsHint_ = int(workspace_.size());
  pca_ = std::move(pca);
  fitNote_ = fitNote;
  if (!sameSpace) {
    evaluated_.reset();
    target_.reset();
  }
  const int dims = int(workspace_.dimensions.size());
  if (dimX_ >= dims || dimY_ >= dims || (!pca_ && dimX_ < 0) || (pca_ && wantsPca_ && dimX_ >= 0)) {
    // Raw axes stand in while there is nothing to fit a PCA on (an empty
    // workspace on first run); PCA-2 comes back when there is, unless the
    // user chose raw axes.
    dimX_ = pca_ ? -1 : 0;
    dimY_ = pca_ ? -1 : std::min(1, dims - 1);
  }
  if (wantsGl() != useGl_ || (series_[0] && series_[0]->markerSize() != (totalsHint_ > kDetailThreshold ? 3 : 5))) {
    useGl_ = wantsGl();
    rebuild(); // OpenGL and marker sizes follow the data's size
  } else {
    refill();
  }
}

void FeaturePlot::setAxes(int dimX, int dimY) {
  const int dims = int(workspace_.dimensions.size());
  if (dimX < 0 && !pca_) return;
  if (dimX >= 0 && (dimX >= dims || dimY < 0 || dimY >= dims)) return; // not a dimension of this space
  dimX_ = dimX < 0 ? -1 : dimX;
  dimY_ = dimX < 0 ? -1 : dimY;
  wantsPca_ = dimX < 0;
  refill();
}

void FeaturePlot::setLayerVisible(Layer layer, bool visible) {
  visible_[std::size_t(layer)] = visible;
  if (auto* s = series_[std::size_t(layer)]) s->setVisible(visible);
  if (auto* c = clouds_[std::size_t(layer)]) c->setVisible(visible && !useGl_);
  emit legendChanged();
}

void FeaturePlot::setEvaluated(const std::optional<std::vector<double>>& vector) {
  evaluated_ = vector;
  fillLayer(Layer::Evaluated);
}

void FeaturePlot::setTargetVector(const std::optional<std::vector<double>>& vector) {
  target_ = vector;
  fillLayer(Layer::Target);
  placeClick();
  emit legendChanged();
}

void FeaturePlot::setSelectedKernel(std::int64_t id) {
  selectedId_ = id;
  placeSelection();
}

void FeaturePlot::placeSelection() {
  if (!selected_) return;
  QVector<QPointF> ring;
  if (selectedId_ > 0)
    for (std::size_t r = 0; r < workspace_.ids.size(); ++r)
      if (workspace_.ids[r] == selectedId_) {
        if (auto p = project(workspace_.rows[r])) ring.push_back(*p);
        break;
      }
  selected_->replace(ring);
}

void FeaturePlot::setDarkTheme(bool dark) {
  if (dark == dark_) return;
  dark_ = dark;
  rebuild();
}

std::optional<QPointF> FeaturePlot::project(const std::vector<double>& v) const {
  if (v.size() != workspace_.dimensions.size() || v.empty()) return std::nullopt;
  if (dimX_ < 0) {
    if (!pca_) return std::nullopt;
    const auto p = pca_->transform(v);
    return QPointF(p[0], p.size() > 1 ? p[1] : 0.0);
  }
  return QPointF(v[std::size_t(dimX_)], v[std::size_t(dimY_)]);
}

void FeaturePlot::fillLayer(Layer layer) {
  const auto i = std::size_t(layer);
  LayerData d;
  auto add = [&](const std::vector<double>& v, int row) {
    if (auto p = project(v)) {
      d.all.push_back(*p);
      d.allRows.push_back(row);
    }
  };
  int total = 0;
  if (bigLayer(layer)) {
    const auto& t = layer == Layer::Reference ? reference_ : workspace_;
    for (int r = 0; r < int(t.size()); ++r)
      if (layer == Layer::Reference || layerOfRole(t.groups[std::size_t(r)]) == layer)
        add(t.rows[std::size_t(r)], r), ++total;
  } else {
    const auto& v = layer == Layer::Evaluated ? evaluated_ : target_;
    if (v) add(*v, 0), total = 1;
  }
  totals_[i] = total;
  data_[i] = std::move(d);
  thinLayer(layer);
  if (series_[i]) series_[i]->setName(legendName(layer) + QStringLiteral(" (%1)").arg(total));
}

void FeaturePlot::thinLayer(Layer layer) {
  auto& d = data_[std::size_t(layer)];
  const int n = int(d.all.size());
  if (!bigLayer(layer) || n <= kDetailThreshold) {
    d.points = d.all;
    d.rows = d.allRows;
  } else {
    // Level of detail: one point per cell of 1/2048 of the view (under a
    // pixel at any window size). Re-made when the zoom changes 2x, so
    // zooming in brings the detail back.
    const double w = std::max(1e-12, axisX_->max() - axisX_->min()), h = std::max(1e-12, axisY_->max() - axisY_->min());
    const double cx = w / 2048, cy = h / 2048;
    struct CellHash {
      std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& c) const {
        return std::hash<std::int64_t>()(c.first * 1000003 + c.second);
      }
    };
    std::unordered_set<std::pair<std::int64_t, std::int64_t>, CellHash> seen; // exact cells, hashed
    seen.reserve(std::size_t(n));
    d.points.clear();
    d.rows.clear();
    for (int k = 0; k < n; ++k) {
      const auto ix = std::int64_t(std::floor(d.all[k].x() / cx)), iy = std::int64_t(std::floor(d.all[k].y() / cy));
      if (seen.insert({ix, iy}).second)
        d.points.push_back(d.all[k]), d.rows.push_back(d.allRows[k]);
    }
    lodSpan_ = w;
  }
  const auto i = std::size_t(layer);
  if (auto* c = clouds_[i]) {
    c->setPoints(&d.points, series_[i] ? series_[i]->color() : QColor(Qt::gray),
                 series_[i] ? series_[i]->markerSize() : 5, layer == Layer::Reference);
    c->setVisible(visible_[i] && !useGl_);
  }
  if (auto* s = series_[i]) s->replace(useGl_ || !clouds_[i] ? d.points : QVector<QPointF>{});
  updateTitle();
}

void FeaturePlot::rebuild() {
  for (auto*& s : series_) {
    if (s) {
      chart()->removeSeries(s);
      delete s;
      s = nullptr;
    }
  }
  auto drop = [this](auto*& series) {
    if (!series) return;
    chart()->removeSeries(series);
    delete series;
    series = nullptr;
  };
  drop(selected_);
  drop(clickLine_);
  drop(clickMark_);
  drop(pathSeries_);
  drop(entropySeries_);
  chart()->setTheme(dark_ ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  for (int l = 0; l < kLayers; ++l) {
    auto* s = new QScatterSeries;
    const auto layer = Layer(l);
    const QColor color = layerStyle(layer).color;
    s->setColor(color);
    s->setBorderColor(bigLayer(layer) ? color : (dark_ ? Qt::white : Qt::black));
    s->setMarkerSize(layer == Layer::Corpus ? (totalsHint_ > kDetailThreshold ? 3 : 5) : layer == Layer::Target || layer == Layer::Evaluated ? 16 : 8);
    if (layer == Layer::Reference) s->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    if (layer == Layer::Target) s->setMarkerShape(QScatterSeries::MarkerShapeStar);
    if (layer == Layer::Evaluated) s->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    if (bigLayer(layer)) s->setUseOpenGL(useGl_);
    chart()->addSeries(s);
    s->attachAxis(axisX_);
    s->attachAxis(axisY_);
    s->setVisible(visible_[std::size_t(l)]);
    series_[std::size_t(l)] = s;
  }
  selected_ = new QScatterSeries;
  selected_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
  selected_->setMarkerSize(18);
  selected_->setColor(Qt::transparent);
  selected_->setPen(QPen(dark_ ? QColor(255, 230, 80) : QColor(20, 20, 20), 2));
  chart()->addSeries(selected_);
  selected_->attachAxis(axisX_);
  selected_->attachAxis(axisY_);
  for (auto* marker : chart()->legend()->markers(selected_))
    marker->setVisible(false);
  entropySeries_ = new QScatterSeries;
  entropySeries_->setName(tr("Committee disagreement"));
  entropySeries_->setMarkerSize(6);
  entropySeries_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  entropySeries_->setBorderColor(Qt::transparent);
  entropySeries_->setColor(QColor(230, 120, 20));
  chart()->addSeries(entropySeries_);
  entropySeries_->attachAxis(axisX_);
  entropySeries_->attachAxis(axisY_);
  pathSeries_ = new QLineSeries;
  pathSeries_->setName(tr("Steering path"));
  pathSeries_->setPen(QPen(dark_ ? QColor(255, 255, 255) : QColor(30, 30, 30), 2, Qt::DashLine));
  pathSeries_->setPointsVisible(true);
  chart()->addSeries(pathSeries_);
  pathSeries_->attachAxis(axisX_);
  pathSeries_->attachAxis(axisY_);
  clickLine_ = new QLineSeries;
  clickLine_->setName(tr("From your click to the target"));
  clickLine_->setPen(QPen(QColor(220, 40, 40), 1.5, Qt::DotLine));
  chart()->addSeries(clickLine_);
  clickLine_->attachAxis(axisX_);
  clickLine_->attachAxis(axisY_);
  clickMark_ = new QScatterSeries;
  clickMark_->setName(tr("Your click"));
  clickMark_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
  clickMark_->setMarkerSize(11);
  clickMark_->setColor(Qt::transparent);
  clickMark_->setBorderColor(QColor(220, 40, 40));
  clickMark_->setPen(QPen(QColor(220, 40, 40), 2));
  chart()->addSeries(clickMark_);
  clickMark_->attachAxis(axisX_);
  clickMark_->attachAxis(axisY_);
  refill();
}

void FeaturePlot::addSteeringPoints(int generation, const std::vector<std::vector<double>>& vectors) {
  const bool first = steerPoints_.empty();
  for (const auto& v : vectors) {
    steerPoints_.emplace_back(generation, v);
    if (auto p = project(v)) steerCloud_->append(*p, generation); // only the new points are projected
  }
  if (first != steerPoints_.empty()) emit legendChanged();
}

void FeaturePlot::setTargetClick(const std::optional<QPointF>& click) {
  click_ = click;
  clickAxesPca_ = pcaAxes();
  placeClick();
}

void FeaturePlot::placeClick() {
  if (!clickLine_ || !clickMark_) return;
  QVector<QPointF> line, mark;
  const auto target = target_ ? project(*target_) : std::nullopt;
  if (click_ && clickAxesPca_ == pcaAxes() && pcaAxes() && target) {
    mark = {*click_};
    line = {*click_, *target};
  }
  const bool changed = clickMark_->isVisible() != !mark.isEmpty();
  clickLine_->replace(line);
  clickMark_->replace(mark);
  clickLine_->setVisible(!line.isEmpty());
  clickMark_->setVisible(!mark.isEmpty());
  if (changed) emit legendChanged();
}

bool FeaturePlot::targetClickShown() const { return clickMark_ && clickMark_->isVisible(); }

QVector<FeaturePlot::LegendEntry> FeaturePlot::legendEntries() const {
  QVector<LegendEntry> out;
  for (int l = 0; l < kLayers; ++l) {
    if (!visible_[std::size_t(l)]) continue;
    const auto layer = Layer(l);
    if (layer == Layer::Generated && totals_[std::size_t(l)] == 0) continue; // nothing sampled or steered yet
    QString name = layerTitle(layer);
    if (bigLayer(layer)) name += QStringLiteral(" (%1)").arg(QLocale().toString(totals_[std::size_t(l)]));
    const auto style = layerStyle(layer);
    out.push_back({name, style.color, style.marker});
  }
  if (!steerPoints_.empty())
    out.push_back({steerTitle_.isEmpty() ? tr("Steered candidates (violet early, red late)") : steerTitle_,
                   QColor(150, 60, 220), QStringLiteral("■")});
  if (pathSeries_ && pathSeries_->isVisible()) out.push_back({tr("Steering path"), dark_ ? Qt::white : Qt::black, QStringLiteral("╌")});
  if (entropySeries_ && entropySeries_->isVisible())
    out.push_back({tr("Committee disagreement"), QColor(230, 120, 20), QStringLiteral("■")});
  if (clickMark_ && clickMark_->isVisible()) out.push_back({tr("Your click, joined to the target"), QColor(220, 40, 40), QStringLiteral("○")});
  return out;
}

void FeaturePlot::setSteeringPath(const std::vector<std::vector<double>>& path) {
  steerPath_ = path;
  placeSteering();
}

void FeaturePlot::setEntropyLayer(const std::vector<std::vector<double>>& vectors,
                                  const std::vector<double>& entropies) {
  entropy_.clear();
  for (std::size_t i = 0; i < vectors.size() && i < entropies.size(); ++i)
    entropy_.emplace_back(entropies[i], vectors[i]);
  placeSteering();
}

void FeaturePlot::setSteeringTitle(const QString& title) {
  steerTitle_ = title;
  emit legendChanged();
}

void FeaturePlot::clearSteering() {
  steerTitle_.clear();
  steerPoints_.clear();
  steerPath_.clear();
  placeSteering();
  emit legendChanged();
}

void FeaturePlot::placeSteering() {
  if (!pathSeries_) return;
  // Every candidate again (the axes changed): a generation adds only its own.
  steerCloud_->clear();
  for (const auto& [g, v] : steerPoints_)
    if (auto p = project(v)) steerCloud_->append(*p, g);
  QVector<QPointF> path;
  for (const auto& v : steerPath_)
    if (auto p = project(v)) path.push_back(*p);
  pathSeries_->replace(path);
  pathSeries_->setVisible(!path.isEmpty());
  if (entropySeries_) {
    QVector<QPointF> at;
    QVector<double> h;
    double top = 0;
    for (const auto& [e, v] : entropy_)
      if (auto p = project(v)) {
        at.push_back(*p);
        h.push_back(e);
        top = std::max(top, e);
      }
    entropySeries_->replace(at);
    for (int i = 0; i < at.size(); ++i) {
      const double f = top > 0 ? h[i] / top : 0.0;
      entropySeries_->setPointConfiguration(i, QXYSeries::PointConfiguration::Color,
                                            QColor::fromHsvF(0.07f, float(0.15 + 0.85 * f), float(1.0 - 0.35 * f)));
    }
    entropySeries_->setVisible(!at.isEmpty());
  }
  emit legendChanged();
}

void FeaturePlot::refill() {
  for (int l = 0; l < kLayers; ++l)
    fillLayer(Layer(l));
  // Home view: the data's bounds plus a margin.
  double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const auto& d : data_)
    for (const auto& p : d.all) {
      x0 = std::min(x0, p.x()), x1 = std::max(x1, p.x());
      y0 = std::min(y0, p.y()), y1 = std::max(y1, p.y());
    }
  if (x0 > x1) x0 = -1, x1 = 1, y0 = -1, y1 = 1;
  const double mx = std::max(1e-6, (x1 - x0) * 0.05), my = std::max(1e-6, (y1 - y0) * 0.05);
  home_ = QRectF(QPointF(x0 - mx, y0 - my), QPointF(x1 + mx, y1 + my));
  const auto& dims = workspace_.dimensions;
  if (dimX_ < 0) {
    axisX_->setTitleText(pca_ ? tr("PC1 (%1% of variance)").arg(pca_->explainedVariance(0) * 100, 0, 'f', 1) : QString());
    axisY_->setTitleText(pca_ && pca_->components() > 1
                             ? tr("PC2 (%1% of variance)").arg(pca_->explainedVariance(1) * 100, 0, 'f', 1)
                             : QString());
  } else {
    axisX_->setTitleText(QString::fromStdString(dims.at(std::size_t(dimX_))));
    axisY_->setTitleText(QString::fromStdString(dims.at(std::size_t(dimY_))));
  }
  lodSpan_ = 0;
  placeSelection();
  placeSteering();
  placeClick();
  resetZoom();
  updateTitle();
  emit legendChanged();
}

void FeaturePlot::updateTitle() {
  const QString space = QString::fromStdString(workspace_.space);
  QString title = dimX_ < 0 ? tr("%1 space, PCA-2 fitted on %2").arg(space, fitNote_)
                            : tr("%1 space, raw dimensions").arg(space);
  int shown = 0, total = 0;
  for (int l = 0; l < kLayers; ++l)
    shown += int(data_[std::size_t(l)].points.size()), total += totals_[std::size_t(l)];
  if (shown < total) title += tr(" (drawing %1 of %2 points: one per sub-pixel cell)").arg(shown).arg(total);
  chart()->setTitle(title);
}

int FeaturePlot::shownPoints() const {
  int n = 0;
  for (const auto& d : data_)
    n += int(d.points.size());
  return n;
}

std::int64_t FeaturePlot::kernelId(const PointRef& p) const {
  if (!workspaceLayer(p.layer)) return 0;
  return p.row >= 0 && p.row < int(workspace_.ids.size()) ? workspace_.ids[std::size_t(p.row)] : 0;
}

std::vector<double> FeaturePlot::vectorOf(const PointRef& p) const {
  switch (p.layer) {
  case Layer::Corpus:
  case Layer::User:
  case Layer::Generated: return workspace_.rows.at(std::size_t(p.row));
  case Layer::Reference: return reference_.rows.at(std::size_t(p.row));
  case Layer::Evaluated: return evaluated_.value_or(std::vector<double>{});
  case Layer::Target: return target_.value_or(std::vector<double>{});
  }
  return {};
}

QString FeaturePlot::describe(const PointRef& p) const {
  QString head;
  if (workspaceLayer(p.layer)) {
    const auto r = std::size_t(p.row);
    head = tr("kernel #%1 %2 (%3)")
               .arg(workspace_.ids[r])
               .arg(QString::fromStdString(workspace_.names[r]), QString::fromStdString(workspace_.groups[r]));
  } else if (p.layer == Layer::Reference) {
    head = tr("reference %1").arg(QString::fromStdString(reference_.names.at(std::size_t(p.row))));
  } else {
    head = layerTitle(p.layer);
  }
  const auto v = vectorOf(p);
  // Key features: the dimensions with the largest values (at most 6).
  std::vector<std::size_t> order(v.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  if (v.size() > 8)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] > v[b]; });
  QStringList parts;
  for (std::size_t k = 0; k < std::min<std::size_t>(order.size(), v.size() > 8 ? 6 : 8); ++k)
    parts << QStringLiteral("%1=%2").arg(QString::fromStdString(workspace_.dimensions.at(order[k])))
                 .arg(v[order[k]], 0, 'g', 4);
  return head + QLatin1Char('\n') + parts.join(QStringLiteral(", "));
}

QPointF FeaturePlot::valueAt(QPoint widgetPos) const {
  const QPointF area = chart()->mapFromScene(mapToScene(widgetPos));
  return chart()->mapToValue(area, series_[0]);
}

QPoint FeaturePlot::widgetPosOf(QPointF value) const {
  const QPointF area = chart()->mapToPosition(value, series_[0]);
  return mapFromScene(chart()->mapToScene(area));
}

std::optional<QPointF> FeaturePlot::positionOf(const PointRef& p) const {
  if (p.layer == Layer::Evaluated || p.layer == Layer::Target)
    return project(p.layer == Layer::Evaluated ? evaluated_.value_or(std::vector<double>{})
                                               : target_.value_or(std::vector<double>{}));
  return project(vectorOf(p));
}

std::optional<FeaturePlot::PointRef> FeaturePlot::pointAt(QPoint widgetPos, double radiusPx) const {
  const QRectF area = chart()->plotArea();
  if (area.width() <= 0 || area.height() <= 0) return std::nullopt;
  const double sx = (axisX_->max() - axisX_->min()) / area.width();
  const double sy = (axisY_->max() - axisY_->min()) / area.height();
  const QPointF at = valueAt(widgetPos);
  std::optional<PointRef> best;
  double bestD = radiusPx * radiusPx;
  // Topmost layers first: target, evaluated, reference, user, corpus.
  for (int l = kLayers - 1; l >= 0; --l) {
    if (!visible_[std::size_t(l)]) continue;
    const auto& d = data_[std::size_t(l)];
    for (int k = 0; k < d.points.size(); ++k) {
      const double dx = (d.points[k].x() - at.x()) / sx, dy = (d.points[k].y() - at.y()) / sy;
      const double dd = dx * dx + dy * dy;
      if (dd <= bestD) {
        bestD = dd;
        best = PointRef{Layer(l), d.rows[k]};
      }
    }
    if (best) return best;
  }
  return best;
}

void FeaturePlot::applyRanges(double x0, double x1, double y0, double y1) {
  axisX_->setRange(x0, x1);
  axisY_->setRange(y0, y1);
  const double w = x1 - x0;
  if (lodSpan_ == 0 || w < lodSpan_ / 2 || w > lodSpan_ * 2)
    for (int l = 0; l < kLayers; ++l)
      if (bigLayer(Layer(l)) && data_[std::size_t(l)].all.size() > kDetailThreshold) thinLayer(Layer(l));
}

void FeaturePlot::zoomBy(double factor, QPointF c) {
  const double x0 = c.x() - (c.x() - axisX_->min()) / factor, x1 = c.x() + (axisX_->max() - c.x()) / factor;
  const double y0 = c.y() - (c.y() - axisY_->min()) / factor, y1 = c.y() + (axisY_->max() - c.y()) / factor;
  applyRanges(x0, x1, y0, y1);
}

void FeaturePlot::panBy(QPoint pixels) {
  const QRectF area = chart()->plotArea();
  if (area.width() <= 0 || area.height() <= 0) return;
  const double dx = -pixels.x() * (axisX_->max() - axisX_->min()) / area.width();
  const double dy = pixels.y() * (axisY_->max() - axisY_->min()) / area.height();
  applyRanges(axisX_->min() + dx, axisX_->max() + dx, axisY_->min() + dy, axisY_->max() + dy);
}

void FeaturePlot::resetZoom() { applyRanges(home_.left(), home_.right(), home_.top(), home_.bottom()); }

QString FeaturePlot::exportTo(const QString& path) {
  if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
    // OpenGL series are drawn outside the scene; render raster copies for the SVG.
    const bool gl = useGl_;
    const QRectF view(QPointF(axisX_->min(), axisY_->min()), QPointF(axisX_->max(), axisY_->max()));
    if (gl) {
      useGl_ = false;
      rebuild();
      applyRanges(view.left(), view.right(), view.top(), view.bottom());
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
      return tr("could not write %1: %2").arg(path, file.errorString());
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size());
    svg.setViewBox(rect());
    svg.setTitle(chart()->title());
    svg.setDescription(tr("Steerbench feature-space plot"));
    {
      QPainter painter(&svg);
      render(&painter);
    }
    if (gl) {
      useGl_ = true;
      rebuild();
      applyRanges(view.left(), view.right(), view.top(), view.bottom());
    }
    file.close();
    if (file.error() != QFileDevice::NoError || file.size() == 0)
      return tr("could not write %1: %2").arg(path, file.errorString());
    return {};
  }
  const QImage image = grab().toImage();
  QImageWriter writer(path);
  if (!writer.write(image))
    return tr("could not write %1: %2").arg(path, writer.errorString());
  return {};
}

void FeaturePlot::mousePressEvent(QMouseEvent* e) {
  pressPos_ = lastPos_ = e->position().toPoint();
  if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier))) {
    drag_ = Drag::Pan;
    setCursor(Qt::ClosedHandCursor);
  } else if (e->button() == Qt::LeftButton) {
    drag_ = Drag::Pick;
  } else {
    QChartView::mousePressEvent(e);
  }
}

void FeaturePlot::mouseMoveEvent(QMouseEvent* e) {
  const QPoint pos = e->position().toPoint();
  if (drag_ == Drag::Pan) {
    panBy(pos - lastPos_);
  } else if (drag_ == Drag::Pick) {
    if ((pos - pressPos_).manhattanLength() > QApplication::startDragDistance()) {
      band_->setGeometry(QRect(pressPos_, pos).normalized());
      band_->show();
    }
  } else if (auto p = pointAt(pos)) {
    QToolTip::showText(e->globalPosition().toPoint(), describe(*p), this);
  } else {
    QToolTip::hideText();
  }
  lastPos_ = pos;
}

void FeaturePlot::mouseReleaseEvent(QMouseEvent* e) {
  const QPoint pos = e->position().toPoint();
  const Drag drag = drag_;
  drag_ = Drag::None;
  unsetCursor();
  if (drag == Drag::Pan) return;
  if (drag != Drag::Pick) {
    QChartView::mouseReleaseEvent(e);
    return;
  }
  if (band_->isVisible()) {
    band_->hide();
    const QPointF a = valueAt(pressPos_), b = valueAt(pos);
    const QRectF r = QRectF(a, b).normalized();
    QVector<PointRef> picked;
    for (int l = 0; l < kLayers; ++l) {
      if (!visible_[std::size_t(l)] || !bigLayer(Layer(l))) continue;
      const auto& d = data_[std::size_t(l)];
      for (int k = 0; k < d.all.size(); ++k)
        if (r.contains(d.all[k])) picked.push_back({Layer(l), d.allRows[k]});
    }
    emit pointsPicked(picked);
    return;
  }
  if (!chart()->plotArea().contains(chart()->mapFromScene(mapToScene(pos)))) return;
  if (auto p = pointAt(pos))
    emit pointClicked(*p);
  else
    emit emptyClicked(valueAt(pos));
}

void FeaturePlot::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  zoomBy(std::pow(1.25, steps), valueAt(e->position().toPoint()));
  e->accept();
}

void FeaturePlot::keyPressEvent(QKeyEvent* e) {
  const QPointF center((axisX_->min() + axisX_->max()) / 2, (axisY_->min() + axisY_->max()) / 2);
  switch (e->key()) {
  case Qt::Key_Plus:
  case Qt::Key_Equal: zoomBy(1.25, center); break;
  case Qt::Key_Minus: zoomBy(0.8, center); break;
  case Qt::Key_Left: panBy({40, 0}); break;
  case Qt::Key_Right: panBy({-40, 0}); break;
  case Qt::Key_Up: panBy({0, 40}); break;
  case Qt::Key_Down: panBy({0, -40}); break;
  case Qt::Key_0:
  case Qt::Key_Home: resetZoom(); break;
  default: QChartView::keyPressEvent(e); return;
  }
  e->accept();
}

QString FeaturePlot::viewGrid() const {
  if (dimX_ < 0 || dimY_ < 0 || dimX_ == dimY_ || workspace_.space != "grewe") return {};
  // The counts the model is told (model::gridTargets), not F2 or F4.
  const auto& dims = workspace_.dimensions;
  const auto isCount = [&](int d) {
    return std::size_t(d) < dims.size() && std::find(model::kConditionNames.begin(), model::kConditionNames.end(),
                                                     dims[std::size_t(d)]) != model::kConditionNames.end();
  };
  if (!isCount(dimX_) || !isCount(dimY_)) return {};
  auto range = [](const QValueAxis* a) {
    const double lo = std::max(0.0, std::floor(a->min())), hi = std::max(lo + 1, std::ceil(a->max()));
    return QStringLiteral("%1:%2").arg(lo, 0, 'f', 0).arg(hi, 0, 'f', 0);
  };
  return QStringLiteral("%1=%2,%3=%4")
      .arg(QString::fromStdString(dims[std::size_t(dimX_)]), range(axisX_),
           QString::fromStdString(dims[std::size_t(dimY_)]), range(axisY_));
}

void FeaturePlot::contextMenuEvent(QContextMenuEvent* e) {
  const auto p = pointAt(e->pos());
  QMenu menu(this);
  if (p && p->layer != Layer::Target) {
    // Taken now: the menu's event loop may let a reload replace the tables.
    const auto values = vectorOf(*p);
    const QString origin = describe(*p).section(QLatin1Char('\n'), 0, 0);
    menu.addAction(tr("Use its features as target"), this, [this, values, origin] { emit targetRequested(values, origin); });
    menu.addSeparator();
  }
  menu.addAction(tr("Reset zoom"), this, &FeaturePlot::resetZoom);
  const QString grid = viewGrid();
  auto* sample = menu.addAction(grid.isEmpty() ? tr("Sample a grid over this view (raw axes of two Grewe counts)")
                                               : tr("Sample a grid over this view (%1)").arg(grid),
                                this, [this, grid] { emit gridSamplingRequested(grid); });
  sample->setEnabled(!grid.isEmpty());
  menu.exec(e->globalPos());
}

} // namespace steerbench::ui

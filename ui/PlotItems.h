// Graphics items drawn over the feature plot's chart area, each in one paint
// call: a big layer of points (a QScatterSeries makes a graphics item per
// point, about 0.25 ms each), and the steering candidates, coloured by
// generation and added a generation at a time.
#pragma once

#include <QChart>
#include <QGraphicsItem>
#include <QValueAxis>
#include <QVector>

namespace steerbench::ui {

/// Maps axis values to the chart's plot area.
class PlotArea {
public:
  PlotArea(QChart* chart, QValueAxis* x, QValueAxis* y) : chart_(chart), x_(x), y_(y) {}
  [[nodiscard]] QRectF area() const { return chart_->plotArea(); }
  [[nodiscard]] QPointF map(const QPointF& v) const;

protected:
  QChart* chart_;
  QValueAxis* x_;
  QValueAxis* y_;
};

/// A big layer on raster. Lives in the chart's scene, over the plot area; the
/// layer's (empty) series keeps its place.
class PointCloudItem : public QGraphicsItem, public PlotArea {
public:
  PointCloudItem(QChart* chart, QValueAxis* x, QValueAxis* y);
  void setPoints(const QVector<QPointF>* points, QColor color, qreal size, bool triangles);
  void areaChanged();
  [[nodiscard]] QRectF boundingRect() const override { return area(); }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;

private:
  const QVector<QPointF>* points_ = nullptr;
  QColor color_;
  qreal size_ = 5;
  bool triangles_ = false;
};

/// A steering run's compiling candidates, coloured by generation from violet
/// (early) to red (the latest). Points are appended as generations arrive, so
/// a generation costs its own points only; a repaint draws them all.
class SteeringCloudItem : public QGraphicsItem, public PlotArea {
public:
  SteeringCloudItem(QChart* chart, QValueAxis* x, QValueAxis* y);
  void clear();
  void append(const QPointF& value, int generation);
  [[nodiscard]] int size() const { return int(points_.size()); }
  void areaChanged();
  [[nodiscard]] QRectF boundingRect() const override { return area(); }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;

private:
  QVector<QPointF> points_;
  QVector<int> generations_;
  int last_ = 0;
};

} // namespace steerbench::ui

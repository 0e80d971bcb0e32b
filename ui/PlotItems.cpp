#include "PlotItems.h"

#include <QPainter>

#include <algorithm>

namespace steerbench::ui {

QPointF PlotArea::map(const QPointF& v) const {
  const QRectF a = area();
  const double x0 = x_->min(), y0 = y_->min();
  const double sx = a.width() / std::max(1e-300, x_->max() - x0), sy = a.height() / std::max(1e-300, y_->max() - y0);
  return {a.left() + (v.x() - x0) * sx, a.bottom() - (v.y() - y0) * sy};
}

PointCloudItem::PointCloudItem(QChart* chart, QValueAxis* x, QValueAxis* y)
    : QGraphicsItem(chart), PlotArea(chart, x, y) {
  setZValue(15); // over the grid, under the small series (target, evaluated)
  setFlag(ItemClipsToShape, false);
}

void PointCloudItem::setPoints(const QVector<QPointF>* points, QColor color, qreal size, bool triangles) {
  points_ = points;
  color_ = color;
  size_ = size;
  triangles_ = triangles;
  update();
}

void PointCloudItem::areaChanged() {
  prepareGeometryChange();
  update();
}

void PointCloudItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  if (!points_ || points_->isEmpty()) return;
  const QRectF a = area();
  painter->save();
  painter->setClipRect(a);
  painter->setPen(Qt::NoPen);
  painter->setBrush(color_);
  const qreal h = size_ / 2;
  const QRectF keep = a.adjusted(-size_, -size_, size_, size_);
  for (const QPointF& v : *points_) {
    const QPointF p = map(v);
    if (!keep.contains(p)) continue;
    if (triangles_) {
      const QPointF tri[3] = {{p.x(), p.y() - h}, {p.x() - h, p.y() + h}, {p.x() + h, p.y() + h}};
      painter->drawPolygon(tri, 3);
    } else {
      painter->fillRect(QRectF(p.x() - h, p.y() - h, size_, size_), color_);
    }
  }
  painter->restore();
}

SteeringCloudItem::SteeringCloudItem(QChart* chart, QValueAxis* x, QValueAxis* y)
    : QGraphicsItem(chart), PlotArea(chart, x, y) {
  setZValue(18); // over the corpus, under the path and the target
  setFlag(ItemClipsToShape, false);
}

void SteeringCloudItem::clear() {
  points_.clear();
  generations_.clear();
  last_ = 0;
  update();
}

void SteeringCloudItem::append(const QPointF& value, int generation) {
  points_.push_back(value);
  generations_.push_back(generation);
  last_ = std::max(last_, generation);
  update();
}

void SteeringCloudItem::areaChanged() {
  prepareGeometryChange();
  update();
}

void SteeringCloudItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  if (points_.isEmpty()) return;
  const QRectF a = area();
  painter->save();
  painter->setClipRect(a);
  const qreal size = 6, h = size / 2;
  const QRectF keep = a.adjusted(-size, -size, size, size);
  // Oldest first, so the latest generations are on top.
  for (int i = 0; i < points_.size(); ++i) {
    const QPointF p = map(points_[i]);
    if (!keep.contains(p)) continue;
    const double f = last_ > 0 ? double(generations_[i]) / last_ : 1.0;
    painter->fillRect(QRectF(p.x() - h, p.y() - h, size, size),
                      QColor::fromHsvF(float(0.78 * (1.0 - f)), 0.85f, 0.9f));
  }
  painter->restore();
}

} // namespace steerbench::ui

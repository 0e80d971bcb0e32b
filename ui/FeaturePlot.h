// The feature-space plot: workspace kernels, reference benchmarks, the
// evaluated kernel and the target, on PCA-2 or on two raw dimensions. Click a
// point to select it, click empty space to set a target, drag to pick kernels,
// wheel to zoom, middle-drag (or Shift+drag) to pan. Big plots are drawn with
// OpenGL where the platform supports it, others on raster in one paint call;
// layers over 25k points with a level of detail (one point per sub-pixel
// cell), so 100k points stay usable.
#pragma once

#include "engine/FeatureTable.h"
#include "features/Pca.h"

#include <QChartView>
#include <QPointF>
#include <QVector>

#include <array>
#include <optional>

class QLineSeries;
class QRubberBand;
class QScatterSeries;
class QValueAxis;

namespace steerbench::ui {

class FeaturePlot : public QChartView {
  Q_OBJECT
public:
  /// Drawn in this order. Generated: what sampling and steering stored.
  enum class Layer { Corpus, User, Generated, Reference, Evaluated, Target };
  static constexpr int kLayers = 6;
  /// A layer's full name, as the legend and the View menu give it.
  [[nodiscard]] static QString layerTitle(Layer layer);
  /// The workspace layer of a kernel with this role (FeatureTable::groups).
  [[nodiscard]] static Layer layerOfRole(const std::string& role);
  struct PointRef {
    Layer layer = Layer::Corpus;
    int row = 0; ///< row of the layer's table (Corpus, User: the workspace table; Reference: its table)
  };
  /// Layers above this size draw one point per sub-pixel cell of the view
  /// (level of detail), and are drawn with OpenGL when the platform has it.
  static constexpr int kDetailThreshold = 25000;

  explicit FeaturePlot(QWidget* parent = nullptr);

  /// True when this platform can draw the series with OpenGL (xcb or wayland
  /// with a context that can be created).
  [[nodiscard]] static bool openGlAvailable();
  /// Use OpenGL for big plots when available (the default), or never.
  void setOpenGlAllowed(bool allowed);
  [[nodiscard]] bool usesOpenGl() const { return useGl_; }

  /// New data. `pca` is fitted on the layer named by `fitNote`; without it
  /// the plot can show raw axes only.
  void setTables(engine::FeatureTable workspace, engine::FeatureTable reference, std::optional<features::Pca> pca,
                 const QString& fitNote);
  /// PCA-2 when dimX < 0, else the raw dimensions dimX and dimY.
  void setAxes(int dimX, int dimY);
  [[nodiscard]] bool pcaAxes() const { return dimX_ < 0; }
  [[nodiscard]] int dimX() const { return dimX_; }
  [[nodiscard]] int dimY() const { return dimY_; }
  /// The view as a grid over two Grewe counts ("comp=0:400,mem=0:100", the
  /// visible ranges of the raw axes, from 0, whole numbers), or empty when
  /// the axes are not two of the Grewe counts (comp .. atomic).
  [[nodiscard]] QString viewGrid() const;
  void setLayerVisible(Layer layer, bool visible);
  void setEvaluated(const std::optional<std::vector<double>>& vector);
  void setTargetVector(const std::optional<std::vector<double>>& vector);
  /// Rings the point of workspace kernel `id` (0: none).
  void setSelectedKernel(std::int64_t id);
  void setDarkTheme(bool dark);

  /// The steering overlay: a run's compiling candidates (full vectors),
  /// coloured by generation from violet (early) to red (late), and the path
  /// from the seed to the best candidate. Re-projected when the axes change.
  void addSteeringPoints(int generation, const std::vector<std::vector<double>>& vectors);
  void setSteeringPath(const std::vector<std::vector<double>>& path);
  /// Empties the overlay; its legend entry names steered candidates again.
  void clearSteering();
  /// The overlay's legend entry (the workbench's sampling draws its samples there).
  void setSteeringTitle(const QString& title);
  /// The active learner's layer: points (full vectors) shaded by the
  /// committee's vote entropy (pale: agreement, dark orange: most disputed).
  void setEntropyLayer(const std::vector<std::vector<double>>& vectors, const std::vector<double>& entropies);
  [[nodiscard]] int entropyPoints() const { return int(entropy_.size()); }
  [[nodiscard]] int steeringPoints() const { return int(steerPoints_.size()); }
  /// The point clicked to set the target (axis values, PCA axes only), shown
  /// with a line to where the target projects; nullopt: none.
  void setTargetClick(const std::optional<QPointF>& click);
  [[nodiscard]] bool targetClickShown() const;

  /// What the legend lists: each visible layer's full name (with its count),
  /// its colour and marker, then the overlays that are shown.
  struct LegendEntry {
    QString name;
    QColor color;
    QString marker; ///< a character standing for the marker's shape
  };
  [[nodiscard]] QVector<LegendEntry> legendEntries() const;
  [[nodiscard]] int steeringPathLength() const { return int(steerPath_.size()); }

  [[nodiscard]] const engine::FeatureTable& workspaceTable() const { return workspace_; }
  [[nodiscard]] const engine::FeatureTable& referenceTable() const { return reference_; }
  [[nodiscard]] const features::Pca* pca() const { return pca_ ? &*pca_ : nullptr; }
  /// The kernel id of a workspace point (0 for other layers).
  [[nodiscard]] std::int64_t kernelId(const PointRef& p) const;
  /// The full vector behind a point.
  [[nodiscard]] std::vector<double> vectorOf(const PointRef& p) const;
  [[nodiscard]] QString describe(const PointRef& p) const;

  // Coordinates, for tests and benches.
  [[nodiscard]] QPointF valueAt(QPoint widgetPos) const;
  [[nodiscard]] QPoint widgetPosOf(QPointF value) const;
  [[nodiscard]] std::optional<QPointF> positionOf(const PointRef& p) const; ///< in axis values
  [[nodiscard]] std::optional<PointRef> pointAt(QPoint widgetPos, double radiusPx = 6) const;
  [[nodiscard]] int shownPoints() const;

  void zoomBy(double factor, QPointF centerValue);
  void panBy(QPoint pixels);
  void resetZoom();
  /// Writes the plot as PNG (or any raster format Qt knows) or, for a .svg
  /// path, as SVG. Returns an empty string or the error.
  [[nodiscard]] QString exportTo(const QString& path);

signals:
  void pointClicked(const steerbench::ui::FeaturePlot::PointRef& point);
  /// Empty space clicked; `point` is in axis values (PCA coordinates or raw dims).
  void emptyClicked(QPointF point);
  void pointsPicked(const QVector<steerbench::ui::FeaturePlot::PointRef>& points);
  /// "Use its features as target" on a point: its vector and what it is.
  void targetRequested(const std::vector<double>& values, const QString& origin);
  /// "Sample a grid over this view": viewGrid() of the moment.
  void gridSamplingRequested(const QString& grid);
  /// What legendEntries() lists changed.
  void legendChanged();

protected:
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;

private:
  struct LayerData {
    QVector<QPointF> all;    ///< every point of the layer, in axis values
    QVector<int> allRows;    ///< their table rows
    QVector<QPointF> points; ///< the points drawn (all, or thinned)
    QVector<int> rows;       ///< their table rows
  };
  /// Makes the series anew (OpenGL or theme changed), then refills them.
  void rebuild();
  /// Recomputes every layer's points, the home view and the axis titles.
  void refill();
  void fillLayer(Layer layer);
  /// Chooses the drawn points: all of them; evenly thinned on raster; with
  /// OpenGL and a very big layer, one per sub-pixel cell at the current zoom.
  void thinLayer(Layer layer);
  [[nodiscard]] bool wantsGl() const;
  [[nodiscard]] std::optional<QPointF> project(const std::vector<double>& v) const;
  void updateTitle();
  void applyRanges(double x0, double x1, double y0, double y1);

  engine::FeatureTable workspace_, reference_;
  std::optional<features::Pca> pca_;
  QString fitNote_;
  std::optional<std::vector<double>> evaluated_, target_;
  int dimX_ = -1, dimY_ = -1;
  bool wantsPca_ = true; ///< the user's choice of axes: PCA-2 unless they picked raw dimensions
  bool glAllowed_ = true, useGl_ = false, dark_ = false;
  std::array<bool, kLayers> visible_{true, true, true, true, true, true};
  std::array<QScatterSeries*, kLayers> series_{};
  std::array<class PointCloudItem*, kLayers> clouds_{}; ///< raster drawing of the big layers
  std::array<LayerData, kLayers> data_{};
  std::array<int, kLayers> totals_{};
  int totalsHint_ = 0; ///< workspace points: big layers get smaller markers
  double lodSpan_ = 0;  ///< view width the OpenGL level of detail was made for (0: none)
  QScatterSeries* selected_ = nullptr; ///< the ring around the selected kernel (not in the legend)
  std::int64_t selectedId_ = 0;
  void placeSelection();
  void placeSteering();
  void placeClick();
  std::vector<std::pair<int, std::vector<double>>> steerPoints_; ///< (generation, vector)
  QString steerTitle_; ///< the overlay's legend entry (empty: steered candidates)
  std::vector<std::vector<double>> steerPath_;
  std::vector<std::pair<double, std::vector<double>>> entropy_; ///< (entropy, vector)
  QScatterSeries* entropySeries_ = nullptr;
  class SteeringCloudItem* steerCloud_ = nullptr; ///< the candidates, drawn in one paint call
  std::optional<QPointF> click_;
  bool clickAxesPca_ = false;
  QLineSeries* clickLine_ = nullptr;
  QScatterSeries* clickMark_ = nullptr;
  QLineSeries* pathSeries_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  QRectF home_;
  QRubberBand* band_ = nullptr;
  QPoint pressPos_, lastPos_;
  enum class Drag { None, Pick, Pan } drag_ = Drag::None;
};

} // namespace steerbench::ui

Q_DECLARE_METATYPE(steerbench::ui::FeaturePlot::PointRef)

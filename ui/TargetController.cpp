#include "TargetController.h"

#include "EngineBridge.h"
#include "KernelList.h"
#include "Preferences.h"
#include "SelectionModel.h"
#include "UndoCommands.h"

#include "engine/FeatureTable.h"
#include "steer/PlotTarget.h"

#include <QLineF>
#include <QUndoStack>

#include <memory>

namespace steerbench::ui {

TargetController::TargetController(const Workbench& bench, QObject* parent) : QObject(parent), bench_(bench) {}

bool TargetController::plotCurrent() const {
  const auto& t = bench_.plot->workspaceTable();
  return t.space == bench_.selection->space().toStdString() && !t.dimensions.empty();
}

void TargetController::fromClick(QPointF point) {
  if (!plotCurrent()) return; // the plot still shows the previous space
  const QString space = bench_.selection->space();
  auto* plot = bench_.plot;
  if (!plot->pcaAxes()) {
    const auto& t = bench_.selection->target();
    const auto current = t && t->space == space ? std::optional(t->values) : std::nullopt;
    const auto target =
        steer::targetFromAxesClick(space.toStdString(), current, plot->dimX(), plot->dimY(), point.x(), point.y());
    bench_.undo->push(new SetTargetCommand(
        bench_.selection, Target{space, target.values, QString::fromStdString(target.origin), {}, {}}, tr("Set target")));
    emit clickTargetSet();
    return;
  }
  if (!plot->pca()) return;
  // The feasible target nearest the click, from the kernels drawn around it
  // (on the engine thread: it reads every kernel's vector).
  auto pca = std::make_shared<features::Pca>(*plot->pca());
  auto kernels = std::make_shared<std::vector<std::vector<double>>>(plot->workspaceTable().rows);
  bench_.engine->post(QStringLiteral("click target"), [this, pca, kernels, space, point](EngineState&) -> EngineBridge::Continuation {
    auto found = std::make_shared<steer::PlotTarget>(
        steer::targetFromPcaClick(space.toStdString(), *pca, *kernels, point.x(), point.y()));
    return [this, found, space, point] {
      if (space != bench_.selection->space()) return; // the space changed meanwhile
      auto* plot = bench_.plot;
      QString note;
      const QPointF at(found->projected[0], found->projected.size() > 1 ? found->projected[1] : 0.0);
      const double pixels = QLineF(plot->widgetPosOf(point), plot->widgetPosOf(at)).length();
      if (pixels > 3) {
        QStringList why;
        for (const auto& r : found->reasons)
          why << QString::fromStdString(r);
        note = tr("The target is %1 pixels from your click: it is the nearest vector a kernel can have there%2. The "
                  "plot joins the click to it.")
                   .arg(qRound(pixels))
                   .arg(why.isEmpty() ? QString() : tr(" (%1)").arg(why.join(QStringLiteral("; "))));
      }
      bench_.undo->push(new SetTargetCommand(bench_.selection,
                                             Target{space, found->target.values,
                                                    tr("a plot click at PCA (%1, %2)").arg(point.x(), 0, 'g', 4).arg(point.y(), 0, 'g', 4),
                                                    point, note},
                                             tr("Set target")));
      emit clickTargetSet();
    };
  });
}

void TargetController::useAsTarget(const FeaturePlot::PointRef& point) {
  if (!plotCurrent()) return;
  const auto values = bench_.plot->vectorOf(point);
  if (values.empty()) return;
  const QString origin = bench_.plot->describe(point).section(QLatin1Char('\n'), 0, 0);
  bench_.undo->push(new SetTargetCommand(bench_.selection, Target{bench_.selection->space(), values, origin, {}, {}},
                                         tr("Use as target")));
}

void TargetController::useSelectedKernel() {
  const auto id = bench_.selection->currentKernel();
  const auto& t = bench_.plot->workspaceTable();
  for (std::size_t r = 0; r < t.ids.size(); ++r)
    if (t.ids[r] == id) {
      useAsTarget({FeaturePlot::layerOfRole(t.groups[r]), int(r)});
      return;
    }
  bench_.message(tr("Select a kernel on the plot first."), 5000);
}

void TargetController::editValue(int dim, double value) {
  auto t = bench_.selection->target();
  if (!t || dim < 0 || std::size_t(dim) >= t->values.size() || t->values[std::size_t(dim)] == value) return;
  t->values[std::size_t(dim)] = value;
  t->origin = tr("edited values");
  t->click.reset();
  t->note.clear();
  bench_.undo->push(new SetTargetCommand(bench_.selection, t, tr("Edit target")));
}

void TargetController::clear() {
  if (bench_.selection->target())
    bench_.undo->push(new SetTargetCommand(bench_.selection, std::nullopt, tr("Clear target")));
}

void TargetController::nearestKernels() {
  if (!plotCurrent()) {
    bench_.message(tr("The plot is still loading the new space; try again in a moment."), 5000);
    return;
  }
  std::vector<double> query;
  std::int64_t exclude = 0;
  QString about;
  const auto& t = bench_.selection->target();
  if (t && t->space == bench_.selection->space()) {
    query = t->values;
    about = tr("the target");
  } else if (const auto id = bench_.selection->currentKernel()) {
    const auto& table = bench_.plot->workspaceTable();
    for (std::size_t r = 0; r < table.ids.size(); ++r)
      if (table.ids[r] == id) query = table.rows[r];
    exclude = id;
    about = tr("kernel #%1").arg(id);
  }
  if (query.empty()) {
    bench_.message(tr("Set a target or select a kernel first."), 5000);
    return;
  }
  auto table = std::make_shared<engine::FeatureTable>(bench_.plot->workspaceTable());
  const int k = bench_.prefs->nearestK;
  bench_.engine->post(QStringLiteral("nearest"), [this, table, query, exclude, k, about](EngineState&) -> EngineBridge::Continuation {
    const auto found = engine::nearestRows(*table, query, std::size_t(k), exclude);
    QVector<KernelList::Entry> entries;
    for (const auto& n : found)
      entries.push_back({table->ids[n.row], QString::fromStdString(table->names[n.row]),
                         QString::fromStdString(table->groups[n.row]), n.distance});
    return [this, entries, about, space = table->space] {
      bench_.list->setEntries(
          tr("The %1 kernels nearest %2 in the full %3 space").arg(entries.size()).arg(about, QString::fromStdString(space)),
          entries);
    };
  });
}

} // namespace steerbench::ui

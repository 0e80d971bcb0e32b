#include "EditorController.h"

#include "EngineBridge.h"
#include "EngineState.h"
#include "FeaturePlot.h"
#include "FeaturesView.h"
#include "KernelEditor.h"
#include "SelectionModel.h"
#include "UndoCommands.h"

#include "clang/OpenCLFrontend.h"
#include "common/Error.h"
#include "common/Paths.h"
#include "engine/FeatureJob.h"
#include "features/Measurement.h"
#include "model/Sampler.h"

#include <QDateTime>
#include <QUndoStack>
#include <Qsci/qsciscintilla.h>

#include <memory>

namespace steerbench::ui {

namespace {

QVector<EditorDiagnostic> editorDiagnostics(const features::FileMeasurement& m) {
  QVector<EditorDiagnostic> out;
  for (const auto& d : m.diagnostics)
    out.push_back({int(d.line), int(d.column), QString::fromUtf8(clangfe::severityName(d.severity)),
                   QString::fromStdString(d.message)});
  return out;
}

QVector<SpaceVector> spaceVectors(const features::FileMeasurement& m, std::size_t kernel) {
  QVector<SpaceVector> out;
  for (const auto& s : m.spaces) {
    SpaceVector v{QString::fromStdString(s.space->name), s.space->dimensions, {}, QString::fromStdString(s.error)};
    if (kernel < s.kernels.size()) {
      v.values = s.kernels[kernel].values;
      if (s.kernels[kernel].fromErrors) v.note = EditorController::tr("measured on the AST Clang recovered from errors");
    }
    out.push_back(std::move(v));
  }
  return out;
}


} // namespace

EditorController::EditorController(const Workbench& bench, std::function<QString()> workspace, QObject* parent)
    : QObject(parent), bench_(bench), workspace_(std::move(workspace)) {}

void EditorController::showKernel(std::int64_t id) {
  bench_.engine->post(QStringLiteral("kernel"), [this, id](EngineState& s) -> EngineBridge::Continuation {
    const auto k = s.ws().kernel(id);
    if (!k) throw WorkspaceError("kernel #" + std::to_string(id) + " is not in this workspace");
    QVector<SpaceVector> vectors;
    for (const auto& space : features::featureSpaces()) {
      SpaceVector v{QString::fromStdString(space.name), space.dimensions, {}, tr("not measured")};
      if (const auto f = s.ws().features(id, space.name, space.version)) {
        v.values = f->values;
        v.note = f->fromErrors ? tr("measured on the AST Clang recovered from errors") : QString();
      }
      vectors.push_back(std::move(v));
    }
    const QString title = tr("Kernel #%1 %2 (%3%4)")
                              .arg(id)
                              .arg(QString::fromStdString(k->name), QString::fromStdString(k->role),
                                   k->package.empty() ? QString() : QStringLiteral(", ") + QString::fromStdString(k->package));
    const QString source = QString::fromStdString(k->source);
    return [this, id, title, source, vectors] {
      if (bench_.selection->currentKernel() != id) return; // a newer selection won
      if (bench_.editor->kernelId() != id) // (an undo may have brought this kernel back, edits and all)
        bench_.undo->push(new EditorContentCommand(bench_.editor, {id, title, source}, tr("Show kernel #%1").arg(id), bench_.selection));
      bench_.features->showVectors(title, vectors);
      emit kernelShown(id);
    };
  });
}

void EditorController::evaluate(const QString& source) {
  const std::string text = source.toStdString();
  const QString space = bench_.selection->space();
  bench_.engine->post(QStringLiteral("evaluate"), [this, text, space](EngineState&) -> EngineBridge::Continuation {
    auto m = std::make_shared<features::FileMeasurement>(features::measureSource(text, "editor.cl", features::MeasureOptions::everySpace()));
    return [this, m, space] {
      const bool compiled = m->ok();
      QString summary;
      if (compiled)
        summary = tr("Compiles: %n kernel(s) (%1). Features below; the first kernel is on the plot.", nullptr,
                     int(m->kernels.size()))
                      .arg(QString::fromStdString([&] {
                        std::string all;
                        for (const auto& k : m->kernels)
                          all += (all.empty() ? "" : ", ") + k;
                        return all;
                      }()));
      else
        summary = tr("Does not compile: %1").arg(QString::fromStdString(m->error));
      bench_.editor->setDiagnostics(editorDiagnostics(*m), summary);
      bench_.features->showVectors(tr("Evaluated kernel"), spaceVectors(*m, 0));
      std::optional<std::vector<double>> point;
      for (const auto& s : m->spaces)
        if (QString::fromStdString(s.space->name) == space && !s.kernels.empty() && compiled)
          point = s.kernels.front().values;
      bench_.plot->setEvaluated(point);
      if (m->compilerCrashed)
        bench_.showError(tr("The compiler crashed"), QString::fromStdString(m->error) +
                                                  tr("\n\nYour text is still in the editor; change the construct "
                                                     "on the marked line and Evaluate again."));
      emit evaluated(compiled);
    };
  });
}

void EditorController::save(const QString& source) {
  const std::string text = source.toStdString();
  const std::int64_t parent = bench_.editor->kernelId();
  const QString parentTitle = bench_.editor->title();
  bench_.engine->post(tr("Cannot save the kernel"), [this, text, parent, parentTitle](EngineState& s) -> EngineBridge::Continuation {
    const auto mo = features::MeasureOptions::everySpace();
    const auto m = features::measureSource(text, "editor.cl", mo);
    if (!m.ok())
      throw InputError("the kernel was not saved because it does not compile (" + m.error +
                       "). Evaluate shows the errors in the editor; fix them and save again. Your text is still in "
                       "the editor.");
    std::int64_t first = 0;
    const std::string spec = engine::featureSpecJson(mo);
    s.ws().transaction([&] {
      for (std::size_t k = 0; k < m.kernels.size(); ++k) {
        store::KernelRecord r;
        r.name = m.kernels[k];
        r.source = text;
        r.role = "user";
        r.originFile = parent > 0 ? "editor: edited from kernel #" + std::to_string(parent)
                                  : "editor: " + parentTitle.toStdString();
        r.flags = "-cl-std=CL1.2";
        const auto id = s.ws().addKernel(r);
        if (!first) first = id;
        for (const auto& sp : m.spaces)
          if (k < sp.kernels.size())
            s.ws().putFeatures({id, sp.space->name, sp.space->version, sp.kernels[k].values, false, spec});
      }
    });
    const auto kernels = s.ws().kernelCount();
    return [this, first, kernels] {
      bench_.message(tr("Saved as kernel #%1 in the workspace.").arg(first), 8000);
      bench_.editor->scintilla()->setModified(false);
      emit kernelsChanged(kernels);
      bench_.selection->setCurrentKernel(first);
      emit kernelSaved(first);
    };
  });
}

void EditorController::fillHoles(const QString& source) {
  if (!source.contains(QLatin1String("[HOLE]"))) {
    bench_.message(tr("Put [HOLE] where the model should write, then Fill holes."), 8000);
    return;
  }
  // The workspace's own model when it has one, else the default model Steerbench ships.
  const QString workspace = workspace_();
  const QString ckpt = workspace.isEmpty() ? QString() : QString::fromStdString(modelForWorkspace(workspace.toStdString()));
  if (ckpt.isEmpty()) {
    bench_.showError(tr("No model to fill holes"),
              tr("There is no trained model for this workspace (%1), and no default model is installed. Train one "
                 "with:\n\n  steerbench-cli train -w %2\n\nand Fill holes again.")
                  .arg(QString::fromStdString(workspaceModelPath(workspace.toStdString())), workspace));
    return;
  }
  const std::string text = source.toStdString(), path = ckpt.toStdString();
  const std::int64_t id = bench_.editor->kernelId();
  const QString title = bench_.editor->title();
  const unsigned seed = unsigned(QDateTime::currentMSecsSinceEpoch() & 0xffffffu);
  bench_.engine->post(tr("Cannot fill the holes"), [this, text, path, id, title, seed](EngineState& s) -> EngineBridge::Continuation {
    auto& sampler = s.samplerFor(path);
    model::SampleOptions o = sampler.recommendedOptions();
    o.batchSize = 1;
    o.maxNewTokens = 256;
    o.seed = seed;
    o.check = clangfe::firstErrorOffset; // statements that compile
    o.typedArguments = model::fillsBetweenText({text});
    const auto out = sampler.sample({text}, 1, o);
    if (out.empty()) return {};
    const auto filled = out.front();
    const QString hash = QString::fromStdString(sampler.modelHash().substr(0, 12));
    return [this, filled, id, title, hash, seed] {
      bench_.undo->push(new EditorContentCommand(bench_.editor, {id, title, QString::fromStdString(filled.text)}, tr("Fill holes"),
                                           bench_.selection));
      bench_.message(
          (filled.complete ? tr("The model wrote %1 tokens (model %2, seed %3). Ctrl+Z takes them back.")
                           : tr("The model wrote %1 tokens and stopped before closing every hole: the token limit, or "
                                "statements that would not compile (model %2, seed %3)."))
              .arg(filled.newTokens)
              .arg(hash)
              .arg(seed),
          15000);
      emit holesFilled(filled.complete);
    };
  });
}

void EditorController::showSteered(const QString& title, const QString& text, int start, int length, bool following) {
  bench_.selection->setCurrentKernel(0);
  if (following && !followed_) { // the first kernel a run shows: undoable
    followed_ = true;
    bench_.undo->push(new EditorContentCommand(bench_.editor, {0, title, text}, tr("Follow the steering run"),
                                               bench_.selection));
  } else {
    bench_.editor->setKernel(0, title, text);
  }
  bench_.editor->highlight(start, length);
}

} // namespace steerbench::ui

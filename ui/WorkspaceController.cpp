#include "WorkspaceController.h"

#include "EngineBridge.h"
#include "EngineState.h"
#include "FeaturePlot.h"
#include "Preferences.h"
#include "SelectionModel.h"
#include "TargetTable.h"

#include "common/Error.h"
#include "common/Paths.h"
#include "corpus/DebianPreset.h"
#include "engine/FeatureJob.h"
#include "engine/FeatureTable.h"
#include "features/Measurement.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QSettings>
#include <QUndoStack>

namespace steerbench::ui {

WorkspaceController::WorkspaceController(const Workbench& bench, QObject* parent) : QObject(parent), bench_(bench) {}

void WorkspaceController::open(const QString& path, bool create) {
  const QFileInfo info(path);
  if (info.exists() && !info.isFile()) {
    bench_.showError(tr("Cannot open the workspace"), tr("%1 is a folder, not a workspace file.").arg(path));
    return;
  }
  if (!info.exists() && !create) {
    bench_.showError(tr("Cannot open the workspace"),
              tr("%1 does not exist. Use File > New Workspace to create one.").arg(path));
    return;
  }
  // Write permission as the file says it (root may write anyway, but a file
  // marked read-only is one the user means to keep unchanged).
  const bool readOnly = info.exists() && (!info.isWritable() || !(info.permissions() & QFileDevice::WriteOwner) ||
                                          !QFileInfo(info.absolutePath()).isWritable());
  if (readOnly) {
    bench_.showError(tr("Cannot open the workspace"),
              tr("%1 is read-only (the file or its folder). Steerbench stores its results in the workspace it "
                 "opens. Copy the file to a folder you can write to, or change its permissions, and open it "
                 "again. The file was not changed.")
                  .arg(path));
    return;
  }
  if (beforeSwitch && path != path_) beforeSwitch(path); // training belongs to the open workspace
  const bool isDefault = QFileInfo(path).absoluteFilePath() ==
                         QFileInfo(QString::fromStdString(defaultWorkspacePath())).absoluteFilePath();
  bench_.engine->post(tr("Cannot open the workspace"), [this, path, create, isDefault](EngineState& s) -> EngineBridge::Continuation {
    auto ws = std::make_unique<store::Workspace>(store::Workspace::open(
        path.toStdString(), create ? store::Workspace::Mode::OpenOrCreate : store::Workspace::Mode::OpenExisting));
    const auto kernels = ws->kernelCount();
    s.workspace = std::move(ws); // the previous one closes only now, after this one opened
    return [this, path, kernels, isDefault] {
      path_ = path;
      Preferences::addRecentWorkspace(path);
      emit recentChanged();
      showKernelCount(kernels);
      bench_.window->setWindowTitle(tr("%1 - Steerbench").arg(QFileInfo(path).fileName()));
      bench_.undo->clear();
      bench_.selection->setCurrentKernel(0);
      emit opened(path);
      reloadPlot();
      // First run, or a first run that was stopped: build (or go on building) the default corpus.
      if (isDefault && (kernels == 0 || QSettings().value(QStringLiteral("defaultCorpus/incomplete")).toBool()))
        buildDefaultCorpus();
    };
  });
}

void WorkspaceController::openDefault() {
  const QString path = QString::fromStdString(defaultWorkspacePath());
  QDir().mkpath(QFileInfo(path).absolutePath());
  open(path, true);
}

void WorkspaceController::buildDefaultCorpus() {
  bench_.message(tr("First run: building the default workspace from the OpenCL code Debian ships. "
                              "This takes a few minutes; you can cancel and resume later."));
  QSettings().setValue(QStringLiteral("defaultCorpus/incomplete"), true);
  ingest(
      tr("Building the default corpus"),
      [] {
        std::vector<std::string> missing;
        auto inputs = corpus::debianPresetSources(&missing);
        if (inputs.empty())
          throw InputError("none of the Debian packages of the default corpus is installed or unpacked. Run "
                           "steerbench-fetch-corpus (in a source checkout: scripts/fetch-debian-corpus), then "
                           "File > Open Default Workspace.");
        return inputs;
      },
      [this](const corpus::IngestSummary& summary, std::int64_t kernels) {
        if (!summary.cancelled) QSettings().setValue(QStringLiteral("defaultCorpus/incomplete"), false);
        bench_.message(
            summary.cancelled
                ? tr("Stopped: %1 kernels are stored; open the default workspace again to go on.").arg(kernels)
                : tr("The default corpus is ready: %1 kernels from %2 files.").arg(kernels).arg(summary.files),
            15000);
      });
}

void WorkspaceController::ingest(const QString& title, std::function<std::vector<corpus::SourceInput>()> inputs,
                        std::function<void(const corpus::IngestSummary&, std::int64_t kernels)> done) {
  const unsigned jobs = bench_.jobThreads();
  bench_.engine->startJob(title, [this, inputs, done, jobs](EngineState& s, JobFeedback& f) -> EngineBridge::Continuation {
    corpus::CorpusIngestOptions o;
    o.jobs = jobs;
    o.referenceCsvs = corpus::defaultReferenceCsvs();
    o.progress = [&f](std::size_t, std::size_t, double bytes) { f.progress(bytes, "ingest"); };
    o.cancel = &f.cancel();
    const auto summary = corpus::ingestCorpus(s.ws(), inputs(), o);
    const auto kernels = s.ws().kernelCount();
    return [this, done, summary, kernels] {
      done(summary, kernels);
      showKernelCount(kernels);
      reloadPlot();
    };
  });
}

void WorkspaceController::showKernelCount(std::int64_t kernels) {
  bench_.workspaceLabel->setText(tr("Workspace %1: %n kernel(s)", nullptr, int(kernels)).arg(path_));
}

void WorkspaceController::addKernelFiles(const QStringList& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths)
    files.push_back(p.toStdString());
  const unsigned jobs = bench_.jobThreads();
  bench_.engine->startJob(tr("Measuring %n kernel file(s)", nullptr, int(files.size())),
                    [this, files, jobs](EngineState& s, JobFeedback& f) -> EngineBridge::Continuation {
                      engine::FeatureJobOptions o;
                      o.measure = features::MeasureOptions::everySpace();
                      o.jobs = jobs;
                      o.workspace = &s.ws();
                      o.cancel = &f.cancel();
                      o.progress = [&f](std::size_t done, std::size_t total) {
                        f.progress(total ? double(done) / double(total) : 1.0, "measure");
                      };
                      const auto results = engine::runFeatureJob(files, o);
                      int ok = 0;
                      QStringList failed;
                      for (const auto& r : results) {
                        if (r.ok())
                          ++ok;
                        else if (!r.cancelled) // a cancelled file is not a failed one
                          failed << QString::fromStdString(r.path + ": " + r.error);
                      }
                      return [this, ok, failed, total = int(files.size())] {
                        const QString summary = tr("Added %1 of %2 files.").arg(ok).arg(total);
                        bench_.message(summary, 10000);
                        if (!failed.isEmpty())
                          bench_.showError(tr("Some files were not added"),
                                    tr("%n file(s) could not be measured; the others were added.\n\n", nullptr,
                                       int(failed.size())) +
                                        failed.mid(0, 20).join(QLatin1Char('\n')));
                        reloadPlot();
                        emit jobDone(summary);
                      };
                    });
}

void WorkspaceController::ingestFolder(const QString& folder) {
  const std::string path = folder.toStdString();
  ingest(
      tr("Ingesting %1").arg(folder), [path] { return corpus::collectSources(path); },
      [this](const corpus::IngestSummary& summary, std::int64_t) {
        const QString text = tr("Ingested %1 files: %2 kernels stored, %3 duplicates, %4 rejected%5.")
                                 .arg(summary.files)
                                 .arg(summary.stored)
                                 .arg(summary.duplicates)
                                 .arg(summary.kernelsRejected)
                                 .arg(summary.cancelled ? tr(" (stopped early; run it again to go on)") : QString());
        bench_.message(text, 15000);
        emit jobDone(text);
      });
}

void WorkspaceController::importReference(const QString& csvPath) {
  const std::string path = csvPath.toStdString();
  bench_.engine->post(tr("Cannot import the reference CSV"), [this, path, csvPath](EngineState&) -> EngineBridge::Continuation {
    // Read it once here so a wrong file is reported before it replaces the current layer.
    (void)engine::loadReferenceTable(path, features::featureSpace("grewe"), 1);
    return [this, csvPath] {
      bench_.prefs->referenceCsv = csvPath;
      bench_.prefs->save();
      reloadPlot();
    };
  });
}

void WorkspaceController::reloadPlot() {
  if (path_.isEmpty()) return;
  const std::string space = bench_.selection->space().toStdString();
  std::string reference = bench_.prefs->referenceCsv.toStdString();
  if (reference.empty()) {
    const auto defaults = corpus::defaultReferenceCsvs();
    if (!defaults.empty()) reference = defaults.front();
  }
  const unsigned jobs = bench_.jobThreads();
  const std::string fitOn = bench_.prefs->pcaLayer.toStdString();
  bench_.engine->post(QStringLiteral("plot"), [this, space, reference, jobs, fitOn](EngineState& s) -> EngineBridge::Continuation {
    const auto& fs = features::featureSpace(space);
    auto table = std::make_shared<engine::FeatureTable>(engine::loadWorkspaceTable(s.ws(), fs));
    auto ref = std::make_shared<engine::FeatureTable>();
    QString refError;
    if (!reference.empty()) {
      const auto key = std::make_pair(reference, space);
      if (!s.referenceErrors.count(reference)) {
        try {
          if (!s.references.count(key)) {
            auto loaded = engine::loadReferenceTable(reference, fs, jobs, s.shutdown);
            if (s.shutdown && s.shutdown->cancelled()) return {};
            s.references[key] = std::move(loaded);
          }
          *ref = s.references[key];
        } catch (const std::exception& e) {
          s.referenceErrors[reference] = e.what(); // said once, not at every reload
          refError = QString::fromStdString(e.what());
        }
      }
    }
    // PCA-2 is fitted on the layer the user chose (docs/features.md): the corpus
    // by default; when that layer has fewer than two vectors, on what there is.
    std::optional<features::Pca> pca;
    QString fit;
    const auto corpusRows = engine::corpusRows(*table);
    if (fitOn == "reference" && ref->size() >= 2) {
      pca = features::Pca::fit(ref->rows);
      fit = tr("the reference benchmarks");
    } else if (fitOn != "workspace" && corpusRows.size() >= 2) {
      pca = features::Pca::fit(corpusRows);
      fit = tr("the corpus kernels");
    } else if (table->size() >= 2) {
      pca = features::Pca::fit(table->rows);
      fit = tr("all the workspace kernels");
    } else if (ref->size() >= 2) {
      pca = features::Pca::fit(ref->rows);
      fit = tr("the reference benchmarks");
    }
    return [this, table, ref, pca, fit, refError] {
      bench_.plot->setTables(*table, *ref, pca, fit);
      bench_.targets->setDimensions(table->dimensions);
      const auto& t = bench_.selection->target();
      bench_.plot->setTargetVector(t && t->space == bench_.selection->space() ? std::optional(t->values) : std::nullopt);
      if (!refError.isEmpty()) {
        bench_.prefs->referenceCsv.clear();
        bench_.prefs->save();
        bench_.showError(tr("Cannot show the reference layer"), refError);
      }
      emit plotReloaded();
    };
  });
}

QString WorkspaceController::checkpointPath() const {
  if (path_.isEmpty()) return {};
  return QString::fromStdString(workspaceModelPath(path_.toStdString()));
}

} // namespace steerbench::ui

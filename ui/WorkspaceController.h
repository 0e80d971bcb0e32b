// The open workspace: opening and creating it (a file that cannot be opened
// leaves the current one open and untouched), the default workspace and its
// first-run corpus, ingesting folders and adding kernel files (jobs), the
// reference layer, and loading the plot's tables.
#pragma once

#include "Workbench.h"

#include "corpus/CorpusIngest.h"

#include <QObject>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <vector>

namespace steerbench::ui {

class WorkspaceController : public QObject {
  Q_OBJECT
public:
  WorkspaceController(const Workbench& bench, QObject* parent = nullptr);

  /// Opens a workspace (on the engine thread). An existing file that cannot
  /// be opened (corrupt, newer, read-only, not a workspace) gets a dialog and
  /// the current workspace stays open. `create` makes a missing file.
  void open(const QString& path, bool create = false);
  /// Opens the default workspace; on first run it is built from the Debian
  /// corpus preset, with progress in the status bar.
  void openDefault();
  /// Measures kernel files and stores them as your kernels (a job).
  void addKernelFiles(const QStringList& paths);
  /// Ingests a folder of OpenCL code into the corpus (a job, resumable).
  void ingestFolder(const QString& folder);
  /// Shows a DevMap-layout CSV as the reference layer (a clear dialog when it is not).
  void importReference(const QString& csvPath);
  /// Loads the plot's tables in the selected space, and its PCA.
  void reloadPlot();

  [[nodiscard]] QString path() const { return path_; }
  /// The model this workspace trains (WORKSPACE.model.ckpt).
  [[nodiscard]] QString checkpointPath() const;
  /// Called before another workspace opens (training pauses there).
  std::function<void(const QString& path)> beforeSwitch;

signals:
  void opened(const QString& path);
  void plotReloaded();
  /// A job of addKernelFiles or ingestFolder finished (also when cancelled).
  void jobDone(const QString& summary);
  /// The recent-workspaces list changed.
  void recentChanged();

private:
  void buildDefaultCorpus();
  /// The ingest job of the default corpus and of ingestFolder.
  void ingest(const QString& title, std::function<std::vector<corpus::SourceInput>()> inputs,
              std::function<void(const corpus::IngestSummary&, std::int64_t kernels)> done);
  void showKernelCount(std::int64_t kernels);

  Workbench bench_;
  QString path_;
};

} // namespace steerbench::ui

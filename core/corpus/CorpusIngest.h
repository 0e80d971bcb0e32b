// The ingest job: find source files, run the pipeline on all cores, dedupe,
// hold out evaluation kernels, store with provenance, and balance the corpus.
#pragma once

#include "corpus/CorpusPipeline.h"
#include "engine/ParallelFor.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace steerbench::store {
class Workspace;
}

namespace steerbench::corpus {

/// One file to ingest, with where it comes from.
struct SourceInput {
  std::string path;
  std::string root;    ///< the source tree it belongs to (searched for includes)
  std::string package; ///< e.g. a Debian package, or empty
  std::string license;
  std::vector<std::string> defines;     ///< extra, for this input
  std::vector<std::string> includeDirs; ///< extra, for this input
};

/// The .cl files under `path` (recursively; a file is taken as it is),
/// sorted. Throws InputError when `path` does not exist.
[[nodiscard]] std::vector<SourceInput> collectSources(const std::string& path);

struct BalanceOptions {
  double maxPackageShare = 0.5; ///< no package above this share of the training corpus (1 = off)
  unsigned familyCap = 32;      ///< at most this many kernels of one template family in training (0 = off)
};

struct CorpusIngestOptions {
  IngestOptions pipeline;
  unsigned jobs = engine::hardwareJobs();
  std::vector<std::string> referenceCsvs; ///< DevMap-layout CSVs: their kernels are held out of training
  BalanceOptions balance;
  /// On the calling thread, after each batch of files: files done of those
  /// to do, and the share of their bytes done (a file's cost follows its
  /// size far more than its count, so a rate of bytes gives a steady ETA).
  std::function<void(std::size_t done, std::size_t total, double bytesDone)> progress;
  const CancelToken* cancel = nullptr;
};

struct IngestSummary {
  std::size_t files = 0, skipped = 0, filesRejected = 0;
  std::size_t kernelsFound = 0, stored = 0, duplicates = 0, heldOut = 0, kernelsRejected = 0;
  std::size_t referenceKernels = 0;
  bool cancelled = false;
  std::map<std::string, std::size_t> rejectedAt; ///< stage name -> files and kernels stopped there
};

/// Ingests `inputs` into `ws`. Files already ingested with the same bytes
/// and options are skipped. Each file is stored in one transaction, so an
/// interruption loses at most the files in flight. A bad file never stops
/// the run. Throws WorkspaceError only when the workspace cannot be written.
IngestSummary ingestCorpus(store::Workspace& ws, const std::vector<SourceInput>& inputs,
                           const CorpusIngestOptions& options);

/// Recomputes training roles: reference matches stay held out; template
/// families and packages over their caps become "capped". Returns how many
/// kernels are capped.
std::size_t rebalanceCorpus(store::Workspace& ws, const BalanceOptions& options);

/// A report of the corpus in `ws`: per stage, per package, compile rates,
/// token lengths, Grewe feature distributions, families. `json` picks the format.
[[nodiscard]] std::string corpusReport(const store::Workspace& ws, bool json);

} // namespace steerbench::corpus

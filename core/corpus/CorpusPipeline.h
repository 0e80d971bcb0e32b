// The corpus pipeline for one source file: read, inline includes, preprocess,
// isolate kernels, reconstruct declarations, compile, rewrite identifiers,
// format. Deduplication and storage happen in the ingest job.
#pragma once

#include "features/FeatureSpace.h"
#include "source/SourceFile.h"
#include "clang/OpenCLFrontend.h"

#include <string>
#include <vector>

namespace steerbench::corpus {

/// Pipeline stages, in order. A file or kernel that stops at a stage was
/// rejected there; `Stored` means it went all the way.
enum class Stage { Read, Include, Preprocess, Isolate, Reconstruct, Compile, Rewrite, Format, Dedupe, Stored };
[[nodiscard]] const char* stageName(Stage s);
[[nodiscard]] const std::vector<Stage>& allStages();

struct IngestOptions {
  clangfe::CompileOptions compile; ///< defines and include dirs (the source tree root is added per file)
  source::ReadLimits limits;
  bool reconstruct = true; ///< stage 5 on or off (for comparisons)
  /// Isolated kernels longer than this many tokens are rejected before they
  /// are compiled: no model here reads sequences that long (BenchPress's
  /// longest sample has 750 tokens), and compiling them dominates ingest.
  unsigned maxTokens = 12288;
};

struct KernelOutcome {
  std::string name;                       ///< the kernel's original name
  Stage stage = Stage::Isolate;           ///< where it stopped; Format when ready to store
  std::string reason;                     ///< why it stopped
  bool compiledAsIs = false;              ///< compiled without reconstruction
  std::vector<std::string> reconstructed; ///< declarations reconstruction added
  std::string original;                   ///< the isolated unit, before rewriting (with reconstructed declarations)
  std::string source;                     ///< rewritten and formatted: what the corpus keeps
  std::string dedupeHash;                 ///< sha256 of `source` with whitespace folded
  std::string family;                     ///< template family (near-duplicates)
  unsigned tokens = 0;
  std::vector<features::KernelVector> vectors; ///< one per feature space, registry order
  [[nodiscard]] bool ready() const { return stage == Stage::Format; }
};

struct FileOutcome {
  std::string path;
  std::string contentHash;   ///< sha256 of the file's bytes (empty if unreadable)
  Stage stage = Stage::Read; ///< where the file stopped; Isolate when kernels were found
  std::string reason;
  std::vector<std::string> includedFiles;
  std::vector<KernelOutcome> kernels;
  [[nodiscard]] bool ok() const { return reason.empty(); }
};

/// Runs stages 1 to 8 on one file. `sourceRoot` is searched for includes
/// after the file's own folder. Never throws for bad input. Thread-safe.
[[nodiscard]] FileOutcome processFile(const std::string& path, const std::string& sourceRoot,
                                      const IngestOptions& options);

/// Stages 5 to 8 on one isolated unit (also used for reference kernels).
[[nodiscard]] KernelOutcome finishKernel(const std::string& name, const std::string& isolated,
                                         const std::string& fileName, const IngestOptions& options);

/// Extra compiler flags a file declares for itself (piglit's `build_options:`
/// in its [config] comment): -D, -I and -cl-std are understood.
void applyFileBuildOptions(const std::string& text, const std::string& fileDir, clangfe::CompileOptions& options);

} // namespace steerbench::corpus

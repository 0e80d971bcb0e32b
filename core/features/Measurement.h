// Measuring files: read, compile once, and extract every requested space.
#pragma once

#include "features/FeatureSpace.h"
#include "source/SourceFile.h"
#include "clang/OpenCLFrontend.h"

#include <string>
#include <vector>

namespace steerbench::features {

struct MeasureOptions {
  clangfe::CompileOptions compile;
  source::ReadLimits limits;
  std::vector<const FeatureSpace*> spaces; ///< at least one
  /// More observers of the compile's AST (borrowed for the call), beside the spaces'.
  std::vector<clangfe::AstObserver*> observers;

  /// Every feature space of this build, with default compile options and limits.
  [[nodiscard]] static MeasureOptions everySpace();
};

struct SpaceResult {
  const FeatureSpace* space = nullptr;
  std::vector<KernelVector> kernels; ///< one per kernel, or empty when `error` is set
  std::string error;
};

/// What one file gave. `error` is set when the file could not be read, did
/// not compile, or holds no kernel; the spaces that could still be measured
/// on the recovered AST (Grewe) are filled and flagged fromErrors.
struct FileMeasurement {
  std::string path;
  std::string source;
  std::string error;
  std::vector<clangfe::Diagnostic> diagnostics;
  unsigned errorCount = 0;
  bool compilerCrashed = false; ///< Clang crashed on this source (see CompileResult::crashed)
  bool cancelled = false;       ///< not measured: its job was cancelled first
  std::vector<std::string> kernels;
  std::vector<SpaceResult> spaces;

  [[nodiscard]] bool ok() const { return error.empty(); }
};

/// Measures the file at `path` (read from disk). Never throws for bad input:
/// problems come back in `error`. Thread-safe.
[[nodiscard]] FileMeasurement measureFile(const std::string& path, const MeasureOptions& options);

/// Measures text already in memory; `name` is used in messages and to resolve includes.
[[nodiscard]] FileMeasurement measureSource(std::string source, const std::string& name, const MeasureOptions& options);

} // namespace steerbench::features

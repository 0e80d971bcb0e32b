// The engine's "drive these kernels" job, shared by the CLI and the GUI:
// signatures from Clang, driving through the worker, and storing each case
// (with the spec that produced it) in the workspace as it completes.
#pragma once

#include "clang/OpenCLFrontend.h"
#include "drive/host/Driver.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace steerbench::store {
class Workspace;
}

namespace steerbench::drive {

struct DriveUnit {
  std::string name;       ///< a file path, or how the GUI names the kernel
  std::string source;     ///< OpenCL C
  std::string onlyKernel; ///< drive only this kernel of the unit (empty: all)
};

struct DrivenKernel {
  std::string unit, kernel;
  std::int64_t kernelId = 0; ///< in the workspace, when one was given
  std::string error;         ///< set when the unit did not compile with Clang (nothing was driven)
  std::vector<CaseResult> cases;
  /// How its payload was chosen: the roles read, the probes, the constraint
  /// sets tried (Driver::evidence), for `drive --explain` and the Devices dock.
  std::vector<std::string> evidence;
  /// With DriveJobOptions::resume: the workspace held its cases from an
  /// earlier drive with the same settings, so it was not driven again;
  /// `storedOutcomes` are those cases' outcomes, oldest first.
  bool skipped = false;
  std::vector<std::string> storedOutcomes;
};

struct DriveJobOptions {
  DriveOptions drive;
  clangfe::CompileOptions compile;
  /// Kernels finished and in all (counted after the signatures are read).
  std::function<void(std::size_t done, std::size_t total)> progress;
  std::function<void(const DrivenKernel& kernel, const CaseResult& c)> onCase;
  const CancelToken* cancel = nullptr;
  /// Go on where an interrupted drive stopped: a kernel whose cases from a
  /// drive with the same settings are in the workspace is not driven again.
  /// The last kernel such a drive stored is, its cases replaced: the drive
  /// may have stopped between its sizes.
  bool resume = false;
};

/// Drives every kernel of the units. With a workspace, every kernel is added
/// (role 'user' unless stored already) and each case is stored as it
/// completes, with the spec. Throws InputError when the worker cannot start
/// or a device does not exist; a failing kernel is an outcome, never a throw.
std::vector<DrivenKernel> runDriveJob(const std::vector<DriveUnit>& units, const DriveJobOptions& options,
                                      store::Workspace* workspace);

/// PoCL's cache for a workspace: WORKSPACE_DIR/STEM.pocl-cache.
[[nodiscard]] std::string poclCacheFor(const std::string& workspace);

} // namespace steerbench::drive

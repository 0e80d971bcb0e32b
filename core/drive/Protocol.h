// The steerbench-drive line protocol: one JSON object per line, over the
// worker's stdin (requests) and stdout (replies). Documented in
// docs/drive-protocol.md.
//
//   worker -> parent, once at start: {"worker":"steerbench-drive","protocol":1,"devices":[...]}
//   parent -> worker: {"op":"run", ...RunRequest}   worker -> parent: {...RunReply}
//   parent -> worker: {"op":"quit"}                  (the worker exits 0)
#pragma once

#include "drive/KernelArguments.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace steerbench::drive {

inline constexpr int kProtocolVersion = 1;

/// One device as the worker sees it. `id` is "PLATFORM:DEVICE" (indices in
/// the ICD loader's order); the parent names devices by it.
struct WorkerDevice {
  std::string id, name, type, platform, vendor, driver;
  std::uint64_t localMemBytes = 0, globalMemBytes = 0;
  std::uint64_t maxWorkGroupSize = 0;
  unsigned computeUnits = 0;
};

/// A device's name without PoCL's CPU suffix, for tables:
/// "basic-skylake-avx512-Intel(R) Xeon(R) Processor" -> "basic-skylake-avx512".
[[nodiscard]] std::string shortDeviceName(const std::string& name);

/// Drive one kernel on one device at one global and local size.
struct RunRequest {
  std::string source;   ///< the OpenCL C unit
  std::string kernel;   ///< the kernel function's name
  std::string device;   ///< a WorkerDevice id
  std::string buildOptions = "-cl-std=CL1.2";
  std::vector<KernelArgument> arguments;
  std::uint64_t globalSize = 1024;
  std::uint64_t localSize = 0; ///< 0: the runtime chooses
  unsigned warmupRuns = 2;     ///< timed runs discarded first
  unsigned timedRuns = 10;
  std::uint64_t seed = 1;
  bool check = true; ///< run the dynamic checker first
};

/// What the worker measured. Outcomes: PASS, NO_OUTPUT, INPUT_INSENSITIVE,
/// NONDETERMINISTIC, BUILD_FAILURE, CL_ERROR, UNSUPPORTED_ARGUMENTS (and,
/// decided by the parent, TIMEOUT and CRASH).
struct RunReply {
  std::string outcome;
  std::string detail;                          ///< why, for anything but PASS (build log, error name)
  std::vector<double> kernelNs, transferNs;    ///< one per timed run (profiling events)
  std::uint64_t transferBytes = 0;             ///< bytes copied to and from the device per run
  std::uint64_t localSize = 0;                 ///< the local size used (0: chosen by the runtime)
};

[[nodiscard]] std::string encodeHello(const std::vector<WorkerDevice>& devices);
/// Throws InputError when the line is not a hello of this protocol version.
[[nodiscard]] std::vector<WorkerDevice> decodeHello(const std::string& line);

[[nodiscard]] std::string encodeRequest(const RunRequest& r);
/// The request, or nullopt for {"op":"quit"}. Throws InputError on a malformed line.
[[nodiscard]] std::optional<RunRequest> decodeRequest(const std::string& line);

[[nodiscard]] std::string encodeReply(const RunReply& r);
[[nodiscard]] RunReply decodeReply(const std::string& line);

} // namespace steerbench::drive

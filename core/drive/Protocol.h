// The steerbench-drive line protocol: one JSON object per line, over the
// worker's stdin (requests) and stdout (replies). Documented in
// docs/drive-protocol.md.
//
//   worker -> parent, once at start: {"worker":"steerbench-drive","protocol":1,"devices":[...]}
//   parent -> worker: {"op":"run", ...RunRequest}   worker -> parent: {...RunReply}
//   parent -> worker: {"op":"quit"}                  (the worker exits 0)
#pragma once

#include "drive/KernelArguments.h"

#include <climits>
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

  // The payload plan (docs/driving.md, "Payloads"). Empty: CLgen's rule (one
  // element per work-item, integral scalars the global size, 1-D).
  std::vector<std::uint64_t> global; ///< per NDRange dimension (1 to 3); empty: {globalSize}
  std::vector<std::uint64_t> local;  ///< per dimension; empty: {localSize}, or the runtime chooses
  std::vector<std::uint64_t> counts; ///< per argument: a buffer's elements (0: globalSize)
  std::vector<std::int64_t> values;  ///< per argument: an integral scalar's value (kDefaultValue: globalSize)
  std::vector<std::uint64_t> ranges; ///< per argument: an integer buffer's values in [0, range) (0: [0, count))
  /// Per argument: 1 for an integral scalar that is a plain value (no size,
  /// width or offset), which the checker's last input may change to 1..value.
  std::vector<std::uint64_t> varied;
  /// Guard bytes after each writable global buffer, filled with a pattern and
  /// compared after every checked run: a change is OUT_OF_BOUNDS.
  std::uint64_t guardBytes = 0;
  /// The source is a probe (KernelAnalysis::instrumented): one run, and the
  /// reply holds each argument's accessed byte range.
  bool probe = false;
  /// A probe's own arrays (KernelAnalysis::arrays): the bytes of each, whose
  /// stats follow the arguments'.
  std::vector<std::uint64_t> probeArrays;
  /// The source is a checked run's poisoned copy (KernelAnalysis::poisoned):
  /// it takes a poison and the bytes of each local pointer argument after
  /// its own arguments, and the two runs on each input get different poisons.
  bool poisoned = false;
  static constexpr std::int64_t kDefaultValue = INT64_MIN;
  /// The NDRange, as the plan or CLgen's rule gives it.
  [[nodiscard]] std::vector<std::uint64_t> globalRange() const { return global.empty() ? std::vector<std::uint64_t>{globalSize} : global; }
  [[nodiscard]] std::vector<std::uint64_t> localRange() const;
  /// Elements of buffer argument `i` (its count, or the global size).
  [[nodiscard]] std::uint64_t elements(std::size_t i) const { return i < counts.size() && counts[i] ? counts[i] : globalSize; }
};

/// An image argument's size: the NDRange's (a 1-D range makes a square or a cube).
struct ImageShape {
  std::size_t width = 1, height = 1, depth = 1;
  [[nodiscard]] std::size_t pixels() const { return width * height * depth; }
  [[nodiscard]] std::string describe() const;
};
[[nodiscard]] ImageShape imageShape(const RunRequest& r, const KernelArgument& image);

/// What the worker measured. Outcomes: PASS, NO_OUTPUT, INPUT_INSENSITIVE,
/// NONDETERMINISTIC, BUILD_FAILURE, CL_ERROR, UNSUPPORTED_ARGUMENTS (and,
/// decided by the parent, TIMEOUT and CRASH).
struct RunReply {
  std::string outcome;
  std::string detail;                          ///< why, for anything but PASS (build log, error name)
  std::vector<double> kernelNs, transferNs;    ///< one per timed run (profiling events)
  std::uint64_t transferBytes = 0;             ///< bytes copied to and from the device per run
  std::uint64_t localSize = 0;                 ///< the local size used (0: chosen by the runtime)
  /// A probe's findings per argument, then per array of probeArrays: the lowest and highest byte offset (end
  /// exclusive) the kernel accessed, and how many accesses (0: none; then
  /// the range is meaningless).
  std::vector<std::int64_t> probeMin, probeMax, probeAccesses;
  std::vector<std::int64_t> probeBytes; ///< the bytes each buffer had (local ones as the device allowed)
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

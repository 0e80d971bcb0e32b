// Runs kernels on OpenCL devices: payloads, the dynamic checker and timed runs.
// It lives in the steerbench-drive worker process only, so that a kernel that
// hangs or crashes its device takes down the worker, never the application.
#pragma once

#include "drive/Protocol.h"

#include <memory>
#include <vector>

namespace steerbench::drive {

class DeviceRunner {
public:
  /// Enumerates every platform and device through the ICD loader.
  DeviceRunner();
  ~DeviceRunner();
  DeviceRunner(const DeviceRunner&) = delete;
  DeviceRunner& operator=(const DeviceRunner&) = delete;

  [[nodiscard]] const std::vector<WorkerDevice>& devices() const;
  /// Builds (or reuses) the program, checks the kernel and times it. Never
  /// throws for a failing kernel: the reply's outcome says what happened.
  [[nodiscard]] RunReply run(const RunRequest& request);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The OpenCL error code's name ("CL_INVALID_WORK_GROUP_SIZE"), or its number.
[[nodiscard]] std::string clErrorName(int code);

/// Host bytes of one argument's payload, as the driver makes them: values drawn
/// from `seed` (integers in [0, range), or [0, count) when range is 0; floats
/// in [0, 1)). Exposed for tests.
[[nodiscard]] std::vector<unsigned char> payloadBytes(const KernelArgument& a, std::size_t count, std::uint64_t seed,
                                                      std::uint64_t range = 0);

/// Whether two output buffers of this argument's type hold the same values
/// (floating types within a relative tolerance of 1e-5; NaN equals NaN, an
/// infinity only itself).
[[nodiscard]] bool sameOutput(const KernelArgument& a, const std::vector<unsigned char>& x,
                              const std::vector<unsigned char>& y);

} // namespace steerbench::drive

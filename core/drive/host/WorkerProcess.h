// The parent's side of a steerbench-drive worker: starts it in a sandbox of
// its own (rlimits, its own PoCL cache, killed with its parent), exchanges
// protocol lines with a wall-clock deadline, and kills it when it hangs.
#pragma once

#include "drive/Protocol.h"

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace steerbench {
class CancelToken;
}

namespace steerbench::drive {

struct WorkerOptions {
  std::string executable;  ///< steerbench-drive (see driveWorkerPath())
  std::string cacheDir;    ///< PoCL's kernel cache (POCL_CACHE_DIR); created when missing
  std::uint64_t memoryLimitBytes = std::uint64_t(8) << 30; ///< RLIMIT_DATA of the worker (0: none)
  double startTimeoutSeconds = 60;
  /// Oclgrind's launcher: when set, the worker runs inside Oclgrind's
  /// simulator, which checks every memory access and logs errors to
  /// oclgrindLog (the worker reads it: docs/driving.md, "Out of bounds").
  std::string oclgrind;
  std::string oclgrindLog; ///< empty: worker-oclgrind.log in cacheDir, or /tmp
  /// A request's timeout counts the CPU time the worker uses (all its
  /// threads), not the clock, up to kCpuTimeoutWallFactor times as long on
  /// the clock: for a worker at low priority, which may wait for the CPU
  /// while a kernel that hangs still spins.
  bool cpuTimeouts = false;
};

inline constexpr double kCpuTimeoutWallFactor = 10;

/// Where steerbench-drive is: $STEERBENCH_DRIVE, else beside the running
/// binary, else in the build tree. Empty when none exists.
[[nodiscard]] std::string driveWorkerPath();

/// Oclgrind's launcher on PATH (Debian's oclgrind package); empty when missing.
[[nodiscard]] std::string oclgrindPath();

class WorkerProcess {
public:
  /// Starts the worker and reads its greeting. Throws InputError saying what
  /// went wrong (no executable, it died at start, no greeting in time).
  explicit WorkerProcess(WorkerOptions options);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  [[nodiscard]] const std::vector<WorkerDevice>& devices() const { return devices_; }
  [[nodiscard]] pid_t pid() const { return pid_; }

  struct Exchange {
    enum class Status { Reply, Timeout, Died, Cancelled } status = Status::Reply;
    std::string line;  ///< the reply, for Status::Reply
    std::string death; ///< how the worker ended, for Status::Died ("killed by signal 11 (Segmentation fault)")
  };
  /// Sends one request line and waits for the reply. After anything but a
  /// reply the worker is dead (killed on timeout or cancel) and this object
  /// must be replaced.
  [[nodiscard]] Exchange exchange(const std::string& requestLine, double timeoutSeconds,
                                  const CancelToken* cancel = nullptr);

private:
  void kill();
  std::string reap();
  /// Reads until a whole line is buffered or the deadline passes.
  enum class Read { Line, Timeout, Closed, Cancelled };
  Read readLine(std::string& line, double timeoutSeconds, const CancelToken* cancel);

  WorkerOptions options_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
  std::vector<WorkerDevice> devices_;
};

} // namespace steerbench::drive

// Drives kernels on the selected devices through a steerbench-drive worker:
// for each global and local size, every device in turn; a hang becomes
// TIMEOUT and a dead worker CRASH, and driving goes on with a fresh worker.
#pragma once

#include "drive/KernelArguments.h"
#include "drive/Protocol.h"
#include "drive/host/KernelAnalysis.h"
#include "drive/host/Payloads.h"
#include "drive/host/Timing.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace steerbench {
class CancelToken;
}

namespace steerbench::drive {

class WorkerProcess;
struct WorkerOptions;

struct DriveOptions {
  std::vector<std::string> devices;                  ///< ids ("0:1") or parts of names; empty: every device
  std::vector<std::uint64_t> globalSizes{4096, 65536};
  std::vector<std::uint64_t> localSizes{64};         ///< 0: the runtime chooses
  unsigned warmupRuns = 2, timedRuns = 10;
  std::uint64_t seed = 1;
  bool check = true;                                 ///< the dynamic checker (four runs) before timing
  double timeoutSeconds = 20;                        ///< per request: build and checks; the warm-ups; or one timed run
  std::uint64_t memoryLimitMB = 8192;                ///< the worker's data-memory limit (RLIMIT_DATA)
  /// A new worker for every kernel. Measured (bench-drive): reusing one was
  /// no faster here (a worker starts in about 0.07 s), so each kernel gets
  /// its own unless asked; reuse may pay where a GPU runtime starts slowly.
  bool freshWorkerPerKernel = true;
  std::string buildOptions = "-cl-std=CL1.2";
  std::string workerPath;                            ///< empty: driveWorkerPath()
  std::string cacheDir;                              ///< PoCL's cache, beside the workspace
  /// The constraint sets tried for each kernel's payload, in order
  /// (docs/driving.md, "Payloads"): roles, cldrive, big, scalars. One set: only it.
  std::vector<std::string> payloadSets = constraintSets();
  /// Guard bytes after each writable buffer in the checked runs; a write into
  /// them is OUT_OF_BOUNDS. 0: none.
  std::uint64_t guardBytes = 4096;
  /// Run the worker inside Oclgrind's simulator: its only device is then
  /// "Oclgrind Simulator", and a memory error it logs during the checked
  /// runs is OUT_OF_BOUNDS. Slow (an interpreter): for checking, not timing.
  bool oclgrind = false;
  /// Of the devices selected, drive only the one with the most compute units
  /// (a check that needs one device, not a label).
  bool mostComputeUnitsOnly = false;
  /// Timeouts count the worker's CPU time, up to kCpuTimeoutWallFactor times
  /// as long on the clock (WorkerOptions::cpuTimeouts): for a driver whose
  /// worker runs at low priority beside busy work.
  bool cpuTimeouts = false;
};

/// The options as JSON, for the spec stored with every result.
[[nodiscard]] std::string specJson(const DriveOptions& o);

struct DeviceRun {
  WorkerDevice device;
  RunReply reply;                   ///< outcome, detail, raw times
  Summary kernel, transfer, total;  ///< nanoseconds; n = 0 unless PASS
};

struct CaseResult {
  std::string kernel;
  std::uint64_t globalSize = 0, localSize = 0;
  std::vector<DeviceRun> devices;   ///< in the order of Driver::devices(); fewer when driving stopped early
  std::string outcome;              ///< PASS when every device passed, else the first other outcome
  std::string detail;
  LabelDecision label;              ///< index into devices; only when outcome is PASS
  std::uint64_t transferBytes = 0;
  std::string payloadSet;           ///< the constraint set the payload came from
  std::string payload;              ///< what each argument got and the NDRange (describePayload)
  [[nodiscard]] std::string labelDevice() const;
};

class Driver {
public:
  /// Starts a worker and picks the devices. Throws InputError when the worker
  /// cannot start, or when a requested device does not exist (naming those that do).
  explicit Driver(DriveOptions options);
  ~Driver();

  [[nodiscard]] const std::vector<WorkerDevice>& devices() const { return devices_; }
  [[nodiscard]] const DriveOptions& options() const { return options_; }
  /// Workers started so far (the first, plus one after every timeout or crash).
  [[nodiscard]] int workersStarted() const { return started_; }
  /// Wall-clock seconds spent so far in requests to the worker, by purpose:
  /// instrumented probes (extents, measurements, bounds checks), the
  /// checker's runs with the builds and warm-ups, and the timed runs.
  struct TimeSpent {
    double probing = 0, checking = 0, timing = 0;
  };
  [[nodiscard]] const TimeSpent& timeSpent() const { return spent_; }

  /// Drives one kernel at every size on every device. `onCase` sees each case
  /// as it completes. After a TIMEOUT or CRASH the kernel's remaining sizes
  /// are not driven (the same hang would cost the timeout again on each).
  /// With freshWorkerPerKernel off, one worker serves kernel after kernel, but
  /// a kernel that did not PASS leaves it for a fresh one (it may have
  /// corrupted the worker's memory without crashing it).
  std::vector<CaseResult> drive(const std::string& source, const KernelSignature& kernel,
                                const std::function<void(const CaseResult&)>& onCase = {},
                                const CancelToken* cancel = nullptr);

  /// What the driver read from a kernel and chose for its payload (after drive()).
  [[nodiscard]] const KernelAnalysis& analysis() const { return analysis_; }
  [[nodiscard]] const PayloadModel& model() const { return model_; }
  /// How the payload was chosen: the probes and the sets tried, a line each.
  [[nodiscard]] const std::vector<std::string>& evidence() const { return evidence_; }

private:
  WorkerProcess& worker();
  /// The device instrumented probes run on.
  [[nodiscard]] const WorkerDevice& probeDevice() const;
  /// `planned` as a probe of the instrumented copy: one run, statistics only.
  [[nodiscard]] RunRequest probeRequest(const RunRequest& planned) const;
  /// One request to the worker; TIMEOUT or CRASH when it hangs or dies (the
  /// worker is then replaced). False when cancelled. `timeoutSeconds` 0:
  /// the options'.
  bool exchange(const RunRequest& r, RunReply& reply, const CancelToken* cancel, double timeoutSeconds = 0);
  /// exchange(), but a checked request is two: the build and the checks (of
  /// the poisoned copy, KernelAnalysis::poisoned, when there is one), then,
  /// if they passed, its warm-up and timed runs of the kernel as written.
  bool checkedExchange(const RunRequest& r, RunReply& reply, const CancelToken* cancel);
  /// The payload model of `kernel`: probes, then the first constraint set
  /// that runs clean at the smallest size on the first device.
  void choosePayload(const std::string& source, const KernelSignature& kernel, const CancelToken* cancel);
  /// The `scalars` set: probes of the instrumented kernel at `items`
  /// work-items with integer scalars 0, 1 or half their role's value, one
  /// scalar changed at a time (greedily, twice over), then, if that found
  /// nothing, all 0, all 1 and eight seeded random assignments. An assignment that reaches more of
  /// the writable buffers (more of them accessed, then more bytes) than the
  /// roles' values becomes model_.scalars. False when none does.
  bool searchScalars(const KernelSignature& kernel, std::uint64_t items, std::uint64_t local, const CancelToken* cancel);
  /// Probes the instrumented kernel at two sizes and fits each buffer's extent.
  bool probeExtents(const KernelSignature& kernel, std::uint64_t local, const CancelToken* cancel);
  /// Roles only: the buffers' sizes measured at the real size (a probe with
  /// room to spare), replacing the fit's estimate. True when every traced
  /// access fell inside the sizes it set: the bounds check would find nothing
  /// on the same data, and is skipped. Remembered per size for the kernel.
  bool measureAtSize(RunRequest& planned, const CancelToken* cancel);
  /// A probe at the real size: an access outside a buffer is OUT_OF_BOUNDS (empty: none).
  std::string boundsCheck(const RunRequest& planned, const CancelToken* cancel);
  /// A probe's first access outside one of the kernel's own arrays
  /// (KernelAnalysis::arrays), said as boundsCheck says it (empty: none).
  [[nodiscard]] std::string ownArraysAccessedOutside(const RunReply& reply) const;
  std::vector<CaseResult> driveCases(const std::string& source, const KernelSignature& kernel,
                                     const std::function<void(const CaseResult&)>& onCase,
                                     const CancelToken* cancel);

  /// The worker a request goes to: probes to probeWorker_ under Oclgrind.
  std::unique_ptr<WorkerProcess>& workerFor(const RunRequest& r);
  /// The options every worker starts with; `oclgrind`: inside Oclgrind's simulator.
  [[nodiscard]] WorkerOptions workerOptions(bool oclgrind) const;
  /// The device a payload set is tried on: the one with the most compute units.
  [[nodiscard]] const WorkerDevice& checkDevice() const;

  DriveOptions options_;
  std::unique_ptr<WorkerProcess> worker_;
  /// Under Oclgrind, probes (which only measure buffers) run on the
  /// machine's own devices, in a plain worker: the simulator checks the
  /// payload, it need not size it.
  std::unique_ptr<WorkerProcess> probeWorker_;
  std::vector<WorkerDevice> probeDevices_; ///< probeWorker_'s devices
  std::vector<WorkerDevice> all_, devices_;
  int started_ = 0;
  bool usedSinceStart_ = false;
  KernelAnalysis analysis_;
  PayloadModel model_;
  std::vector<std::string> evidence_;
  RunReply verdict_; ///< a TIMEOUT while choosing the payload: the kernel's outcome (empty: none)
  std::string verdictDevice_; ///< the device verdict_ came from
  struct Measured {
    std::vector<std::uint64_t> counts, ranges;
    bool fitted = false;
  };
  /// By global size and scalar values (a one-group kernel keeps its size and changes its values).
  std::map<std::pair<std::uint64_t, std::vector<std::int64_t>>, Measured> measured_;
  TimeSpent spent_;
  std::string measureHung_; ///< the measurement at the current size timed out: why (empty: it did not) ///< measureAtSize's results by global size, for this kernel
};

} // namespace steerbench::drive

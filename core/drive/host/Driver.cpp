#include "drive/host/Driver.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "drive/host/WorkerProcess.h"
#include "engine/ParallelFor.h"

#include <algorithm>
#include <sys/resource.h>

namespace steerbench::drive {
namespace {

std::string joinSizes(const std::vector<std::uint64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

} // namespace

std::string specJson(const DriveOptions& o) {
  std::string devices = "[";
  for (std::size_t i = 0; i < o.devices.size(); ++i)
    devices += (i ? "," : "") + jsonString(o.devices[i]);
  devices += "]";
  return std::string("{\"what\":\"drive\",\"app_version\":") + jsonString(kAppVersion) + ",\"devices\":" + devices +
         ",\"global_sizes\":" + joinSizes(o.globalSizes) + ",\"local_sizes\":" + joinSizes(o.localSizes) +
         ",\"warmup_runs\":" + std::to_string(o.warmupRuns) + ",\"timed_runs\":" + std::to_string(o.timedRuns) +
         ",\"seed\":" + std::to_string(o.seed) + ",\"check\":" + (o.check ? "true" : "false") +
         ",\"timeout_s\":" + formatNumber(o.timeoutSeconds) + ",\"memory_limit_mb\":" +
         std::to_string(o.memoryLimitMB) + ",\"fresh_worker_per_kernel\":" +
         (o.freshWorkerPerKernel ? "true" : "false") + ",\"build_options\":" + jsonString(o.buildOptions) +
         ",\"nice\":" + std::to_string(::getpriority(PRIO_PROCESS, 0)) + "}";
}

std::string CaseResult::labelDevice() const {
  return label.best >= 0 && std::size_t(label.best) < devices.size() ? devices[std::size_t(label.best)].device.name
                                                                       : std::string();
}

Driver::Driver(DriveOptions options) : options_(std::move(options)) {
  if (options_.workerPath.empty()) options_.workerPath = driveWorkerPath();
  if (options_.globalSizes.empty()) throw InputError("give at least one global size");
  if (options_.localSizes.empty()) options_.localSizes = {0};
  if (options_.timedRuns < 1) throw InputError("give at least one timed run");
  all_ = worker().devices();
  if (all_.empty())
    throw InputError("no OpenCL device found through the ICD loader; install an OpenCL driver (on Debian: "
                     "pocl-opencl-icd) and check with: clinfo -l");
  if (options_.devices.empty()) {
    devices_ = all_;
    return;
  }
  for (const auto& want : options_.devices) {
    auto it = std::find_if(all_.begin(), all_.end(), [&](const WorkerDevice& d) { return d.id == want; });
    if (it == all_.end())
      it = std::find_if(all_.begin(), all_.end(),
                        [&](const WorkerDevice& d) { return d.name.find(want) != std::string::npos; });
    if (it == all_.end()) {
      std::string known;
      for (const auto& d : all_)
        known += (known.empty() ? "" : ", ") + d.id + " (" + d.name + ")";
      throw InputError("no device matches '" + want + "'; the devices are: " + known);
    }
    devices_.push_back(*it);
  }
}

Driver::~Driver() = default;

WorkerProcess& Driver::worker() {
  if (!worker_) {
    WorkerOptions w;
    w.executable = options_.workerPath;
    w.cacheDir = options_.cacheDir;
    w.memoryLimitBytes = options_.memoryLimitMB << 20;
    worker_ = std::make_unique<WorkerProcess>(w);
    ++started_;
    usedSinceStart_ = false;
  }
  return *worker_;
}

std::vector<CaseResult> Driver::drive(const std::string& source, const KernelSignature& kernel,
                                      const std::function<void(const CaseResult&)>& onCase,
                                      const CancelToken* cancel) {
  if (options_.freshWorkerPerKernel && usedSinceStart_) worker_.reset();
  std::vector<CaseResult> results = driveCases(source, kernel, onCase, cancel);
  // A kernel that failed may have written out of bounds without crashing:
  // the next kernel gets a fresh worker, so its outcome is its own.
  for (const auto& c : results)
    if (c.outcome != "PASS" && usedSinceStart_) {
      worker_.reset();
      break;
    }
  return results;
}

std::vector<CaseResult> Driver::driveCases(const std::string& source, const KernelSignature& kernel,
                                           const std::function<void(const CaseResult&)>& onCase,
                                           const CancelToken* cancel) {
  std::vector<CaseResult> results;
  const std::string unsupported = kernel.unsupportedReason();
  for (const auto global : options_.globalSizes)
    for (const auto local : options_.localSizes) {
      if (cancel && cancel->cancelled()) return results;
      // Sizes OpenCL 1.2 cannot launch are skipped, not failed.
      if (local && (local > global || global % local)) continue;
      CaseResult c;
      c.kernel = kernel.name;
      c.globalSize = global;
      c.localSize = local;
      bool stop = false;
      // Phase 1, per device: build, the checker, and the warm-up runs.
      // Phase 2: the timed runs one at a time, in rounds over the devices
      // that passed (forward, then backward), so that drift in the
      // machine's load (PIE's warning) falls on every device alike.
      bool cancelled = false;
      auto request = [&](const WorkerDevice& device, bool check, unsigned warmup, unsigned runs, RunReply& reply) {
        RunRequest r;
        r.source = source;
        r.kernel = kernel.name;
        r.device = device.id;
        r.buildOptions = options_.buildOptions;
        r.arguments = kernel.arguments;
        r.globalSize = global;
        r.localSize = local;
        r.warmupRuns = warmup;
        r.timedRuns = runs;
        r.seed = options_.seed;
        r.check = check;
        auto x = worker().exchange(encodeRequest(r), options_.timeoutSeconds, cancel);
        usedSinceStart_ = true;
        using S = WorkerProcess::Exchange::Status;
        if (x.status == S::Cancelled) {
          worker_.reset();
          cancelled = true;
          return;
        }
        if (x.status == S::Reply) {
          try {
            reply = decodeReply(x.line);
            return;
          } catch (const InputError& e) {
            x.status = S::Died;
            x.death = std::string("it sent an unreadable reply (") + e.what() + ")";
          }
        }
        worker_.reset();
        stop = true;
        reply.kernelNs.clear();
        reply.transferNs.clear();
        if (x.status == S::Timeout) {
          reply.outcome = "TIMEOUT";
          reply.detail = "no result within " + formatNumber(options_.timeoutSeconds) +
                         " s; the worker was killed (raise --timeout for long kernels)";
        } else {
          reply.outcome = "CRASH";
          reply.detail = "the drive worker died: " + x.death;
        }
      };
      for (const auto& device : devices_) {
        if (cancel && cancel->cancelled()) return results;
        DeviceRun run;
        run.device = device;
        if (!unsupported.empty()) {
          run.reply.outcome = "UNSUPPORTED_ARGUMENTS";
          run.reply.detail = unsupported;
        } else if (local && device.maxWorkGroupSize && local > device.maxWorkGroupSize) {
          run.reply.outcome = "CL_ERROR";
          run.reply.detail = "local size " + std::to_string(local) + " exceeds the device's maximum work-group size " +
                             std::to_string(device.maxWorkGroupSize) + " (CL_INVALID_WORK_GROUP_SIZE)";
        } else {
          request(device, options_.check, options_.warmupRuns, 0, run.reply);
          if (cancelled) return results;
        }
        c.devices.push_back(std::move(run));
        if (stop) break;
      }
      for (unsigned round = 0; round < options_.timedRuns && !stop; ++round)
        for (std::size_t k = 0; k < c.devices.size() && !stop; ++k) {
          auto& run = c.devices[round % 2 ? c.devices.size() - 1 - k : k];
          if (run.reply.outcome != "PASS") continue;
          RunReply one;
          request(run.device, false, 0, 1, one);
          if (cancelled) return results;
          if (one.outcome != "PASS") {
            run.reply.outcome = one.outcome;
            run.reply.detail = one.detail + " (in timed run " + std::to_string(round + 1) + ")";
            continue;
          }
          run.reply.kernelNs.insert(run.reply.kernelNs.end(), one.kernelNs.begin(), one.kernelNs.end());
          run.reply.transferNs.insert(run.reply.transferNs.end(), one.transferNs.begin(), one.transferNs.end());
        }
      for (auto& run : c.devices) {
        if (run.reply.outcome == "PASS") {
          run.kernel = summarize(run.reply.kernelNs);
          run.transfer = summarize(run.reply.transferNs);
          std::vector<double> totals(run.reply.kernelNs.size());
          for (std::size_t i = 0; i < totals.size() && i < run.reply.transferNs.size(); ++i)
            totals[i] = run.reply.kernelNs[i] + run.reply.transferNs[i];
          run.total = summarize(totals);
        } else {
          run.reply.kernelNs.clear();
          run.reply.transferNs.clear();
        }
        c.transferBytes = std::max(c.transferBytes, run.reply.transferBytes);
        if (c.outcome.empty() && run.reply.outcome != "PASS") {
          c.outcome = run.reply.outcome;
          c.detail = run.device.name + ": " + run.reply.detail;
        }
      }
      if (c.outcome.empty()) {
        c.outcome = "PASS";
        std::vector<Summary> totals;
        for (const auto& d : c.devices)
          totals.push_back(d.total);
        c.label = decideLabel(totals);
      }
      results.push_back(c);
      if (onCase) onCase(results.back());
      if (stop) return results;
    }
  return results;
}

} // namespace steerbench::drive

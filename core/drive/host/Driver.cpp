#include "drive/host/Driver.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "drive/host/WorkerProcess.h"
#include "engine/ParallelFor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <sys/resource.h>

namespace steerbench::drive {
std::string specJson(const DriveOptions& o) {
  std::string devices = "[";
  for (std::size_t i = 0; i < o.devices.size(); ++i)
    devices += (i ? "," : "") + jsonString(o.devices[i]);
  devices += "]";
  std::string payloadSets = "[";
  for (std::size_t i = 0; i < o.payloadSets.size(); ++i)
    payloadSets += (i ? "," : "") + jsonString(o.payloadSets[i]);
  payloadSets += "]";
  return std::string("{\"what\":\"drive\",\"app_version\":") + jsonString(kAppVersion) + ",\"devices\":" + devices +
         ",\"global_sizes\":" + jsonSizes(o.globalSizes) + ",\"local_sizes\":" + jsonSizes(o.localSizes) +
         ",\"warmup_runs\":" + std::to_string(o.warmupRuns) + ",\"timed_runs\":" + std::to_string(o.timedRuns) +
         ",\"seed\":" + std::to_string(o.seed) + ",\"check\":" + (o.check ? "true" : "false") +
         ",\"timeout_s\":" + formatNumber(o.timeoutSeconds) + ",\"memory_limit_mb\":" +
         std::to_string(o.memoryLimitMB) + ",\"fresh_worker_per_kernel\":" +
         (o.freshWorkerPerKernel ? "true" : "false") + ",\"build_options\":" + jsonString(o.buildOptions) +
         ",\"oclgrind\":" + (o.oclgrind ? "true" : "false") +
         ",\"most_compute_units_only\":" + (o.mostComputeUnitsOnly ? "true" : "false") +
         ",\"cpu_timeouts\":" + (o.cpuTimeouts ? "true" : "false") + ",\"payload_sets\":" + payloadSets +
         ",\"nice\":" + std::to_string(::getpriority(PRIO_PROCESS, 0)) + "}";
}

std::string CaseResult::labelDevice() const {
  return label.best >= 0 && std::size_t(label.best) < devices.size() ? devices[std::size_t(label.best)].device.name
                                                                       : std::string();
}

namespace {
const WorkerDevice& mostComputeUnits(const std::vector<WorkerDevice>& devices) {
  return *std::max_element(devices.begin(), devices.end(),
                           [](const WorkerDevice& a, const WorkerDevice& b) { return a.computeUnits < b.computeUnits; });
}
} // namespace

Driver::Driver(DriveOptions options) : options_(std::move(options)) {
  if (options_.workerPath.empty()) options_.workerPath = driveWorkerPath();
  if (options_.oclgrind && oclgrindPath().empty())
    throw InputError("Oclgrind was asked for but its launcher 'oclgrind' is not on PATH; on Debian: apt install oclgrind");
  if (options_.globalSizes.empty()) throw InputError("give at least one global size");
  if (options_.localSizes.empty()) options_.localSizes = {0};
  if (options_.timedRuns < 1) throw InputError("give at least one timed run");
  all_ = worker().devices();
  if (options_.oclgrind) { // the plain worker that measures buffers, started now: probes name its devices
    RunRequest probe;
    probe.probe = true;
    (void)workerFor(probe);
  }
  if (all_.empty())
    throw InputError("no OpenCL device found through the ICD loader; install an OpenCL driver (on Debian: "
                     "pocl-opencl-icd) and check with: clinfo -l");
  if (options_.devices.empty()) devices_ = all_;
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
  if (options_.mostComputeUnitsOnly) devices_ = {mostComputeUnits(devices_)};
}

Driver::~Driver() = default;

WorkerProcess& Driver::worker() {
  if (!worker_) {
    worker_ = std::make_unique<WorkerProcess>(workerOptions(options_.oclgrind));
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

WorkerOptions Driver::workerOptions(bool oclgrind) const {
  WorkerOptions w;
  w.executable = options_.workerPath;
  w.cacheDir = options_.cacheDir;
  w.memoryLimitBytes = options_.memoryLimitMB << 20;
  w.cpuTimeouts = options_.cpuTimeouts && !oclgrind;
  if (oclgrind) w.oclgrind = oclgrindPath();
  return w;
}

std::unique_ptr<WorkerProcess>& Driver::workerFor(const RunRequest& r) {
  if (!options_.oclgrind || !r.probe) {
    (void)worker();
    return worker_;
  }
  if (!probeWorker_) {
    probeWorker_ = std::make_unique<WorkerProcess>(workerOptions(false));
    probeDevices_ = probeWorker_->devices();
    ++started_;
    if (probeDevices_.empty())
      throw InputError("no OpenCL device besides Oclgrind's simulator to measure buffers on; install an OpenCL "
                       "driver (on Debian: pocl-opencl-icd)");
  }
  return probeWorker_;
}

bool Driver::exchange(const RunRequest& r, RunReply& reply, const CancelToken* cancel, double timeoutSeconds) {
  if (timeoutSeconds <= 0) timeoutSeconds = options_.timeoutSeconds;
  const auto start = std::chrono::steady_clock::now();
  // Oclgrind stops logging after --max-errors errors a process: a checked
  // run gets a worker of its own, so what earlier runs caused cannot hide its errors.
  if (options_.oclgrind && r.check && !r.probe && usedSinceStart_) worker_.reset();
  auto& slot = workerFor(r); // starting a worker counts as time spent on this request
  auto x = slot->exchange(encodeRequest(r), timeoutSeconds, cancel);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  (r.probe ? spent_.probing : r.timedRuns ? spent_.timing : spent_.checking) += took;
  if (!r.probe || !options_.oclgrind) usedSinceStart_ = true;
  using S = WorkerProcess::Exchange::Status;
  if (x.status == S::Cancelled) {
    slot.reset();
    return false;
  }
  if (x.status == S::Reply) {
    try {
      reply = decodeReply(x.line);
      return true;
    } catch (const InputError& e) {
      x.status = S::Died;
      x.death = std::string("it sent an unreadable reply (") + e.what() + ")";
    }
  }
  slot.reset();
  reply = RunReply{};
  if (x.status == S::Timeout) {
    reply.outcome = "TIMEOUT";
    char limit[32];
    std::snprintf(limit, sizeof limit, "%.3g", timeoutSeconds); // for people: 1.77, not 1.7681482878
    reply.detail = std::string("no result within ") + limit +
                   (options_.cpuTimeouts ? " s of CPU time" : " s") +
                   "; the worker was killed (raise --timeout for long kernels)";
  } else {
    reply.outcome = "CRASH";
    reply.detail = "the drive worker died: " + x.death;
  }
  return true;
}

bool Driver::checkedExchange(const RunRequest& r, RunReply& reply, const CancelToken* cancel) {
  const bool poisoned = !analysis_.poisoned.empty();
  if (!r.check || r.probe || (!poisoned && r.warmupRuns + r.timedRuns == 0)) return exchange(r, reply, cancel);
  // The build and the checks are one request, the warm-up and timed runs
  // another (the worker keeps the build): each gets the whole timeout, so a
  // kernel that runs for seconds at a large size is not cut off for the
  // number of runs one request holds.
  RunRequest checks = r;
  if (poisoned) {
    checks.source = analysis_.poisoned;
    checks.poisoned = true;
  }
  checks.warmupRuns = checks.timedRuns = 0;
  if (!exchange(checks, reply, cancel)) return false;
  if (reply.outcome != "PASS" || r.warmupRuns + r.timedRuns == 0) return true;
  RunRequest runs = r;
  runs.check = false;
  return exchange(runs, reply, cancel);
}

RunRequest Driver::probeRequest(const RunRequest& planned) const {
  RunRequest r = planned;
  r.source = analysis_.instrumented;
  r.device = probeDevice().id;
  r.probe = true;
  r.probeArrays.clear();
  for (const auto& a : analysis_.arrays)
    r.probeArrays.push_back(a.bytes);
  r.check = false;
  r.warmupRuns = r.timedRuns = 0;
  return r;
}

const WorkerDevice& Driver::checkDevice() const { return mostComputeUnits(devices_); }

const WorkerDevice& Driver::probeDevice() const {
  // Probes only count accesses: the device with the most compute units runs
  // them fastest. Under Oclgrind, one of the probe worker's.
  return mostComputeUnits(options_.oclgrind && !probeDevices_.empty() ? probeDevices_ : devices_);
}

namespace {

RunRequest baseRequest(const std::string& source, const KernelSignature& kernel, const DriveOptions& o) {
  RunRequest r;
  r.source = source;
  r.kernel = kernel.name;
  r.buildOptions = o.buildOptions;
  r.arguments = kernel.arguments;
  r.seed = o.seed;
  r.guardBytes = o.guardBytes;
  return r;
}

} // namespace

bool Driver::probeExtents(const KernelSignature& kernel, std::uint64_t local, const CancelToken* cancel) {
  // Two small sizes, buffers 16 times the work-items (clamped accesses never
  // leave them): how far each argument reaches at each.
  const std::uint64_t sizes[2] = {1024, 4096};
  RunReply replies[2];
  std::uint64_t items[2] = {0, 0};
  PayloadModel generous = model_;
  generous.set = "big";
  for (int k = 0; k < 2; ++k) {
    RunRequest r = baseRequest(analysis_.instrumented, kernel, options_);
    planPayload(generous, kernel, analysis_, sizes[k], local, r);
    r = probeRequest(r);
    if (!exchange(r, replies[k], cancel)) return false;
    items[k] = r.globalSize;
    if (replies[k].outcome == "TIMEOUT") { // it hangs at a small size: the kernel's outcome
      verdict_ = replies[k];
      verdictDevice_ = probeDevice().name;
      verdict_.detail = "while probing at " + std::to_string(items[k]) + " work-items: " + verdict_.detail;
      return false;
    }
    if (replies[k].outcome != "PROBED" || replies[k].probeMax.size() != kernel.arguments.size() + r.probeArrays.size()) {
      evidence_.push_back("probe at " + std::to_string(items[k]) + " work-items: " + replies[k].outcome + " (" +
                          replies[k].detail.substr(0, 200) + "); buffers get one element per work-item");
      return false;
    }
  }
  model_.extents.assign(kernel.arguments.size(), {});
  std::string seen;
  for (std::size_t i = 0; i < kernel.arguments.size(); ++i) {
    if (!kernel.arguments[i].isBuffer()) continue;
    const auto& a = replies[0];
    const auto& b = replies[1];
    model_.extents[i] = fitExtent(items[0], a.probeMin[i], a.probeMax[i], a.probeAccesses[i], items[1], b.probeMin[i],
                                  b.probeMax[i], b.probeAccesses[i]);
    const auto& e = model_.extents[i];
    seen += "; " + kernel.arguments[i].name + ": " +
            (e.accessed ? formatNumber(e.perItem) + " B a work-item + " + formatNumber(e.fixed) + " B" +
                              (e.lowest < 0 ? " (from " + std::to_string(e.lowest) + " B before its start)" : "")
                        : std::string("not accessed"));
  }
  evidence_.push_back("probe at " + std::to_string(items[0]) + " and " + std::to_string(items[1]) +
                      " work-items" + seen);
  return true;
}

bool Driver::searchScalars(const KernelSignature& kernel, std::uint64_t items, std::uint64_t local,
                           const CancelToken* cancel) {
  model_.scalars.clear();
  std::vector<std::size_t> searched;
  for (std::size_t i = 0; i < kernel.arguments.size(); ++i) {
    const auto& a = kernel.arguments[i];
    if (a.kind == KernelArgument::Kind::Scalar && a.isIntegral() && !a.isStruct() && a.width <= 1) searched.push_back(i);
  }
  if (analysis_.instrumented.empty() || searched.empty()) {
    evidence_.push_back(std::string("scalars: ") +
                        (searched.empty() ? "no integer scalar to search" : "no instrumented copy to probe"));
    return false;
  }
  // A few scalars decide most guards; past eight the search would cost more than it finds.
  constexpr std::size_t kMostSearched = 8;
  if (searched.size() > kMostSearched) searched.resize(kMostSearched);
  // A probe of a small kernel takes milliseconds; one that hangs (a step of
  // 0) is cut off early, and two such end the search.
  const double timeout = std::min(options_.timeoutSeconds, 2.0);
  int probes = 0, hangs = 0;
  using Score = std::pair<int, std::int64_t>; // writable buffers accessed, bytes of them
  auto score = [&](const std::vector<ScalarChoice>& choices, Score& out) {
    PayloadModel m = model_;
    m.set = "big"; // room to spare: the probe clamps every access inside its buffer
    m.scalars = choices;
    RunRequest r = baseRequest(analysis_.instrumented, kernel, options_);
    planPayload(m, kernel, analysis_, items, local, r);
    r = probeRequest(r);
    RunReply reply;
    ++probes;
    if (!exchange(r, reply, cancel, timeout)) return false;
    hangs += reply.outcome == "TIMEOUT";
    out = {-1, 0};
    if (reply.outcome != "PROBED" || reply.probeAccesses.size() < kernel.arguments.size()) return true;
    out = {0, 0};
    for (std::size_t i = 0; i < kernel.arguments.size(); ++i)
      if (kernel.arguments[i].isOutput() && reply.probeAccesses[i] > 0) {
        ++out.first;
        out.second += std::max<std::int64_t>(0, reply.probeMax[i] - reply.probeMin[i]);
      }
    return true;
  };
  std::vector<ScalarChoice> best(kernel.arguments.size(), ScalarChoice::Role);
  Score base;
  if (!score(best, base)) return false;
  Score top = base;
  const ScalarChoice alternatives[] = {ScalarChoice::Zero, ScalarChoice::One, ScalarChoice::Half};
  auto tryChoices = [&](const std::vector<ScalarChoice>& trial) {
    Score s;
    if (!score(trial, s)) return false;
    if (s > top) top = s, best = trial;
    return true;
  };
  for (int round = 0; round < 2 && hangs < 2; ++round) {
    const Score before = top;
    for (const auto i : searched)
      for (const auto c : alternatives) {
        if (c == best[i] || hangs >= 2) continue;
        auto trial = best;
        trial[i] = c;
        if (!tryChoices(trial)) return false;
      }
    if (!(before < top)) break;
  }
  // A guard of two tests that each need a scalar changed (`if (g < f || h >=
  // e - 1) return;`): pairs of scalars, each at 0, 1 or half, while no
  // single change helped; at most kPairProbes probes.
  constexpr int kPairProbes = 64;
  for (std::size_t x = 0, pairProbes = 0; x < searched.size() && top == base && hangs < 2; ++x)
    for (std::size_t y = x + 1; y < searched.size() && top == base && hangs < 2; ++y)
      for (const auto cx : alternatives)
        for (const auto cy : alternatives) {
          if (top != base || hangs >= 2 || pairProbes++ >= kPairProbes) break;
          auto trial = best;
          trial[searched[x]] = cx;
          trial[searched[y]] = cy;
          if (!tryChoices(trial)) return false;
        }
  // Guards that need more scalars changed at once (`if (h || f || c)
  // return;`): all 0, all 1, then seeded random assignments.
  std::mt19937_64 draw(options_.seed * 0x9E3779B97F4A7C15ull + 7);
  for (int k = 0; k < 10 && top == base && hangs < 2; ++k) {
    std::vector<ScalarChoice> trial(kernel.arguments.size(), ScalarChoice::Role);
    for (const auto i : searched)
      trial[i] = k == 0 ? ScalarChoice::Zero : k == 1 ? ScalarChoice::One : static_cast<ScalarChoice>(draw() % 4);
    if (!tryChoices(trial)) return false;
  }
  if (!(base < top)) {
    evidence_.push_back("scalars: " + std::to_string(probes) +
                        " probes of other integer scalars (0, 1, half) reached no more of the writable buffers than the "
                        "roles' values");
    return false;
  }
  model_.scalars = best;
  std::string chosen;
  for (const auto i : searched)
    if (best[i] != ScalarChoice::Role)
      chosen += std::string(chosen.empty() ? "" : ", ") + kernel.arguments[i].name + " " + scalarChoiceName(best[i]);
  evidence_.push_back("scalars: " + chosen + " (" + std::to_string(probes) + " probes; writable buffers reached: " +
                      std::to_string(top.first) + ", " + std::to_string(top.second) + " B, against " +
                      std::to_string(std::max(0, base.first)) + ", " + std::to_string(base.second) +
                      " B with the roles' values)");
  return true;
}

bool Driver::measureAtSize(RunRequest& planned, const CancelToken* cancel) {
  if (analysis_.instrumented.empty() || (model_.set != "roles" && model_.set != "scalars")) return false;
  if (const auto it = measured_.find({planned.globalSize, planned.values}); it != measured_.end()) {
    planned.counts = it->second.counts;
    planned.ranges = it->second.ranges;
    return it->second.fitted;
  }
  RunRequest r = probeRequest(planned);
  std::vector<std::uint64_t> room(r.arguments.size(), 0);
  for (std::size_t i = 0; i < r.arguments.size(); ++i)
    if (r.arguments[i].isBuffer()) {
      const auto bytes = r.arguments[i].valueBytes();
      room[i] = std::min<std::uint64_t>(std::max<std::uint64_t>(r.elements(i) * 2, 4 * r.globalSize), kMaxBufferBytes / bytes);
      // Local memory cannot grow past the smallest device's: a kernel that
      // needs more at this size reaches past its room, and the bounds check says so.
      if (r.arguments[i].kind == KernelArgument::Kind::Local) {
        std::uint64_t local = 0;
        for (const auto& d : devices_)
          if (d.localMemBytes) local = local ? std::min(local, d.localMemBytes) : d.localMemBytes;
        if (local) room[i] = std::min<std::uint64_t>(room[i], std::max<std::uint64_t>(1, local / bytes));
        planned.counts[i] = std::min<std::uint64_t>(planned.elements(i), room[i]);
      }
      r.counts[i] = room[i];
    }
  // A buffer that reaches past its room gets sixteen times more, up to 256 MB,
  // and the kernel is measured again: a 1-D kernel that walks an n-by-n
  // matrix reaches items^2 elements, which no line through two probes predicts.
  RunReply reply;
  for (int attempt = 0;; ++attempt) {
    if (!exchange(r, reply, cancel)) return false;
    if (reply.outcome == "TIMEOUT") measureHung_ = reply.detail;
    if (reply.outcome != "PROBED" || reply.probeMax.size() != r.arguments.size() + r.probeArrays.size()) return false;
    if (attempt == 3) break; // grown three times: what still reaches past is out of bounds
    bool grown = false;
    for (std::size_t i = 0; i < r.arguments.size(); ++i) {
      const auto& a = r.arguments[i];
      const auto bytes = a.valueBytes();
      const auto cap = kMaxBufferBytes / std::max<std::size_t>(1, bytes);
      if (!a.isBuffer() || a.kind == KernelArgument::Kind::Local || reply.probeAccesses[i] <= 0 || reply.probeMin[i] < 0 ||
          reply.probeMax[i] < std::int64_t(room[i] * bytes) || room[i] >= cap)
        continue;
      room[i] = r.counts[i] = std::min(cap, room[i] * 16);
      grown = true;
    }
    if (!grown) break;
  }
  bool fitted = analysis_.unattributed == 0 && ownArraysAccessedOutside(reply).empty();
  for (std::size_t i = 0; i < r.arguments.size(); ++i) {
    const auto& a = r.arguments[i];
    if (!a.isBuffer() || reply.probeAccesses[i] <= 0) continue;
    const auto bytes = std::int64_t(a.valueBytes());
    if (reply.probeMin[i] < 0 || reply.probeMax[i] >= std::int64_t(room[i]) * bytes) { // the bounds check says so
      fitted = false;
      continue;
    }
    // Rounded up to 256 elements: a write that depends on the data (a relaxed
    // distance, a found key) may reach a little further with other inputs.
    const auto reach = std::max<std::uint64_t>(1, std::uint64_t((reply.probeMax[i] + bytes - 1) / bytes));
    planned.counts[i] = std::min<std::uint64_t>((reach + 255) / 256 * 256, room[i]);
  }
  for (std::size_t i = 0; i < planned.ranges.size(); ++i) // indices follow what they index
    if (planned.ranges[i] && i < analysis_.indexes.size() && analysis_.indexes[i] >= 0)
      planned.ranges[i] = std::max<std::uint64_t>(1, planned.counts[std::size_t(analysis_.indexes[i])]);
  measured_[{planned.globalSize, planned.values}] = Measured{planned.counts, planned.ranges, fitted};
  return fitted;
}

std::string Driver::boundsCheck(const RunRequest& planned, const CancelToken* cancel) {
  if (analysis_.instrumented.empty()) return {};
  RunRequest r = probeRequest(planned);
  RunReply reply;
  if (!exchange(r, reply, cancel) || reply.outcome != "PROBED") return {};
  for (std::size_t i = 0; i < r.arguments.size() && i < reply.probeMax.size(); ++i) {
    const auto& a = r.arguments[i];
    if (!a.isBuffer() || reply.probeAccesses[i] <= 0) continue;
    const std::int64_t have = i < reply.probeBytes.size() ? reply.probeBytes[i] : std::int64_t(r.elements(i) * a.valueBytes());
    if (reply.probeMin[i] >= 0 && reply.probeMax[i] <= have) continue;
    const auto vb = std::int64_t(a.valueBytes());
    const std::int64_t from = reply.probeMin[i] >= 0 ? reply.probeMin[i] / vb : -((-reply.probeMin[i] + vb - 1) / vb);
    return "argument " + std::to_string(i + 1) + " '" + a.name + "' (" + std::to_string(have / vb) + " " + a.element +
           (a.width > 1 ? std::to_string(a.width) : "") + ") was accessed at elements " + std::to_string(from) +
           " to " + std::to_string((reply.probeMax[i] + vb - 1) / vb - 1);
  }
  return ownArraysAccessedOutside(reply);
}

std::string Driver::ownArraysAccessedOutside(const RunReply& reply) const {
  const std::size_t n = analysis_.roles.size();
  for (std::size_t j = 0; j < analysis_.arrays.size(); ++j) {
    const std::size_t i = n + j;
    if (i >= reply.probeMax.size() || i >= reply.probeAccesses.size() || reply.probeAccesses[i] <= 0) continue;
    const auto& a = analysis_.arrays[j];
    if (reply.probeMin[i] >= 0 && reply.probeMax[i] <= std::int64_t(a.bytes)) continue;
    const auto eb = std::int64_t(a.elementBytes);
    const std::int64_t from = reply.probeMin[i] >= 0 ? reply.probeMin[i] / eb : -((-reply.probeMin[i] + eb - 1) / eb);
    return "the kernel's " + a.space + " array '" + a.name + "' (" + std::to_string(a.bytes / a.elementBytes) + " " +
           a.element + ") was accessed at elements " + std::to_string(from) + " to " +
           std::to_string((reply.probeMax[i] + eb - 1) / eb - 1);
  }
  return {};
}

void Driver::choosePayload(const std::string& source, const KernelSignature& kernel, const CancelToken* cancel) {
  analysis_ = analyseKernel(source, kernel.name);
  model_ = PayloadModel{};
  model_.rank = analysis_.found ? analysis_.rank : 1;
  const auto& sets = options_.payloadSets;
  if (!analysis_.found) {
    model_.set = "cldrive";
    evidence_.push_back("Clang could not read the kernel (" + analysis_.error + "): CLgen's rule");
    return;
  }
  std::string roles;
  for (std::size_t i = 0; i < analysis_.roles.size(); ++i)
    if (kernel.arguments[i].kind == KernelArgument::Kind::Scalar && kernel.arguments[i].isIntegral())
      roles += " " + kernel.arguments[i].name + ": " + roleName(analysis_.roles[i]) + " (" + analysis_.evidence[i] + ");";
  std::string tile;
  if (analysis_.workGroup.size() == 2)
    tile = " work-groups " + std::to_string(analysis_.workGroup[0]) + "x" + std::to_string(analysis_.workGroup[1]) +
           " (the local tiles' shape);";
  if (analysis_.oneGroup) tile += " one work-group (no global or group id: every group would do the same work);";
  std::string own;
  for (const auto& a : analysis_.arrays)
    own += std::string(own.empty() ? "; its own arrays: " : ", ") + a.space + " '" + a.name + "' (" +
           std::to_string(a.accesses) + " accesses instrumented)";
  evidence_.push_back("rank " + std::to_string(analysis_.rank) + ";" + tile + roles + " " + std::to_string(analysis_.accesses) +
                      " buffer accesses instrumented, " + std::to_string(analysis_.unattributed) + " not traced" + own +
                      (analysis_.poisoned.empty() ? "" : "; checks run a copy that fills its local memory and private "
                                                         "arrays with other bytes each run"));
  const std::uint64_t local = options_.localSizes.front();
  const bool measures = std::find(sets.begin(), sets.end(), "roles") != sets.end() ||
                        std::find(sets.begin(), sets.end(), "scalars") != sets.end();
  if (!analysis_.instrumented.empty() && measures) (void)probeExtents(kernel, local, cancel);
  if ((cancel && cancel->cancelled()) || !verdict_.outcome.empty()) return;
  const auto smallest = *std::min_element(options_.globalSizes.begin(), options_.globalSizes.end());
  if (sets.size() == 1) {
    model_.set = sets.front();
    if (model_.set == "scalars") (void)searchScalars(kernel, smallest, local, cancel);
    return;
  }
  // The first set that runs clean at the smallest size on the first device;
  // the scalars are searched only after a set ran and wrote nothing.
  bool wroteNothing = false;
  // A set that wrote where an earlier one wrote nothing, then failed a check
  // of what it wrote: if none runs clean, its fault is the kernel's own (the
  // earlier sets' NO_OUTPUT only says their scalars kept it from writing).
  std::optional<PayloadModel> wrote;
  for (const auto& set : sets) {
    model_.set = set;
    model_.scalars.clear();
    if (set == "scalars" && (!wroteNothing || !searchScalars(kernel, smallest, local, cancel))) {
      if (cancel && cancel->cancelled()) return;
      continue;
    }
    RunRequest r = baseRequest(source, kernel, options_);
    planPayload(model_, kernel, analysis_, smallest, local, r);
    const bool fitted = measureAtSize(r, cancel);
    r.device = checkDevice().id;
    r.warmupRuns = r.timedRuns = 0;
    if (const auto out = fitted ? std::string() : boundsCheck(r, cancel); !out.empty()) {
      evidence_.push_back(set + ": OUT_OF_BOUNDS: " + out);
      continue;
    }
    RunReply reply;
    if (!checkedExchange(r, reply, cancel)) return;
    evidence_.push_back(set + ": " + reply.outcome + (reply.detail.empty() ? "" : " (" + reply.detail.substr(0, 160) + ")"));
    if (reply.outcome == "PASS") return;
    if (wroteNothing && !wrote && (reply.outcome == "NONDETERMINISTIC" || reply.outcome == "INPUT_INSENSITIVE"))
      wrote = model_;
    wroteNothing = wroteNothing || reply.outcome == "NO_OUTPUT";
    if (reply.outcome == "TIMEOUT") { // at the smallest size: larger ones would hang too
      verdict_ = reply;
      verdictDevice_ = checkDevice().name;
      return;
    }
  }
  if (wrote) {
    model_ = *wrote;
    evidence_.push_back("none ran clean: the cases use " + model_.set +
                        ", the first set under which the kernel wrote");
    return;
  }
  model_.set = sets.front(); // none ran clean: the kernel's own reading
  model_.scalars.clear();
}

std::vector<CaseResult> Driver::driveCases(const std::string& source, const KernelSignature& kernel,
                                           const std::function<void(const CaseResult&)>& onCase,
                                           const CancelToken* cancel) {
  std::vector<CaseResult> results;
  const std::string unsupported = kernel.unsupportedReason();
  analysis_ = KernelAnalysis{};
  model_ = PayloadModel{};
  evidence_.clear();
  verdict_ = RunReply{};
  measured_.clear();
  if (unsupported.empty() && !devices_.empty()) choosePayload(source, kernel, cancel);
  if (cancel && cancel->cancelled()) return results;
  if (!verdict_.outcome.empty()) { // it hung while its payload was chosen: one case says so
    CaseResult c;
    c.kernel = kernel.name;
    RunRequest r = baseRequest(source, kernel, options_);
    planPayload(model_, kernel, analysis_, options_.globalSizes.front(), options_.localSizes.front(), r);
    c.globalSize = r.globalSize;
    c.localSize = r.localSize;
    c.payloadSet = model_.set;
    c.payload = describePayload(r, analysis_);
    c.outcome = verdict_.outcome;
    c.detail = verdictDevice_ + ": " + verdict_.detail;
    for (const auto& d : devices_) {
      DeviceRun run;
      run.device = d;
      run.reply.outcome = verdict_.outcome;
      run.reply.detail = verdict_.detail;
      c.devices.push_back(std::move(run));
    }
    results.push_back(c);
    if (onCase) onCase(results.back());
    return results;
  }
  for (const auto global : options_.globalSizes)
    for (const auto local : options_.localSizes) {
      if (cancel && cancel->cancelled()) return results;
      // Sizes OpenCL 1.2 cannot launch are skipped, not failed.
      if (local && (local > global || global % local)) continue;
      RunRequest base = baseRequest(source, kernel, options_);
      planPayload(model_, kernel, analysis_, global, local, base);
      measureHung_.clear();
      const bool fitted = unsupported.empty() && measureAtSize(base, cancel);
      if (cancel && cancel->cancelled()) return results;
      CaseResult c;
      c.kernel = kernel.name;
      c.globalSize = base.globalSize;
      c.localSize = base.localSize;
      c.payloadSet = model_.set;
      c.payload = describePayload(base, analysis_);
      bool stop = false;
      bool cancelled = false;
      auto request = [&](const WorkerDevice& device, bool check, unsigned warmup, unsigned runs, RunReply& reply) {
        RunRequest r = base;
        r.device = device.id;
        r.warmupRuns = warmup;
        r.timedRuns = runs;
        r.check = check;
        if (!checkedExchange(r, reply, cancel)) {
          cancelled = true;
          return;
        }
        if (reply.outcome == "TIMEOUT" || reply.outcome == "CRASH") stop = true;
      };
      // The out-of-bounds oracle: where the kernel's reads and writes went at this size.
      std::string outOfBounds;
      if (unsupported.empty() && options_.check && !fitted && measureHung_.empty()) outOfBounds = boundsCheck(base, cancel);
      if (cancel && cancel->cancelled()) return results;
      // Phase 1, per device: build, the checker, and the warm-up runs.
      // Phase 2: the timed runs one at a time, in rounds over the devices
      // that passed (forward, then backward), so that drift in the
      // machine's load (PIE's warning) falls on every device alike.
      for (const auto& device : devices_) {
        if (cancel && cancel->cancelled()) return results;
        DeviceRun run;
        run.device = device;
        if (!unsupported.empty()) {
          run.reply.outcome = "UNSUPPORTED_ARGUMENTS";
          run.reply.detail = unsupported;
        } else if (!outOfBounds.empty()) {
          run.reply.outcome = "OUT_OF_BOUNDS";
          run.reply.detail = outOfBounds;
        } else if (!measureHung_.empty()) { // the same hang would cost the timeout again on each device
          run.reply.outcome = "TIMEOUT";
          run.reply.detail = "the instrumented copy, measuring the buffers at this size: " + measureHung_;
          stop = true;
        } else if (base.localSize && device.maxWorkGroupSize && base.localSize > device.maxWorkGroupSize) {
          run.reply.outcome = "CL_ERROR";
          run.reply.detail = "local size " + std::to_string(base.localSize) +
                             " exceeds the device's maximum work-group size " +
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

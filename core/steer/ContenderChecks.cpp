#include "steer/ContenderChecks.h"

#include "common/ContentHash.h"
#include "drive/host/Driver.h"
#include "drive/host/KernelSignatures.h"
#include "features/DeadCode.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <limits>
#include <utility>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace steerbench::steer {

namespace {

drive::DriveOptions driveOptions(const ContenderCheckOptions& o) {
  drive::DriveOptions d;
  d.globalSizes = {o.globalSize};
  d.localSizes = {64};
  d.warmupRuns = 0;
  d.timedRuns = 1;
  d.timeoutSeconds = o.timeoutSeconds;
  d.cacheDir = o.cacheDir;
  // A check's worker shares the CPU with the search, niced or not: its
  // kernels' own CPU time is what counts, so an outcome does not depend on
  // how busy the machine is.
  d.cpuTimeouts = true;
  d.workerPath = o.workerPath;
  return d;
}

/// A driver on the device with the most compute units (the quick check needs one).
std::unique_ptr<drive::Driver> checkDriver(const ContenderCheckOptions& o) {
  auto d = driveOptions(o);
  d.mostComputeUnitsOnly = true;
  return std::make_unique<drive::Driver>(d);
}

/// A driver on every device at the confirmation sizes: what `drive` runs,
/// without the timed runs (the checks are the same).
std::unique_ptr<drive::Driver> confirmDriver(const ContenderCheckOptions& o) {
  auto d = driveOptions(o);
  d.globalSizes = o.confirmSizes;
  d.timeoutSeconds = o.confirmTimeoutSeconds;
  return std::make_unique<drive::Driver>(d);
}

/// A driver inside Oclgrind's simulator at the race check's size.
std::unique_ptr<drive::Driver> raceDriver(const ContenderCheckOptions& o) {
  auto d = driveOptions(o);
  d.globalSizes = {o.raceCheckSize};
  d.timeoutSeconds = o.raceCheckTimeoutSeconds;
  d.oclgrind = true;
  return std::make_unique<drive::Driver>(d);
}

/// The first case that did not pass, or nullptr.
const drive::CaseResult* firstFailure(const std::vector<drive::CaseResult>& cases) {
  for (const auto& c : cases)
    if (c.outcome != "PASS") return &c;
  return nullptr;
}

ContenderCheck runCheck(drive::Driver& driver, std::unique_ptr<drive::Driver>& confirm,
                        std::unique_ptr<drive::Driver>& race, const ContenderCheckOptions& o, std::int64_t candidate, const std::string& text,
                        const std::string& kernel, bool confirmIt, const CancelToken* cancel) {
  ContenderCheck c{candidate, text, kernel, 0, 0, "", "", confirmIt};
  const auto dead = features::checkDeadCode(text, kernel);
  if (!dead.measured) {
    c.outcome = "BUILD_FAILURE";
    c.detail = dead.error;
    return c;
  }
  if (!dead.dead.empty()) {
    c.outcome = "DEAD_CODE";
    c.detail = dead.dead;
    return c;
  }
  const auto scan = drive::kernelSignatures(text);
  const drive::KernelSignature* signature = nullptr;
  for (const auto& k : scan.kernels)
    if (k.name == kernel) signature = &k;
  if (!signature) {
    c.outcome = "BUILD_FAILURE";
    c.detail = scan.compiled ? "no kernel called " + kernel : scan.error;
    return c;
  }
  const auto cases = driver.drive(text, *signature, {}, cancel);
  if (cases.empty()) {
    c.outcome = "NOT_CHECKED";
    c.detail = "the checks were stopped first";
    return c;
  }
  c.outcome = cases.front().outcome;
  c.detail = cases.front().detail;
  if (c.outcome != "PASS" || o.confirmSizes.empty()) return c;
  if (!confirmIt) {
    c.outcome = kQuickPass;
    c.detail = "passed at " + std::to_string(o.globalSize) + " work-items on one device; not confirmed";
    return c;
  }
  // Confirmed as `drive` would label it: every size on every device.
  if (!confirm) confirm = confirmDriver(o);
  const auto all = confirm->drive(text, *signature, {}, cancel);
  if (all.empty()) {
    c.outcome = "NOT_CHECKED";
    c.detail = cancel && cancel->cancelled() ? "the checks were stopped first"
                                             : "no confirmation size could be launched with work-groups of 64";
    return c;
  }
  if (const auto* f = firstFailure(all)) {
    c.outcome = f->outcome;
    std::string where;
    for (const auto& d : f->devices)
      if (where.empty() && d.reply.outcome != "PASS" && f->detail.rfind(d.device.name, 0) != 0)
        where = " on " + d.device.name;
    c.detail = "at " + std::to_string(f->globalSize) + " work-items" + where + ": " + f->detail;
    return c;
  }
  if (o.raceCheckSize == 0) return c;
  if (!race) race = raceDriver(o);
  const auto simulated = race->drive(text, *signature, {}, cancel);
  if (simulated.empty()) {
    c.detail = "not run in Oclgrind: no case at " + std::to_string(o.raceCheckSize) + " work-items";
  } else if (simulated.front().outcome == "OUT_OF_BOUNDS" || simulated.front().outcome == "NONDETERMINISTIC") {
    c.outcome = simulated.front().outcome;
    c.detail = "in Oclgrind at " + std::to_string(o.raceCheckSize) + " work-items: " + simulated.front().detail;
  } else if (simulated.front().outcome != "PASS") {
    c.detail = "Oclgrind could not judge it (" + simulated.front().outcome + ": " + simulated.front().detail + ")";
  }
  return c;
}

} // namespace

ContenderChecks::ContenderChecks(ContenderCheckOptions options) : options_(std::move(options)) {
  thread_ = std::thread([this] { loop(); });
}

ContenderChecks::~ContenderChecks() {
  {
    std::lock_guard lock(m_);
    stop_ = true;
  }
  cancel_.cancel();
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool ContenderChecks::submit(std::int64_t candidate, const std::string& text, const std::string& kernel,
                             double distance, double priority, bool confirm, bool evict) {
  const std::string hash = sha256Hex(text);
  {
    std::lock_guard lock(m_);
    if (byHash_.count(hash)) return false;
    if (options_.maxQueued && queue_.size() >= options_.maxQueued) {
      if (!evict) return false;
      const auto farthest = std::max_element(queue_.begin(), queue_.end(), [](const auto& a, const auto& b) {
        return a.priority < b.priority;
      });
      if (!(priority < farthest->priority)) return false;
      byHash_.erase(sha256Hex(farthest->text));
      queue_.erase(farthest);
    }
    ContenderCheck c{candidate, text, kernel, distance, priority, "", "", confirm};
    byHash_[hash] = c;
    queue_.push_back(std::move(c));
  }
  cv_.notify_one();
  return true;
}

std::vector<std::int64_t> ContenderChecks::withdrawFartherThan(double distance) {
  std::lock_guard lock(m_);
  return withdrawLocked(distance);
}

std::vector<std::int64_t> ContenderChecks::withdrawLocked(double distance) {
  std::vector<std::int64_t> out;
  for (auto it = queue_.begin(); it != queue_.end();) {
    if (!it->confirm || it->distance < distance) {
      ++it;
      continue;
    }
    out.push_back(it->candidate);
    byHash_.erase(sha256Hex(it->text));
    it = queue_.erase(it);
  }
  return out;
}

const ContenderCheck* ContenderChecks::known(const std::string& text) const {
  std::lock_guard lock(m_);
  const auto it = byHash_.find(sha256Hex(text));
  return it == byHash_.end() || it->second.outcome.empty() ? nullptr : &it->second;
}

void ContenderChecks::remember(const ContenderCheck& c) {
  std::lock_guard lock(m_);
  byHash_[sha256Hex(c.text)] = c;
}

std::vector<ContenderCheck> ContenderChecks::takeFinished() {
  std::lock_guard lock(m_);
  return std::exchange(finished_, {});
}

std::size_t ContenderChecks::pending() const {
  std::lock_guard lock(m_);
  return queue_.size() + (busy_ ? 1 : 0);
}

std::size_t ContenderChecks::waiting() const {
  std::lock_guard lock(m_);
  return queue_.size();
}

bool ContenderChecks::waiting(std::int64_t candidate) const {
  std::lock_guard lock(m_);
  return std::any_of(queue_.begin(), queue_.end(), [&](const auto& c) { return c.candidate == candidate; });
}

double ContenderChecks::nextPriority() const {
  std::lock_guard lock(m_);
  double lowest = std::numeric_limits<double>::infinity();
  for (const auto& c : queue_)
    lowest = std::min(lowest, c.priority);
  return lowest;
}

std::vector<std::int64_t> ContenderChecks::pendingCandidates() const {
  std::lock_guard lock(m_);
  std::vector<std::int64_t> out;
  for (const auto& c : queue_)
    out.push_back(c.candidate);
  if (busy_) out.push_back(busyCandidate_);
  return out;
}

void ContenderChecks::wait(double seconds) {
  std::unique_lock lock(m_);
  idle_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return queue_.empty() && !busy_; });
}

std::string ContenderChecks::device() const {
  std::lock_guard lock(m_);
  return device_;
}

void ContenderChecks::loop() {
  // Linux's nice values are per thread: this one's (inherited from the thread
  // that made it), and its workers' (forked from it).
  if (options_.niceIncrement > 0) {
    const auto self = id_t(::syscall(SYS_gettid));
    errno = 0;
    const int base = ::getpriority(PRIO_PROCESS, self);
    if (errno == 0) (void)::setpriority(PRIO_PROCESS, self, std::min(19, base + options_.niceIncrement));
  }
  std::unique_ptr<drive::Driver> driver, confirm, race;
  std::string failure; // the driver could not start: every check says why
  for (;;) {
    ContenderCheck next;
    {
      std::unique_lock lock(m_);
      cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      const auto nearest = std::min_element(queue_.begin(), queue_.end(), [](const auto& a, const auto& b) {
        return a.priority < b.priority;
      });
      next = std::move(*nearest);
      queue_.erase(nearest);
      busy_ = true;
      busyCandidate_ = next.candidate;
    }
    ContenderCheck done{next.candidate, next.text, next.kernel, next.distance, next.priority, "NOT_CHECKED", "",
                        next.confirm};
    if (!driver && !failure.empty()) {
      done.detail = "the drive worker did not start: " + failure;
    } else {
      try {
        if (!driver) {
          driver = checkDriver(options_);
          std::lock_guard lock(m_);
          device_ = driver->devices().empty() ? "" : driver->devices().front().name;
        }
        done = runCheck(*driver, confirm, race, options_, next.candidate, next.text, next.kernel, next.confirm, &cancel_);
        done.distance = next.distance;
        done.priority = next.priority;
      } catch (const std::exception& e) {
        if (!driver) failure = e.what();
        done.detail = (driver ? "the check failed: " : "the drive worker did not start: ") + std::string(e.what());
      }
    }
    {
      std::lock_guard lock(m_);
      busy_ = false;
      // A pass: the waiting checks no nearer could not become the best, and
      // go before the next is taken (withdrawFartherThan).
      if (done.outcome == "PASS" && done.confirm && (!options_.mayBeBest || options_.mayBeBest(done.text)))
        (void)withdrawLocked(done.distance);
      if (!stop_ || done.outcome != "NOT_CHECKED") {
        byHash_[sha256Hex(done.text)] = done;
        finished_.push_back(std::move(done));
      }
    }
    idle_.notify_all();
  }
}

} // namespace steerbench::steer

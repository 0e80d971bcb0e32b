// Running the contenders (docs/steering.md, "Runnable bests"): a candidate
// that would become a run's best is checked before it may: its -O1 IR must
// not show its counts to be dead (features::checkDeadCode), and the drive
// worker must PASS it at one small size on one device (built, run twice on
// two inputs, outputs compared, writes past its buffers caught), and then,
// as `drive` would, at every confirmation size on every device. Checks run
// on a thread of their own while the search samples on, one at a time, each
// text once (a cache by content hash).
#pragma once
#include "common/CancelToken.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace steerbench::steer {

struct ContenderCheck {
  std::int64_t candidate = 0; ///< the steering candidate's id
  std::string text, kernel;
  double distance = 0; ///< the candidate's distance to the target
  /// The order of checks: the lowest waiting is checked first (BeamSearch
  /// gives the distance, less 1e12 for a seed, less 5e11 for a step of a
  /// bisection, plus 5e11 for a beam member's check, plus 1e12 for a
  /// contender of a failing lineage).
  double priority = 0;
  /// PASS, DEAD_CODE, or the drive outcome that stopped it (CRASH,
  /// NO_OUTPUT, OUT_OF_BOUNDS, TIMEOUT, ...); NOT_CHECKED when the checks
  /// were stopped first; kQuickPass when it passed a quick check that was
  /// not to be confirmed.
  std::string outcome;
  std::string detail;
  /// After the quick check passes, confirm it (ContenderCheckOptions::confirmSizes).
  /// Off for a beam member farther than the best: its verdict only tells
  /// its lineage whether it runs, and it could never be the best.
  bool confirm = true;
};

/// The outcome of a check that passed the quick check and was not confirmed.
inline constexpr const char* kQuickPass = "QUICK_PASS";

/// The outcome passed: PASS, or kQuickPass.
[[nodiscard]] inline bool passes(const std::string& outcome) { return outcome == "PASS" || outcome == kQuickPass; }

struct ContenderCheckOptions {
  double timeoutSeconds = 10;     ///< CPU seconds per request to the worker (up to ten times as long on the clock)
  std::uint64_t globalSize = 4096; ///< work-items of the quick check (one device)
  /// After the quick check passes: the global sizes driven on every device
  /// (empty: none). A contender passes only when every case does.
  std::vector<std::uint64_t> confirmSizes;
  double confirmTimeoutSeconds = 20; ///< per request of the confirmation
  /// After the confirmation passes: the work-items of one more run of the
  /// checks inside Oclgrind's simulator (0: none), whose race and memory
  /// checkers see what PoCL's runs may not (docs/driving.md). Its
  /// OUT_OF_BOUNDS or NONDETERMINISTIC fails the contender; any other
  /// outcome there (a kernel the simulator cannot build, a timeout) leaves
  /// the pass standing, said in its detail.
  std::uint64_t raceCheckSize = 0;
  double raceCheckTimeoutSeconds = 60; ///< per request inside the simulator (BeamSearch: 3 x the confirmation's)
  /// Checks waiting at most (0: any number). A nearer contender then takes
  /// the place of the farthest waiting one, which is forgotten (it may be
  /// submitted again).
  std::size_t maxQueued = 0;
  /// The checks' thread and the workers it starts (fork keeps a thread's
  /// nice value) run this much below the priority of the thread that made
  /// them (at most nice 19): they take mostly the CPU the search leaves
  /// idle, yet keep a share when the machine is busy (at nice 10 beside a
  /// busy thread at 0, about a tenth of a core; at 19, about 1.5%, which
  /// starved them under other work). 0: the same priority.
  int niceIncrement = 10;
  std::string cacheDir;           ///< PoCL's kernel cache (empty: PoCL's default)
  /// Whether a text may become the best (SteerSpec::newKernels; unset:
  /// every text): the passing of one that may not takes no waiting check back.
  std::function<bool(const std::string&)> mayBeBest;
  std::string workerPath;         ///< empty: the installed steerbench-drive
};

class ContenderChecks {
public:
  explicit ContenderChecks(ContenderCheckOptions options);
  ~ContenderChecks(); ///< stops the thread; a check under way is cancelled

  /// Queues a check unless this text was checked or queued already, or the
  /// queue is full of nearer ones (with `evict` false: full at all). Returns
  /// true when it was queued. The waiting check of lowest priority runs
  /// next (equal: in order); the distance is the candidate's, kept with its
  /// verdict. `confirm`: ContenderCheck::confirm.
  bool submit(std::int64_t candidate, const std::string& text, const std::string& kernel, double distance,
              double priority, bool confirm = true, bool evict = true);
  bool submit(std::int64_t candidate, const std::string& text, const std::string& kernel, double distance = 0) {
    return submit(candidate, text, kernel, distance, distance);
  }
  /// Takes back the waiting checks to be confirmed whose candidates are no
  /// nearer than `distance`: once a check at that distance passed, they
  /// could not become the best (one such seed, waiting when a nearer seed
  /// passed, then ran into its timeout and held the checks for most of a
  /// two-minute run). They may be submitted again. Returns their candidates.
  /// A check that passes does this itself, before the next one starts.
  std::vector<std::int64_t> withdrawFartherThan(double distance);
  /// A text checked earlier (by content hash): its outcome, or nullptr.
  [[nodiscard]] const ContenderCheck* known(const std::string& text) const;
  /// Records an earlier outcome (a resumed run's), so that text is not checked again.
  void remember(const ContenderCheck& c);
  /// The checks finished since the last call, in the order they finished.
  [[nodiscard]] std::vector<ContenderCheck> takeFinished();
  /// Checks queued or under way.
  [[nodiscard]] std::size_t pending() const;
  /// Checks queued, not yet started.
  [[nodiscard]] std::size_t waiting() const;
  /// This candidate's check is queued, not yet started.
  [[nodiscard]] bool waiting(std::int64_t candidate) const;
  /// The lowest priority of the checks queued (infinity: none).
  [[nodiscard]] double nextPriority() const;
  /// The candidates whose checks are queued or under way.
  [[nodiscard]] std::vector<std::int64_t> pendingCandidates() const;
  /// Waits until nothing is pending, or `seconds` have passed.
  void wait(double seconds);
  /// The device quick checks run on, once the first has started ("" before).
  [[nodiscard]] std::string device() const;

private:
  void loop();
  std::vector<std::int64_t> withdrawLocked(double distance); ///< withdrawFartherThan, m_ held
  ContenderCheckOptions options_;
  mutable std::mutex m_;
  std::condition_variable cv_, idle_;
  std::deque<ContenderCheck> queue_;
  std::vector<ContenderCheck> finished_;
  std::map<std::string, ContenderCheck> byHash_; ///< content hash -> outcome (or queued)
  bool busy_ = false, stop_ = false;
  std::int64_t busyCandidate_ = 0; ///< the check under way (busy_)
  std::string device_;
  CancelToken cancel_;
  std::thread thread_;
};

} // namespace steerbench::steer

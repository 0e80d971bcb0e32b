// Measuring candidates: each is compiled in process and measured in the run's
// space while the model goes on sampling on the calling thread. A repeated
// text is measured once (MeasureCache).
#pragma once
#include "features/FeatureSpace.h"
#include "steer/BeamSelection.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace steerbench::steer {

/// What compiling and measuring one candidate gave.
struct Measured {
  bool compiled = false;
  std::string error, kernel, text; ///< text: formatted when it compiled, else as sampled
  std::vector<double> values;      ///< the features of `kernel`, the file's kernel nearest the target
  double distance = -1;
  /// The clean-compile rule it breaks (steer/CleanCompile.h), as "rule: line
  /// L: warning"; empty when clean. An unclean candidate compiled and is
  /// measured, but is never kept.
  std::string unclean;
  /// Its findings of the rules judged against the parent
  /// (CleanRule::relative) among those judged: steering compares their
  /// counts with the parent's (relativeRuleAdded).
  RelativeSites relative;
};

/// Compiles `text` and measures it in `space`; of its kernels, the one
/// nearest `target` (distances scaled by `scale`, which may be empty) is the
/// candidate's. The compile also judges `cleanRules` (none: no judging).
[[nodiscard]] Measured measureCandidate(const std::string& text, const features::FeatureSpace& space,
                                        const std::vector<double>& target, const std::vector<double>& scale,
                                        const std::vector<std::string>& cleanRules = {});

/// measureCandidate through a cache keyed by exact text. Thread-safe.
class MeasureCache {
public:
  MeasureCache(const features::FeatureSpace& space, std::vector<double> target, std::vector<double> scale,
               std::vector<std::string> cleanRules = {});
  [[nodiscard]] Measured operator()(const std::string& text);

private:
  const features::FeatureSpace& space_;
  std::vector<double> target_, scale_;
  std::vector<std::string> cleanRules_;
  std::mutex mutex_;
  std::map<std::string, Measured> cache_;
};

/// Worker threads that run `work(i)` for each pushed index.
class MeasurePool {
public:
  MeasurePool(unsigned threads, std::function<void(std::size_t)> work);
  ~MeasurePool(); ///< never throws: an error not collected by finish() is dropped while unwinding
  void push(std::size_t i);
  /// Waits for every pushed item; rethrows the first error.
  void finish();

private:
  void close();
  void loop();
  std::function<void(std::size_t)> work_;
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::size_t> queue_;
  bool closed_ = false;
  std::exception_ptr error_;
};

} // namespace steerbench::steer

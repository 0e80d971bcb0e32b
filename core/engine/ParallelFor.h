// Runs independent work items on a few threads, preserving result order.
#pragma once

#include "common/CancelToken.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace steerbench::engine {

/// The number of hardware threads, at least 1.
[[nodiscard]] inline unsigned hardwareJobs() {
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Calls fn(i) for i in [0, n) on up to `jobs` threads (the caller's included).
/// Items are handed out in order; fn must be safe to call concurrently for
/// different i. Stops handing out items once `cancel` is set. The first
/// exception thrown by fn is rethrown after all threads finish.
template <class Fn> void parallelFor(std::size_t n, unsigned jobs, Fn&& fn, const CancelToken* cancel = nullptr) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  auto worker = [&] {
    for (;;) {
      if (failed.load() || (cancel && cancel->cancelled())) return;
      const std::size_t i = next.fetch_add(1);
      if (i >= n) return;
      try {
        fn(i);
      } catch (...) {
        if (!failed.exchange(true)) error = std::current_exception();
        return;
      }
    }
  };
  const unsigned threads =
      static_cast<unsigned>(std::min<std::size_t>(std::max(1u, jobs), std::max<std::size_t>(n, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (auto& t : pool)
    t.join();
  if (error) std::rethrow_exception(error);
}

} // namespace steerbench::engine

// Cooperative cancellation: long work checks the token at every item or
// generation boundary and stops there, keeping what it finished.
#pragma once

#include <atomic>

namespace steerbench {

class CancelToken {
public:
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  [[nodiscard]] bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

private:
  std::atomic<bool> cancelled_{false};
};

} // namespace steerbench

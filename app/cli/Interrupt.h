// Maps Ctrl-C (SIGINT) to the engine's cancel token while a command runs.
#pragma once

#include "engine/ParallelFor.h"

namespace steerbench::cli {

/// While alive, the first SIGINT cancels token(); a second one kills the process.
class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  [[nodiscard]] CancelToken& token() { return token_; }

private:
  CancelToken token_;
};

} // namespace steerbench::cli

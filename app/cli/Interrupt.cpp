#include "cli/Interrupt.h"

#include <csignal>

namespace steerbench::cli {
namespace {
CancelToken* g_token = nullptr;

extern "C" void onSigint(int) {
  if (g_token && !g_token->cancelled()) {
    g_token->cancel(); // a lock-free atomic store: async-signal-safe
    return;
  }
  std::signal(SIGINT, SIG_DFL);
  std::raise(SIGINT);
}
} // namespace

InterruptGuard::InterruptGuard() {
  g_token = &token_;
  std::signal(SIGINT, onSigint);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, SIG_DFL);
  g_token = nullptr;
}

} // namespace steerbench::cli

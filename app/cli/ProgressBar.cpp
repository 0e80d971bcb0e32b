#include "cli/ProgressBar.h"

#include <cstdio>
#include <unistd.h>

namespace steerbench::cli {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)), tty_(isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()),
      lastDraw_(start_) {}

void ProgressBar::update(std::size_t done, std::size_t total, double fraction) {
  const auto now = std::chrono::steady_clock::now();
  const bool last = done >= total;
  if (!last && now - lastDraw_ < std::chrono::milliseconds(tty_ ? 200 : 10000)) return;
  lastDraw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? double(done) / elapsed : 0;
  if (fraction < 0) fraction = total ? double(done) / double(total) : 1.0;
  const double eta = fraction > 0 && elapsed > 0 ? elapsed * (1 - fraction) / fraction : 0;
  const int width = 30;
  const int filled = total ? int(double(width) * double(done) / double(total)) : width;
  char line[256];
  std::snprintf(line, sizeof line, "%s [%s%s] %zu/%zu %.1f/s ETA %dm%02ds", label_.c_str(),
                std::string(std::size_t(filled), '#').c_str(), std::string(std::size_t(width - filled), '.').c_str(),
                done, total, rate, int(eta) / 60, int(eta) % 60);
  if (tty_)
    std::fprintf(stderr, "\r%s\033[K%s", line, last ? "\n" : "");
  else
    std::fprintf(stderr, "%s\n", line);
  std::fflush(stderr);
}

} // namespace steerbench::cli

// A terminal progress bar with rate and ETA, drawn on stderr when it is a terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace steerbench::cli {

class ProgressBar {
public:
  explicit ProgressBar(std::string label);
  /// Redraws at most a few times a second; `done == total` finishes the line.
  /// The ETA follows the overall rate of `fraction` (the share of the work
  /// done; by default done / total): from the start, not a recent window.
  void update(std::size_t done, std::size_t total, double fraction = -1);

private:
  std::string label_;
  bool tty_;
  std::chrono::steady_clock::time_point start_, lastDraw_;
};

} // namespace steerbench::cli

// One row of a sampling batch: a feed being filled, token by token, with
// what the grammar guard and the compiler checks keep about it. Internal to
// the sampler (Sampler.cpp, LogitShaping, StatementChecks).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace steerbench::model {

struct SampleRow {
  std::size_t index = 0; ///< in the whole call's queue
  std::size_t feed = 0;
  std::vector<int> seq; ///< [START] ... [END] (either left out for a window that does not reach that end)
  int newTokens = 0;
  int holeAt = 0; ///< the first [HOLE]'s index in the feed's tokens
  bool start = true, end = true;
  int blocked = 0; ///< steps whose most likely token the guard banned
  // Compiler-checked statements (SampleOptions::check), for the hole being filled:
  int statementAt = -1;    ///< where its current statement starts in `seq` (-1: the hole is new)
  int infillAt = 0;        ///< where the hole's infill starts in `seq`
  std::size_t fixed = 0;   ///< length of the decoded text before the hole
  int takenBack = 0;       ///< statements taken back
  bool statementFailed = false; ///< the current statement was taken back to its error, not its start
  int endsTakenBack = 0;   ///< closed holes whose whole kernel had an error
  bool unchecked = false;  ///< the feed's own text has an error: no more checks
  bool holdsTarget = false;   ///< checked toward counts (SampleOptions::targetCheck) in a feed its hole ends
  bool shortOfTarget = false; ///< its last checked statement left it short of its target (SampleOptions::targetCheck)
  /// With a target's hold: the texts checked (the kernel so far, blocks
  /// closed), one list a try, each in order; given up on the way, it ends at
  /// one of them (heldRowEnd).
  std::vector<std::vector<std::string>> checked;
  /// With a target's hold and SampleOptions::heldLean: the biases its last
  /// passed statement left, added to its logits.
  std::vector<std::pair<int, float>> lean;
  int restarts = 0;        ///< times it started again from its feed (SampleOptions::restarts)
  int redraws = 0;         ///< times its fill rebuilt what the hole replaced (SampleOptions::feedReplaced)
  // A decoder's view (CachedDecoding): the hole being filled began at
  // `middleAt` in `seq` when the row had `holesLeft` holes (-1: not yet read).
  int middleAt = -1;
  int holesLeft = -1;
};

} // namespace steerbench::model

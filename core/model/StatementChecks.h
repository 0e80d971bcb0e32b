// Stepping a batch's rows by one drawn token, with compiler-checked
// statements (SampleOptions::check): each statement a row ends is compiled
// with its open blocks closed, and one with an error in what the model wrote
// is taken back (to the token the error is at the first time, to its start
// the second) and sampled again; closing a kernel's last hole may check the
// whole kernel (docs/model.md, "Sampling").
#pragma once
#include "model/SampleRow.h"
#include "model/Sampler.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace steerbench::model {

class SyntaxGuard;
class Tokenizer;

/// A text to compile for one row, and what the check found.
struct StatementCheck {
  std::size_t row = 0;
  std::string text;
  bool whole = false; ///< the whole kernel, as the row closes its last hole
  std::size_t hole = 0; ///< the hole's index in the row: after the statement's last token, or the one closing
  std::size_t error = std::string::npos;
  std::vector<std::pair<int, float>> lean; ///< a held row's lean from a passed statement (SampleOptions::heldLean)
};

/// The counts a feed's rows are asked for (SampleOptions::feedTargets, else
/// `target`); empty: none.
[[nodiscard]] const std::vector<double>& rowTarget(const SampleOptions& o, std::size_t feed);

/// Puts each row's drawn token (`chosen`) before its hole, or closes the
/// hole on [ENDHOLE] (marking the row in `ended`); returns the checks that
/// the rows' new tokens call for (none without SampleOptions::check).
[[nodiscard]] std::vector<StatementCheck> insertChosen(std::vector<SampleRow>& rows,
                                                       const std::vector<std::int64_t>& holeAt,
                                                       const std::vector<std::int64_t>& chosen, const SampleOptions& o,
                                                       const SyntaxGuard* guard, const Tokenizer& tok,
                                                       std::vector<char>& ended);

/// Runs the checks on `jobs` threads and applies what they found to their
/// rows: a clean statement is kept, one in error is taken back, a whole
/// kernel in error keeps its hole open (`restart` starts a row again from
/// its feed once the check patience is spent; false when no restarts are left).
void applyChecks(std::vector<SampleRow>& rows,
                 std::vector<StatementCheck>& checks, const SampleOptions& o, const Tokenizer& tok, unsigned jobs,
                 std::vector<char>& ended, const std::function<bool(SampleRow&)>& restart);

/// Whole-kernel checks a row given up on its way to a target may spend on
/// finding where to end: each is a compile (and, for a clean kernel, an -O1
/// pass), and only given-up rows pay them.
constexpr int kHeldEndTries = 8;

/// Where a row given up on its way to its target ends, from the texts its
/// statement checks left over its tries (SampleRow::checked): the first,
/// tidied (SampleOptions::tidy), that the whole kernel's check passes, of
/// each try's longest (the longest first), then each try's second longest,
/// and so on; at most kHeldEndTries distinct texts are judged. Every try
/// gets its turn before any gets a second: a try's shorter texts are its
/// longest with statements fewer, and fail the same way more often than
/// another try's longest does. None when none passes.
[[nodiscard]] std::optional<std::string> heldRowEnd(const std::vector<std::vector<std::string>>& tries,
                                                    const SampleOptions& o);

/// `check` with a memory: a text checked before gets its first verdict
/// again without a compile (a check is a function of the text alone). Rows
/// write the same texts often: the first statements of undirected samples,
/// the feeds a steering member gives several holes. Safe from several
/// threads; forgets all once it holds `capacity` texts.
[[nodiscard]] std::function<std::size_t(const std::string&)>
rememberedChecks(std::function<std::size_t(const std::string&)> check, std::size_t capacity = 1 << 16);

/// A memory of verdicts that `check` and `checkMany` (SampleOptions) share:
/// a text judged by one is known to the other.
struct CheckMemory;
[[nodiscard]] std::shared_ptr<CheckMemory> checkMemory(std::size_t capacity = 1 << 16);
[[nodiscard]] std::function<std::size_t(const std::string&)>
rememberedChecks(std::function<std::size_t(const std::string&)> check, std::shared_ptr<CheckMemory> memory);
/// `checkMany` with the memory: only the texts it does not hold go to
/// `checkMany`, each once.
[[nodiscard]] std::function<std::vector<std::size_t>(const std::vector<std::string>&)>
rememberedChecks(std::function<std::vector<std::size_t>(const std::vector<std::string>&)> checkMany,
                 std::shared_ptr<CheckMemory> memory);

} // namespace steerbench::model

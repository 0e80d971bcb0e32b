#include "model/StatementChecks.h"

#include "engine/ParallelFor.h"
#include "model/SyntaxGuard.h"
#include "model/Tokenizer.h"

#include <algorithm>

namespace steerbench::model {

std::vector<StatementCheck> insertChosen(std::vector<SampleRow>& rows, const std::vector<std::int64_t>& holeAt,
                                         const std::vector<std::int64_t>& chosen, const SampleOptions& o,
                                         const SyntaxGuard* guard, const Tokenizer& tok, std::vector<char>& ended) {
  const bool checking = bool(o.check);
  std::vector<StatementCheck> checks;
  for (std::size_t b = 0; b < rows.size(); ++b) {
    SampleRow& r = rows[b];
    const auto h = std::size_t(holeAt[b]);
    if (checking && r.start && !r.unchecked && r.statementAt < 0) {
      r.statementAt = int(h);
      r.infillAt = int(h);
      std::string before = tok.decode(std::vector<int>(r.seq.begin() + 1, r.seq.begin() + std::ptrdiff_t(h)));
      r.fixed = before.size();
    }
    if (chosen[b] == Tokenizer::kEndHole) {
      const bool lastHole =
          std::find(r.seq.begin() + std::ptrdiff_t(h) + 1, r.seq.end(), int(Tokenizer::kHole)) == r.seq.end();
      if (checking && o.checkWhole && r.start && r.end && !r.unchecked && lastHole &&
          r.endsTakenBack < o.checkPatience) {
        // The whole kernel, as it would be: decided after the checks.
        std::vector<int> whole(r.seq.begin() + 1, r.seq.end() - 1);
        whole.erase(whole.begin() + std::ptrdiff_t(h) - 1);
        checks.push_back({b, tok.decode(whole), true});
        continue;
      }
      r.seq.erase(r.seq.begin() + std::ptrdiff_t(h));
      r.statementAt = -1;
      ended[b] = 1;
      continue;
    }
    r.seq.insert(r.seq.begin() + std::ptrdiff_t(h), int(chosen[b]));
    ++r.newTokens;
    std::string closers;
    if (checking && r.start && !r.unchecked && guard->statementEnd(r.seq, h + 1, closers)) {
      std::string text = tok.decode(std::vector<int>(r.seq.begin() + 1, r.seq.begin() + std::ptrdiff_t(h + 1)));
      checks.push_back({b, std::move(text) + closers});
    }
  }
  return checks;
}

namespace {

/// A whole kernel checked as its last hole closes.
void applyWholeCheck(SampleRow& r, std::size_t h, const StatementCheck& c, const SampleOptions& o, char& ended,
                     const std::function<bool(SampleRow&)>& restart) {
  if (c.error == std::string::npos || c.error < r.fixed) {
    r.seq.erase(r.seq.begin() + std::ptrdiff_t(h)); // closed: the kernel compiles (or never could)
    r.statementAt = -1;
    ended = 1;
    return;
  }
  // The kernel has an error where the hole is or after it (a name the rest
  // uses and the infill never declared, ...): the last statement goes back,
  // and the hole stays open. (All of the infill, when its last statement is empty.)
  const auto from = std::size_t(r.statementAt) < h ? std::size_t(r.statementAt) : std::size_t(r.infillAt);
  r.seq.erase(r.seq.begin() + std::ptrdiff_t(from), r.seq.begin() + std::ptrdiff_t(h));
  r.newTokens -= int(h - from);
  r.statementAt = int(from);
  // Patience spent: start again while restarts are left; else the next
  // [ENDHOLE] closes the hole as it is.
  if (++r.endsTakenBack >= o.checkPatience) restart(r);
}

/// A statement checked as it ended; `h` is the hole, after its last token.
void applyStatementCheck(SampleRow& r, std::size_t h, const StatementCheck& c, const SampleOptions& o,
                         const Tokenizer& tok) {
  if (c.error == std::string::npos) {
    r.statementAt = int(h);
    r.statementFailed = false;
    return;
  }
  if (c.error < r.fixed) {
    r.unchecked = true; // broken before the hole: nothing the model writes can mend it
    return;
  }
  // The statement's first failure goes back to the token the error is at
  // (what came before it parsed and typed); a second, to the statement's
  // start (its beginning may be what is wrong).
  auto from = std::size_t(r.statementAt);
  if (!r.statementFailed && o.resumeAtError) {
    std::vector<int> prefix(r.seq.begin() + 1, r.seq.begin() + std::ptrdiff_t(from));
    for (std::size_t i = from; i + 1 < h; ++i) {
      prefix.push_back(r.seq[i]);
      if (tok.decode(prefix).size() > c.error) {
        from = i;
        break;
      }
    }
  }
  r.statementFailed = !r.statementFailed && from != std::size_t(r.statementAt);
  r.seq.erase(r.seq.begin() + std::ptrdiff_t(from), r.seq.begin() + std::ptrdiff_t(h));
  r.newTokens -= int(h - from);
  ++r.takenBack;
}

} // namespace

void applyChecks(std::vector<SampleRow>& rows, const std::vector<std::int64_t>& holeAt,
                 std::vector<StatementCheck>& checks, const SampleOptions& o, const Tokenizer& tok, unsigned jobs,
                 std::vector<char>& ended, const std::function<bool(SampleRow&)>& restart) {
  if (checks.empty()) return;
  engine::parallelFor(checks.size(), jobs, [&](std::size_t i) { checks[i].error = o.check(checks[i].text); });
  for (const StatementCheck& c : checks) {
    SampleRow& r = rows[c.row];
    if (c.whole) applyWholeCheck(r, std::size_t(holeAt[c.row]), c, o, ended[c.row], restart);
    else applyStatementCheck(r, std::size_t(holeAt[c.row]) + 1, c, o, tok);
  }
}

} // namespace steerbench::model

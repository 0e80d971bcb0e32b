#include "model/StatementChecks.h"

#include "engine/ParallelFor.h"
#include "model/LogitShaping.h"
#include "model/SyntaxGuard.h"
#include "model/Tokenizer.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>

namespace steerbench::model {

namespace {

/// SampleOptions::closeOnRepeat: k when the last k tokens of a row's infill
/// (its only hole is at `hole`) are the first k after the hole, else 0.
int repeatsTextAfter(const SampleRow& r, std::size_t hole, const SampleOptions& o) {
  const int k = o.closeOnRepeat;
  if (k <= 0) return 0;
  const std::size_t infillAt = (r.start ? 1 : 0) + std::size_t(r.holeAt); // [START] and the feed's text before its hole
  if (hole < infillAt + std::size_t(k) || r.newTokens - k < lengthFloor(o, r.feed)) return 0;
  if (std::count(r.seq.begin(), r.seq.end(), int(Tokenizer::kHole)) != 1) return 0;
  std::size_t after = r.seq.size() - (r.end ? 1 : 0) - hole - 1; // tokens after the hole
  if (after < std::size_t(k)) return 0;
  return std::equal(r.seq.begin() + std::ptrdiff_t(hole) - k, r.seq.begin() + std::ptrdiff_t(hole),
                    r.seq.begin() + std::ptrdiff_t(hole) + 1)
             ? k
             : 0;
}

} // namespace

const std::vector<double>& rowTarget(const SampleOptions& o, std::size_t feed) {
  return o.feedTargets.empty() ? o.target : o.feedTargets.at(feed);
}

std::vector<StatementCheck> insertChosen(std::vector<SampleRow>& rows, const std::vector<std::int64_t>& holeAt,
                                         const std::vector<std::int64_t>& chosen, const SampleOptions& o,
                                         const SyntaxGuard* guard, const Tokenizer& tok, std::vector<char>& ended) {
  const bool checking = bool(o.check);
  std::vector<StatementCheck> checks;
  // Whether the guard lets the hole close at `at` once the k tokens before
  // the hole (a repetition of the text after it) are gone: a repetition is
  // the model's wish to close, which the guard judges as it judges [ENDHOLE].
  std::vector<std::uint8_t> banned;
  auto mayClose = [&](const SampleRow& r, std::size_t at, int k) {
    std::vector<int> probe(r.seq);
    probe.erase(probe.begin() + std::ptrdiff_t(at), probe.begin() + std::ptrdiff_t(at) + k);
    banned.assign(std::size_t(tok.size()), 0);
    guard->ban(probe, r.start, r.end, banned.data());
    return banned[Tokenizer::kEndHole] == 0;
  };
  for (std::size_t b = 0; b < rows.size(); ++b) {
    SampleRow& r = rows[b];
    const auto h = std::size_t(holeAt[b]);
    if (checking && r.start && !r.unchecked && r.statementAt < 0) {
      r.statementAt = int(h);
      r.infillAt = int(h);
      std::string before = tok.decode(std::vector<int>(r.seq.begin() + 1, r.seq.begin() + std::ptrdiff_t(h)));
      r.fixed = before.size();
    }
    // Closes the hole at h: checked as a whole kernel first when it is the last.
    auto closeHole = [&](std::size_t h) {
      const bool lastHole =
          std::find(r.seq.begin() + std::ptrdiff_t(h) + 1, r.seq.end(), int(Tokenizer::kHole)) == r.seq.end();
      if (checking && o.checkWhole && r.start && r.end && !r.unchecked && lastHole &&
          r.endsTakenBack < o.checkPatience) {
        // The whole kernel, as it would be: decided after the checks.
        std::vector<int> whole(r.seq.begin() + 1, r.seq.end() - 1);
        whole.erase(whole.begin() + std::ptrdiff_t(h) - 1);
        checks.push_back({b, tok.decode(whole), true, h});
        return;
      }
      r.seq.erase(r.seq.begin() + std::ptrdiff_t(h));
      r.statementAt = -1;
      ended[b] = 1;
    };
    if (chosen[b] == Tokenizer::kEndHole) {
      closeHole(h);
      continue;
    }
    r.seq.insert(r.seq.begin() + std::ptrdiff_t(h), int(chosen[b]));
    ++r.newTokens;
    if (const int k = repeatsTextAfter(r, h + 1, o); k && (!guard || !o.guard || mayClose(r, h + 1 - std::size_t(k), k))) {
      // The infill has begun to write the text after the hole: the hole
      // closes where the repetition starts.
      r.seq.erase(r.seq.begin() + std::ptrdiff_t(h + 1) - k, r.seq.begin() + std::ptrdiff_t(h + 1));
      r.newTokens -= k;
      const std::size_t at = h + 1 - std::size_t(k);
      if (r.statementAt > int(at)) r.statementAt = int(at);
      closeHole(at);
      continue;
    }
    std::string closers;
    if (checking && r.start && !r.unchecked && guard->statementEnd(r.seq, h + 1, closers)) {
      std::string text = tok.decode(std::vector<int>(r.seq.begin() + 1, r.seq.begin() + std::ptrdiff_t(h + 1)));
      checks.push_back({b, std::move(text) + closers, false, h + 1});
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
  if (c.error == std::string::npos || c.error == SampleOptions::kShortOfTarget) {
    r.statementAt = int(h);
    r.statementFailed = false;
    r.shortOfTarget = c.error == SampleOptions::kShortOfTarget;
    if (r.holdsTarget && !r.checked.empty()) r.checked.back().push_back(c.text);
    if (o.heldLean) r.lean = c.lean;
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

void applyChecks(std::vector<SampleRow>& rows,
                 std::vector<StatementCheck>& checks, const SampleOptions& o, const Tokenizer& tok, unsigned jobs,
                 std::vector<char>& ended, const std::function<bool(SampleRow&)>& restart) {
  if (checks.empty()) return;
  // The texts that `check` judges (statements of rows not held to counts,
  // whole kernels without a check of their own) go to checkMany together,
  // in `jobs` contiguous parts; the others one by one.
  std::vector<std::size_t> together, oneByOne;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const bool byCheck = checks[i].whole ? !o.wholeCheck : !rows[checks[i].row].holdsTarget;
    (o.checkMany && byCheck ? together : oneByOne).push_back(i);
  }
  if (together.size() == 1) { // nothing to share a compile with
    oneByOne.insert(oneByOne.begin(), together.front());
    together.clear();
  }
  const std::size_t parts = std::min<std::size_t>(std::max(1u, jobs), together.size() / 2 + 1);
  engine::parallelFor(together.empty() ? 0 : parts, jobs, [&](std::size_t p) {
    const std::size_t from = together.size() * p / parts, to = together.size() * (p + 1) / parts;
    std::vector<std::string> texts;
    for (std::size_t k = from; k < to; ++k)
      texts.push_back(checks[together[k]].text);
    const auto verdicts = o.checkMany(texts);
    for (std::size_t k = from; k < to; ++k)
      checks[together[k]].error = verdicts.at(k - from);
  });
  engine::parallelFor(oneByOne.size(), jobs, [&](std::size_t j) {
    StatementCheck& c = checks[oneByOne[j]];
    const SampleRow& r = rows[c.row];
    c.error = c.whole && o.wholeCheck && o.tidies(r.holdsTarget, r.start, r.end)
                  ? (o.wholeCheck(o.tidy(c.text)) == std::string::npos ? std::string::npos : c.text.size() - 1)
              : c.whole && o.wholeCheck   ? o.wholeCheck(c.text)
              : !c.whole && r.holdsTarget ? o.targetCheck(c.text, rowTarget(o, r.feed))
                                         : o.check(c.text);
    if (!c.whole && r.holdsTarget && o.heldLean &&
        (c.error == std::string::npos || c.error == SampleOptions::kShortOfTarget))
      c.lean = o.heldLean(c.text, rowTarget(o, r.feed));
  });
  for (const StatementCheck& c : checks) {
    SampleRow& r = rows[c.row];
    if (c.whole) applyWholeCheck(r, c.hole, c, o, ended[c.row], restart);
    else applyStatementCheck(r, c.hole, c, o, tok);
  }
}

struct CheckMemory {
  explicit CheckMemory(std::size_t capacity) : capacity(capacity) {}
  std::optional<std::size_t> find(const std::string& text) {
    std::lock_guard lock(m);
    if (const auto it = verdicts.find(text); it != verdicts.end()) return it->second;
    return std::nullopt;
  }
  void keep(const std::string& text, std::size_t verdict) {
    std::lock_guard lock(m);
    if (verdicts.size() >= capacity) verdicts.clear();
    verdicts.emplace(text, verdict);
  }
  std::mutex m;
  std::unordered_map<std::string, std::size_t> verdicts;
  std::size_t capacity;
};

std::shared_ptr<CheckMemory> checkMemory(std::size_t capacity) { return std::make_shared<CheckMemory>(capacity); }

std::function<std::size_t(const std::string&)> rememberedChecks(std::function<std::size_t(const std::string&)> check,
                                                                std::size_t capacity) {
  return rememberedChecks(std::move(check), checkMemory(capacity));
}

std::function<std::size_t(const std::string&)> rememberedChecks(std::function<std::size_t(const std::string&)> check,
                                                                std::shared_ptr<CheckMemory> memory) {
  return [memory = std::move(memory), check = std::move(check)](const std::string& text) {
    if (const auto known = memory->find(text)) return *known;
    const std::size_t verdict = check(text);
    memory->keep(text, verdict);
    return verdict;
  };
}

std::function<std::vector<std::size_t>(const std::vector<std::string>&)>
rememberedChecks(std::function<std::vector<std::size_t>(const std::vector<std::string>&)> checkMany,
                 std::shared_ptr<CheckMemory> memory) {
  return [memory = std::move(memory), checkMany = std::move(checkMany)](const std::vector<std::string>& texts) {
    std::vector<std::size_t> out(texts.size());
    // The texts not known yet, each once.
    std::vector<std::string> unknown;
    std::unordered_map<std::string, std::size_t> at;
    std::vector<std::size_t> slot(texts.size(), std::size_t(-1));
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (const auto known = memory->find(texts[i])) {
        out[i] = *known;
        continue;
      }
      const auto [it, added] = at.emplace(texts[i], unknown.size());
      if (added) unknown.push_back(texts[i]);
      slot[i] = it->second;
    }
    if (unknown.empty()) return out;
    const auto verdicts = checkMany(unknown);
    for (std::size_t k = 0; k < unknown.size(); ++k)
      memory->keep(unknown[k], verdicts.at(k));
    for (std::size_t i = 0; i < texts.size(); ++i)
      if (slot[i] != std::size_t(-1)) out[i] = verdicts.at(slot[i]);
    return out;
  };
}

std::optional<std::string> heldRowEnd(const std::vector<std::vector<std::string>>& tries, const SampleOptions& o) {
  // Each try's texts, distinct and longest first.
  std::vector<std::vector<const std::string*>> ranked;
  for (const auto& t : tries) {
    auto& r = ranked.emplace_back();
    for (const auto& text : t)
      r.push_back(&text);
    std::stable_sort(r.begin(), r.end(), [](const std::string* a, const std::string* b) { return a->size() > b->size(); });
  }
  std::set<std::string> judged;
  for (std::size_t rank = 0;; ++rank) {
    std::vector<const std::string*> turn; // every try's text of this rank
    for (const auto& r : ranked)
      if (rank < r.size()) turn.push_back(r[rank]);
    if (turn.empty()) return std::nullopt;
    std::stable_sort(turn.begin(), turn.end(), [](const std::string* a, const std::string* b) { return a->size() > b->size(); });
    for (const auto* t : turn) {
      std::string text = o.tidy ? o.tidy(*t) : *t;
      if (!judged.insert(text).second) continue;
      if (!o.wholeCheck || o.wholeCheck(text) == std::string::npos) return text;
      if (judged.size() >= std::size_t(kHeldEndTries)) return std::nullopt;
    }
  }
}

} // namespace steerbench::model

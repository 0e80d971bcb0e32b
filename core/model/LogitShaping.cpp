#include "model/LogitShaping.h"

#include "model/SyntaxGuard.h"
#include "model/Tokenizer.h"
#include "model/VectorMath.h"

#include <algorithm>
#include <cmath>

namespace steerbench::model {

namespace {
constexpr float kNever = -1e9f; ///< a logit no draw can pick
} // namespace

int lengthFloor(const SampleOptions& o, std::size_t feed) {
  return o.feedMinNewTokens.empty() ? o.minNewTokens : int(o.feedMinNewTokens[feed]);
}

bool hasLengthFloors(const SampleOptions& o) {
  return o.minNewTokens > 0 || bool(o.targetCheck) ||
         std::any_of(o.feedMinNewTokens.begin(), o.feedMinNewTokens.end(), [](std::uint8_t m) { return m > 0; });
}

void shapeLogits(float* logits, std::int64_t vocab, std::vector<SampleRow>& rows,
                 const std::vector<std::int64_t>& holeAt, const SampleOptions& o, const SyntaxGuard* guard,
                 std::vector<std::uint8_t>& banned) {
  const auto V = std::size_t(vocab);
  auto row = [&](std::size_t b) { return logits + b * V; };
  for (std::size_t b = 0; b < rows.size(); ++b) {
    float* r = row(b);
    for (int m = 0; m < Tokenizer::kMetaCount; ++m) // meta tokens other than [ENDHOLE] are never sampled
      if (m != Tokenizer::kEndHole) r[m] = kNever;
    const double endHole = o.endHoleBias + o.endHoleRamp * rows[b].newTokens;
    if (endHole != 0.0) r[Tokenizer::kEndHole] += float(endHole);
  }
  if (!o.feedTokenBias.empty())
    for (std::size_t b = 0; b < rows.size(); ++b)
      for (const auto& [id, bias] : o.feedTokenBias[rows[b].feed])
        row(b)[id] += bias;
  for (std::size_t b = 0; b < rows.size(); ++b) // a held row's lean (SampleOptions::heldLean)
    for (const auto& [id, bias] : rows[b].lean)
      row(b)[id] += bias;
  if (o.guard) {
    banned.assign(rows.size() * V, 0);
    for (std::size_t b = 0; b < rows.size(); ++b) {
      float* r = row(b);
      const auto wanted = std::size_t(std::find(r, r + V, maxOf(r, V)) - r); // the first most likely token
      std::uint8_t* ban = banned.data() + b * V;
      const auto redirect = guard->ban(rows[b].seq, rows[b].start, rows[b].end, ban);
      if (redirect.from >= 0) { // the banned token's probability goes to the one that carries out its wish
        float& to = r[redirect.to];
        const float from = r[redirect.from], hi = std::max(to, from);
        to = hi + std::log(std::exp(to - hi) + std::exp(from - hi));
      }
      rows[b].blocked += ban[wanted] == 1; // not a ban of rules 4 to 6 or of operands: checks mend those
      for (std::size_t v = 0; v < V; ++v)
        if (ban[v]) r[v] = kNever;
    }
  }
  if (o.closeBias != 0.0 && guard->closeBrace() >= 0) // the length prior, after the guard gave [ENDHOLE]'s share to the brace
    for (std::size_t b = 0; b < rows.size(); ++b)
      if (rows[b].start && guard->openBraces(rows[b].seq, std::size_t(holeAt[b])) == 1)
        row(b)[guard->closeBrace()] += float(o.closeBias);
  if (!hasLengthFloors(o)) return;
  // The length floor, and a row short of its target (not the guard: the
  // model's wish to stop is no sign it is lost).
  for (std::size_t b = 0; b < rows.size(); ++b) {
    const SampleRow& s = rows[b];
    if (s.newTokens >= lengthFloor(o, s.feed) && !s.shortOfTarget) continue;
    float* r = row(b);
    const float endHole = r[Tokenizer::kEndHole];
    r[Tokenizer::kEndHole] = kNever;
    if (s.start && guard->closeBrace() >= 0 && guard->openBraces(s.seq, std::size_t(holeAt[b])) == 1)
      r[guard->closeBrace()] = kNever;
    if (maxOf(r, V) < -1e8f) // the guard left nothing else: the hole may close
      r[Tokenizer::kEndHole] = endHole;
  }
}

} // namespace steerbench::model

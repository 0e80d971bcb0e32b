#include "steer/HoleFeeds.h"

#include "model/Sampler.h"
#include "model/Tokenizer.h"
#include "steer/HoleSites.h"

#include <algorithm>
#include <cmath>

namespace steerbench::steer {

namespace {

/// A hole in a member of `n` tokens: directed, or anywhere.
Hole drawHole(const HoleSites& sites, const Member& member, std::int64_t n, const HoleRules& r, std::mt19937_64& rng) {
  const std::int64_t cap = std::max<std::int64_t>(
      r.holeMin, std::min<std::int64_t>(r.holeMax, std::int64_t(r.holeMaxFraction * double(n))));
  Hole hole;
  // No draw for the share when it is 0, so runs stored before directed holes resume alike.
  const bool directed = r.directedHoles > 0 && !sites.byDimension.empty() &&
                        std::uniform_real_distribution<double>(0, 1)(rng) < r.directedHoles &&
                        directedHole(sites, member.values, r.target, r.scale, n, r.holeMin, cap, rng, hole,
                                     r.renameHoles);
  if (!directed) {
    hole.start = std::uniform_int_distribution<std::int64_t>(0, n)(rng);
    hole.length = std::min(std::uniform_int_distribution<std::int64_t>(r.holeMin, cap)(rng), n - hole.start);
  }
  return hole;
}

} // namespace

Feeds emptyFeeds(int count, double local) {
  Feeds out;
  for (int c = 0; c < count; ++c) {
    // Feed c is local when the running count of local feeds, c * local rounded down, steps up at it.
    const bool fromLocal = std::floor((c + 1) * local) > std::floor(c * local);
    out.texts.push_back(fromLocal ? kLocalBufferFeed : "kernel void [HOLE]");
    out.ends.push_back(model::SampleOptions::kHasStart | model::SampleOptions::kHasEnd);
    out.feeds.push_back({});
  }
  return out;
}

Feeds holeFeeds(const model::Tokenizer& tok, const std::vector<Member>& beam,
                const std::vector<std::vector<int>>& memberIds, const HoleRules& r, std::mt19937_64& rng) {
  Feeds out;
  for (std::size_t m = 0; m < beam.size(); ++m) {
    const auto& ids = memberIds[m];
    const auto n = std::int64_t(ids.size());
    const HoleSites sites = r.directedHoles > 0 ? holeSites(r.space, tok, ids) : HoleSites{};
    for (int c = 0; c < r.perMember; ++c) {
      const Hole hole = drawHole(sites, beam[m], n, r, rng);
      // Holes and windows cut between lexemes (Tokenizer::lexemeStart): a
      // splice of a re-lexed piece of a spelled literal would not compile.
      const auto start = std::int64_t(tok.lexemeStart(ids, std::size_t(hole.start)));
      const std::int64_t len = std::int64_t(tok.lexemeEnd(ids, std::size_t(hole.start + hole.length))) - start;
      // The window: as much context on each side as fits, centred on the hole.
      // Decoding and encoding again can spell a few tokens differently
      // (string literals), so the window shrinks until the feed fits.
      std::int64_t from = 0, to = 0;
      std::string feed;
      int feedTokens = 0; // of the feed as the sampler will encode it
      for (std::int64_t room = r.window;; room = room * 3 / 4) {
        const std::int64_t rightAll = n - start - len;
        std::int64_t left = std::min<std::int64_t>(start, room / 2);
        const std::int64_t right = std::min<std::int64_t>(rightAll, room - left);
        left = std::min<std::int64_t>(start, room - right);
        from = std::int64_t(tok.lexemeEnd(ids, std::size_t(start - left)));
        to = std::int64_t(tok.lexemeStart(ids, std::size_t(start + len + right)));
        std::vector<int> f(ids.begin() + from, ids.begin() + start);
        f.push_back(model::Tokenizer::kHole);
        f.insert(f.end(), ids.begin() + start + len, ids.begin() + to);
        feed = tok.decode(f);
        feedTokens = int(tok.encode(feed).size());
        if (feedTokens + 4 + r.maxNewTokens <= r.maxLength || room <= 8) break;
      }
      if (feedTokens + 3 > r.maxLength) continue; // cannot be made to fit: skip this hole
      out.texts.push_back(feed);
      out.ends.push_back(std::uint8_t((from == 0 ? model::SampleOptions::kHasStart : 0) |
                                      (to == n ? model::SampleOptions::kHasEnd : 0)));
      out.feeds.push_back({m, start, len, tok.decode({ids.begin() + start, ids.begin() + start + len}), from, to});
    }
  }
  return out;
}

void spliceWindow(const model::Tokenizer& tok, const std::vector<int>& ids, const Feed& f, model::Sample& x) {
  // Two spelled lexemes that meet at a side of the window stay apart (the
  // window's feed was encoded without what lies beyond it).
  auto apart = [&](std::vector<int>& v, int next) {
    if (!v.empty() && tok.isChar(v.back()) && tok.isChar(next)) v.push_back(model::Tokenizer::kSpace);
  };
  std::vector<int> whole(ids.begin(), ids.begin() + f.from);
  if (!x.ids.empty()) apart(whole, x.ids.front());
  x.holeAt += int(whole.size()) - int(f.from); // the infill starts one later after such a space
  whole.insert(whole.end(), x.ids.begin(), x.ids.end());
  if (f.to < std::int64_t(ids.size())) apart(whole, ids[std::size_t(f.to)]);
  whole.insert(whole.end(), ids.begin() + f.to, ids.end());
  x.ids = std::move(whole);
  x.text = tok.decode(x.ids);
}

} // namespace steerbench::steer

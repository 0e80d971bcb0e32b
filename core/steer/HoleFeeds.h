// The feeds of a generation: a hole in each beam member, several times, each
// cut to a window of context around the hole when the member is longer than
// the model sees (docs/steering.md, "Infills"); and the splice that puts a
// window's infill back into its whole member.
#pragma once
#include "steer/BeamSelection.h"

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace steerbench::model {
class Tokenizer;
struct Sample;
} // namespace steerbench::model

namespace steerbench::steer {

/// One hole put into one member.
struct Feed {
  std::size_t member = 0;
  std::int64_t start = -1, length = 0; ///< the member's tokens the hole replaces
  std::string replaced;                ///< their text
  std::int64_t from = 0, to = 0;       ///< the member's tokens [from, to) the model saw (a window, or all)
};

/// What the sampler is given: one text per feed with its [HOLE], and which
/// of the kernel's true ends it holds (model::SampleOptions::feedEnds).
struct Feeds {
  std::vector<std::string> texts;
  std::vector<std::uint8_t> ends;
  std::vector<Feed> feeds;
};

struct HoleRules {
  std::string space;      ///< the run's feature space (directed holes read its sites)
  int perMember = 4;      ///< holes per member
  int holeMin = 0, holeMax = 3;
  double holeMaxFraction = 0.25;
  double directedHoles = 0;
  bool renameHoles = false;
  std::vector<double> target, scale;
  int window = 64;        ///< tokens of context around a hole at most
  int maxLength = 256;    ///< the model's positions
  int maxNewTokens = 8;   ///< room a feed leaves for its infill
};

/// The feed of a seed that starts with a local buffer: a kernel whose first
/// argument is `local float *a` (the corpus's names are rewritten so: the
/// kernel A, its first argument a), the rest the model's.
inline constexpr const char* kLocalBufferFeed = "kernel void A(local float *a, [HOLE]";

/// `count` feeds of a seed from the model: the empty kernel's, or for a
/// share `local` of them (spread among the others) kLocalBufferFeed.
[[nodiscard]] Feeds emptyFeeds(int count, double local = 0);

/// Holes in every member of `beam` (whose tokens are `memberIds`), drawn from
/// `rng`: directed at an off-target dimension with probability
/// directedHoles, else anywhere; cut between lexemes; windowed to fit. A hole
/// whose window cannot be made to fit is skipped.
[[nodiscard]] Feeds holeFeeds(const model::Tokenizer& tok, const std::vector<Member>& beam,
                              const std::vector<std::vector<int>>& memberIds, const HoleRules& rules,
                              std::mt19937_64& rng);

/// A windowed sample put back between its member's tokens outside the window
/// (`ids`, `text` and `holeAt` then refer to the whole kernel).
void spliceWindow(const model::Tokenizer& tok, const std::vector<int>& memberIds, const Feed& feed,
                  model::Sample& sample);

} // namespace steerbench::steer

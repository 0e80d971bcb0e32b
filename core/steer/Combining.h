// Combining infills (SteerSpec::combine, combineGreedy): an infill seen as an
// edit of its beam member's tokens, and candidates that apply several edits
// of one member at once when their spans do not overlap, ranked by the
// distance their summed feature changes predict (docs/steering.md,
// "Combining infills"). Every token still comes from the model or a seed.
#pragma once
#include "steer/BeamSelection.h"
#include "store/Workspace.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::model {
class Tokenizer;
}

namespace steerbench::steer {

/// Generations back (this one included) whose infills SteerSpec::combine pairs.
constexpr int kCombineWindow = 8;
/// The origin recorded for a combined candidate.
constexpr const char* kCombinedOrigin = "two infills combined";
/// The origin recorded for a candidate of SteerSpec::combineGreedy.
constexpr const char* kGreedyCombinedOrigin = "infills combined greedily";
/// Whether a candidate with this origin applies several infills at once.
[[nodiscard]] inline bool isCombined(const std::string& origin) {
  return origin == kCombinedOrigin || origin == kGreedyCombinedOrigin;
}

/// An infill as a change to its parent's tokens: [from, to) replaced by
/// `tokens`, and what it did to the features.
struct Edit {
  std::int64_t parent = 0;
  int generation = 0;
  std::size_t from = 0, to = 0;
  std::vector<int> tokens;
  std::vector<double> delta;
};

/// The smallest span of `parent` whose replacement gives `child` (what an
/// infill really changed: it may write back some of the tokens it replaced).
[[nodiscard]] Edit editBetween(const std::vector<int>& parent, const std::vector<int>& child);
/// The edit that turns `parent` (whose tokens are `parentIds`) into a child
/// with `childText` and `childValues`, made in `generation`; false when the
/// child is the parent again.
[[nodiscard]] bool editOf(const model::Tokenizer& tok, const Member& parent, const std::vector<int>& parentIds,
                          const std::string& childText, const std::vector<double>& childValues, int generation,
                          Edit& out);
/// Whether two edits of one parent can be applied together: their spans do
/// not overlap, and they are not two insertions at the same place.
[[nodiscard]] bool disjoint(const Edit& x, const Edit& y);
/// `ids` with the edits applied; they are disjoint and in text order (by from, then to).
[[nodiscard]] std::vector<int> applyEdits(const std::vector<int>& ids, const std::vector<const Edit*>& edits);

/// Edits of one beam member to apply together, and the distance they predict.
struct Combination {
  double predicted = 0;
  std::size_t member = 0; ///< index into the beam
  std::vector<const Edit*> edits;
};

/// Every pair of a fresh edit (index >= firstFresh) with an earlier one of
/// the same member that is disjoint from it and predicts a kernel nearer than
/// the member, nearest prediction first (ties in the order they were found).
[[nodiscard]] std::vector<Combination> pairedEdits(const std::vector<Member>& beam, const std::vector<Edit>& edits,
                                                   std::size_t firstFresh, const std::vector<double>& target,
                                                   const std::vector<double>& scale);
/// Per member, its edits taken greedily while the summed prediction comes
/// nearer; the sets of more than two edits, nearest prediction first, at
/// most `limit` of them.
[[nodiscard]] std::vector<Combination> greedyEdits(const std::vector<Member>& beam, const std::vector<Edit>& edits,
                                                   const std::vector<double>& target, const std::vector<double>& scale,
                                                   std::size_t limit);

/// A combined candidate: its record (parent, origin, span, infill) and text.
struct CombinedCandidate {
  store::Workspace::SteerCandidateRecord record;
  std::string text;
};
/// The member (`parent`, tokens `ids`) with `edits` applied together.
[[nodiscard]] CombinedCandidate combinedCandidate(const model::Tokenizer& tok, std::int64_t parent,
                                                  const std::vector<int>& ids, std::vector<const Edit*> edits,
                                                  const char* origin);

} // namespace steerbench::steer

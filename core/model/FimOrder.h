// The order in which the decoder reads a kernel with a hole: the one layout
// training's datapoints and sampling's rows share (docs/model.md, "The
// decoder"). A model reads only the order it was trained in
// (ModelConfig::suffixFirst).
#pragma once

#include "model/Tokenizer.h"

#include <cstddef>
#include <vector>

namespace steerbench::model {

/// `seq` holds the [HOLE] being filled at index `hole`, and what has been
/// written into that hole so far at [middle, hole) (middle == hole: nothing).
/// Prefix first (psm): seq[0, middle) [HOLE] seq(hole, end) [MASK] seq[middle, hole).
/// Suffix first (spm): [HOLE] seq(hole, end) [MASK] seq[0, hole), so the
/// prefix and the infill are one run that grows at its end.
/// Later holes stay in seq(hole, end) as [HOLE] tokens.
inline std::vector<int> fimOrder(const std::vector<int>& seq, std::size_t middle, std::size_t hole, bool suffixFirst) {
  const auto at = [&](std::size_t i) { return seq.begin() + std::ptrdiff_t(i); };
  std::vector<int> out;
  out.reserve(seq.size() + 1);
  if (!suffixFirst) out.insert(out.end(), seq.begin(), at(middle));
  out.push_back(Tokenizer::kHole);
  out.insert(out.end(), at(hole + 1), seq.end());
  out.push_back(Tokenizer::kMask);
  out.insert(out.end(), suffixFirst ? seq.begin() : at(middle), at(hole));
  return out;
}

} // namespace steerbench::model

// What the sampler does to a batch's logits before it draws a token: meta
// tokens other than [ENDHOLE] are never drawn; the [ENDHOLE] bias, the
// per-feed token biases (guided infills), the grammar guard's bans, the
// close-brace bias and the length floors are applied, in that order
// (docs/model.md, "Sampling"). Works on the raw [rows, vocabulary] floats.
#pragma once
#include "model/SampleRow.h"
#include "model/Sampler.h"

#include <cstdint>
#include <vector>

namespace steerbench::model {

class SyntaxGuard;

/// Shapes `logits` ([rows.size(), vocab], row-major) in place. `holeAt` is
/// each row's first [HOLE] in its seq. `guard` is needed when the options
/// guard, check or floor (it may be null otherwise); `banned` is scratch.
/// Counts in each row's `blocked` whether the guard banned its most likely token.
void shapeLogits(float* logits, std::int64_t vocab, std::vector<SampleRow>& rows,
                 const std::vector<std::int64_t>& holeAt, const SampleOptions& o, const SyntaxGuard* guard,
                 std::vector<std::uint8_t>& banned);

/// A row's length floor (SampleOptions::minNewTokens, or its feed's own).
[[nodiscard]] int lengthFloor(const SampleOptions& o, std::size_t feed);
/// Whether any row has a length floor.
[[nodiscard]] bool hasLengthFloors(const SampleOptions& o);

} // namespace steerbench::model

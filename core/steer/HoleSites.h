// Where a hole is likely to move a feature: the tokens a kernel's counts come
// from. Steering aims some of its holes there (SteerSpec::directedHoles).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace steerbench::model {
class Tokenizer;
}

namespace steerbench::steer {

/// Per dimension of a feature space, the positions (model token indices) of
/// the tokens that dimension counts. Grewe's six counts read at token level:
/// comp (arithmetic and shift operators; exp, log, sqrt), rational
/// (comparisons), mem (uses of a `__global` or `__local` name), localmem and
/// coalesced (subscripts of a `__local` or `__global` name), atomic (atomic_* and
/// atom_* calls). It is a reading of the tokens, not of the AST: it guides
/// where holes go and never decides a feature. Spaces without a token-level
/// reading (the IR spaces) get no sites.
struct HoleSites {
  std::vector<std::vector<std::int64_t>> byDimension; ///< empty: no reading for this space
};

[[nodiscard]] HoleSites holeSites(const std::string& space, const model::Tokenizer& tok, const std::vector<int>& ids);

/// A hole: `length` tokens from `start`.
struct Hole {
  std::int64_t start = 0, length = 0;
};

/// A hole aimed at one dimension of `values` that differs from `target`,
/// chosen with odds in proportion to its scaled difference (`scale` may be
/// empty). Too much of a count: the hole covers one of its sites, so the
/// infill can take it away. Too little: the hole opens next to one of its
/// sites (or anywhere, if it has none), where the model tends to write more
/// of the same. Lengths are uniform in [holeMin, holeMax] (at least 1 over a
/// site), within the `n` tokens. False when no dimension can be aimed at.
[[nodiscard]] bool directedHole(const HoleSites& sites, const std::vector<double>& values,
                                const std::vector<double>& target, const std::vector<double>& scale,
                                std::int64_t n, std::int64_t holeMin, std::int64_t holeMax, std::mt19937_64& rng,
                                Hole& out);

} // namespace steerbench::steer

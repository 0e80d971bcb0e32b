// Where a hole is likely to move a feature: the tokens a kernel's counts come
// from. Steering aims some of its holes there (SteerSpec::directedHoles).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace steerbench::model {
class Tokenizer;
}

namespace steerbench::steer {

/// Per dimension of a feature space, the positions (model token indices) of
/// the tokens that dimension counts. Grewe's six counts read at token level:
/// comp (arithmetic and shift operators; exp, log, sqrt), rational
/// (comparisons), mem (uses of a `__global` parameter or a `__local` name:
/// a `__global` pointer declared in a body is not counted), localmem and
/// coalesced (subscripts of a `__local` or `__global` name), atomic (atomic_* and
/// atom_* calls). It is a reading of the tokens, not of the AST: it guides
/// where holes go and never decides a feature. Spaces without a token-level
/// reading (the IR spaces) get no sites.
struct HoleSites {
  std::vector<std::vector<std::int64_t>> byDimension; ///< empty: no reading for this space
};

[[nodiscard]] HoleSites holeSites(const std::string& space, const model::Tokenizer& tok, const std::vector<int>& ids);

/// Per dimension of a feature space, the vocabulary's word tokens whose
/// writing adds to that dimension in a kernel of tokens `ids`, as the same
/// reading of the tokens sees it: comp (arithmetic and shift operators),
/// rational (comparisons), atomic (atomic_* and atom_* builtins), and the
/// kernel's own `__global` parameters and `__local` names for mem, with the
/// `__local` ones for localmem and every `__global` one (pointers declared in
/// a body too, which add no mem) for coalesced (a subscript follows the
/// name). exp, log and sqrt (15 comp each) are left out. A name
/// the tokenizer spells character by character has no token. Empty for a
/// space without a token-level reading.
[[nodiscard]] std::vector<std::vector<int>> dimensionTokens(const std::string& space, const model::Tokenizer& tok,
                                                            const std::vector<int>& ids);
/// dimensionTokens's part that depends on the vocabulary alone (operators,
/// comparisons, atomics): the same for every kernel, so a run finds it once.
[[nodiscard]] std::vector<std::vector<int>> vocabularyTokens(const std::string& space, const model::Tokenizer& tok);
/// dimensionTokens from vocabularyTokens's result, adding the kernel's names.
[[nodiscard]] std::vector<std::vector<int>> dimensionTokens(std::vector<std::vector<int>> vocabulary,
                                                            const model::Tokenizer& tok, const std::vector<int>& ids);

/// Logit biases that lean an infill toward `target` (SteerSpec::guideLogits):
/// each token of a dimension (`dimensionTokens`) gets `strength` when the
/// kernel's `values` have too little of it, and -`strength` when too much,
/// summed over the dimensions it counts for. Sorted by token, no zeros.
[[nodiscard]] std::vector<std::pair<int, float>> guideBias(const std::vector<std::vector<int>>& tokens,
                                                           const std::vector<double>& values,
                                                           const std::vector<double>& target, double strength);

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
/// site), within the `n` tokens. With `renames`, a subscript count that is
/// too low (localmem or coalesced) is aimed at half the time by a rename
/// instead: a one-token hole on the name of a subscript the other count
/// counts, where the model may write a name of the kind that is short (the
/// guide leans it there), moving one count from the other into this one and
/// leaving mem as it is: `b[i]` on a `__global` b written as `d[i]` on a
/// `__local` d. False when no dimension can be aimed at.
[[nodiscard]] bool directedHole(const HoleSites& sites, const std::vector<double>& values,
                                const std::vector<double>& target, const std::vector<double>& scale,
                                std::int64_t n, std::int64_t holeMin, std::int64_t holeMax, std::mt19937_64& rng,
                                Hole& out, bool renames = false);

} // namespace steerbench::steer

// Feature conditioning (docs/model.md): a Grewe vector told to the model as
// a few tokens before its row, so that it writes toward the requested counts.
// One token per count (comp, rational, mem, localmem, coalesced, atomic), its
// value in one of kConditionBins bins of about half an octave. The tokens are
// inputs only: they sit after the tokenizer's vocabulary (ids vocab ..
// vocab + conditionTokenCount() - 1), and the model never writes them.
// Plain C++, no torch.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::model {

/// The counts a condition names, in the order of the Grewe vector.
inline constexpr std::array<const char*, 6> kConditionNames{"comp", "rational", "mem", "localmem", "coalesced",
                                                            "atomic"};
inline constexpr int kConditionBins = 16;

/// Tokens the model needs for conditions: every name times every bin.
[[nodiscard]] constexpr int conditionTokenCount() { return int(kConditionNames.size()) * kConditionBins; }

/// The bin of a count: 0, 1, 2, 3, 4-5, 6-7, 8-11, 12-15, 16-23, 24-31,
/// 32-47, 48-63, 64-95, 96-127, 128-191, 192 and more (counts are rounded).
[[nodiscard]] int conditionBin(double count);

/// The smallest count of a bin (conditionBin(conditionBinFloor(b)) == b).
[[nodiscard]] int conditionBinFloor(int bin);

/// The condition tokens of a Grewe vector (at least its six counts), one per
/// name: vocab + name * kConditionBins + bin. Throws std::invalid_argument
/// for a shorter vector.
[[nodiscard]] std::vector<int> conditionTokens(const std::vector<double>& grewe, int vocab);

/// Reads "comp=60,mem=12" (names of kConditionNames, counts >= 0; a name not
/// given is 0) into a Grewe-ordered vector of six counts. Throws InputError
/// naming what is wrong.
[[nodiscard]] std::vector<double> parseConditionTarget(const std::string& text);

/// "comp=60,mem=12": the non-zero counts of a vector (at least six), or "0".
[[nodiscard]] std::string describeConditionTarget(const std::vector<double>& grewe);

/// Targets around `target`: `count` copies, each count multiplied by a
/// factor drawn uniformly in [1 - spread, 1 + spread] (0 <= spread <= 1)
/// from `seed`, rounded.
[[nodiscard]] std::vector<std::vector<double>> spreadTargets(const std::vector<double>& target, double spread,
                                                             int count, std::uint64_t seed);

/// A grid over two counts: "comp=0:400,mem=0:100" gives cells x cells
/// targets, `base` with those two counts at the cells' centres (row by row:
/// the second count varies fastest), rounded. Other counts may follow an
/// axis in proportion ("coalesced=mem*0.67": each cell's mem times 0.67,
/// rounded), as real kernels' counts do. Throws InputError naming what is
/// wrong (not two NAME=LO:HI ranges, LO > HI, the same count twice, a
/// ratio below 0, a count following one that is no axis).
[[nodiscard]] std::vector<std::vector<double>> gridTargets(const std::string& grid, int cells,
                                                           const std::vector<double>& base);

/// Each sample's vector for `perCell` samples a cell of that grid, cell by
/// cell: sample i asks for gridTargets(...)[i / perCell].
[[nodiscard]] std::vector<std::vector<double>> gridSampleTargets(const std::string& grid, int cells,
                                                                 const std::vector<double>& base, int perCell);

} // namespace steerbench::model

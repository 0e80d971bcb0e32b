// Targets from a click on the feature plot, and the rules that make a vector
// one a kernel can have (docs/steering.md, "Targets").
//
// Feasible: every count a whole number >= 0; in the Grewe space coalesced and
// localmem no larger than mem, and F2, F4 the ratios of the counts; in
// InstCount, TotalInsts the sum of the opcode counts. A click in PCA axes
// gives the feasible vector that projects nearest the click, found from the
// kernels drawn around it: their distance-weighted blend, moved along the
// plane onto the click and back into the feasible set until both hold (a few
// rounds), then rounded and moved a count at a time while that brings its
// projection nearer. A click in raw axes sets exactly those two dimensions.
#pragma once
#include "features/Pca.h"
#include "steer/Target.h"

#include <optional>
#include <string>
#include <vector>

namespace steerbench::steer {

/// Makes `values` feasible in `space` (see above) with the least change: negative
/// counts to 0, counts rounded, coalesced and localmem lowered to mem,
/// derived dimensions recomputed. Returns what it changed, for people (empty
/// when nothing), e.g. "coalesced lowered to mem".
std::vector<std::string> makeFeasible(const std::string& space, std::vector<double>& values);
/// Whether a kernel can have `values` in `space`; `why` says what breaks the rules.
[[nodiscard]] bool isFeasible(const std::string& space, const std::vector<double>& values, std::string* why = nullptr);

/// What a click in PCA axes gives.
struct PlotTarget {
  Target target;                   ///< feasible
  std::vector<double> projected;   ///< where target.values lands on the plot's axes
  double offset = 0;               ///< distance from the click to `projected`, in the plot's units
  std::vector<std::string> reasons; ///< why `projected` is not the click: the rules that moved it
};

/// The feasible target nearest a click at (x, y) of the PCA-2 plot fitted as
/// `pca`, from the `kernels` drawn on the plot (their vectors in `space`;
/// the plane's inverse transform when there are none). Throws InputError
/// when the PCA does not fit the space.
[[nodiscard]] PlotTarget targetFromPcaClick(const std::string& space, const features::Pca& pca,
                                            const std::vector<std::vector<double>>& kernels, double x, double y);

/// A click at (x, y) of raw axes dimX and dimY: those two dimensions set
/// exactly (>= 0, whole when counts), the others kept from `current` (zeros
/// when none); Grewe's F2 and F4 follow from the counts unless they are an axis.
[[nodiscard]] Target targetFromAxesClick(const std::string& space, const std::optional<std::vector<double>>& current,
                                         int dimX, int dimY, double x, double y);

} // namespace steerbench::steer

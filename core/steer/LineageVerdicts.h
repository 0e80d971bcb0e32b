// What a steering run's drive checks say about its lineages
// (docs/steering.md, "Checks of lineages"). A candidate is of a
// failing lineage when it failed the checks, or was not checked and its
// nearest checked ancestor failed them: descendants inherit most faults.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace steerbench::steer {

/// How a candidate's check ended.
struct Verdict {
  bool passed = false;
  double distance = 0; ///< the candidate's distance to the target
};

using Verdicts = std::map<std::int64_t, Verdict>;       ///< by candidate id
using Parents = std::map<std::int64_t, std::int64_t>;   ///< candidate id -> parent id (0: a seed)

/// The verdict nearest up `candidate`'s lineage, itself first (nullptr: none).
[[nodiscard]] const Verdict* nearestVerdict(std::int64_t candidate, const Verdicts& verdicts, const Parents& parents);

/// `candidate` failed the checks, or has no verdict and its nearest checked ancestor failed them.
[[nodiscard]] bool failingLineage(std::int64_t candidate, const Verdicts& verdicts, const Parents& parents);

/// Seeds of one package (SteerSpec::packageFailures), by seed id.
using SeedPackages = std::map<std::int64_t, std::string>;

/// The unchecked seeds presumed failing: those of a package whose checked
/// seeds all failed (one at least). A seed with no package is its own.
[[nodiscard]] std::set<std::int64_t> presumedFailingSeeds(const SeedPackages& seeds, const Verdicts& verdicts);

/// failingLineage, or no verdict up `candidate`'s lineage and its seed among `presumed`.
[[nodiscard]] bool failingLineage(std::int64_t candidate, const Verdicts& verdicts, const Parents& parents,
                                  const std::set<std::int64_t>& presumed);

/// `candidate`'s ancestors that have no verdict, its parent first, up to
/// (not including) the nearest that has one or the seed's end.
[[nodiscard]] std::vector<std::int64_t> uncheckedAncestors(std::int64_t candidate, const Verdicts& verdicts,
                                                           const Parents& parents);

/// The next check of a bisection after `failed` failed: the middle of its
/// unchecked ancestors, when the nearest checked one passed or there is
/// none; 0 when the failing step is known (no unchecked ancestor: `failed`
/// itself; or an ancestor that failed already). Checked in turn, the
/// middles find the first step that broke in about log2(edits) checks, and
/// its verdict then marks all its descendants, where `failed`'s marked only
/// its own.
[[nodiscard]] std::int64_t bisectionStep(std::int64_t failed, const Verdicts& verdicts, const Parents& parents);

/// The beam members worth a check while the checks are idle: those with no
/// verdict whose nearest checked ancestor did not fail, the least known
/// first (no verdict in their lineage, then the most edits since one), then
/// in the beam's order (nearest first). A member's verdict speaks for all
/// its descendants that have none.
[[nodiscard]] std::vector<std::int64_t> membersToCheck(const std::vector<std::int64_t>& beam, const Verdicts& verdicts,
                                                       const Parents& parents);

} // namespace steerbench::steer

// Keeping the beam: which of the old members and the new distinct compiling
// candidates go on to the next generation. A pure function of its inputs and
// the generation's random draws (docs/steering.md, "Keeping the beam").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace steerbench::steer {

/// Findings of the clean rules judged against the parent (CleanRule::relative), by rule name.
using RelativeSites = std::map<std::string, std::vector<std::string>>;
/// Their number, by rule name (a rule with none may have no entry).
using RelativeCounts = std::map<std::string, std::size_t>;

/// A beam member: a stored candidate with what selection needs.
struct Member {
  std::int64_t id = 0;
  std::string text, key; ///< key: model::tokenKey(text), what makes two members the same kernel
  std::vector<double> values;
  double distance = 0;
  std::optional<RelativeCounts> relative; ///< its findings of the rules judged against the parent; none: not known yet
};

/// A kernel that may be kept: its distance to the target and its features.
struct BeamEntry {
  double distance = 0;
  const std::vector<double>* values = nullptr;
  bool failing = false; ///< its lineage failed the drive checks (SteerSpec::failingMembers)
};

struct BeamRules {
  int width = 16;               ///< members kept
  int maxPerVector = 0;         ///< members that may share one feature vector (0: any number)
  double swapProbability = 0;   ///< each kept slot but the best is swapped for a lower-ranked entry with this probability
  int maxFailing = -1;          ///< failing entries that may be kept (-1: any number)
  /// Failing entries beyond maxFailing are not kept at all while another
  /// entry is (else they fill the places the others leave).
  bool onlyWhenAlone = false;
};

/// The indices into `pool` of the next beam, nearest first. The pool is
/// ranked by distance (ties keep their order); with a cap, entries beyond
/// the cap's count for their vector go after all the others, and then
/// failing entries beyond maxFailing after all the others; the first
/// `width` are kept, each slot but the first swapped with probability
/// swapProbability for a random entry beyond the width (draws from `rng`,
/// only when there are more entries than the width).
[[nodiscard]] std::vector<std::size_t> selectBeam(const std::vector<BeamEntry>& pool, const BeamRules& rules,
                                                  std::mt19937_64& rng);
/// The places of a beam of `width` that entries of `pool` outside failing
/// lineages leave empty (SteerSpec::seedsRefill fills them with seeds).
[[nodiscard]] std::size_t placesLeft(const std::vector<BeamEntry>& pool, int width);

/// Generations since the best distance last fell: the trailing entries of
/// `bests` (the best after each generation, < 0 for none yet) that are no
/// better than the one before them, counting only entries from index `from`.
[[nodiscard]] int stalledGenerations(const std::vector<double>& bests, std::size_t from = 0);
/// Where the beam's current search began in a run whose beam had these
/// bests, one per generation: the generation of the last reseed
/// (SteerSpec::reseedAfter), or 0. Generation g reseeds when the beam's best
/// has not fallen for `reseedAfter` generations of the search it belongs to.
[[nodiscard]] std::size_t lastReseed(const std::vector<double>& bests, int reseedAfter);

/// A stored best distance; < 0 (nothing compiled yet) counts as infinitely far.
[[nodiscard]] double orInfinity(double d);

} // namespace steerbench::steer

// Repairs of a failing candidate (SteerSpec::repairs). A lineage that passed
// the drive checks and then failed them was broken by one of the edits in
// between (an early `return`, a bound moved past its buffer, a loop that no
// longer ends), and its descendants inherit the fault while they keep
// editing their way to the target. A repair is the failing candidate with
// one of those edits undone: the rest of the search's work stays, and the
// repair that undoes the faulty edit most likely runs again.
#pragma once

#include "store/Workspace.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::model {
class Tokenizer;
}

namespace steerbench::steer {

/// How a repair's origin begins: "the edit of candidate N undone in candidate M".
constexpr const char* kRepairOrigin = "the edit of candidate";

/// One repair: the step it undoes (an index into the path) and its tokens.
struct Repair {
  std::size_t step = 0;
  std::vector<int> ids;
};

/// `path` holds the tokens of a lineage, one candidate a step: path[0] the
/// ancestor taken to run (it passed, or is a seed never checked),
/// path.back() the failing candidate. For each
/// step k in [firstSuspect, lastSuspect] (at least 1), the failing candidate
/// with the change from path[k-1] to path[k] undone: the tokens that change
/// wrote, followed through the later steps, put back as they were. A step
/// whose tokens a later step rewrote in part, or that changed nothing, gives
/// no repair.
[[nodiscard]] std::vector<Repair> undoneSteps(const std::vector<std::vector<int>>& path, std::size_t firstSuspect,
                                              std::size_t lastSuspect);

/// One candidate of a lineage as a repair reads it.
struct LineageLink {
  std::int64_t id = 0;
  std::string text;
  bool failed = false; ///< its check failed
};

/// A repair as a candidate of the ancestor taken to run: its record (parent,
/// origin, and the span of the ancestor it differs in), its text, and the
/// ancestor's text (what its findings are judged against).
struct RepairCandidate {
  store::Workspace::SteerCandidateRecord record;
  std::string text, parentText;
};

/// The repairs of a failing candidate: `lineage` runs from the ancestor
/// taken to run (front: the nearest that passed, or a seed never checked) to
/// it (back). The steps that may hold the
/// fault are those after the ancestor up to the first link that failed; the
/// `maxSuspects` of them nearest that link are each undone in one repair.
[[nodiscard]] std::vector<RepairCandidate> repairsOf(const model::Tokenizer& tok,
                                                     const std::vector<LineageLink>& lineage,
                                                     std::size_t maxSuspects);

} // namespace steerbench::steer

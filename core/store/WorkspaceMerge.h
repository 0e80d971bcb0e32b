// Merging workspaces: the shards of a campaign (or any workspaces steered
// from the same corpus) into one. Kernels are deduplicated by content and
// name; runs, samples and drive cases are recognised by the uid they carry
// from the file they were made in, so merging the same input again adds
// nothing; every id is remapped and lineage (parents, beams, bests, the
// kernels of drive cases and epochs) follows. Inputs are only read.
// docs/cluster.md describes the rules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::store {

class Workspace;

/// Which corpus a workspace holds: a hash over its corpus kernels (roles
/// train, held_out and capped: content hash and name, in order), and how
/// many there are. Two workspaces may merge only when they agree.
struct CorpusIdentity {
  std::string hash;
  std::int64_t kernels = 0;
};
[[nodiscard]] CorpusIdentity corpusIdentity(const Workspace& ws);

/// What one merged input added to the output.
struct MergeReport {
  std::string source;
  std::int64_t kernels = 0, featureVectors = 0, steerRuns = 0, steerRunsReplaced = 0, candidates = 0,
               driveCases = 0, samples = 0, trainingRuns = 0, exploreRuns = 0;
  /// Runs, samples and drive cases the output held already (merged before).
  std::int64_t alreadyThere = 0;
};

/// Merges `sources`, in order, into the workspace at `output` (created when
/// missing). Every input is checked first, read-only: a Steerbench workspace
/// of this build's schema (an older one must be opened once to upgrade it),
/// holding the same corpus as the others and as the output. A refusal throws
/// WorkspaceError naming the file and why, and writes nothing. Each input is
/// merged in one transaction. A steering run the output holds with fewer
/// generations (merged before it finished) is replaced by the longer one.
std::vector<MergeReport> mergeWorkspaces(const std::vector<std::string>& sources, const std::string& output);

} // namespace steerbench::store

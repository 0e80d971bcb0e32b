// A layer of the feature-space plot as plain data: labelled vectors in one
// space, from the workspace or from a DevMap-layout CSV, and what is done
// with them (nearest-kernel search, PCA targets).
#pragma once

#include "engine/ParallelFor.h"
#include "features/FeatureSpace.h"
#include "features/Pca.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::store {
class Workspace;
}

namespace steerbench::engine {

struct FeatureTable {
  std::string space;
  std::vector<std::string> dimensions;
  std::vector<std::int64_t> ids;         ///< workspace kernel ids (0 for reference rows)
  std::vector<std::string> names;        ///< kernel name, or the benchmark of a reference row
  std::vector<std::string> groups;       ///< kernel role (train, capped, held_out, user, sample, steered) or "reference"
  std::vector<std::vector<double>> rows; ///< one vector per entry
  std::vector<std::string> sources;      ///< reference rows: the kernel's source (empty for workspace rows)
  std::size_t skipped = 0;               ///< reference rows that could not be measured in this space

  [[nodiscard]] std::size_t size() const { return rows.size(); }
};

/// Where a workspace kernel came from, by its role (FeatureTable::groups):
/// the model (sample, steered: what sampling and steering store), the user
/// (user: written or edited in the workbench), else the corpus (train,
/// held_out, capped).
enum class KernelOrigin { Corpus, User, Generated };
[[nodiscard]] KernelOrigin originOfRole(const std::string& role);
/// The vectors of the table's corpus kernels (KernelOrigin::Corpus): what
/// PCA-2 "on the corpus" is fitted on, in the workbench and for --target-pca.
[[nodiscard]] std::vector<std::vector<double>> corpusRows(const FeatureTable& table);

/// Every workspace kernel with a vector in `space` (current version).
/// Thread: the workspace's.
[[nodiscard]] FeatureTable loadWorkspaceTable(const store::Workspace& ws, const features::FeatureSpace& space);

/// The distinct kernels of a DevMap-layout CSV. Grewe vectors come from the
/// CSV's own columns (F2 and F4 derived); the IR spaces are measured on each
/// row's `src` on `jobs` threads, and rows that do not compile are counted in
/// `skipped`. Throws InputError for a file without the DevMap columns.
[[nodiscard]] FeatureTable loadReferenceTable(const std::string& csvPath, const features::FeatureSpace& space,
                                              unsigned jobs = hardwareJobs(), const CancelToken* cancel = nullptr);

/// Which dimensions of `space` are counts (rounded in targets); the Grewe
/// ratios F2 and F4 are not.
[[nodiscard]] std::vector<bool> countDimensions(const features::FeatureSpace& space);

struct Neighbour {
  std::size_t row = 0; ///< index into the table
  double distance = 0;
};

/// The k rows nearest `target` by Euclidean distance in the full space,
/// nearest first (ties by row order); the row whose id is `excludeId` is
/// left out (0 = none).
[[nodiscard]] std::vector<Neighbour> nearestRows(const FeatureTable& table, const std::vector<double>& target,
                                                 std::size_t k, std::int64_t excludeId = 0);

} // namespace steerbench::engine

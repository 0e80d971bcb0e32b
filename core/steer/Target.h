// A steering target: a vector in one named feature space, with a note of
// where it came from. Made from an explicit list (comp=40,mem=12,...), a JSON
// file, a kernel file's features, a row of a DevMap-layout CSV, or a point on
// the PCA-2 plot (the inverse transform of docs/features.md).
#pragma once
#include "features/Pca.h"

#include <string>
#include <vector>

namespace steerbench::steer {

struct Target {
  std::string space;          ///< a name from features::featureSpaces()
  std::vector<double> values; ///< one per dimension of the space, in its order
  std::string origin;         ///< how it was made, for people: "comp=40,...", "kernel foo in a.cl", ...

  /// {"space": ..., "values": [...], "origin": ...}
  [[nodiscard]] std::string toJson() const;
  /// Reads toJson()'s form (or a file holding it, with `name` for messages).
  /// The values may also be an object {"comp": 40, ...}, read like parseAssignments.
  [[nodiscard]] static Target fromJson(const std::string& json, const std::string& name);
};

/// `comp=40,mem=12,...` in `space`: dimensions not named are 0. In the Grewe
/// space, F2 and F4 follow from the counts (docs/features.md) unless given.
/// Throws InputError naming an unknown dimension or a bad number.
[[nodiscard]] Target targetFromAssignments(const std::string& space, const std::string& text);

/// The features of the kernel `kernel` (or the file's only/first kernel when
/// empty) in a file, measured in-process. Throws InputError when the file
/// cannot be read or compiled, or has no such kernel.
[[nodiscard]] Target targetFromKernelFile(const std::string& space, const std::string& path,
                                          const std::string& kernel = {});

/// The Grewe vector of a row of a DevMap-layout CSV, chosen by its benchmark
/// name (the first row with it) or, when `row` is all digits, by index (0-based).
/// Only the Grewe space: the CSV holds no IR features.
[[nodiscard]] Target targetFromDevMap(const std::string& csvPath, const std::string& row);

/// Grewe only: F2 = coalesced/mem and F4 = comp/mem from the raw counts (0 when mem is 0).
void recomputeGreweRatios(std::vector<double>& grewe);

} // namespace steerbench::steer

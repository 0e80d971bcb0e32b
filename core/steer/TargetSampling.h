// Kernels written toward a Grewe vector, spread around it or over a grid,
// as `steerbench-cli sample --target V [--spread S | --grid G]` writes them with its
// defaults: each held to its vector (proximity `near`, steer::holdToTarget),
// sampled clean by every clean-compile rule, leaning toward the counts it
// lacks, then measured in every space and stored in the workspace
// (steer::recordSample). Each sample is reported as it arrives, so the
// workbench's plot shows them one by one.
#pragma once
#include "common/CancelToken.h"
#include "model/Sampler.h"
#include "store/Workspace.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace steerbench::steer {

struct TargetSamplingOptions {
  std::vector<double> target; ///< Grewe counts (comp .. atomic; F2 and F4, when given, are ignored)
  int count = 20;             ///< samples in all; with a grid, per cell
  double spread = 0;   ///< each sample asks for its own vector: every count times a factor in [1-S, 1+S] (0: all the target)
  /// A grid over two counts instead ("comp=0:400,mem=0:100", model::gridTargets),
  /// `cells` a side, each cell's vector `target` with those two counts at
  /// its centre; `count` samples per cell, cell by cell. Not with a spread.
  std::string grid;
  int cells = 4;
  double near = 0.8;   ///< hold to the vector (0: the conditions alone, sampled with the statement checks)
  double lean = 1;     ///< with near: lean toward the counts a sample lacks (0: none)
  std::uint64_t seed = 1;
  unsigned jobs = 0;   ///< threads that measure (0: every core)
  std::string checkpoint; ///< the model's file, recorded in each sample's spec
};

struct TargetSample {
  std::int64_t sampleId = 0, kernelId = 0; ///< kernelId 0: it did not compile
  std::vector<double> asked;               ///< the Grewe counts it was written toward
  int cell = -1; ///< with a grid, its cell (0 .. cells^2 - 1, row by row as model::gridTargets gives them)
  std::string text; ///< formatted as the workspace stores kernels
  /// It ended by itself; else it was given up on the way and `cut` says
  /// whether it ends at its last clean statement (else it has no kernel to end at).
  bool ended = false, cut = false;
  /// Its first kernel's vector per space name (empty when it did not compile).
  std::map<std::string, std::vector<double>> vectors;
};

/// Samples `o.count` kernels (per cell of a grid) with `sampler` (a model trained with
/// conditions: else the sampler's InputError), stores each in `ws` as it arrives and
/// calls `arrived` on the calling thread. Stops early when `cancel` is set;
/// what arrived stays stored. Returns them in the order they arrived.
std::vector<TargetSample> sampleTowardTarget(store::Workspace& ws, model::Sampler& sampler,
                                             const TargetSamplingOptions& o,
                                             const std::function<void(const TargetSample&)>& arrived = {},
                                             const CancelToken* cancel = nullptr);

} // namespace steerbench::steer

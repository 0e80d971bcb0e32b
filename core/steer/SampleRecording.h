// How a sample is kept in the workspace, by `steerbench-cli sample` and the
// workbench's sampling toward a target alike: a row of the samples table (its
// feed, text, model, seed and the spec it was written under), and, when it
// compiles, each of its kernels as a workspace kernel of role "sample",
// formatted as the corpus formats kernels, with its vectors in every space it
// was measured in.
#pragma once
#include "features/Measurement.h"
#include "model/Sampler.h"
#include "store/Workspace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::steer {

/// What every sample of one call shares.
struct SampleProvenance {
  std::string modelHash;
  std::uint64_t seed = 0;
  std::string spec;        ///< the call's spec as JSON (a sample's own target added by the caller)
  std::string featureSpec; ///< engine::featureSpecJson of the measurement
};

/// The spec of a `sample` call as JSON: its sampling options (`checked`:
/// compiler-checked statements; `clean`: clean statements and kernels),
/// then `fields` (more of its own, each starting with a comma), closed.
[[nodiscard]] std::string sampleSpecJson(const model::SampleOptions& o, bool checked, bool clean,
                                         const std::string& fields);
/// `spec` with the Grewe counts a sample of its own asked for (`sample_target`).
[[nodiscard]] std::string withSampleTarget(const std::string& spec, const std::vector<double>& target);

struct RecordedSample {
  std::int64_t sampleId = 0;
  std::int64_t kernelId = 0; ///< its first kernel (0: it did not compile)
};

/// Stores `sample`, measured as `measured`. Thread: the workspace's; the
/// caller groups many in one transaction when it wants them atomic.
RecordedSample recordSample(store::Workspace& ws, const model::Sample& sample, const std::string& feed,
                            const features::FileMeasurement& measured, const SampleProvenance& provenance);

} // namespace steerbench::steer

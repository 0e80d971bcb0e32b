#include "steer/SampleRecording.h"

#include "corpus/SourceFormatting.h"

namespace steerbench::steer {

RecordedSample recordSample(store::Workspace& ws, const model::Sample& s, const std::string& feed,
                            const features::FileMeasurement& m, const SampleProvenance& p) {
  store::Workspace::SampleRecord r;
  r.feed = feed;
  r.text = s.text;
  r.newTokens = s.newTokens;
  r.complete = s.complete;
  r.compiled = m.ok();
  r.error = m.error;
  r.modelHash = p.modelHash;
  r.seed = std::int64_t(p.seed);
  r.spec = p.spec;
  if (m.ok())
    for (std::size_t k = 0; k < m.kernels.size(); ++k) {
      store::KernelRecord kr;
      kr.name = m.kernels[k];
      kr.source = corpus::formatSource(s.text); // as the corpus and steering store kernels
      kr.role = "sample";
      kr.originFile = "sample: model " + p.modelHash.substr(0, 12) + ", seed " + std::to_string(p.seed);
      const auto id = ws.addKernel(kr);
      if (!r.kernelId) r.kernelId = id;
      for (const auto& sp : m.spaces)
        if (k < sp.kernels.size())
          ws.putFeatures({id, sp.space->name, sp.space->version, sp.kernels[k].values, false, p.featureSpec});
    }
  return {ws.addSample(r), r.kernelId};
}

} // namespace steerbench::steer

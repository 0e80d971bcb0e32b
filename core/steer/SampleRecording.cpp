#include "steer/SampleRecording.h"

#include "common/TextFormat.h"
#include "common/Version.h"
#include "corpus/SourceFormatting.h"
#include "model/Conditioning.h"

namespace steerbench::steer {

std::string sampleSpecJson(const model::SampleOptions& o, bool checked, bool clean, const std::string& fields) {
  return "{\"command\":\"sample\",\"app_version\":" + jsonString(kAppVersion) +
         ",\"temperature\":" + formatNumber(o.temperature) + ",\"top_p\":" + formatNumber(o.topP) +
         ",\"batch\":" + std::to_string(o.batchSize) + ",\"streams\":" + std::to_string(o.streams) +
         ",\"max_new_tokens\":" + std::to_string(o.maxNewTokens) + ",\"seed\":" + std::to_string(o.seed) +
         ",\"guard\":" + (o.guard ? "true" : "false") + ",\"guard_types\":" + (o.typeRules ? "true" : "false") +
         ",\"guard_calls\":" + (o.typedArguments ? "true" : "false") + ",\"patience\":" + std::to_string(o.guardPatience) +
         ",\"checked\":" + (checked ? "true" : "false") + ",\"clean_statements\":" + (clean ? "true" : "false") +
         ",\"clean_kernels\":" + (clean ? "true" : "false") + ",\"check_patience\":" + std::to_string(o.checkPatience) +
         ",\"min_new_tokens\":" + std::to_string(o.minNewTokens) + ",\"restarts\":" + std::to_string(o.restarts) +
         fields + "}";
}

std::string withSampleTarget(const std::string& spec, const std::vector<double>& target) {
  return spec.substr(0, spec.size() - 1) + ",\"sample_target\":" + jsonString(model::describeConditionTarget(target)) +
         "}";
}

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

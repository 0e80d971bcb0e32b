#include "steer/TargetSampling.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "corpus/SourceFormatting.h"
#include "engine/FeatureJob.h"
#include "features/DeadDeclarations.h"
#include "features/Measurement.h"
#include "model/Conditioning.h"
#include "steer/CleanCompile.h"
#include "steer/CleanKernelCheck.h"
#include "steer/SampleRecording.h"
#include "steer/TargetCheck.h"

#include <algorithm>

namespace steerbench::steer {

std::vector<TargetSample> sampleTowardTarget(store::Workspace& ws, model::Sampler& sampler,
                                             const TargetSamplingOptions& o,
                                             const std::function<void(const TargetSample&)>& arrived,
                                             const CancelToken* cancel) {
  if (o.target.size() < 6) throw InputError("sampling toward a target needs its six Grewe counts");
  if (o.count < 1 || !(o.spread >= 0) || !(o.near >= 0 && o.near < 1) || !(o.lean >= 0))
    throw InputError("sampling toward a target: at least one sample, a spread of 0 or more, a proximity in [0, 1) "
                     "and a lean of 0 or more");
  if (!o.grid.empty() && (o.spread > 0 || o.cells < 1 || o.cells > 64))
    throw InputError("sampling over a grid: 1 to 64 cells a side, and no spread");
  auto opt = sampler.recommendedOptions();
  opt.seed = o.seed;
  opt.target.assign(o.target.begin(), o.target.begin() + 6);
  const std::string feed = "kernel void [HOLE]";
  std::vector<std::string> feeds{feed};
  if (o.spread > 0) {
    opt.feedTargets = model::spreadTargets(opt.target, o.spread, o.count, o.seed);
    feeds.assign(opt.feedTargets.size(), feed);
  } else if (!o.grid.empty()) {
    opt.feedTargets = model::gridSampleTargets(o.grid, o.cells, opt.target, o.count);
    feeds.assign(opt.feedTargets.size(), feed);
  }
  const int total = opt.feedTargets.empty() ? o.count : int(opt.feedTargets.size());
  if (o.near > 0) {
    sampleClean(opt, cleanRuleNames());
    holdToTarget(opt, o.near, true);
    opt.restarts = std::max(opt.restarts, kHeldRestarts);
    if (o.lean > 0) opt.heldLean = heldLean(sampler.tokenizer(), o.lean);
  } else {
    sampleChecked(opt);
  }
  opt.tidy = features::pruneDeadDeclarations;
  opt.tidyAll = true;
  opt.checkJobs = o.jobs;
  opt.streams = sampler.defaultStreams();

  const std::string spec = sampleSpecJson(
      opt, true, o.near > 0,
      ",\"target\":" + jsonString(model::describeConditionTarget(opt.target)) +
          (o.spread > 0 ? ",\"spread\":" + formatNumber(o.spread) : std::string()) +
          (o.grid.empty() ? std::string()
                          : ",\"grid\":" + jsonString(o.grid) + ",\"cells\":" + std::to_string(o.cells)) +
          (o.near > 0 ? ",\"near\":" + formatNumber(o.near) : std::string()) +
          (o.near > 0 && o.lean > 0 ? ",\"lean\":" + formatNumber(o.lean) : std::string()) +
          ",\"checkpoint\":" + jsonString(o.checkpoint) + ",\"from\":\"workbench\"");
  const auto measure = features::MeasureOptions::everySpace();
  const std::string featureSpec = engine::featureSpecJson(measure);
  std::vector<TargetSample> out;
  (void)sampler.sample(feeds, total, opt, [&](const model::Sample& s) {
    TargetSample t;
    t.asked = opt.feedTargets.empty() ? opt.target : opt.feedTargets[s.feed];
    if (!o.grid.empty()) t.cell = int(s.feed) / o.count; // gridSampleTargets: `count` feeds a cell, in turn
    t.text = corpus::formatSource(s.text);
    t.ended = s.complete && !s.cut;
    t.cut = s.cut;
    const auto m = features::measureSource(s.text, "sample.cl", measure);
    const std::string own = opt.feedTargets.empty() ? spec : withSampleTarget(spec, t.asked);
    RecordedSample r;
    ws.transaction([&] { r = recordSample(ws, s, feeds[s.feed], m, {sampler.modelHash(), o.seed, own, featureSpec}); });
    t.sampleId = r.sampleId;
    t.kernelId = r.kernelId;
    if (m.ok())
      for (const auto& sp : m.spaces)
        if (!sp.kernels.empty()) t.vectors[sp.space->name] = sp.kernels.front().values;
    out.push_back(t);
    if (arrived) arrived(out.back());
  }, cancel);
  return out;
}

} // namespace steerbench::steer

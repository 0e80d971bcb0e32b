#include "explore/Explorer.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "drive/host/DriveJob.h"
#include "features/FeatureSpace.h"
#include "features/Measurement.h"
#include "model/Sampler.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

namespace steerbench::explore {

std::vector<double> greweF1toF4(const std::vector<double>& r) {
  const double comp = r.at(0), mem = r.at(2), localmem = r.at(3), coalesced = r.at(4), transfer = r.at(6),
               wgsize = r.at(7);
  return {comp + mem > 0 ? transfer / (comp + mem) : 0.0, mem > 0 ? coalesced / mem : 0.0,
          mem > 0 ? localmem / mem * wgsize : 0.0, mem > 0 ? comp / mem : 0.0};
}

LabelledSet labelledCases(const store::Workspace& ws, bool includeAmbiguous) {
  LabelledSet set;
  const auto& grewe = features::featureSpace("grewe");
  std::map<std::int64_t, std::vector<double>> counts; // kernel id -> Grewe vector
  std::map<std::string, int> labelIndex;
  for (const auto& c : ws.driveCases()) {
    if (c.outcome != "PASS" || c.label.empty()) continue;
    if (c.labelStatus != "significant" && !includeAmbiguous) continue;
    auto it = counts.find(c.kernelId);
    if (it == counts.end()) {
      std::vector<double> v;
      if (const auto f = ws.features(c.kernelId, grewe.name, grewe.version)) {
        v = f->values;
      } else if (const auto k = ws.kernel(c.kernelId)) {
        // Driven kernels need not have been measured: measure this one now.
        features::MeasureOptions mo;
        mo.spaces = {&grewe};
        const auto m = features::measureSource(k->source, k->name + ".cl", mo);
        if (m.ok())
          for (const auto& kv : m.spaces.at(0).kernels)
            if (kv.kernel == c.kernelName) v = kv.values;
      }
      it = counts.emplace(c.kernelId, std::move(v)).first;
    }
    if (it->second.size() < 6) continue;
    // The runtime chose the local size when it is 0: F3 then has no work-group size to use.
    std::vector<double> raw(it->second.begin(), it->second.begin() + 6);
    raw.push_back(double(c.transferBytes));
    raw.push_back(double(c.localSize));
    auto [at, added] = labelIndex.emplace(c.label, int(set.labels.size()));
    if (added) set.labels.push_back(c.label);
    set.points.push_back({greweF1toF4(raw), at->second});
    set.raw.push_back(std::move(raw));
  }
  return set;
}

std::vector<double> greweTargetOf(const std::vector<double>& raw) {
  std::vector<double> t(raw.begin(), raw.begin() + 6);
  t.push_back(0);
  t.push_back(0);
  steer::recomputeGreweRatios(t);
  return t;
}

const char* pointDrawName(PointDraw d) { return d == PointDraw::LogUniform ? "log-uniform" : "uniform"; }

PointDraw parsePointDraw(const std::string& name) {
  if (name == "uniform") return PointDraw::Uniform;
  if (name == "log-uniform") return PointDraw::LogUniform;
  throw InputError("unknown point draw '" + name + "' (uniform or log-uniform)");
}

std::vector<ScoredPoint> scoreRandomPoints(const Committee& committee, const LabelledSet& set, int points,
                                           std::uint64_t seed, PointDraw draw) {
  std::mt19937_64 rng(seed);
  std::vector<double> lo(8, 1e300), hi(8, -1e300), wgsizes;
  for (const auto& r : set.raw) {
    for (std::size_t d = 0; d < 8; ++d) {
      lo[d] = std::min(lo[d], r[d]);
      hi[d] = std::max(hi[d], r[d]);
    }
    wgsizes.push_back(r[7]);
  }
  if (wgsizes.empty()) return {};
  std::vector<ScoredPoint> out;
  for (int p = 0; p < points; ++p) {
    std::vector<double> raw(8);
    for (std::size_t d = 0; d < 6; ++d)
      if (draw == PointDraw::LogUniform)
        raw[d] = std::round(std::expm1(std::uniform_real_distribution<double>(
            std::log1p(std::max(0.0, lo[d])), std::log1p(std::max(0.0, hi[d])))(rng)));
      else
        raw[d] = std::round(std::uniform_real_distribution<double>(lo[d], hi[d])(rng));
    const double t0 = std::log(std::max(1.0, lo[6])), t1 = std::log(std::max(1.0, hi[6]));
    raw[6] = std::round(std::exp(std::uniform_real_distribution<double>(t0, std::max(t0, t1))(rng)));
    raw[7] = wgsizes[std::uniform_int_distribution<std::size_t>(0, wgsizes.size() - 1)(rng)];
    const double h = committee.entropy(greweF1toF4(raw));
    out.push_back({std::move(raw), h});
  }
  return out;
}

std::vector<std::size_t> batchPicks(const std::vector<ScoredPoint>& scored, const LabelledSet& set, int batch,
                                    bool active) {
  std::vector<std::size_t> order(scored.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::size_t want = std::min(order.size(), std::size_t(std::max(1, batch)));
  if (!active) {
    order.resize(want);
    return order;
  }
  // The most disputed first (the first of equals, as a single pick takes it).
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scored[a].entropy > scored[b].entropy; });
  const std::size_t pool = std::min(order.size(), std::max(want, order.size() / 4));
  // F1..F4 scaled by their spread over the labelled set.
  std::vector<double> spread(4, 1.0);
  if (set.points.size() >= 2)
    for (std::size_t d = 0; d < 4; ++d) {
      double lo = 1e300, hi = -1e300;
      for (const auto& p : set.points) {
        lo = std::min(lo, p.x.at(d));
        hi = std::max(hi, p.x.at(d));
      }
      spread[d] = hi > lo ? hi - lo : 1.0;
    }
  auto distance = [&](std::size_t a, std::size_t b) {
    const auto x = greweF1toF4(scored[a].raw), y = greweF1toF4(scored[b].raw);
    double s = 0;
    for (std::size_t d = 0; d < 4; ++d) s += std::pow((x[d] - y[d]) / spread[d], 2);
    return std::sqrt(s);
  };
  std::vector<std::size_t> picks{order[0]};
  std::vector<double> nearest(pool, 1e300); // each pool point's distance to the nearest pick
  while (picks.size() < want) {
    std::size_t best = pool;
    for (std::size_t i = 0; i < pool; ++i) {
      nearest[i] = std::min(nearest[i], distance(order[i], picks.back()));
      if (nearest[i] > 0 && (best == pool || nearest[i] > nearest[best])) best = i;
    }
    if (best == pool) break; // every point of the pool is one already picked
    picks.push_back(order[best]);
  }
  return picks;
}

MemberOutcome steerAndLabel(store::Workspace& ws, model::Sampler& sampler, const steer::SteerSpec& spec,
                            const drive::DriveOptions& drive, bool includeAmbiguous, const CancelToken* cancel) {
  MemberOutcome out;
  steer::BeamSearch search(ws, sampler);
  out.steered = search.run(spec, cancel);
  if (out.steered.bestKernelId && !(cancel && cancel->cancelled())) {
    const auto k = ws.kernel(out.steered.bestKernelId);
    drive::DriveJobOptions jo;
    jo.drive = drive;
    jo.cancel = cancel;
    const auto driven = drive::runDriveJob({{"steered kernel #" + std::to_string(k->id), k->source, k->name}}, jo, &ws);
    for (const auto& dk : driven)
      for (const auto& c : dk.cases) {
        ++out.cases;
        if (c.outcome == "PASS" && c.label.best >= 0 && (c.label.significant || includeAmbiguous)) ++out.labelsAdded;
      }
  }
  return out;
}

std::string ExploreSpec::toJson() const {
  return "{\"command\":\"explore\",\"app_version\":" + jsonString(kAppVersion) + ",\"mode\":\"" +
         (active ? "active" : "passive") + "\",\"epochs\":" + std::to_string(epochs) +
         (batch > 1 ? ",\"batch\":" + std::to_string(batch) : std::string()) + ",\"points\":" +
         std::to_string(points) + ",\"draw\":\"" + pointDrawName(draw) + "\",\"seed\":" + std::to_string(seed) + ",\"include_ambiguous\":" +
         (includeAmbiguous ? "true" : "false") + ",\"steer\":" + steer.toJson() + ",\"drive\":" +
         drive::specJson(drive) + "}";
}

Explorer::Explorer(store::Workspace& workspace, model::Sampler& sampler) : ws_(workspace), sampler_(sampler) {}

std::int64_t Explorer::run(const ExploreSpec& spec, const CancelToken* cancel) {
  auto say = [&](const std::string& m) {
    if (onMessage) onMessage(m);
  };
  {
    const auto set = labelledCases(ws_, spec.includeAmbiguous);
    if (set.points.size() < 2 || set.labels.size() < 2)
      throw InputError(ws_.path() + " has " + std::to_string(set.points.size()) + " labelled drive case(s) over " +
                       std::to_string(set.labels.size()) +
                       " device(s); the committee needs cases labelled with at least two devices. Drive some kernels "
                       "first (steerbench-cli drive FILE... -w " + ws_.path() + ")" +
                       (spec.includeAmbiguous ? "" : ", or count AMBIGUOUS labels too (--include-ambiguous)"));
  }
  const auto id = ws_.addExploreRun(spec.active ? "active" : "passive", ws_.putSpec(spec.toJson()));
  std::string status = "finished";
  try {
    for (int epoch = 0; epoch < spec.epochs; ++epoch) {
      if (cancel && cancel->cancelled()) {
        status = "cancelled";
        break;
      }
      const auto set = labelledCases(ws_, spec.includeAmbiguous);
      const auto committee = Committee::train(set.points, int(set.labels.size()), spec.seed + std::uint64_t(epoch));
      const int batch = std::max(1, spec.batch);
      const auto scored = scoreRandomPoints(committee, set, spec.active ? std::max(1, spec.points) : batch,
                                            spec.seed * 0x9E3779B97F4A7C15ull + std::uint64_t(epoch), spec.draw);
      if (scored.empty()) throw InputError("no labelled point to bound the search with");
      // Active: the most disputed points, spread apart; passive: the first drawn.
      const auto picks = batchPicks(scored, set, batch, spec.active);
      std::vector<steer::SteerSpec> specs;
      std::vector<EpochReport> reports;
      for (std::size_t m = 0; m < picks.size(); ++m) {
        EpochReport rep;
        rep.epoch = epoch;
        rep.member = int(m);
        rep.labelled = set.points.size();
        rep.entropy = scored[picks[m]].entropy;
        rep.point = scored[picks[m]].raw;
        const auto target = greweTargetOf(rep.point);
        rep.target = {"grewe", target,
                      std::string(spec.active ? "active" : "passive") + " learning, run " + std::to_string(id) +
                          ", epoch " + std::to_string(epoch) + (batch > 1 ? ", point " + std::to_string(m) : "")};
        say("epoch " + std::to_string(epoch) + (batch > 1 ? " point " + std::to_string(m) : "") + ": " +
            std::to_string(set.points.size()) + " labelled points; target " + jsonNumbers(target) +
            " (vote entropy " + formatNumber(rep.entropy) + ")");
        auto steerSpec = spec.steer;
        steerSpec.target = rep.target;
        steerSpec.seed = spec.steer.seed + std::uint64_t(epoch) * std::uint64_t(batch) + m;
        specs.push_back(std::move(steerSpec));
        reports.push_back(std::move(rep));
      }
      std::vector<MemberOutcome> outcomes;
      if (steerBatch) {
        outcomes = steerBatch(specs, cancel);
      } else {
        for (const auto& s : specs) {
          outcomes.push_back(steerAndLabel(ws_, sampler_, s, spec.drive, spec.includeAmbiguous, cancel));
          if (cancel && cancel->cancelled()) break;
        }
      }
      for (std::size_t m = 0; m < outcomes.size() && m < reports.size(); ++m) {
        auto& rep = reports[m];
        rep.steered = outcomes[m].steered;
        rep.cases = outcomes[m].cases;
        rep.labelsAdded = outcomes[m].labelsAdded;
        store::Workspace::ExploreEpochRecord e;
        e.run = id;
        e.epoch = epoch;
        e.member = rep.member;
        e.labelled = std::int64_t(rep.labelled);
        e.committee = committee.describe();
        e.entropy = rep.entropy;
        e.point = "{\"raw\":" + jsonNumbers(rep.point) + ",\"F1_F4\":" + jsonNumbers(greweF1toF4(rep.point)) + "}";
        e.target = rep.target.toJson();
        e.steerRun = rep.steered.run;
        e.kernelId = rep.steered.bestKernelId;
        e.cases = std::int64_t(rep.cases);
        e.labelsAdded = std::int64_t(rep.labelsAdded);
        ws_.addExploreEpoch(e);
        if (onEpoch) onEpoch(rep);
      }
    }
  } catch (...) {
    ws_.setExploreStatus(id, "failed");
    throw;
  }
  if (cancel && cancel->cancelled()) status = "cancelled";
  ws_.setExploreStatus(id, status);
  return id;
}

} // namespace steerbench::explore

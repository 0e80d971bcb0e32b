#include "campaign/ShardRun.h"

#include "common/Error.h"
#include "drive/host/DriveJob.h"
#include "features/Distance.h"
#include "model/Sampler.h"
#include "steer/Lineage.h"
#include "store/Workspace.h"
#include "store/WorkspaceMerge.h"

#include <filesystem>

namespace steerbench::campaign {

namespace fs = std::filesystem;

namespace {

/// The newest run of `ws` made for target `index` (0: none).
std::int64_t runFor(const store::Workspace& ws, const CampaignSpec& spec, std::size_t index) {
  const auto target = spec.specFor(index).target.toJson();
  std::int64_t found = 0;
  for (const auto& r : ws.steerRuns())
    if (r.target == target) found = r.id;
  return found;
}

TargetState stateOf(const store::Workspace& ws, const CampaignSpec& spec, std::size_t index) {
  TargetState s;
  s.index = index;
  s.run = runFor(ws, spec, index);
  if (!s.run) return s;
  const auto r = ws.steerRun(s.run);
  s.status = r->status;
  s.elapsed = r->elapsed;
  const auto gens = ws.steerGenerations(s.run);
  for (const auto& g : gens)
    s.candidates += g.candidates;
  s.generations = gens.empty() ? 0 : gens.back().generation;
  const auto scale = steer::SteerSpec::fromJson(ws.spec(r->specHash), "spec").scale;
  const auto& target = spec.targets[index].values;
  if (const auto id = steer::runBest(gens)) {
    const auto c = ws.steerCandidate(id);
    s.nearestProximity = features::relativeProximity(c->values, target, scale);
    s.bestText = c->text;
  }
  if (const auto id = steer::runnableBest(ws, s.run)) {
    const auto c = ws.steerCandidate(id);
    s.runnableProximity = features::relativeProximity(c->values, target, scale);
  }
  if (r->bestKernelId) {
    s.bestText = ws.kernel(r->bestKernelId)->source;
    const auto cases = ws.rows("SELECT count(*), COALESCE(sum(outcome = 'PASS' AND label != ''), 0) FROM drive_cases "
                               "WHERE kernel_id = " + std::to_string(r->bestKernelId));
    s.labelled = std::stoll(cases[0][0]);
    s.labelledRows = std::stoll(cases[0][1]);
  }
  return s;
}

/// Shard `shard`'s workspace, made from the base on first use.
store::Workspace openShard(const CampaignSpec& spec, const std::string& dir, int shard,
                           const std::function<void(const std::string&)>& say) {
  const auto path = shardWorkspace(dir, shard);
  if (!fs::exists(path)) {
    if (!fs::exists(spec.baseWorkspace))
      throw InputError("the campaign's base workspace " + spec.baseWorkspace + " is gone; shard " +
                       std::to_string(shard) + " starts as a copy of it");
    const auto base = store::Workspace::open(spec.baseWorkspace, store::Workspace::Mode::OpenExisting);
    const auto corpus = store::corpusIdentity(base);
    if (corpus.hash != spec.corpusHash)
      throw InputError(spec.baseWorkspace + " holds another corpus than when the campaign was planned (" +
                       std::to_string(corpus.kernels) + " kernels, not " + std::to_string(spec.corpusKernels) +
                       "); plan the campaign again");
    const auto part = path + ".part";
    std::error_code ec;
    fs::remove(part, ec); // a copy a kill cut short
    if (say) say("shard " + std::to_string(shard) + ": copying the base workspace into " + path);
    base.copyTo(part);
    fs::rename(part, path, ec);
    if (ec) throw InputError("cannot rename " + part + " to " + path + ": " + ec.message());
  }
  return store::Workspace::open(path, store::Workspace::Mode::OpenExisting);
}

} // namespace

std::size_t ShardStatus::finished() const {
  std::size_t n = 0;
  for (const auto& t : targets)
    n += t.status == "finished";
  return n;
}

ShardStatus shardStatus(const CampaignSpec& spec, const std::string& dir, int shard) {
  ShardStatus s;
  s.shard = shard;
  const auto path = shardWorkspace(dir, shard);
  s.started = fs::exists(path);
  std::optional<store::Workspace> ws;
  if (s.started) ws.emplace(store::Workspace::open(path, store::Workspace::Mode::OpenExisting));
  for (const auto i : spec.shardTargets(shard)) {
    if (ws)
      s.targets.push_back(stateOf(*ws, spec, i));
    else
      s.targets.push_back(TargetState{i});
  }
  return s;
}

ShardResult runShard(const CampaignSpec& spec, const std::string& dir, int shard, model::Sampler& sampler,
                     const ShardOptions& options) {
  if (shard < 0 || shard >= spec.shards)
    throw InputError("the campaign has shards 0 to " + std::to_string(spec.shards - 1) + ", not " +
                     std::to_string(shard));
  if (!spec.modelHash.empty() && sampler.modelHash() != spec.modelHash)
    throw InputError("the model " + spec.checkpoint + " is not the one the campaign was planned with (sha256 " +
                     sampler.modelHash().substr(0, 12) + ", not " + spec.modelHash.substr(0, 12) +
                     "); restore it or plan the campaign again");
  ShardResult result;
  result.shard = shard;
  auto say = [&](const std::string& m) {
    if (options.onMessage) options.onMessage(m);
  };
  auto ws = openShard(spec, dir, shard, options.onMessage);
  const auto targets = spec.shardTargets(shard);
  for (std::size_t n = 0; n < targets.size(); ++n) {
    const auto i = targets[n];
    if (options.cancel && options.cancel->cancelled()) {
      result.cancelled = true;
      break;
    }
    const std::string where = "shard " + std::to_string(shard) + ", target " + std::to_string(n + 1) + " of " +
                              std::to_string(targets.size()) + " (campaign target " + std::to_string(i) + ", " +
                              spec.targets[i].origin + ")";
    steer::BeamSearch search(ws, sampler);
    search.onMessage = options.onMessage;
    search.onGeneration = options.onGeneration;
    const auto run = runFor(ws, spec, i);
    const auto status = run ? ws.steerRun(run)->status : std::string();
    steer::SteerResult r;
    if (status == "finished") {
      ++result.skipped;
    } else if (run) {
      say(where + ": resuming run " + std::to_string(run));
      r = search.resume(run, options.cancel);
      ++result.resumed;
    } else {
      say(where + ": steering");
      auto s = spec.specFor(i);
      s.jobs = options.jobs;
      r = search.run(s, options.cancel);
      ++result.steered;
    }
    if (r.status == "cancelled") {
      result.cancelled = true;
      break;
    }
    // Label the best once: a kill during driving drives it again.
    const auto state = stateOf(ws, spec, i);
    const auto best = ws.steerRun(state.run)->bestKernelId;
    if (spec.drive && best && state.labelled == 0) {
      const auto k = ws.kernel(best);
      drive::DriveJobOptions o;
      o.drive.cacheDir = drive::poclCacheFor(ws.path());
      o.cancel = options.cancel;
      say(where + ": labelling its best on every device");
      (void)drive::runDriveJob({{"kernel #" + std::to_string(k->id), k->source, k->name}}, o, &ws);
      ++result.labelled;
    }
  }
  return result;
}

} // namespace steerbench::campaign

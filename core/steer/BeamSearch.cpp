#include "steer/BeamSearch.h"

#include "steer/HoleSites.h"

#include "clang/OpenCLFrontend.h"
#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "corpus/SourceFormatting.h"
#include "engine/FeatureJob.h"
#include "engine/FeatureTable.h"
#include "features/Measurement.h"
#include "model/Sampler.h"
#include "model/Tokenizer.h"
#include "store/Workspace.h"

#include <llvm/Support/JSON.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>

namespace steerbench::steer {

namespace {

using Clock = std::chrono::steady_clock;
using CandidateRecord = store::Workspace::SteerCandidateRecord;

constexpr double kExact = 1e-9;

/// A well-mixed seed for generation g of a run (splitmix64 of both).
std::uint64_t generationSeed(std::uint64_t seed, int generation) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + std::uint64_t(generation) + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

const char* seedingName(Seeding s) {
  switch (s) {
  case Seeding::Empty: return "empty";
  case Seeding::Nearest: return "nearest";
  case Seeding::Given: return "given";
  }
  return "?";
}

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

/// A stored best distance; < 0 (nothing compiled yet) counts as infinitely far.
double orInfinity(double d) { return d < 0 ? std::numeric_limits<double>::infinity() : d; }

} // namespace

namespace {
/// stalledGenerations() over bests[from, to).
int stalledIn(const std::vector<double>& bests, std::size_t from, std::size_t to) {
  int stalled = 0;
  for (std::size_t i = to; i-- > from + 1 && !(orInfinity(bests[i]) < orInfinity(bests[i - 1]));)
    ++stalled;
  return stalled;
}
} // namespace

int stalledGenerations(const std::vector<double>& bests, std::size_t from) {
  return stalledIn(bests, from, bests.size());
}

std::size_t lastReseed(const std::vector<double>& bests, int reseedAfter) {
  std::size_t since = 0;
  if (reseedAfter <= 0) return since;
  for (std::size_t g = 1; g < bests.size(); ++g) // as the search decided before generation g
    if (stalledIn(bests, since, g) >= reseedAfter) since = g;
  return since;
}

namespace {

/// What compiling and measuring one candidate gave.
struct Measured {
  bool compiled = false;
  std::string error, kernel, text;
  std::vector<double> values;
  double distance = -1;
};

Measured measure(const std::string& text, const features::FeatureSpace& space, const SteerSpec& spec) {
  Measured out;
  features::MeasureOptions mo;
  mo.spaces = {&space};
  const auto m = features::measureSource(text, "candidate.cl", mo);
  out.text = text;
  if (!m.ok()) {
    out.error = firstLine(m.error);
    return out;
  }
  const auto& sr = m.spaces.at(0);
  if (!sr.error.empty() || sr.kernels.empty()) {
    out.error = sr.error.empty() ? "no kernel" : firstLine(sr.error);
    return out;
  }
  for (const auto& k : sr.kernels) {
    const double d = features::distance(k.values, spec.target.values, spec.scale);
    if (out.distance < 0 || d < out.distance) {
      out.distance = d;
      out.values = k.values;
      out.kernel = k.kernel;
    }
  }
  out.compiled = true;
  out.text = corpus::formatSource(text);
  return out;
}

/// Compiles and measures samples on worker threads while the model goes on
/// sampling on the calling thread.
class MeasurePool {
public:
  MeasurePool(unsigned threads, std::function<void(std::size_t)> work) : work_(std::move(work)) {
    for (unsigned t = 0; t < std::max(1u, threads); ++t)
      threads_.emplace_back([this] { loop(); });
  }
  ~MeasurePool() { close(); } // never throws: an error not collected by finish() is dropped while unwinding
  void push(std::size_t i) {
    {
      std::lock_guard lock(m_);
      queue_.push_back(i);
    }
    cv_.notify_one();
  }
  /// Waits for every pushed item; rethrows the first error.
  void finish() {
    close();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

private:
  void close() {
    {
      std::lock_guard lock(m_);
      closed_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      t.join();
    threads_.clear();
  }
  void loop() {
    for (;;) {
      std::size_t i = 0;
      {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return closed_ || !queue_.empty(); });
        if (queue_.empty()) return;
        i = queue_.front();
        queue_.pop_front();
      }
      try {
        work_(i);
      } catch (...) {
        std::lock_guard lock(m_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }
  std::function<void(std::size_t)> work_;
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::size_t> queue_;
  bool closed_ = false;
  std::exception_ptr error_;
};

/// A beam member: a stored candidate with what selection needs.
struct Member {
  std::int64_t id = 0;
  std::string text, key;
  std::vector<double> values;
  double distance = 0;
};

/// An infill as a change to its parent's tokens: [from, to) replaced by
/// `tokens`, and what it did to the features.
struct Edit {
  std::int64_t parent = 0;
  int generation = 0;
  std::size_t from = 0, to = 0;
  std::vector<int> tokens;
  std::vector<double> delta;
};

/// The smallest span of `parent` whose replacement gives `child` (what an
/// infill really changed: it may write back some of the tokens it replaced).
Edit editBetween(const std::vector<int>& parent, const std::vector<int>& child) {
  std::size_t a = 0;
  while (a < parent.size() && a < child.size() && parent[a] == child[a])
    ++a;
  std::size_t b = 0;
  while (b < parent.size() - a && b < child.size() - a && parent[parent.size() - 1 - b] == child[child.size() - 1 - b])
    ++b;
  Edit e;
  e.from = a;
  e.to = parent.size() - b;
  e.tokens.assign(child.begin() + std::ptrdiff_t(a), child.end() - std::ptrdiff_t(b));
  return e;
}

/// Whether two edits of one parent can be applied together: their spans do
/// not overlap, and they are not two insertions at the same place.
bool disjoint(const Edit& x, const Edit& y) {
  if (x.from == x.to && y.from == y.to && x.from == y.from) return false;
  return x.to <= y.from || y.to <= x.from;
}

/// A feature vector with an edit's change added.
std::vector<double> plus(std::vector<double> values, const std::vector<double>& delta) {
  for (std::size_t k = 0; k < values.size() && k < delta.size(); ++k)
    values[k] += delta[k];
  return values;
}

/// `ids` with the edits applied; they are disjoint and in text order (by from, then to).
std::vector<int> applyEdits(const std::vector<int>& ids, const std::vector<const Edit*>& edits) {
  std::vector<int> out;
  std::size_t at = 0;
  for (const Edit* e : edits) {
    out.insert(out.end(), ids.begin() + std::ptrdiff_t(at), ids.begin() + std::ptrdiff_t(e->from));
    out.insert(out.end(), e->tokens.begin(), e->tokens.end());
    at = e->to;
  }
  out.insert(out.end(), ids.begin() + std::ptrdiff_t(at), ids.end());
  return out;
}

double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}


} // namespace

// --- spec --------------------------------------------------------------------

std::string SteerSpec::toJson() const {
  std::string roles = "[";
  for (std::size_t i = 0; i < seedRoles.size(); ++i)
    roles += (i ? "," : "") + jsonString(seedRoles[i]);
  roles += "]";
  std::string given = "[";
  for (std::size_t i = 0; i < seeds.size(); ++i)
    given += std::string(i ? "," : "") + "{\"name\":" + jsonString(seeds[i].name) + ",\"text\":" +
             jsonString(seeds[i].text) + "}";
  given += "]";
  return "{\"command\":\"steer\",\"app_version\":" + jsonString(kAppVersion) + ",\"target\":" + target.toJson() +
         ",\"width\":" + std::to_string(width) + ",\"candidates_per_member\":" + std::to_string(candidatesPerMember) +
         ",\"depth\":" + std::to_string(depth) + ",\"swap_probability\":" + formatNumber(swapProbability) +
         ",\"temperature\":" + formatNumber(temperature) + ",\"hole_min\":" + std::to_string(holeMin) +
         ",\"hole_max\":" + std::to_string(holeMax) + ",\"hole_max_fraction\":" + formatNumber(holeMaxFraction) +
         ",\"directed_holes\":" + formatNumber(directedHoles) + ",\"rename_holes\":" + (renameHoles ? "true" : "false") +
         ",\"max_new_tokens\":" + std::to_string(maxNewTokens) +
         ",\"escalate_after\":" + std::to_string(escalateAfter) + ",\"restarts\":" + std::to_string(restarts) +
         ",\"combine\":" + std::to_string(combine) + ",\"combine_greedy\":" + std::to_string(combineGreedy) + ",\"max_per_vector\":" + std::to_string(maxPerVector) +
         ",\"reseed_after\":" + std::to_string(reseedAfter) + ",\"reseed_draw\":" + (reseedDraw ? "true" : "false") +
         ",\"fill_insertions\":" + (fillInsertions ? "true" : "false") +
         ",\"guide_logits\":" + formatNumber(guideLogits) +
         ",\"endhole_bias\":" + formatNumber(endHoleBias) + ",\"guard\":" + (guard ? "true" : "false") + ",\"check\":" + (check ? "true" : "false") + ",\"context\":" + std::to_string(context) +
         ",\"scale\":" + jsonNumbers(scale) +
         ",\"seeding\":\"" + seedingName(seeding) + "\",\"nearest\":" + std::to_string(nearest) +
         ",\"seed_roles\":" + roles + ",\"seeds\":" + given + ",\"time_budget\":" + formatNumber(timeBudget) +
         ",\"patience\":" + std::to_string(patience) + ",\"seed\":" + std::to_string(seed) +
         ",\"batch\":" + std::to_string(batchSize) + ",\"streams\":" + std::to_string(streams) + "}";
}

SteerSpec SteerSpec::fromJson(const std::string& json, const std::string& name) {
  auto parsed = llvm::json::parse(json);
  if (!parsed) {
    const std::string why = llvm::toString(parsed.takeError());
    throw InputError(name + ": the steering spec is not JSON (" + why + ")");
  }
  const auto* o = parsed->getAsObject();
  if (!o || !o->get("target")) throw InputError(name + ": not a steering spec");
  SteerSpec s;
  std::string targetJson;
  llvm::raw_string_ostream os(targetJson);
  os << *o->get("target");
  os.flush();
  s.target = Target::fromJson(targetJson, name);
  auto integer = [&](const char* key, int& v) {
    if (auto x = o->getInteger(key)) v = int(*x);
  };
  auto real = [&](const char* key, double& v) {
    if (auto x = o->getNumber(key)) v = *x;
  };
  integer("width", s.width);
  integer("candidates_per_member", s.candidatesPerMember);
  integer("depth", s.depth);
  real("swap_probability", s.swapProbability);
  real("temperature", s.temperature);
  integer("hole_min", s.holeMin);
  integer("hole_max", s.holeMax);
  real("hole_max_fraction", s.holeMaxFraction);
  s.directedHoles = 0; // a run stored before directed holes put every hole anywhere
  real("directed_holes", s.directedHoles);
  s.renameHoles = o->getBoolean("rename_holes").value_or(false); // and before renames none was one
  integer("max_new_tokens", s.maxNewTokens);
  s.escalateAfter = 0; // runs stored before escalation kept their sizes
  integer("escalate_after", s.escalateAfter);
  s.restarts = 0; // and before restarts gave each infill one try
  integer("restarts", s.restarts);
  s.combine = 0; // and before combining infills made none
  integer("combine", s.combine);
  s.combineGreedy = 0; // and before greedy combining made none
  integer("combine_greedy", s.combineGreedy);
  s.maxPerVector = 0; // and before the cap let any number of members share a vector
  integer("max_per_vector", s.maxPerVector);
  s.reseedAfter = 0; // and before reseeding searched on from a stalled beam
  integer("reseed_after", s.reseedAfter);
  s.reseedDraw = o->getBoolean("reseed_draw").value_or(false); // and before draws a reseed took generation 0's beam
  s.fillInsertions = o->getBoolean("fill_insertions").value_or(false); // and before fills an insertion could stay empty
  s.guideLogits = 0; // and before guided infills sampled the model as it is
  real("guide_logits", s.guideLogits);
  integer("nearest", s.nearest);
  real("time_budget", s.timeBudget);
  real("endhole_bias", s.endHoleBias);
  s.guard = o->getBoolean("guard").value_or(false); // a run stored before the guard existed sampled without it
  s.check = o->getBoolean("check").value_or(false); // likewise the compiler checks
  integer("context", s.context);
  integer("patience", s.patience);
  integer("batch", s.batchSize);
  s.streams = 1; // a run stored before streams existed sampled with one
  integer("streams", s.streams);
  if (const auto* v = o->get("seed"))
    if (auto x = v->getAsUINT64()) s.seed = *x;
  if (const auto* a = o->getArray("scale"))
    for (const auto& v : *a)
      if (auto d = v.getAsNumber()) s.scale.push_back(*d);
  if (auto x = o->getString("seeding")) {
    if (*x == "empty") s.seeding = Seeding::Empty;
    else if (*x == "given") s.seeding = Seeding::Given;
    else s.seeding = Seeding::Nearest;
  }
  if (const auto* a = o->getArray("seed_roles")) {
    s.seedRoles.clear();
    for (const auto& v : *a)
      if (auto r = v.getAsString()) s.seedRoles.push_back(r->str());
  }
  if (const auto* a = o->getArray("seeds"))
    for (const auto& v : *a)
      if (const auto* k = v.getAsObject()) {
        SeedKernel sk;
        if (auto n = k->getString("name")) sk.name = n->str();
        if (auto t = k->getString("text")) sk.text = t->str();
        s.seeds.push_back(std::move(sk));
      }
  return s;
}

// --- the search ----------------------------------------------------------------

BeamSearch::BeamSearch(store::Workspace& workspace, model::Sampler& sampler) : ws_(workspace), sampler_(sampler) {}

SteerResult BeamSearch::run(const SteerSpec& given, const engine::CancelToken* cancel) {
  SteerSpec spec = given;
  if (spec.streams <= 0) spec.streams = sampler_.defaultStreams(); // stored as run, so a resume samples alike
  const auto& space = features::featureSpace(spec.target.space);
  if (spec.target.values.size() != space.dimensions.size())
    throw InputError("the target has " + std::to_string(spec.target.values.size()) + " values; the " + space.name +
                     " space has " + std::to_string(space.dimensions.size()) + " dimensions");
  if (!spec.scale.empty() && spec.scale.size() != space.dimensions.size())
    throw InputError("--scale has " + std::to_string(spec.scale.size()) + " factors; the " + space.name +
                     " space has " + std::to_string(space.dimensions.size()) + " dimensions");
  if (spec.width < 1 || spec.candidatesPerMember < 1 || spec.depth < 0 || spec.holeMin < 0 ||
      spec.holeMax < spec.holeMin || spec.swapProbability < 0 || spec.swapProbability > 1 ||
      !(spec.directedHoles >= 0 && spec.directedHoles <= 1) || spec.escalateAfter < 0 || spec.restarts < 0 ||
      spec.combine < 0 || spec.combineGreedy < 0 || spec.maxPerVector < 0 || spec.reseedAfter < 0)
    throw InputError("bad steering parameters: width and candidates must be at least 1, 0 <= hole min <= hole max, "
                     "the swap probability and the share of directed holes within [0, 1], and escalation, "
                     "restarts, combined candidates, members per vector and reseeding at least 0");
  if (spec.seeding == Seeding::Given && spec.seeds.empty()) throw InputError("no seed kernels given");
  store::Workspace::SteerRunRecord r;
  r.space = space.name;
  r.spaceVersion = space.version;
  r.target = spec.target.toJson();
  r.specHash = ws_.putSpec(spec.toJson());
  r.modelHash = sampler_.modelHash();
  const auto id = ws_.addSteerRun(r);
  return guarded(id, spec, cancel);
}

SteerResult BeamSearch::resume(std::int64_t run, const engine::CancelToken* cancel) {
  const auto r = ws_.steerRun(run);
  if (!r) throw InputError("there is no steering run " + std::to_string(run) + " in " + ws_.path());
  if (r->status == "finished")
    throw InputError("steering run " + std::to_string(run) + " is finished (" + r->stopReason +
                     "); start a new run to steer further");
  if (r->modelHash != sampler_.modelHash())
    throw InputError("steering run " + std::to_string(run) + " was made with model " + r->modelHash.substr(0, 12) +
                     ", not " + sampler_.modelHash().substr(0, 12) + "; resume it with the same checkpoint");
  const auto json = ws_.spec(r->specHash);
  if (json.empty()) throw InputError("steering run " + std::to_string(run) + " has lost its spec");
  return guarded(run, SteerSpec::fromJson(json, "steering run " + std::to_string(run)), cancel);
}

SteerResult BeamSearch::guarded(std::int64_t run, const SteerSpec& spec, const engine::CancelToken* cancel) {
  try {
    return go(run, spec, cancel);
  } catch (const std::exception& e) {
    // Recorded as failed, with why and the time it had; a failed run can be
    // resumed once the cause is mended (what was stored is kept). A kill
    // leaves it `running`, which resumes the same way.
    try {
      const auto r = ws_.steerRun(run);
      ws_.setSteerRunStatus(run, "failed", e.what(), r ? r->elapsed : 0);
    } catch (const std::exception&) { // the workspace itself failed (a full disk): the error above says so
    }
    throw;
  }
}

SteerResult BeamSearch::go(std::int64_t run, const SteerSpec& spec, const engine::CancelToken* cancel) {
  const auto& space = features::featureSpace(spec.target.space);
  const auto& tok = sampler_.tokenizer();
  const int maxLength = sampler_.maxLength();
  // The guide's tokens that depend on the vocabulary alone (SteerSpec::guideLogits), found once a run.
  const auto guideVocabulary = spec.guideLogits != 0 ? vocabularyTokens(space.name, tok) : std::vector<std::vector<int>>{};
  const unsigned jobs = spec.jobs ? spec.jobs : engine::hardwareJobs();
  const auto started = Clock::now();
  const double before = ws_.steerRun(run)->elapsed;
  auto elapsed = [&] { return before + std::chrono::duration<double>(Clock::now() - started).count(); };
  auto say = [&](const std::string& m) {
    if (onMessage) onMessage(m);
  };
  auto proximity = [&](const std::vector<double>& v) {
    return features::relativeProximity(v, spec.target.values, spec.scale);
  };
  // The model sees at most this many tokens around a hole: a longer member is
  // infilled through a window (without [START]/[END] at a cut side, as in
  // training) and the infill spliced back into the whole kernel.
  auto windowFor = [&](int maxNewTokens) {
    int w = std::max(8, maxLength - 4 - maxNewTokens);
    return spec.context > 0 ? std::min(w, std::max(8, spec.context)) : w;
  };

  std::vector<Member> beam;
  std::vector<double> bests;    // the beam's best distance after each generation
  std::vector<double> runBests; // the run's best distance after each generation
  auto noteBest = [&](double d) {
    bests.push_back(d);
    runBests.push_back(runBests.empty() || orInfinity(d) < orInfinity(runBests.back()) ? d : runBests.back());
  };
  Member best;           // the run's best so far (id 0: none)
  std::vector<Member> seedBeam; // where a reseed starts again: generation 0's beam, or the seeds it draws from
  std::size_t since = 0; // the generation where the beam's current search began (SteerSpec::reseedAfter)
  auto toMember = [](const store::Workspace::SteerCandidateRecord& c) {
    return Member{c.id, c.text, model::tokenKey(c.text), c.values, c.distance};
  };
  auto nearestFirst = [](const Member& a, const Member& b) { return a.distance < b.distance; };
  auto loadMember = [&](std::int64_t id) {
    const auto c = ws_.steerCandidate(id);
    if (!c) throw WorkspaceError("steering run " + std::to_string(run) + " lost candidate " + std::to_string(id));
    return toMember(*c);
  };
  // What a reseed draws from (SteerSpec::reseedDraw): every distinct compiling
  // seed of generation 0, nearest first, as stored (a resumed run reads the same).
  auto seedPool = [&] {
    std::vector<Member> out;
    std::set<std::string> keys;
    for (const auto& c : ws_.steerCandidates(run, 0))
      if (c.compiled) {
        auto m = toMember(c);
        if (keys.insert(m.key).second) out.push_back(std::move(m));
      }
    std::stable_sort(out.begin(), out.end(), nearestFirst);
    return out;
  };
  int generation = 0;
  // The beam members' infills of the last kCombineWindow generations, in the
  // order they were made: what SteerSpec::combine pairs.
  std::vector<Edit> edits;
  auto addEdit = [&](const Member& parent, const std::vector<int>& parentIds, const std::string& childText,
                     const std::vector<double>& childValues, int childGeneration) {
    Edit e = editBetween(parentIds, tok.encode(childText));
    if (e.from == e.to && e.tokens.empty()) return;
    e.parent = parent.id;
    e.generation = childGeneration;
    e.delta = childValues;
    for (std::size_t d = 0; d < e.delta.size() && d < parent.values.size(); ++d)
      e.delta[d] -= parent.values[d];
    edits.push_back(std::move(e));
  };
  const auto stored = ws_.steerGenerations(run);
  if (!stored.empty()) {
    for (const auto& g : stored)
      noteBest(g.bestDistance);
    generation = stored.back().generation + 1;
    for (auto id : stored.back().beam)
      beam.push_back(loadMember(id));
    if (spec.reseedAfter > 0 && spec.seeding != Seeding::Empty) {
      if (spec.reseedDraw) seedBeam = seedPool();
      else
        for (auto id : stored.front().beam)
          seedBeam.push_back(loadMember(id));
    }
    if (const auto id = runBest(stored)) best = loadMember(id);
    since = lastReseed(bests, spec.reseedAfter);
    if (spec.combine > 0 || spec.combineGreedy > 0) { // the edits as a straight run would hold them now
      std::map<std::int64_t, std::size_t> members;
      std::vector<std::vector<int>> ids(beam.size());
      for (std::size_t m = 0; m < beam.size(); ++m) {
        members[beam[m].id] = m;
        ids[m] = tok.encode(beam[m].text);
      }
      for (int g = std::max(1, generation - kCombineWindow + 1); g < generation; ++g)
        for (const auto& c : ws_.steerCandidates(run, g)) {
          const auto it = members.find(c.parent);
          if (!c.compiled || isCombined(c.origin) || it == members.end()) continue;
          addEdit(beam[it->second], ids[it->second], c.text, c.values, g);
        }
    }
    say("resuming run " + std::to_string(run) + " at generation " + std::to_string(generation));
  }

  std::map<std::string, Measured> cache; // by exact text: a repeated sample is not compiled again
  std::string stopReason;
  auto exact = [&] { return best.id != 0 && best.distance <= kExact; };

  // The time budget is a bound: a generation that the last one's length says
  // would end past it is not started.
  std::optional<Clock::time_point> lastStart;
  for (;; ++generation) {
    const double lastGeneration = lastStart ? std::chrono::duration<double>(Clock::now() - *lastStart).count() : 0;
    if (exact()) stopReason = "exact match";
    else if (generation > spec.depth) stopReason = "depth";
    else if (spec.timeBudget > 0 && elapsed() + lastGeneration >= spec.timeBudget) stopReason = "time budget";
    else if (spec.patience > 0 && stalledGenerations(runBests) >= spec.patience)
      stopReason = "patience";
    else if (cancel && cancel->cancelled()) stopReason = "cancelled";
    if (!stopReason.empty()) break;

    const auto t0 = Clock::now();
    lastStart = t0;
    std::mt19937_64 rng(generationSeed(spec.seed, generation));
    // A stalled search starts again from the seeds; the run keeps its best.
    const bool reseeded =
        spec.reseedAfter > 0 && generation > 0 && stalledGenerations(bests, since) >= spec.reseedAfter;
    if (reseeded) {
      say("generation " + std::to_string(generation) + ": no better beam best for " +
          std::to_string(spec.reseedAfter) + " generations; the beam starts again from the seeds");
      since = std::size_t(generation);
      beam = seedBeam;
      if (spec.reseedDraw && beam.size() > std::size_t(spec.width)) { // a random width of them, nearest first
        for (std::size_t i = 0; i < std::size_t(spec.width); ++i)
          std::swap(beam[i], beam[std::uniform_int_distribution<std::size_t>(i, beam.size() - 1)(rng)]);
        beam.resize(std::size_t(spec.width));
        std::stable_sort(beam.begin(), beam.end(), nearestFirst);
      }
      edits.clear();
    }
    // Escalation: larger holes and infills once the best has stalled.
    int holeMax = spec.holeMax, maxNewTokens = spec.maxNewTokens;
    if (spec.escalateAfter > 0) {
      const int factor = 1 << std::min(2, stalledGenerations(bests, since) / spec.escalateAfter);
      holeMax *= factor;
      maxNewTokens *= factor;
    }
    const int window = windowFor(maxNewTokens);
    std::vector<CandidateRecord> cands;
    std::vector<Measured> measured;
    std::size_t combined = 0; // the last of cands: combined infills
    // Generation 0 of corpus or given seeds: nothing to sample.
    const bool seeds = generation == 0 && spec.seeding != Seeding::Empty;
    if (seeds) {
      std::vector<std::pair<std::string, std::string>> texts; // origin, text
      if (spec.seeding == Seeding::Given) {
        for (const auto& s : spec.seeds)
          texts.emplace_back("seed " + s.name, s.text);
      } else {
        const auto table = engine::loadWorkspaceTable(ws_, space);
        const std::set<std::string> roles(spec.seedRoles.begin(), spec.seedRoles.end());
        std::set<std::string> seen;
        for (const auto& n : engine::nearestRows(table, spec.target.values, table.size())) {
          if (int(texts.size()) >= spec.nearest) break;
          if (!roles.count(table.groups[n.row])) continue;
          const auto k = ws_.kernel(table.ids[n.row]);
          if (!k || !seen.insert(model::tokenKey(k->source)).second) continue;
          texts.emplace_back("kernel #" + std::to_string(k->id) + " " + k->name, k->source);
        }
        if (texts.empty())
          throw InputError("no kernel of the workspace has " + space.name + " features and a role in the seed "
                           "roles; ingest a corpus, or seed from a file or the empty feed");
      }
      measured.resize(texts.size());
      engine::parallelFor(texts.size(), jobs, [&](std::size_t i) { measured[i] = measure(texts[i].second, space, spec); });
      for (std::size_t i = 0; i < texts.size(); ++i) {
        CandidateRecord c;
        c.origin = texts[i].first;
        cands.push_back(std::move(c));
      }
    } else {
      // Feeds: a hole in each member, several times; the empty feed while the beam is empty.
      struct Feed {
        std::size_t member = 0;
        std::int64_t start = -1, length = 0;
        std::string replaced;
        std::int64_t from = 0, to = 0; ///< the member's tokens [from, to) the model saw (a window, or all)
      };
      std::vector<std::vector<int>> memberIds(beam.size());
      std::vector<std::string> texts;
      std::vector<std::uint8_t> ends; // per feed: the kernel's true ends it holds
      std::vector<Feed> feeds;
      if (beam.empty()) {
        if (spec.seeding != Seeding::Empty) {
          stopReason = "no candidates";
          break;
        }
        for (int c = 0; c < spec.width * spec.candidatesPerMember; ++c) {
          texts.push_back("kernel void [HOLE]");
          ends.push_back(model::SampleOptions::kHasStart | model::SampleOptions::kHasEnd);
          feeds.push_back({});
        }
      } else {
        for (std::size_t m = 0; m < beam.size(); ++m) {
          memberIds[m] = tok.encode(beam[m].text);
          const auto& ids = memberIds[m];
          const auto n = std::int64_t(ids.size());
          const HoleSites sites = spec.directedHoles > 0 ? holeSites(space.name, tok, ids) : HoleSites{};
          for (int c = 0; c < spec.candidatesPerMember; ++c) {
            const std::int64_t cap = std::max<std::int64_t>(
                spec.holeMin, std::min<std::int64_t>(holeMax, std::int64_t(spec.holeMaxFraction * double(n))));
            Hole hole;
            // No draw for the share when it is 0, so runs stored before directed holes resume alike.
            const bool directed = spec.directedHoles > 0 && !sites.byDimension.empty() &&
                                  std::uniform_real_distribution<double>(0, 1)(rng) < spec.directedHoles &&
                                  directedHole(sites, beam[m].values, spec.target.values, spec.scale, n, spec.holeMin,
                                               cap, rng, hole, spec.renameHoles);
            if (!directed) {
              hole.start = std::uniform_int_distribution<std::int64_t>(0, n)(rng);
              hole.length = std::min(std::uniform_int_distribution<std::int64_t>(spec.holeMin, cap)(rng), n - hole.start);
            }
            // Holes and windows cut between lexemes (Tokenizer::lexemeStart): a
            // splice of a re-lexed piece of a spelled literal would not compile.
            const auto start = std::int64_t(tok.lexemeStart(ids, std::size_t(hole.start)));
            const std::int64_t len = std::int64_t(tok.lexemeEnd(ids, std::size_t(hole.start + hole.length))) - start;
            // The window: as much context on each side as fits, centred on the hole.
            // Decoding and encoding again can spell a few tokens differently
            // (string literals), so the window shrinks until the feed fits.
            std::int64_t from = 0, to = 0;
            std::string feed;
            int feedTokens = 0; // of the feed as the sampler will encode it
            for (std::int64_t room = window;; room = room * 3 / 4) {
              const std::int64_t rightAll = n - start - len;
              std::int64_t left = std::min<std::int64_t>(start, room / 2);
              const std::int64_t right = std::min<std::int64_t>(rightAll, room - left);
              left = std::min<std::int64_t>(start, room - right);
              from = std::int64_t(tok.lexemeEnd(ids, std::size_t(start - left)));
              to = std::int64_t(tok.lexemeStart(ids, std::size_t(start + len + right)));
              std::vector<int> f(ids.begin() + from, ids.begin() + start);
              f.push_back(model::Tokenizer::kHole);
              f.insert(f.end(), ids.begin() + start + len, ids.begin() + to);
              feed = tok.decode(f);
              feedTokens = int(tok.encode(feed).size());
              if (feedTokens + 4 + maxNewTokens <= maxLength || room <= 8) break;
            }
            if (feedTokens + 3 > maxLength) continue; // cannot be made to fit: skip this hole
            texts.push_back(feed);
            ends.push_back(std::uint8_t((from == 0 ? model::SampleOptions::kHasStart : 0) |
                                        (to == n ? model::SampleOptions::kHasEnd : 0)));
            feeds.push_back({m, start, len, tok.decode({ids.begin() + start, ids.begin() + start + len}), from, to});
          }
        }
      }
      model::SampleOptions so;
      so.batchSize = spec.batchSize;
      so.streams = spec.streams;
      so.temperature = spec.temperature;
      so.maxNewTokens = beam.empty() ? std::max(1, maxLength - 8) : maxNewTokens;
      so.restarts = spec.restarts;
      so.seed = generationSeed(spec.seed, generation) ^ 0x5eedull;
      so.endHoleBias = beam.empty() ? 0.0 : spec.endHoleBias;
      so.guard = spec.guard;
      if (spec.check) so.check = clangfe::firstErrorOffset;
      // Statements only: checking whole kernels as holes closed cost a quarter
      // of the generations in bench-steer and raised no compile rate.
      so.checkWhole = false;
      so.checkJobs = jobs;
      so.feedEnds = ends;
      if (spec.fillInsertions && !beam.empty()) // an insertion (a hole of no tokens) adds one at least
        for (const auto& f : feeds)
          so.feedMinNewTokens.push_back(f.length == 0 ? 1 : 0);
      if (spec.guideLogits != 0 && !beam.empty()) { // each infill leans toward what its member lacks
        std::vector<std::vector<std::pair<int, float>>> memberBias(beam.size());
        for (std::size_t m = 0; m < beam.size(); ++m)
          memberBias[m] = guideBias(dimensionTokens(guideVocabulary, tok, memberIds[m]), beam[m].values,
                                    spec.target.values, spec.guideLogits);
        for (const auto& f : feeds)
          so.feedTokenBias.push_back(memberBias[f.member]);
      }
      std::vector<model::Sample> samples(texts.size());
      std::vector<bool> have(texts.size(), false);
      measured.assign(texts.size(), Measured{});
      std::mutex cacheMutex;
      // Measures `text` into `out`, through the cache (by exact text: a hit gives this text's own result).
      auto measureCached = [&](const std::string& text, Measured& out) {
        {
          std::lock_guard lock(cacheMutex);
          if (auto it = cache.find(text); it != cache.end()) {
            out = it->second;
            return;
          }
        }
        auto m = measure(text, space, spec);
        std::lock_guard lock(cacheMutex);
        out = m;
        cache.emplace(text, std::move(m));
      };
      {
        MeasurePool pool(jobs, [&](std::size_t i) { measureCached(samples[i].text, measured[i]); });
        sampler_.sample(texts, int(texts.size()), so, [&](const model::Sample& s) {
          auto& x = samples[s.feed];
          x = s;
          const auto& f = feeds[s.feed];
          if (!beam.empty() && (f.from > 0 || f.to < std::int64_t(memberIds[f.member].size()))) {
            // A window: splice it back between the member's tokens outside it.
            const auto& ids = memberIds[f.member];
            // Two spelled lexemes that meet at a side of the window stay apart
            // (the window's feed was encoded without what lies beyond it).
            auto apart = [&](std::vector<int>& v, int next) {
              if (!v.empty() && tok.isChar(v.back()) && tok.isChar(next)) v.push_back(model::Tokenizer::kSpace);
            };
            std::vector<int> whole(ids.begin(), ids.begin() + f.from);
            if (!s.ids.empty()) apart(whole, s.ids.front());
            x.holeAt += int(whole.size()) - int(f.from); // the infill starts one later after such a space
            whole.insert(whole.end(), s.ids.begin(), s.ids.end());
            if (f.to < std::int64_t(ids.size())) apart(whole, ids[std::size_t(f.to)]);
            whole.insert(whole.end(), ids.begin() + f.to, ids.end());
            x.ids = std::move(whole);
            x.text = tok.decode(x.ids);
          }
          have[s.feed] = true;
          if (s.complete) pool.push(s.feed);
        }, cancel);
        pool.finish();
      }
      if (cancel && cancel->cancelled()) {
        stopReason = "cancelled"; // the partial generation is not stored: a resume makes it again
        break;
      }
      for (std::size_t i = 0; i < texts.size(); ++i) {
        CandidateRecord c;
        const auto& f = feeds[i];
        if (!beam.empty()) c.parent = beam[f.member].id;
        else c.origin = "empty feed";
        c.holeStart = f.start;
        c.holeLength = f.length;
        c.replaced = f.replaced;
        const auto& s = samples[i];
        c.newTokens = s.newTokens;
        // The infill starts where the hole was in the model's feed (shifted by the window's start).
        const std::size_t at = std::size_t(f.from) + std::size_t(s.holeAt);
        if (have[i] && at <= s.ids.size())
          c.infill = tok.decode({s.ids.begin() + std::ptrdiff_t(at),
                                 s.ids.begin() + std::ptrdiff_t(std::min(s.ids.size(), at + std::size_t(s.newTokens)))});
        if (have[i] && !s.complete) {
          measured[i].text = s.text;
          measured[i].error = "the infill stopped at " + std::to_string(s.newTokens) +
                              " tokens without closing its hole (the token limit, or the guard or the compiler "
                              "checks gave it up)";
        }
        cands.push_back(std::move(c));
      }
      if ((spec.combine > 0 || spec.combineGreedy > 0) && !beam.empty()) {
        // This generation's infills as edits of their members; then pairs of
        // a new edit with another (new, or from the window) of the same
        // member, ranked by the distance their summed changes predict.
        const std::size_t firstFresh = edits.size();
        std::map<std::int64_t, std::size_t> memberOf;
        for (std::size_t m = 0; m < beam.size(); ++m)
          memberOf[beam[m].id] = m;
        for (std::size_t i = 0; i < feeds.size(); ++i)
          if (measured[i].compiled)
            addEdit(beam[feeds[i].member], memberIds[feeds[i].member], measured[i].text, measured[i].values,
                    generation);
        struct Pair {
          double predicted;
          std::size_t x, y; // indexes into edits, x the new one
        };
        std::vector<Pair> pairs;
        for (std::size_t x = firstFresh; x < edits.size(); ++x) {
          const auto& m = beam[memberOf.at(edits[x].parent)];
          for (std::size_t y = 0; y < x; ++y) {
            if (edits[y].parent != edits[x].parent || !disjoint(edits[x], edits[y])) continue;
            std::vector<double> v = m.values;
            for (std::size_t d = 0; d < v.size(); ++d)
              v[d] += edits[x].delta[d] + edits[y].delta[d];
            const double p = features::distance(v, spec.target.values, spec.scale);
            if (p < m.distance) pairs.push_back({p, x, y});
          }
        }
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](const Pair& a, const Pair& b) { return a.predicted < b.predicted; });
        std::vector<std::string> combinedTexts;
        std::set<std::string> seen;
        for (std::size_t i = 0; i < texts.size(); ++i)
          if (measured[i].compiled) seen.insert(model::tokenKey(measured[i].text));
        const std::size_t before = cands.size();
        // A candidate of member m with the edits of `set` applied together.
        auto addCombined = [&](std::size_t m, std::vector<const Edit*> set, const char* origin) {
          std::sort(set.begin(), set.end(), [](const Edit* a, const Edit* b) {
            return std::tie(a->from, a->to) < std::tie(b->from, b->to); // an insertion before a replacement at its place
          });
          const auto& ids = memberIds[m];
          const auto merged = applyEdits(ids, set);
          std::string text = tok.decode(merged);
          if (!seen.insert(model::tokenKey(text)).second) return;
          const std::size_t from = set.front()->from, to = set.back()->to;
          CandidateRecord c;
          c.parent = beam[m].id;
          c.origin = origin;
          c.holeStart = std::int64_t(from);
          c.holeLength = std::int64_t(to - from);
          c.replaced = tok.decode({ids.begin() + std::ptrdiff_t(from), ids.begin() + std::ptrdiff_t(to)});
          const std::size_t newEnd = merged.size() - (ids.size() - to);
          c.newTokens = std::int64_t(newEnd - from);
          c.infill = tok.decode({merged.begin() + std::ptrdiff_t(from), merged.begin() + std::ptrdiff_t(newEnd)});
          cands.push_back(std::move(c));
          combinedTexts.push_back(std::move(text));
        };
        for (const auto& p : pairs) {
          if (combinedTexts.size() >= std::size_t(spec.combine)) break;
          addCombined(memberOf.at(edits[p.x].parent), {&edits[p.x], &edits[p.y]}, kCombinedOrigin);
        }
        if (spec.combineGreedy > 0) {
          // Per member: its edits taken greedily while the summed prediction comes nearer.
          struct Greedy {
            double predicted;
            std::size_t member;
            std::vector<const Edit*> set;
          };
          std::vector<Greedy> greedy;
          for (std::size_t m = 0; m < beam.size(); ++m) {
            std::vector<const Edit*> mine, set;
            for (const auto& e : edits)
              if (e.parent == beam[m].id) mine.push_back(&e);
            std::vector<double> v = beam[m].values;
            double d = beam[m].distance;
            for (;;) {
              const Edit* pick = nullptr;
              double pickD = d;
              for (const Edit* e : mine) {
                if (std::find(set.begin(), set.end(), e) != set.end() ||
                    !std::all_of(set.begin(), set.end(), [&](const Edit* x) { return disjoint(*x, *e); }))
                  continue;
                const double dd = features::distance(plus(v, e->delta), spec.target.values, spec.scale);
                if (dd < pickD) {
                  pickD = dd;
                  pick = e;
                }
              }
              if (!pick) break;
              set.push_back(pick);
              v = plus(v, pick->delta);
              d = pickD;
            }
            if (set.size() > 2) greedy.push_back({d, m, std::move(set)});
          }
          std::stable_sort(greedy.begin(), greedy.end(),
                           [](const Greedy& a, const Greedy& b) { return a.predicted < b.predicted; });
          if (greedy.size() > std::size_t(spec.combineGreedy)) greedy.resize(std::size_t(spec.combineGreedy));
          for (auto& g : greedy)
            addCombined(g.member, std::move(g.set), kGreedyCombinedOrigin);
        }
        measured.resize(before + combinedTexts.size());
        engine::parallelFor(combinedTexts.size(), jobs,
                            [&](std::size_t i) { measureCached(combinedTexts[i], measured[before + i]); });
        combined = combinedTexts.size();
      }
    }
    // Fill in what measuring gave, then select the next beam from the old
    // beam and the new distinct compiling candidates.
    std::size_t compiled = 0;
    struct Entry {
      double distance;
      std::int64_t beamIndex; ///< >= 0: a new candidate's index; < 0: ~old member index
      const std::vector<double>* values;
    };
    std::vector<Entry> pool;
    std::set<std::string> keys;
    for (std::size_t m = 0; m < beam.size(); ++m) {
      pool.push_back({beam[m].distance, ~std::int64_t(m), &beam[m].values});
      keys.insert(beam[m].key);
    }
    std::vector<std::string> candKeys(cands.size());
    for (std::size_t i = 0; i < cands.size(); ++i) {
      auto& c = cands[i];
      auto& m = measured[i];
      c.text = m.text;
      c.error = m.error;
      c.compiled = m.compiled;
      if (!m.compiled) continue;
      ++compiled;
      c.kernelName = m.kernel;
      c.values = m.values;
      c.distance = m.distance;
      candKeys[i] = model::tokenKey(c.text);
      if (keys.insert(candKeys[i]).second) pool.push_back({c.distance, std::int64_t(i), &c.values});
    }
    std::stable_sort(pool.begin(), pool.end(), [](const Entry& a, const Entry& b) { return a.distance < b.distance; });
    if (spec.maxPerVector > 0) { // the capped entries after the others, each part still nearest first
      std::map<std::vector<double>, int> members;
      std::vector<Entry> within, over;
      for (const auto& e : pool)
        (++members[*e.values] <= spec.maxPerVector ? within : over).push_back(e);
      within.insert(within.end(), over.begin(), over.end());
      pool = std::move(within);
    }
    const std::size_t k = std::min(pool.size(), std::size_t(spec.width));
    if (pool.size() > k) {
      std::uniform_real_distribution<double> u(0, 1);
      for (std::size_t i = 1; i < k; ++i)
        if (u(rng) < spec.swapProbability)
          std::swap(pool[i], pool[std::uniform_int_distribution<std::size_t>(k, pool.size() - 1)(rng)]);
      std::stable_sort(pool.begin(), pool.begin() + std::ptrdiff_t(k),
                       [](const Entry& a, const Entry& b) { return a.distance < b.distance; });
    }
    pool.resize(k);

    store::Workspace::SteerGenerationRecord g;
    g.run = run;
    g.generation = generation;
    g.candidates = std::int64_t(cands.size());
    g.compiled = std::int64_t(compiled);
    std::vector<double> beamDistances;
    for (const auto& e : pool) {
      beamDistances.push_back(e.distance);
      if (e.beamIndex >= 0) {
        cands[std::size_t(e.beamIndex)].kept = true;
        g.beam.push_back(e.beamIndex);
      } else {
        g.beam.push_back(~beam[std::size_t(~e.beamIndex)].id);
      }
    }
    if (!pool.empty()) {
      g.bestDistance = pool.front().distance;
      g.bestId = pool.front().beamIndex >= 0 ? ~pool.front().beamIndex : beam[std::size_t(~pool.front().beamIndex)].id;
      g.medianDistance = median(beamDistances);
    }
    g.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    g.elapsed = elapsed();
    ws_.transaction([&] {
      ws_.addSteerGeneration(g, cands);
      ws_.setSteerRunStatus(run, "running", "", g.elapsed);
    });
    // The new beam, as stored.
    std::vector<Member> next;
    for (const auto& e : pool) {
      if (e.beamIndex >= 0) {
        const auto& c = cands[std::size_t(e.beamIndex)];
        next.push_back({c.id, c.text, candKeys[std::size_t(e.beamIndex)], c.values, c.distance});
      } else {
        next.push_back(beam[std::size_t(~e.beamIndex)]);
      }
    }
    beam = std::move(next);
    noteBest(g.bestDistance);
    if (!beam.empty() && (best.id == 0 || beam.front().distance < best.distance)) best = beam.front();
    if (generation == 0 && spec.reseedAfter > 0 && spec.seeding != Seeding::Empty) seedBeam = spec.reseedDraw ? seedPool() : beam;
    if (!edits.empty()) { // what the next generation may pair: its members' edits within the window
      std::set<std::int64_t> members;
      for (const auto& m : beam)
        members.insert(m.id);
      edits.erase(std::remove_if(edits.begin(), edits.end(),
                                 [&](const Edit& e) {
                                   return !members.count(e.parent) || e.generation < generation + 2 - kCombineWindow;
                                 }),
                  edits.end());
    }

    if (onGeneration) {
      GenerationReport rep;
      rep.run = run;
      rep.generation = generation;
      rep.candidates = cands.size();
      rep.compiled = compiled;
      rep.combined = combined;
      for (std::size_t i = cands.size() - combined; i < cands.size(); ++i)
        rep.combinedCompiled += cands[i].compiled ? 1 : 0;
      rep.bestDistance = best.id ? best.distance : -1;
      rep.medianDistance = g.medianDistance;
      rep.bestProximity = best.id ? proximity(best.values) : 0;
      rep.reseeded = reseeded;
      rep.seconds = g.seconds;
      rep.elapsed = g.elapsed;
      rep.candidatesPerSecond = g.seconds > 0 ? double(cands.size()) / g.seconds : 0;
      rep.bestId = best.id;
      for (const auto& c : cands)
        if (c.compiled) rep.points.push_back({c.id, c.parent, c.values, c.distance, c.kept});
      onGeneration(rep);
    }
  }

  SteerResult res;
  res.run = run;
  res.stopReason = stopReason;
  res.status = stopReason == "cancelled" ? "cancelled" : "finished";
  res.generations = std::max(0, generation - 1);
  res.elapsed = elapsed();
  if (best.id) {
    const auto& b = best;
    res.bestId = b.id;
    res.bestText = b.text;
    res.bestValues = b.values;
    res.bestDistance = b.distance;
    res.bestProximity = proximity(b.values);
    // The best candidate becomes a workspace kernel, measured in every space.
    features::MeasureOptions mo;
    for (const auto& s : features::featureSpaces())
      mo.spaces.push_back(&s);
    const auto m = features::measureSource(b.text, "steered.cl", mo);
    const auto c = ws_.steerCandidate(b.id);
    if (m.ok() && c) {
      ws_.transaction([&] {
        store::KernelRecord kr;
        kr.name = c->kernelName;
        kr.source = b.text;
        kr.role = "steered";
        kr.originFile = "steer run " + std::to_string(run) + ", candidate " + std::to_string(b.id);
        res.bestKernelId = ws_.addKernel(kr);
        const auto featureSpec = engine::featureSpecJson(mo);
        for (const auto& sp : m.spaces)
          for (const auto& kv : sp.kernels)
            if (kv.kernel == c->kernelName)
              ws_.putFeatures({res.bestKernelId, sp.space->name, sp.space->version, kv.values, false, featureSpec});
      });
    }
  }
  ws_.setSteerRunStatus(run, res.status, stopReason, res.elapsed, res.bestKernelId);
  return res;
}

std::int64_t runBest(const store::Workspace& ws, std::int64_t run) { return runBest(ws.steerGenerations(run)); }

std::int64_t runBest(const std::vector<store::Workspace::SteerGenerationRecord>& generations) {
  std::int64_t id = 0;
  double d = std::numeric_limits<double>::infinity();
  for (const auto& g : generations)
    if (g.bestId && orInfinity(g.bestDistance) < d) {
      d = g.bestDistance;
      id = g.bestId;
    }
  return id;
}

std::vector<LineageStep> lineage(const store::Workspace& ws, std::int64_t run, std::int64_t id) {
  if (!ws.steerRun(run)) throw InputError("there is no steering run " + std::to_string(run) + " in " + ws.path());
  if (id == 0 && (id = runBest(ws, run)) == 0) return {};
  std::vector<LineageStep> out;
  while (id) {
    const auto c = ws.steerCandidate(id);
    if (!c || c->run != run)
      throw InputError("candidate " + std::to_string(id) + " is not part of steering run " + std::to_string(run));
    LineageStep s;
    s.id = c->id;
    s.parent = c->parent;
    s.generation = c->generation;
    s.origin = c->origin;
    s.text = c->text;
    s.replaced = c->replaced;
    s.infill = c->infill;
    s.holeStart = c->holeStart;
    s.holeLength = c->holeLength;
    s.values = c->values;
    s.distance = c->distance;
    out.push_back(std::move(s));
    id = c->parent;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

} // namespace steerbench::steer

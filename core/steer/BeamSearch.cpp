#include "steer/BeamSearch.h"

#include "steer/BeamSelection.h"
#include "steer/CleanCompile.h"
#include "steer/CleanKernelCheck.h"
#include "steer/Combining.h"
#include "steer/ContenderChecks.h"
#include "steer/HoleFeeds.h"
#include "steer/HoleSites.h"
#include "steer/Lineage.h"
#include "steer/MeasurePool.h"
#include "steer/LineageVerdicts.h"
#include "steer/Repairs.h"
#include "steer/PointerAliases.h"
#include "steer/SeedChoice.h"
#include "steer/SeedingRule.h"
#include "steer/TargetCheck.h"

#include "clang/OpenCLFrontend.h"
#include "common/Error.h"
#include "common/TextFormat.h"
#include "drive/host/DriveJob.h"
#include "engine/FeatureJob.h"
#include "engine/FeatureTable.h"
#include "engine/ParallelFor.h"
#include "features/DeadCode.h"
#include "features/Distance.h"
#include "features/GreweFeatures.h"
#include "features/Measurement.h"
#include "model/Sampler.h"
#include "model/Tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace steerbench::steer {

namespace {

using Clock = std::chrono::steady_clock;
using CandidateRecord = store::Workspace::SteerCandidateRecord;

constexpr double kExact = 1e-9;
/// Taken from a seed's place in the checks' queue (it goes first), added to a failing lineage's (it goes last).
constexpr double kFirst = 1e12;
/// Failures whose first failing step is looked for at once, the newest kept.
constexpr std::size_t kBisections = 8;
/// How a nearest seed's candidate names its corpus kernel: this, its id, a space, its name.
constexpr const char* kSeedOrigin = "kernel #";
/// Appended to a seed's origin when it is the corpus kernel with buffer uses through aliases (SteerSpec::aliasSeeds).
constexpr const char* kAliasSeedOrigin = ", buffer uses through aliases";

/// A well-mixed seed for generation g of a run (splitmix64 of both).
std::uint64_t generationSeed(std::uint64_t seed, int generation) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + std::uint64_t(generation) + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Member toMember(const CandidateRecord& c) { return Member{c.id, c.text, model::tokenKey(c.text), c.values, c.distance}; }

bool nearestFirst(const Member& a, const Member& b) { return a.distance < b.distance; }

/// One generation's candidates as they are made: records, and what measuring gave.
struct Generation {
  Clock::time_point started;
  bool reseeded = false;
  std::vector<CandidateRecord> cands;
  std::vector<Measured> measured;
  std::size_t aliasedFrom = 0, aliased = 0;   ///< candidates of SteerSpec::aliases: cands[aliasedFrom, + aliased)
  double aliasSeconds = 0;                    ///< making and measuring them
  std::size_t combinedFrom = 0, combined = 0; ///< combined infills: cands[combinedFrom, + combined)
  std::vector<std::vector<int>> memberIds;  ///< the beam members' tokens (infill generations)
};

} // namespace

// --- one run in progress -----------------------------------------------------

struct BeamSearch::Run {
  Run(BeamSearch& search, std::int64_t id, const SteerSpec& spec, const CancelToken* cancel);

  BeamSearch& search;
  store::Workspace& ws;
  model::Sampler& sampler;
  const std::int64_t id;
  const SteerSpec& spec;
  const CancelToken* cancel;
  const features::FeatureSpace& space;
  const model::Tokenizer& tok;
  const int maxLength;
  /// The guide's tokens that depend on the vocabulary alone (SteerSpec::guideLogits), found once a run.
  const std::vector<std::vector<int>> guideVocabulary;
  const unsigned jobs;
  const Clock::time_point started = Clock::now();
  const double before; ///< seconds of earlier parts of the run

  std::vector<Member> beam;
  std::vector<double> bests;    ///< the beam's best distance after each generation
  std::vector<double> runBests; ///< the run's best distance after each generation
  Member best;                  ///< the run's best so far (id 0: none); with drive checks, the nearest that passed
  Member nearest;               ///< the nearest clean candidate so far, checked or not
  /// Contenders' checks (SteerSpec::driveCheck; null without), and the
  /// candidates sent to them, by id.
  std::unique_ptr<ContenderChecks> checks;
  std::map<std::int64_t, Member> contenders;
  /// SteerSpec::newKernels: whether a text is none of the kernels the
  /// workspace had driven when the run (or its resumed part) began, by
  /// token key (model::tokenKey: the same kernel, however spaced); unset
  /// without it. The checks' thread calls it too.
  std::function<bool(const std::string&)> notDriven;
  [[nodiscard]] bool mayBeBest(const std::string& text) const { return !notDriven || notDriven(text); }
  std::size_t checked = 0, passed = 0;
  /// With checks: every stored candidate's parent (0: a seed), and the
  /// checked ones' verdicts, what failing() and heldBack() read.
  Parents parents;
  Verdicts verdicts;
  /// SteerSpec::packageFailures: each seed's package (nearest seeding), and
  /// the unchecked seeds presumed failing, their package's checked seeds
  /// having all failed.
  SeedPackages seedPackages;
  std::set<std::int64_t> presumedFailing;
  /// SteerSpec::lineageChecks: failed candidates whose first failing step is
  /// not known yet, the newest last (at most kBisections).
  std::vector<std::int64_t> bisecting;
  std::int64_t lineageCheck = 0; ///< the last candidate checkLineages() sent
  /// With checks, until one passes: generation 0's clean seeds, nearest
  /// first, checked ahead of every other candidate, so that the run soon has
  /// a real kernel that runs, and lineages from it; one waits at a time.
  std::vector<CandidateRecord> seedChecks;
  std::size_t nextSeedCheck = 0;
  std::int64_t seedSubmitted = 0;
  bool seedPassed = false; ///< a seed passed the checks (the best, or a stepping stone: SteerSpec::newKernels)
  /// The seeds' own queue goes on: no seed passed yet, and some are left.
  [[nodiscard]] bool seedsQueued() const { return !seedPassed && nextSeedCheck < seedChecks.size(); }
  [[nodiscard]] bool isSeed(std::int64_t candidate) const {
    const auto p = parents.find(candidate);
    return p != parents.end() && p->second == 0;
  }
  std::map<std::string, std::string> deadByText; ///< SteerSpec::deadCode's verdicts, by text (empty: live)
  /// SteerSpec::repairs: the failing candidates repaired, and the repairs
  /// that the next generation adds to its candidates, each with the text of
  /// the ancestor taken to run (its parent, what its findings are judged against).
  std::set<std::int64_t> repaired;
  std::vector<RepairCandidate> repairs;
  /// Failing candidates whose seed, never checked, is being checked first:
  /// by the seed. They are repaired once it passes.
  std::map<std::int64_t, std::vector<std::int64_t>> awaitingSeed;
  std::vector<Member> seedBeam; ///< where a reseed starts again: generation 0's beam, or the seeds it draws from
  std::size_t since = 0;        ///< the generation where the beam's current search began (SteerSpec::reseedAfter)
  int generation = 0;
  /// The beam members' infills of the last kCombineWindow generations, in
  /// the order they were made: what SteerSpec::combine pairs.
  std::vector<Edit> edits;
  /// SteerSpec::aliases: where the beam members' buffers can be aliased, by member text.
  std::map<std::string, AliasSites> aliasSitesOf;
  MeasureCache measure; ///< by exact text: a repeated sample is not compiled again
  std::string stopReason;

  [[nodiscard]] double elapsed() const {
    return before + std::chrono::duration<double>(Clock::now() - started).count();
  }
  void say(const std::string& m) const {
    if (search.onMessage) search.onMessage(m);
  }
  [[nodiscard]] double proximity(const std::vector<double>& v) const {
    return features::relativeProximity(v, spec.target.values, spec.scale);
  }
  [[nodiscard]] bool exact() const { return best.id != 0 && best.distance <= kExact; }
  void noteBest(double d) {
    bests.push_back(d);
    runBests.push_back(runBests.empty() || orInfinity(d) < orInfinity(runBests.back()) ? d : runBests.back());
  }
  [[nodiscard]] Member loadMember(std::int64_t candidate) const;
  [[nodiscard]] std::vector<Member> seedPool() const;
  void addEdit(const Member& parent, const std::vector<int>& parentIds, const std::string& childText,
               const std::vector<double>& childValues, int childGeneration);

  void restore();
  [[nodiscard]] std::string stopBefore(double lastGeneration) const;
  void reseed(std::mt19937_64& rng);
  void seedCandidates(Generation& g);
  bool infillCandidates(Generation& g, int holeMax, int maxNewTokens, std::mt19937_64& rng);
  /// SteerSpec::seedLocal when the target asks for local memory accesses, else 0.
  [[nodiscard]] double localSeedShare() const {
    const auto& d = space.dimensions;
    const auto at = std::find(d.begin(), d.end(), "localmem");
    return at != d.end() && spec.target.values[std::size_t(at - d.begin())] > 0 ? spec.seedLocal : 0.0;
  }
  void sampleFeeds(Generation& g, const Feeds& feeds, int maxNewTokens);
  void combineInfills(Generation& g, const std::vector<Feed>& feeds);
  /// SteerSpec::aliases: members whose mem is above the target's, with
  /// some of a buffer's uses through an alias (steer/PointerAliases.h).
  void aliasCandidates(Generation& g);
  /// SteerSpec::aliasSeeds: `rows` (nearest first) ranked by the distance
  /// aliases let each kernel reach; memSaving gets the rows that need them.
  void rankByAliases(const engine::FeatureTable& table, const std::set<std::string>& roles,
                     std::vector<engine::Neighbour>& rows, std::map<std::size_t, std::size_t>& memSaving);
  void planRepairs(std::int64_t failed);
  void addRepairs(Generation& g);
  void keep(Generation& g, std::mt19937_64& rng);
  /// SteerSpec::deadCode: marks the clean candidates that could enter the beam and stand on dead code.
  void refuseDeadCode(Generation& g);
  /// The rules judged against the parent (CleanRule::relative): refuses the
  /// generation's clean candidates with more findings of one than their
  /// parent member.
  void refuseRelativeFindings(Generation& g);
  /// Records the checks that finished; a passed one nearer than the best becomes it.
  void collectChecks();
  /// A candidate that passed the checks becomes the run's best: the checks
  /// waiting for candidates no nearer are taken back (they could not become it).
  void passedBest(const Member& m);
  /// A candidate's lineage fails the checks: it failed them, or (not
  /// checked) its nearest checked ancestor did.
  [[nodiscard]] bool failing(std::int64_t candidate) const;
  /// The edits between a candidate (made from `parent`) and its nearest
  /// ancestor with a verdict, or its seed: 1 for a checked parent's child.
  [[nodiscard]] int editsSinceChecked(std::int64_t parent) const;
  /// Not worth a check now: the nearest ancestor of `c` that was checked or
  /// is being checked (`pending`) is as near as `c`, and failed or has no
  /// verdict yet (one that passed is as near as the best, so `c` is not
  /// offered anyway).
  [[nodiscard]] bool heldBack(const CandidateRecord& c, const std::vector<std::int64_t>& pending) const;
  void noteVerdict(std::int64_t candidate, const std::string& outcome, double distance);
  /// A candidate whose text was checked under another id: stores that check's outcome as its own.
  void adoptVerdict(std::int64_t candidate, const ContenderCheck& same, double distance);
  /// With checks: records stored clean candidates' parents, and those of
  /// generation 0 (`seeds`) as seedChecks, nearest first.
  void trackLineage(const std::vector<CandidateRecord>& cands, bool seeds);
  /// Sends this generation's nearest clean candidates that would beat the best to the checks.
  void submitContenders(const Generation& g);
  /// SteerSpec::lineageChecks: one step of a bisection, or, when the checks
  /// are idle but for failing lineages, one beam member.
  void checkLineages();
  /// True when a contender as near as an exact match, not of a failing
  /// lineage, is still being checked.
  [[nodiscard]] bool exactPending() const;
  /// How long to wait for the contenders' checks (`last`: the run's end).
  [[nodiscard]] double checkWaitLeft(bool last) const;
  void report(const Generation& g, const store::Workspace::SteerGenerationRecord& stored, std::size_t compiled) const;
  SteerResult result();
};

BeamSearch::Run::Run(BeamSearch& s, std::int64_t run, const SteerSpec& sp, const CancelToken* c)
    : search(s), ws(s.ws_), sampler(s.sampler_), id(run), spec(sp), cancel(c),
      space(features::featureSpace(sp.target.space)), tok(s.sampler_.tokenizer()), maxLength(s.sampler_.maxLength()),
      guideVocabulary(sp.guideLogits != 0 ? vocabularyTokens(space.name, tok) : std::vector<std::vector<int>>{}),
      jobs(sp.jobs ? sp.jobs : engine::hardwareJobs()), before(s.ws_.steerRun(run)->elapsed),
      measure(space, sp.target.values, sp.scale, sp.cleanRules) {
  if (sp.driveCheck) {
    ContenderCheckOptions o;
    o.timeoutSeconds = sp.checkTimeout;
    o.confirmSizes = sp.confirmSizes;
    o.confirmTimeoutSeconds = sp.confirmTimeout;
    o.raceCheckSize = sp.raceCheckRuns();
    o.raceCheckTimeoutSeconds = 3 * sp.confirmTimeout; // the simulator is an interpreter
    o.maxQueued = 2;
    o.cacheDir = drive::poclCacheFor(s.ws_.path());
    if (sp.newKernels) {
      auto keys = std::make_shared<std::set<std::string>>();
      for (const auto& source : s.ws_.drivenSources())
        keys->insert(model::tokenKey(source));
      notDriven = [keys](const std::string& text) { return !keys->count(model::tokenKey(text)); };
      o.mayBeBest = notDriven;
    }
    checks = std::make_unique<ContenderChecks>(o);
  }
}

Member BeamSearch::Run::loadMember(std::int64_t candidate) const {
  const auto c = ws.steerCandidate(candidate);
  if (!c) throw WorkspaceError("steering run " + std::to_string(id) + " lost candidate " + std::to_string(candidate));
  return toMember(*c);
}

std::vector<Member> BeamSearch::Run::seedPool() const {
  // What a reseed draws from (SteerSpec::reseedDraw): every distinct compiling
  // seed of generation 0, nearest first, as stored (a resumed run reads the same).
  std::vector<Member> out;
  std::set<std::string> keys;
  for (const auto& c : ws.steerCandidates(id, 0))
    if (c.compiled) {
      auto m = toMember(c);
      if (keys.insert(m.key).second) out.push_back(std::move(m));
    }
  std::stable_sort(out.begin(), out.end(), nearestFirst);
  return out;
}

void BeamSearch::Run::addEdit(const Member& parent, const std::vector<int>& parentIds, const std::string& childText,
                              const std::vector<double>& childValues, int childGeneration) {
  Edit e;
  if (editOf(tok, parent, parentIds, childText, childValues, childGeneration, e)) edits.push_back(std::move(e));
}

void BeamSearch::Run::restore() {
  const auto stored = ws.steerGenerations(id);
  if (stored.empty()) return;
  for (const auto& g : stored)
    noteBest(g.bestDistance);
  generation = stored.back().generation + 1;
  for (auto m : stored.back().beam)
    beam.push_back(loadMember(m));
  if (spec.reseedAfter > 0 && !seedsFromTheModel(spec.seeding)) {
    if (spec.reseedDraw) seedBeam = seedPool();
    else
      for (auto m : stored.front().beam)
        seedBeam.push_back(loadMember(m));
  }
  if (const auto b = runBest(stored)) best = nearest = loadMember(b);
  if (checks) { // the checks as stored: the best is the nearest that passed, and no text is checked twice
    best = Member{};
    trackLineage(ws.steerCandidates(id, 0), true);
    for (const auto& c : ws.steerCandidates(id)) {
      parents[c.id] = c.parent;
      if (c.checkOutcome.empty()) continue;
      noteVerdict(c.id, c.checkOutcome, c.distance);
      checks->remember({c.id, c.text, c.kernelName, c.distance, c.distance, c.checkOutcome, c.checkDetail});
      if (c.checkOutcome == "PASS" && isSeed(c.id)) seedPassed = true;
      if (c.checkOutcome == "PASS" && mayBeBest(c.text) && (best.id == 0 || c.distance < best.distance))
        best = toMember(c);
    }
    if (spec.lineageChecks) // the newest failures whose first failing step was still looked for
      for (auto v = verdicts.rbegin(); v != verdicts.rend() && bisecting.size() < kBisections; ++v)
        if (!v->second.passed && bisectionStep(v->first, verdicts, parents) != 0)
          bisecting.insert(bisecting.begin(), v->first);
  }
  since = lastReseed(bests, spec.reseedAfter);
  if (spec.combine > 0 || spec.combineGreedy > 0) { // the edits as a straight run would hold them now
    std::map<std::int64_t, std::size_t> members;
    std::vector<std::vector<int>> ids(beam.size());
    for (std::size_t m = 0; m < beam.size(); ++m) {
      members[beam[m].id] = m;
      ids[m] = tok.encode(beam[m].text);
    }
    for (int g = std::max(1, generation - kCombineWindow + 1); g < generation; ++g)
      for (const auto& c : ws.steerCandidates(id, g)) {
        const auto it = members.find(c.parent);
        if (!c.compiled || isCombined(c.origin) || c.origin == kAliasOrigin || it == members.end()) continue;
        addEdit(beam[it->second], ids[it->second], c.text, c.values, g);
      }
  }
  say("resuming run " + std::to_string(id) + " at generation " + std::to_string(generation));
}

std::string BeamSearch::Run::stopBefore(double lastGeneration) const {
  if (exact()) return "exact match";
  if (generation > spec.depth) return "depth";
  // The time budget is a bound: a generation that the last one's length says
  // would end past it is not started.
  if (spec.timeBudget > 0 && elapsed() + lastGeneration >= spec.timeBudget) return "time budget";
  if (spec.patience > 0 && stalledGenerations(runBests) >= spec.patience) return "patience";
  if (cancel && cancel->cancelled()) return "cancelled";
  return {};
}

void BeamSearch::Run::reseed(std::mt19937_64& rng) {
  say("generation " + std::to_string(generation) + ": no better beam best for " + std::to_string(spec.reseedAfter) +
      " generations; the beam starts again from the seeds");
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

void BeamSearch::Run::seedCandidates(Generation& g) {
  std::vector<std::pair<std::string, std::string>> texts; // origin, text
  if (spec.seeding == Seeding::Given) {
    for (const auto& s : spec.seeds)
      texts.emplace_back("seed " + s.name, s.text);
    g.measured.resize(texts.size());
    engine::parallelFor(texts.size(), jobs, [&](std::size_t i) { g.measured[i] = measure(texts[i].second); });
  } else {
    // The nearest kernels that compile cleanly (with SteerSpec::deadCode,
    // whose counts are live at -O1; with SteerSpec::parallelSeeds, that ask
    // which work-item runs them), at most a share of them from one
    // package. Only clean seeds count: the beam and the seed checks take no
    // other, so a package whose kernels all fail a rule would otherwise take
    // the places of other packages' seeds that could run. Unclean ones met on
    // the way are recorded (they show why a nearer kernel is no seed), and
    // the walk ends after measuring four times `nearest` kernels.
    const auto table = engine::loadWorkspaceTable(ws, space);
    const std::set<std::string> roles(spec.seedRoles.begin(), spec.seedRoles.end());
    std::set<std::string> seen;
    std::map<std::string, int> fromPackage; // clean seeds taken
    const int perPackage = seedsPerPackage(spec.nearest, spec.seedPackageShare);
    auto rows = engine::nearestRows(table, spec.target.values, table.size());
    std::map<std::size_t, std::size_t> memSaving; // a row's seed through aliases that lower its mem by this much
    if (spec.aliasSeeds && space.name == "grewe") rankByAliases(table, roles, rows, memSaving);
    const std::size_t walk = 4 * std::size_t(std::max(spec.nearest, 0));
    std::size_t next = 0, tried = 0;
    int clean = 0;
    while (clean < spec.nearest && next < rows.size() && tried < walk) {
      struct Pick {
        std::string origin, text, package;
        Measured measured;
        bool deadChecked = false; ///< SteerSpec::deadCode ran on it: its verdict is in measured.unclean
      };
      std::vector<Pick> batch; // the next kernels that could still be taken
      for (; next < rows.size() && tried + batch.size() < walk && clean + int(batch.size()) < spec.nearest; ++next) {
        const auto& n = rows[next];
        if (!roles.count(table.groups[n.row])) continue;
        const auto k = ws.kernel(table.ids[n.row]);
        if (!k || fromPackage[k->package] >= perPackage || !seen.insert(model::tokenKey(k->source)).second) continue;
        const auto saving = memSaving.find(n.row);
        if (saving == memSaving.end())
          batch.push_back({kSeedOrigin + std::to_string(k->id) + " " + k->name, k->source, k->package, {}, false});
        else
          batch.push_back({kSeedOrigin + std::to_string(k->id) + " " + k->name + kAliasSeedOrigin,
                           withAliasesSaving(k->source, {}, saving->second), k->package, {}, false});
      }
      tried += batch.size();
      engine::parallelFor(batch.size(), jobs, [&](std::size_t i) {
        auto& m = batch[i].measured;
        m = measure(batch[i].text);
        if (spec.parallelSeeds && m.compiled && m.unclean.empty() && !callsAWorkItemFunction(m.text))
          m.unclean = std::string(kOneWorkItem) + ": calls no work-item function, so every work-item would do the same work";
        if (!spec.deadCode || !m.compiled || !m.unclean.empty()) return;
        batch[i].deadChecked = true;
        if (const auto dead = features::checkDeadCode(m.text, m.kernel).dead; !dead.empty()) m.unclean = "dead-code: " + dead;
      });
      for (const auto& p : batch) // what refuseDeadCode() would find again
        if (p.deadChecked)
          deadByText[p.measured.text] = p.measured.unclean.empty() ? "" : p.measured.unclean.substr(std::strlen("dead-code: "));
      for (auto& p : batch) {
        const bool isClean = p.measured.compiled && p.measured.unclean.empty();
        if (isClean && (clean >= spec.nearest || fromPackage[p.package] >= perPackage)) continue;
        if (isClean) {
          ++clean;
          ++fromPackage[p.package];
        }
        texts.emplace_back(std::move(p.origin), std::move(p.text));
        g.measured.push_back(std::move(p.measured));
      }
    }
    if (texts.empty())
      throw InputError("no kernel of the workspace has " + space.name + " features and a role in the seed "
                       "roles; ingest a corpus, or seed from a file or the empty feed");
  }
  for (const auto& t : texts) {
    CandidateRecord c;
    c.origin = t.first;
    g.cands.push_back(std::move(c));
  }
}

bool BeamSearch::Run::infillCandidates(Generation& g, int holeMax, int maxNewTokens, std::mt19937_64& rng) {
  Feeds feeds;
  if (beam.empty()) {
    if (!seedsFromTheModel(spec.seeding)) {
      stopReason = "no candidates";
      return false;
    }
    feeds = emptyFeeds(spec.width * spec.candidatesPerMember, localSeedShare());
  } else {
    g.memberIds.resize(beam.size());
    for (std::size_t m = 0; m < beam.size(); ++m)
      g.memberIds[m] = tok.encode(beam[m].text);
    HoleRules r;
    r.space = space.name;
    r.perMember = spec.candidatesPerMember;
    r.holeMin = spec.holeMin;
    r.holeMax = holeMax;
    r.holeMaxFraction = spec.holeMaxFraction;
    r.directedHoles = spec.directedHoles;
    r.renameHoles = spec.renameHoles;
    r.target = spec.target.values;
    r.scale = spec.scale;
    // The model sees at most this many tokens around a hole: a longer member
    // is infilled through a window (without [START]/[END] at a cut side, as
    // in training) and the infill spliced back into the whole kernel.
    const int w = std::max(8, maxLength - 4 - maxNewTokens);
    r.window = spec.context > 0 ? std::min(w, std::max(8, spec.context)) : w;
    r.maxLength = maxLength;
    r.maxNewTokens = maxNewTokens;
    feeds = holeFeeds(tok, beam, g.memberIds, r, rng);
  }
  sampleFeeds(g, feeds, maxNewTokens);
  if (cancel && cancel->cancelled()) {
    stopReason = "cancelled"; // the partial generation is not stored: a resume makes it again
    return false;
  }
  if (spec.aliases > 0 && !beam.empty()) aliasCandidates(g);
  if ((spec.combine > 0 || spec.combineGreedy > 0) && !beam.empty()) combineInfills(g, feeds.feeds);
  addRepairs(g);
  return true;
}

void BeamSearch::Run::sampleFeeds(Generation& g, const Feeds& feeds, int maxNewTokens) {
  model::SampleOptions so;
  so.batchSize = spec.batchSize;
  so.streams = spec.streams;
  so.temperature = spec.temperature;
  so.maxNewTokens = beam.empty() ? std::max(1, maxLength - 8) : maxNewTokens;
  so.restarts = beam.empty() ? std::max(spec.restarts, spec.seedRestarts) : spec.restarts;
  so.seed = generationSeed(spec.seed, generation) ^ 0x5eedull;
  so.endHoleBias = beam.empty() ? 0.0 : spec.endHoleBias;
  so.endHoleRamp = beam.empty() ? 0.0 : spec.endHoleRamp;
  if (beam.empty() && spec.seeding == Seeding::Generated) // the Grewe counts, without the ratios F2 and F4
    so.target.assign(spec.target.values.begin(), spec.target.values.begin() + 6);
  so.guard = spec.guard;
  so.typeRules = spec.guardTypes;
  so.typedArguments = spec.guardCalls;
  if (spec.check) sampleChecked(so);
  // Statements only: checking whole kernels as holes closed cost a quarter
  // of the generations and raised no compile rate (bench/results/bench-steer.md).
  so.checkWhole = false;
  if (beam.empty() && spec.cleanSeedsTaken() && spec.check) {
    // Seeds from nothing: kernels that break no clean-compile rule, checked
    // whole as they close, so that their lineages can run.
    sampleClean(so, spec.cleanRules);
    so.checkWhole = true;
  }
  if (beam.empty() && spec.seeding == Seeding::Generated && spec.seedNear > 0 && spec.check) {
    holdToTarget(so, spec.seedNear, /*clean=*/true); // held seeds are clean (SteerSpec::cleanSeedsTaken)
    if (spec.seedLean != 0) so.heldLean = heldLean(tok, spec.seedLean);
  }
  so.checkJobs = jobs;
  so.feedEnds = feeds.ends;
  if (spec.redraws > 0 && !beam.empty()) { // a fill that puts back what its hole took is its member again
    so.redraws = spec.redraws;
    for (const auto& f : feeds.feeds) {
      const auto& ids = g.memberIds[f.member];
      so.feedReplaced.emplace_back(ids.begin() + std::ptrdiff_t(f.start), ids.begin() + std::ptrdiff_t(f.start + f.length));
    }
  }
  if (spec.fillInsertions && !beam.empty()) // an insertion (a hole of no tokens) adds one at least
    for (const auto& f : feeds.feeds)
      so.feedMinNewTokens.push_back(f.length == 0 ? 1 : 0);
  if (spec.guideLogits != 0 && !beam.empty()) { // each infill leans toward what its member lacks
    std::vector<std::vector<std::pair<int, float>>> memberBias(beam.size());
    for (std::size_t m = 0; m < beam.size(); ++m)
      memberBias[m] = guideBias(dimensionTokens(guideVocabulary, tok, g.memberIds[m]), beam[m].values,
                                spec.target.values, spec.guideLogits);
    for (const auto& f : feeds.feeds)
      so.feedTokenBias.push_back(memberBias[f.member]);
  }
  const auto& texts = feeds.texts;
  std::vector<model::Sample> samples(texts.size());
  std::vector<bool> have(texts.size(), false);
  g.measured.assign(texts.size(), Measured{});
  {
    MeasurePool pool(jobs, [&](std::size_t i) { g.measured[i] = measure(samples[i].text); });
    sampler.sample(texts, int(texts.size()), so, [&](const model::Sample& s) {
      auto& x = samples[s.feed];
      x = s;
      const auto& f = feeds.feeds[s.feed];
      if (!beam.empty() && (f.from > 0 || f.to < std::int64_t(g.memberIds[f.member].size())))
        spliceWindow(tok, g.memberIds[f.member], f, x);
      have[s.feed] = true;
      if (s.complete) pool.push(s.feed);
    }, cancel);
    pool.finish();
  }
  if (cancel && cancel->cancelled()) return;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    CandidateRecord c;
    const auto& f = feeds.feeds[i];
    if (!beam.empty()) c.parent = beam[f.member].id;
    else {
      c.origin = spec.seeding == Seeding::Generated ? "generated for the target" : "empty feed";
      if (feeds.texts[i] == kLocalBufferFeed) c.origin += ", from a local buffer";
    }
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
      g.measured[i].text = s.text;
      g.measured[i].error = "the infill stopped at " + std::to_string(s.newTokens) +
                            " tokens without closing its hole (the token limit, or the guard or the compiler "
                            "checks gave it up)";
    }
    g.cands.push_back(std::move(c));
  }
}

void BeamSearch::Run::combineInfills(Generation& g, const std::vector<Feed>& feeds) {
  // This generation's infills as edits of their members; then pairs of a new
  // edit with another (new, or from the window) of the same member, ranked by
  // the distance their summed changes predict, and greedy sets.
  const std::size_t firstFresh = edits.size();
  for (std::size_t i = 0; i < feeds.size(); ++i)
    if (g.measured[i].compiled)
      addEdit(beam[feeds[i].member], g.memberIds[feeds[i].member], g.measured[i].text, g.measured[i].values,
              generation);
  std::vector<std::string> texts;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < feeds.size(); ++i)
    if (g.measured[i].compiled) seen.insert(model::tokenKey(g.measured[i].text));
  const std::size_t before = g.cands.size();
  auto add = [&](const Combination& c, const char* origin) {
    auto cc = combinedCandidate(tok, beam[c.member].id, g.memberIds[c.member], c.edits, origin);
    if (!seen.insert(model::tokenKey(cc.text)).second) return;
    g.cands.push_back(std::move(cc.record));
    texts.push_back(std::move(cc.text));
  };
  for (const auto& p : pairedEdits(beam, edits, firstFresh, spec.target.values, spec.scale)) {
    if (texts.size() >= std::size_t(spec.combine)) break;
    add(p, kCombinedOrigin);
  }
  if (spec.combineGreedy > 0)
    for (const auto& c : greedyEdits(beam, edits, spec.target.values, spec.scale, std::size_t(spec.combineGreedy)))
      add(c, kGreedyCombinedOrigin);
  g.measured.resize(before + texts.size());
  engine::parallelFor(texts.size(), jobs, [&](std::size_t i) { g.measured[before + i] = measure(texts[i]); });
  g.combinedFrom = before;
  g.combined = texts.size();
}

void BeamSearch::Run::rankByAliases(const engine::FeatureTable& table, const std::set<std::string>& roles,
                                    std::vector<engine::Neighbour>& rows,
                                    std::map<std::size_t, std::size_t>& memSaving) {
  // A corpus kernel whose mem is above the target's may be far from it only
  // for that: NPB reaches its arrays through pointers declared in the body,
  // so its kernels count many coalesced accesses and few memory accesses,
  // and a kernel that subscripts one buffer ten times has the same
  // accesses but mem 10 (and F2, F4 a tenth of the target's). Aliases
  // lower mem and change nothing the kernel does. So a kernel is ranked by
  // the distance its aliases can reach: first optimistically (mem down to
  // the target's), then, for the kernels that could enter the seeds so,
  // exactly (parsed: how many uses each buffer's alias can take).
  const auto targetMem = features::greweCountsOf(spec.target.values).mem;
  const std::size_t want = std::size_t(std::max(spec.nearest, 1));
  double bar = std::numeric_limits<double>::infinity(); // the distance of the (4 want)th nearest kernel as it is
  for (std::size_t i = 0, n = 0; i < rows.size(); ++i)
    if (roles.count(table.groups[rows[i].row]) && ++n == 4 * want) {
      bar = rows[i].distance;
      break;
    }
  struct Hope {
    std::size_t at;   ///< index into rows
    double optimistic; ///< the distance with mem down to what the target has
  };
  std::vector<Hope> hopes;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& v = table.rows[rows[i].row];
    auto c = features::greweCountsOf(v);
    if (!roles.count(table.groups[rows[i].row]) || c.mem <= std::max(targetMem, 1.0)) continue;
    c.mem -= double(bestMemSaving(v, spec.target.values, std::size_t(c.mem - std::max(targetMem, 1.0))));
    if (const double d = features::distance(features::greweVector(c), spec.target.values); d < std::min(bar, rows[i].distance))
      hopes.push_back({i, d});
  }
  std::stable_sort(hopes.begin(), hopes.end(), [](const Hope& a, const Hope& b) { return a.optimistic < b.optimistic; });
  hopes.resize(std::min(hopes.size(), 4 * want));
  std::vector<std::string> kernels(hopes.size()); // a corpus kernel's text holds that kernel alone
  for (std::size_t h = 0; h < hopes.size(); ++h)
    if (const auto k = ws.kernel(table.ids[rows[hopes[h].at].row])) kernels[h] = k->source;
  std::vector<std::size_t> saving(hopes.size(), 0);
  engine::parallelFor(hopes.size(), jobs, [&](std::size_t h) {
    if (kernels[h].empty()) return;
    saving[h] = bestMemSaving(table.rows[rows[hopes[h].at].row], spec.target.values,
                              maxMemSaved(aliasSites(kernels[h], {})));
  });
  for (std::size_t h = 0; h < hopes.size(); ++h) {
    if (saving[h] == 0) continue;
    auto& r = rows[hopes[h].at];
    auto c = features::greweCountsOf(table.rows[r.row]);
    c.mem -= double(saving[h]);
    r.distance = features::distance(features::greweVector(c), spec.target.values);
    memSaving[r.row] = saving[h];
  }
  std::stable_sort(rows.begin(), rows.end(), [](const engine::Neighbour& a, const engine::Neighbour& b) {
    return a.distance < b.distance || (a.distance == b.distance && a.row < b.row);
  });
}

void BeamSearch::Run::aliasCandidates(Generation& g) {
  // An alias changes mem (and the ratios F2 and F4) and nothing else, so
  // each one's vector and distance are known before it is written: only
  // those nearer than their member are made and measured. The nearest
  // members with mem above the target's are read, at most `aliases` of them
  // a generation, each once while it stays in the beam.
  if (space.name != "grewe") return;
  const auto began = Clock::now();
  const double targetMem = features::greweCountsOf(spec.target.values).mem;
  std::vector<std::size_t> members; // nearest first, with mem above the target's
  for (std::size_t i = 0; i < beam.size(); ++i)
    if (features::greweCountsOf(beam[i].values).mem >= targetMem + 1) members.push_back(i);
  std::stable_sort(members.begin(), members.end(),
                   [&](std::size_t a, std::size_t b) { return beam[a].distance < beam[b].distance; });
  members.resize(std::min(members.size(), std::size_t(spec.aliases)));
  std::set<std::string> inBeam; // the sites of members that left the beam are dropped
  for (const auto& m : beam)
    inBeam.insert(m.text);
  for (auto it = aliasSitesOf.begin(); it != aliasSitesOf.end();)
    it = inBeam.count(it->first) ? std::next(it) : aliasSitesOf.erase(it);
  std::vector<std::size_t> unread;
  std::vector<std::string> kernels; // read here: the workspace is not shared between threads
  for (const auto i : members)
    if (aliasSitesOf.emplace(beam[i].text, AliasSites{}).second) {
      unread.push_back(i);
      const auto c = ws.steerCandidate(beam[i].id);
      kernels.push_back(c ? c->kernelName : std::string());
    }
  std::vector<AliasSites> read(unread.size());
  engine::parallelFor(unread.size(), jobs,
                      [&](std::size_t k) { read[k] = aliasSites(beam[unread[k]].text, kernels[k]); });
  for (std::size_t k = 0; k < unread.size(); ++k)
    aliasSitesOf[beam[unread[k]].text] = std::move(read[k]);

  std::set<std::string> seen;
  for (const auto& m : g.measured)
    if (m.compiled) seen.insert(model::tokenKey(m.text));
  const std::size_t before = g.cands.size();
  std::vector<std::string> texts;
  for (const auto i : members) {
    const auto& m = beam[i];
    const auto& at = aliasSitesOf[m.text];
    const auto counts = features::greweCountsOf(m.values);
    int made = 0;
    for (const auto& o : aliasOptions(at, std::size_t(counts.mem - targetMem + 0.5))) {
      if (made == 2 || texts.size() >= std::size_t(spec.aliases)) break;
      auto c = counts;
      c.mem -= double(o.saved);
      if (!(features::distance(features::greweVector(c), spec.target.values, spec.scale) < m.distance)) continue;
      const auto ids = tok.encode(withAlias(m.text, at, o.buffer, o.count));
      Edit e = editBetween(g.memberIds[i], ids);
      if (e.from == e.to && e.tokens.empty()) continue;
      auto cc = combinedCandidate(tok, m.id, g.memberIds[i], {&e}, kAliasOrigin);
      if (!seen.insert(model::tokenKey(cc.text)).second) continue;
      g.cands.push_back(std::move(cc.record));
      texts.push_back(std::move(cc.text));
      ++made;
    }
  }
  g.measured.resize(before + texts.size());
  engine::parallelFor(texts.size(), jobs, [&](std::size_t i) { g.measured[before + i] = measure(texts[i]); });
  g.aliasedFrom = before;
  g.aliased = texts.size();
  g.aliasSeconds = std::chrono::duration<double>(Clock::now() - began).count();
}

void BeamSearch::Run::keep(Generation& gen, std::mt19937_64& rng) {
  // Fill in what measuring gave, then select the next beam from the old beam
  // and the new distinct compiling candidates.
  auto& cands = gen.cands;
  refuseRelativeFindings(gen);
  if (spec.deadCode) refuseDeadCode(gen);
  std::size_t compiled = 0;
  std::vector<BeamEntry> pool;
  std::vector<std::int64_t> origin; ///< per pool entry: >= 0 a new candidate's index; < 0 ~old member index
  std::set<std::string> keys;
  for (std::size_t m = 0; m < beam.size(); ++m) {
    pool.push_back({beam[m].distance, &beam[m].values, checks && failing(beam[m].id)});
    origin.push_back(~std::int64_t(m));
    keys.insert(beam[m].key);
  }
  std::vector<std::string> candKeys(cands.size());
  for (std::size_t i = 0; i < cands.size(); ++i) {
    auto& c = cands[i];
    auto& m = gen.measured[i];
    c.text = m.text;
    c.error = m.error;
    c.compiled = m.compiled;
    if (!m.compiled) continue;
    ++compiled;
    c.kernelName = m.kernel;
    c.values = m.values;
    c.distance = m.distance;
    c.unclean = m.unclean;
    if (!c.unclean.empty()) continue; // measured and stored, never kept
    candKeys[i] = model::tokenKey(c.text);
    if (keys.insert(candKeys[i]).second) {
      bool fails = false;
      if (checks) {
        const auto* k = checks->known(c.text);
        fails = k && k->outcome != "NOT_CHECKED" ? !passes(k->outcome) : failing(c.parent);
      }
      pool.push_back({c.distance, &c.values, fails});
      origin.push_back(std::int64_t(i));
    }
  }
  // SteerSpec::seedsRefill: seeds outside failing lineages take the places
  // that members of failing lineages would fill (entered as members of the
  // old beam are: ~index, here past the old beam's end), and failing
  // entries are kept only when no other is.
  std::vector<const Member*> olds;
  for (const auto& m : beam)
    olds.push_back(&m);
  const bool refill = checks && spec.seedsRefill && spec.failingMembers >= 0;
  if (refill)
    for (std::size_t left = placesLeft(pool, spec.width), s = 0; left > 0 && s < seedBeam.size(); ++s) {
      const auto& seed = seedBeam[s];
      if (failing(seed.id) || !keys.insert(seed.key).second) continue;
      pool.push_back({seed.distance, &seed.values, false});
      origin.push_back(~std::int64_t(olds.size()));
      olds.push_back(&seed);
      --left;
    }
  const auto kept = selectBeam(
      pool, {spec.width, spec.maxPerVector, spec.swapProbability, checks ? spec.failingMembers : -1, refill}, rng);

  store::Workspace::SteerGenerationRecord g;
  g.run = id;
  g.generation = generation;
  g.candidates = std::int64_t(cands.size());
  g.compiled = std::int64_t(compiled);
  std::vector<double> beamDistances;
  for (auto k : kept) {
    beamDistances.push_back(pool[k].distance);
    if (origin[k] >= 0) {
      cands[std::size_t(origin[k])].kept = true;
      g.beam.push_back(origin[k]);
    } else {
      g.beam.push_back(~olds[std::size_t(~origin[k])]->id);
    }
  }
  if (!kept.empty()) {
    const auto first = origin[kept.front()];
    g.bestDistance = pool[kept.front()].distance;
    g.bestId = first >= 0 ? ~first : olds[std::size_t(~first)]->id;
    g.medianDistance = median(beamDistances);
  }
  g.seconds = std::chrono::duration<double>(Clock::now() - gen.started).count();
  g.elapsed = elapsed();
  ws.transaction([&] {
    ws.addSteerGeneration(g, cands);
    ws.setSteerRunStatus(id, "running", "", g.elapsed);
  });
  if (checks) trackLineage(cands, generation == 0);
  // The new beam, as stored.
  std::vector<Member> next;
  for (auto k : kept) {
    if (origin[k] >= 0) {
      const auto& c = cands[std::size_t(origin[k])];
      next.push_back({c.id, c.text, candKeys[std::size_t(origin[k])], c.values, c.distance,
                      siteCounts(gen.measured[std::size_t(origin[k])].relative)});
    } else {
      next.push_back(*olds[std::size_t(~origin[k])]);
    }
  }
  beam = std::move(next);
  noteBest(g.bestDistance);
  if (!beam.empty() && (nearest.id == 0 || beam.front().distance < nearest.distance)) nearest = beam.front();
  if (!checks) best = nearest;
  else {
    collectChecks();
    submitContenders(gen);
    if (spec.lineageChecks) checkLineages();
  }
  if (generation == 0 && spec.reseedAfter > 0 && !seedsFromTheModel(spec.seeding))
    seedBeam = spec.reseedDraw ? seedPool() : beam;
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
  report(gen, g, compiled);
}

void BeamSearch::Run::report(const Generation& gen, const store::Workspace::SteerGenerationRecord& g,
                             std::size_t compiled) const {
  if (!search.onGeneration) return;
  const auto& cands = gen.cands;
  GenerationReport rep;
  rep.run = id;
  rep.generation = generation;
  rep.candidates = cands.size();
  rep.compiled = compiled;
  rep.combined = gen.combined;
  rep.aliased = gen.aliased;
  rep.aliasSeconds = gen.aliasSeconds;
  for (std::size_t i = gen.aliasedFrom; i < gen.aliasedFrom + gen.aliased; ++i)
    rep.aliasedCompiled += cands[i].compiled ? 1 : 0;
  for (std::size_t i = gen.combinedFrom; i < gen.combinedFrom + gen.combined; ++i)
    rep.combinedCompiled += cands[i].compiled ? 1 : 0;
  rep.bestDistance = best.id ? best.distance : -1;
  rep.nearestDistance = nearest.id ? nearest.distance : -1;
  rep.nearestProximity = nearest.id ? proximity(nearest.values) : 0;
  for (const auto& c : cands)
    rep.unclean += c.compiled && !c.unclean.empty();
  rep.checksPending = checks ? checks->pending() : 0;
  rep.checked = checked;
  rep.passed = passed;
  rep.medianDistance = g.medianDistance;
  rep.bestProximity = best.id ? proximity(best.values) : 0;
  rep.reseeded = gen.reseeded;
  rep.seconds = g.seconds;
  rep.elapsed = g.elapsed;
  rep.candidatesPerSecond = g.seconds > 0 ? double(cands.size()) / g.seconds : 0;
  rep.bestId = best.id;
  for (const auto& c : cands)
    if (c.compiled && c.unclean.empty()) rep.points.push_back({c.id, c.parent, c.values, c.distance, c.kept});
  search.onGeneration(rep);
}

SteerResult BeamSearch::Run::result() {
  SteerResult res;
  res.run = id;
  res.stopReason = stopReason;
  res.status = stopReason == "cancelled" ? "cancelled" : "finished";
  res.generations = std::max(0, generation - 1);
  res.elapsed = elapsed();
  res.checked = checked;
  res.passed = passed;
  res.runnable = checks && best.id != 0;
  if (checks) res.checkDevice = checks->device();
  if (checks) {
    res.confirmSizes = spec.confirmSizes;
    res.raceCheckSize = spec.raceCheckRuns();
  }
  if (nearest.id && nearest.id != best.id) {
    res.nearestId = nearest.id;
    res.nearestText = nearest.text;
    res.nearestDistance = nearest.distance;
    res.nearestProximity = proximity(nearest.values);
    if (const auto c = ws.steerCandidate(nearest.id)) {
      res.nearestOutcome = c->checkOutcome;
      res.nearestDetail = c->checkDetail;
    }
  }
  if (best.id) {
    const auto& b = best;
    res.bestId = b.id;
    res.bestText = b.text;
    res.bestValues = b.values;
    res.bestDistance = b.distance;
    res.bestProximity = proximity(b.values);
    // The best candidate becomes a workspace kernel, measured in every space.
    const auto mo = features::MeasureOptions::everySpace();
    const auto m = features::measureSource(b.text, "steered.cl", mo);
    const auto c = ws.steerCandidate(b.id);
    if (m.ok() && c) {
      ws.transaction([&] {
        store::KernelRecord kr;
        kr.name = c->kernelName;
        kr.source = b.text;
        kr.role = "steered";
        kr.originFile = "steer run " + std::to_string(id) + ", candidate " + std::to_string(b.id);
        res.bestKernelId = ws.addKernel(kr);
        const auto featureSpec = engine::featureSpecJson(mo);
        for (const auto& sp : m.spaces)
          for (const auto& kv : sp.kernels)
            if (kv.kernel == c->kernelName)
              ws.putFeatures({res.bestKernelId, sp.space->name, sp.space->version, kv.values, false, featureSpec});
      });
    }
  }
  ws.setSteerRunStatus(id, res.status, stopReason, res.elapsed, res.bestKernelId);
  return res;
}

void BeamSearch::Run::refuseRelativeFindings(Generation& g) {
  // Seeds are what people wrote (a macro's `a[i + 0]` stays); a candidate is
  // judged against the member it was made from, measured again if the beam
  // was read back from the workspace. Without the rules no candidate has findings.
  std::map<std::int64_t, std::size_t> members;
  for (std::size_t m = 0; m < beam.size(); ++m)
    members[beam[m].id] = m;
  for (std::size_t i = 0; i < g.cands.size(); ++i) {
    auto& m = g.measured[i];
    if (!m.compiled || !m.unclean.empty() || m.relative.empty()) continue;
    const auto it = members.find(g.cands[i].parent);
    if (it == members.end()) continue;
    auto& parent = beam[it->second];
    if (!parent.relative) parent.relative = siteCounts(measure(parent.text).relative);
    m.unclean = relativeRuleAdded(m.relative, *parent.relative);
  }
}

void BeamSearch::Run::refuseDeadCode(Generation& g) {
  // Which candidates could enter the beam by rank: the generation's `width`
  // nearest clean ones, and any nearer than the beam's farthest member. A
  // deterministic set, checked in parallel, each text once.
  std::vector<std::size_t> clean;
  for (std::size_t i = 0; i < g.measured.size(); ++i)
    if (g.measured[i].compiled && g.measured[i].unclean.empty()) clean.push_back(i);
  std::stable_sort(clean.begin(), clean.end(),
                   [&](std::size_t a, std::size_t b) { return g.measured[a].distance < g.measured[b].distance; });
  double farthest = -1;
  if (int(beam.size()) >= spec.width)
    for (const auto& m : beam)
      farthest = std::max(farthest, m.distance);
  std::vector<std::size_t> todo;
  std::set<std::string> queued;
  for (std::size_t k = 0; k < clean.size(); ++k) {
    const auto& m = g.measured[clean[k]];
    if (k >= std::size_t(spec.width) && !(m.distance < farthest)) continue;
    if (!deadByText.count(m.text) && queued.insert(m.text).second) todo.push_back(clean[k]);
  }
  std::vector<std::string> verdicts(todo.size());
  engine::parallelFor(todo.size(), jobs, [&](std::size_t k) {
    const auto& m = g.measured[todo[k]];
    verdicts[k] = features::checkDeadCode(m.text, m.kernel).dead;
  });
  for (std::size_t k = 0; k < todo.size(); ++k)
    deadByText[g.measured[todo[k]].text] = verdicts[k];
  for (const auto i : clean)
    if (const auto it = deadByText.find(g.measured[i].text); it != deadByText.end() && !it->second.empty())
      g.measured[i].unclean = "dead-code: " + it->second;
}

void BeamSearch::Run::collectChecks() {
  if (!checks) return;
  const auto done = checks->takeFinished();
  if (done.empty()) return;
  ws.transaction([&] {
    for (const auto& c : done)
      ws.setSteerCandidateCheck(c.candidate, c.outcome, c.detail);
  });
  for (const auto& c : done) {
    if (c.outcome == "NOT_CHECKED") continue;
    const auto it = contenders.find(c.candidate);
    noteVerdict(c.candidate, c.outcome, c.distance);
    if (it != contenders.end()) ++checked; // lineage checks of candidates farther than the best are not contenders
    if (!passes(c.outcome) && spec.lineageChecks) {
      bisecting.push_back(c.candidate);
      if (bisecting.size() > kBisections) bisecting.erase(bisecting.begin());
    }
    if (!passes(c.outcome) && spec.repairs && (best.id == 0 || c.distance < best.distance)) planRepairs(c.candidate);
    if (const auto w = awaitingSeed.find(c.candidate); w != awaitingSeed.end()) {
      const auto failed = std::move(w->second);
      awaitingSeed.erase(w);
      if (passes(c.outcome))
        for (const auto f : failed)
          planRepairs(f);
    }
    if (c.outcome != "PASS" || it == contenders.end()) continue;
    ++passed;
    if (isSeed(c.candidate)) seedPassed = true;
    if (!mayBeBest(it->second.text)) {
      say("candidate " + std::to_string(c.candidate) +
          " passed the drive checks, but the workspace has driven that kernel: not a best (new kernels only)");
      continue;
    }
    if (best.id == 0 || it->second.distance < best.distance) {
      passedBest(it->second);
      say("candidate " + std::to_string(best.id) + " passed the drive checks: the run's best, proximity " +
          formatPercent(proximity(best.values)));
    }
  }
}

void BeamSearch::Run::passedBest(const Member& m) {
  // The checks' thread takes them back itself when one of its checks
  // passes (so this finds none then); a verdict adopted from an earlier
  // check of the same text is known here only. A contender taken back by
  // either stays unchecked; `contenders` counts only pending ones where it
  // matters (exactPending).
  best = m;
  for (const auto id : checks->withdrawFartherThan(m.distance)) {
    contenders.erase(id);
    awaitingSeed.erase(id); // a seed no nearer than the best: its lineage's repairs are not made
  }
}

void BeamSearch::Run::planRepairs(std::int64_t failed) {
  // The lineage back to its nearest ancestor that passed; or to its seed
  // when that was never checked (seeds are checked only until one passes):
  // the seed is checked first, and the candidate repaired once it passes.
  // None of them: nothing to go back to. steer::repairsOf undoes the
  // suspect steps.
  constexpr std::size_t kDepth = 64;    // longer lineages are not read back
  constexpr std::size_t kSuspects = 16; // steps undone at most, those nearest the first failure
  if (repaired.count(failed)) return;
  std::vector<std::int64_t> ids{failed};
  bool based = false;
  for (std::int64_t a = failed; ids.size() <= kDepth;) {
    const auto p = parents.find(a);
    if (p == parents.end()) return;
    if (p->second == 0) { // `a` is the seed
      if (a == failed || verdicts.count(a)) return; // it failed
      if (const auto w = awaitingSeed.find(a); w != awaitingSeed.end()) {
        w->second.push_back(failed);
        return;
      }
      const auto seed = ws.steerCandidate(a);
      if (!seed) return;
      if (const auto* k = checks->known(seed->text)) { // its text was checked as another candidate
        if (!passes(k->outcome)) return;
        based = true;
        break;
      }
      if (!checks->submit(a, seed->text, seed->kernelName, seed->distance, seed->distance - kFirst)) return;
      contenders[a] = toMember(*seed);
      awaitingSeed[a].push_back(failed);
      return;
    }
    a = p->second;
    ids.push_back(a);
    if (const auto v = verdicts.find(a); v != verdicts.end() && v->second.passed) {
      based = true;
      break;
    }
  }
  if (!based) return;
  repaired.insert(failed);
  std::vector<LineageLink> lineage;
  for (auto a = ids.rbegin(); a != ids.rend(); ++a) {
    const auto c = ws.steerCandidate(*a);
    if (!c) return;
    const auto v = verdicts.find(*a);
    lineage.push_back({*a, c->text, v != verdicts.end() && !v->second.passed});
  }
  for (auto& r : repairsOf(tok, lineage, kSuspects))
    repairs.push_back(std::move(r));
}

void BeamSearch::Run::addRepairs(Generation& g) {
  // Measured as the generation's other candidates; judged by the relative
  // rules against the ancestor taken to run, which need not be in the beam.
  if (repairs.empty()) return;
  const std::size_t before = g.cands.size();
  g.measured.resize(before + repairs.size());
  engine::parallelFor(repairs.size(), jobs, [&](std::size_t i) {
    auto& m = g.measured[before + i];
    m = measure(repairs[i].text);
    if (m.compiled && m.unclean.empty() && !m.relative.empty())
      m.unclean = relativeRuleAdded(m.relative, siteCounts(measure(repairs[i].parentText).relative));
  });
  for (auto& r : repairs)
    g.cands.push_back(std::move(r.record));
  say(std::to_string(repairs.size()) + " repair(s) of failing candidates: one edit each undone");
  repairs.clear();
}

bool BeamSearch::Run::failing(std::int64_t candidate) const {
  return failingLineage(candidate, verdicts, parents, presumedFailing);
}

int BeamSearch::Run::editsSinceChecked(std::int64_t parent) const {
  int edits = 1;
  for (std::int64_t a = parent; a != 0 && !verdicts.count(a); ++edits) {
    const auto p = parents.find(a);
    if (p == parents.end()) break;
    a = p->second;
  }
  return edits;
}

bool BeamSearch::Run::heldBack(const CandidateRecord& c, const std::vector<std::int64_t>& pending) const {
  for (std::int64_t a = c.parent; a != 0;) {
    if (const auto v = verdicts.find(a); v != verdicts.end())
      return !v->second.passed && !(c.distance < v->second.distance);
    if (std::find(pending.begin(), pending.end(), a) != pending.end()) { // no verdict yet: held when as near
      const auto m = contenders.find(a);
      if (m != contenders.end() && !(c.distance < m->second.distance)) return true;
    }
    const auto p = parents.find(a);
    if (p == parents.end()) return false;
    a = p->second;
  }
  return false;
}

void BeamSearch::Run::trackLineage(const std::vector<CandidateRecord>& cands, bool seeds) {
  for (const auto& c : cands)
    if (c.compiled && c.unclean.empty()) {
      parents[c.id] = c.parent;
      if (seeds) seedChecks.push_back(c);
    }
  if (!seeds) return;
  std::stable_sort(seedChecks.begin(), seedChecks.end(),
                   [](const CandidateRecord& a, const CandidateRecord& b) { return a.distance < b.distance; });
  if (spec.seeding != Seeding::Nearest || !(spec.seedPackageShare < 1 || spec.packageFailures)) return;
  std::vector<std::string> packages; // the corpus kernel's package each seed was read from
  for (const auto& c : seedChecks) {
    std::string package;
    if (c.origin.rfind(kSeedOrigin, 0) == 0)
      if (const auto k = ws.kernel(std::atoll(c.origin.c_str() + std::strlen(kSeedOrigin)))) package = k->package;
    if (spec.packageFailures) seedPackages[c.id] = package;
    packages.push_back(std::move(package));
  }
  if (!(spec.seedPackageShare < 1)) return;
  std::vector<CandidateRecord> inTurns;
  for (const auto i : packageTurns(packages))
    inTurns.push_back(std::move(seedChecks[i]));
  seedChecks = std::move(inTurns);
}

void BeamSearch::Run::noteVerdict(std::int64_t candidate, const std::string& outcome, double distance) {
  if (outcome == "NOT_CHECKED") return;
  verdicts[candidate] = {passes(outcome), distance};
  if (seedPackages.count(candidate)) presumedFailing = presumedFailingSeeds(seedPackages, verdicts);
}

void BeamSearch::Run::adoptVerdict(std::int64_t candidate, const ContenderCheck& same, double distance) {
  ws.setSteerCandidateCheck(candidate, same.outcome, same.detail);
  noteVerdict(candidate, same.outcome, distance);
}

void BeamSearch::Run::submitContenders(const Generation& g) {
  // Until one passes, generation 0's seeds are checked nearest first, ahead
  // of everything else, one waiting at a time (the other waiting place stays
  // for candidates): real kernels, they most likely run, and give the run a
  // runnable best to beat and runnable lineages to keep. A seed that passes
  // but may not be the best (SteerSpec::newKernels) ends the queue too: its
  // lineage runs, and the checks go to its descendants (with the queue
  // going on, explore's runs to far targets spent their budget checking
  // 12 to 17 seeds of one package that all wrote nothing, and ended with
  // no best).
  if (!(seedSubmitted && checks->waiting(seedSubmitted)))
    for (; best.id == 0 && seedsQueued(); ++nextSeedCheck) {
      const auto& c = seedChecks[nextSeedCheck];
      if (checks->known(c.text) || !checks->submit(c.id, c.text, c.kernelName, c.distance, c.distance - kFirst)) continue;
      contenders[c.id] = toMember(c);
      seedSubmitted = c.id;
      ++nextSeedCheck;
      break;
    }
  // Generation 0's candidates are the seeds: their queue above keeps their order.
  if (generation == 0 && !seedChecks.empty()) return;
  // Then the generation's clean candidates nearer than the best, those of
  // lineages not known to fail first, each part nearest first; at most two
  // a generation are offered. The checks keep two waiting at most, in that
  // order (a nearer one takes the farthest's place), so they work on what
  // could become the best, not on a backlog. A candidate is held back when
  // its nearest ancestor that was checked failed, or is still being
  // checked, and is as near: an edit that changed nothing the target sees
  // most likely kept the fault too (one run checked 18 such descendants of
  // one kernel, all reading out of bounds as it did; another, 6 of a kernel
  // whose check was under way, all writing nothing as it did).
  // Among candidates as near, the one fewest edits from a verdict goes
  // first: a run's exact matches are often many, and each edit the search
  // made for the counts alone is one more chance that the kernel broke.
  std::vector<std::size_t> order;
  std::vector<char> fails(g.cands.size(), 0);
  std::vector<int> edits(g.cands.size(), 0);
  const auto pending = checks->pendingCandidates();
  for (std::size_t i = 0; i < g.cands.size(); ++i) {
    const auto& c = g.cands[i];
    if (c.compiled && c.unclean.empty() && c.id && (best.id == 0 || c.distance < best.distance)) {
      if (heldBack(c, pending) && !checks->known(c.text)) continue;
      order.push_back(i);
      fails[i] = failing(c.parent) ? 1 : 0;
      edits[i] = editsSinceChecked(c.parent);
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tuple(fails[a], g.cands[a].distance, edits[a]) < std::tuple(fails[b], g.cands[b].distance, edits[b]);
  });
  int sent = 0;
  for (const auto i : order) {
    if (sent >= 2) break;
    const auto& c = g.cands[i];
    if (const auto* k = checks->known(c.text)) { // the same text, checked before under another id
      if (k->outcome == "PASS" && mayBeBest(c.text) && (best.id == 0 || c.distance < best.distance))
        passedBest(toMember(c));
      adoptVerdict(c.id, *k, c.distance);
      continue;
    }
    if (checks->submit(c.id, c.text, c.kernelName, c.distance, c.distance + (fails[i] ? kFirst : 0))) {
      contenders[c.id] = toMember(c);
      ++sent;
    }
  }
}

void BeamSearch::Run::checkLineages() {
  // One such check at a time. First a step of the bisection of the newest
  // failure whose first failing step is not known yet, ahead of every
  // contender but the seeds: until that step is found, its other
  // descendants are no failing lineage, and they are offered as contenders
  // one by one (in one run, 30 distinct exact candidates below one broken
  // ancestor all ended CRASH, while the ancestor was never checked). Then,
  // when no contender waits but those of failing lineages (which nearly
  // never pass: in one run they kept the checks busy from the 35th
  // generation to the end), the beam member least known, ahead of those
  // (LineageVerdicts.h). One farther than the best gets the quick check
  // alone; one nearer (a seed left unchecked when another passed) is
  // checked as a contender. None until a seed passes or none is left: the
  // seeds' checks go one at a time, in their packages' turns.
  if (best.id == 0 && seedsQueued()) return; // the seeds' checks keep their order
  const auto pending = checks->pendingCandidates();
  if (lineageCheck && std::find(pending.begin(), pending.end(), lineageCheck) != pending.end()) return;
  enum class Sent { queued, known, busy, none };
  // Lineage checks take a free place in the queue only: they never push out
  // a waiting contender.
  auto submit = [&](std::int64_t id, double before) {
    const auto record = ws.steerCandidate(id);
    if (!record || !record->compiled) return Sent::none;
    if (const auto* k = checks->known(record->text)) { // its text was checked under another id
      if (k->outcome == "NOT_CHECKED") return Sent::none;
      adoptVerdict(id, *k, record->distance);
      return Sent::known;
    }
    const bool contender = best.id == 0 || record->distance < best.distance;
    if (!checks->submit(id, record->text, record->kernelName, record->distance, record->distance + before, contender,
                        false))
      return Sent::busy; // the queue is full, or this text waits already
    if (contender) contenders[id] = toMember(*record);
    lineageCheck = id;
    return Sent::queued;
  };
  while (!bisecting.empty()) {
    const auto step = bisectionStep(bisecting.back(), verdicts, parents);
    if (step == 0) {
      bisecting.pop_back();
      continue;
    }
    const auto sent = submit(step, -kFirst / 2);
    if (sent == Sent::queued || sent == Sent::busy) return; // a busy one is tried again next generation
    if (sent == Sent::none) bisecting.pop_back();          // no check to be had: give this one up
  }
  if (checks->nextPriority() < kFirst) return;
  std::vector<std::int64_t> ids;
  for (const auto& m : beam)
    ids.push_back(m.id);
  for (const auto id : membersToCheck(ids, verdicts, parents))
    if (submit(id, kFirst / 2) == Sent::queued) return;
}

bool BeamSearch::Run::exactPending() const {
  // Not for an exact match of a failing lineage: its check goes on while the
  // search does. Those nearly never pass, and waiting for each gave the
  // checks, not the search, most of a short run (docs/steering.md).
  if (!checks || !checks->pending()) return false;
  const auto pending = checks->pendingCandidates(); // not one pushed out of the queue by a nearer one
  for (const auto& [id, m] : contenders)
    if (m.distance <= kExact && (best.id == 0 || best.distance > kExact) && !failing(id) &&
        std::find(pending.begin(), pending.end(), id) != pending.end()) {
      const auto* k = checks->known(m.text);
      if (!k) return true;
    }
  return false;
}

/// The longest wait for the contenders' checks: six requests of the quick
/// check and six of each confirmation size (a cap; checks take seconds).
static double checkWait(const SteerSpec& spec) {
  return 6 * spec.checkTimeout * (1 + 2 * double(spec.confirmSizes.size()));
}

double BeamSearch::Run::checkWaitLeft(bool last) const {
  const double cap = checkWait(spec);
  if (spec.timeBudget <= 0) return cap;
  // A time budget bounds the waits too: during the search, what is left of
  // it; at the end, that and one check of every size, so the check in
  // flight may end.
  const double left = std::max(0.0, spec.timeBudget - elapsed());
  const double inFlight = last ? spec.checkTimeout * (1 + double(spec.confirmSizes.size())) : 0;
  return std::min(cap, left + inFlight);
}

// --- the search ----------------------------------------------------------------

BeamSearch::BeamSearch(store::Workspace& workspace, model::Sampler& sampler) : ws_(workspace), sampler_(sampler) {}

SteerResult BeamSearch::run(const SteerSpec& given, const CancelToken* cancel) {
  SteerSpec spec = given;
  if (spec.streams <= 0) spec.streams = sampler_.defaultStreams(); // stored as run, so a resume samples alike
  spec.validate();
  if (spec.seeding == Seeding::Auto) { // stored as chosen, so a resume seeds alike
    const auto choice = chooseSeeding(nearestCorpusProximity(ws_, spec), spec.generatedBelow,
                                      spec.target.space == "grewe", sampler_.conditioned());
    spec.seeding = choice.seeding;
    spec.seedingWhy = choice.why;
    if (spec.seeding != Seeding::Generated) spec.seedNear = 0; // nothing to hold, and the spec says so
    if (onMessage) onMessage(choice.why);
  }
  const auto& space = features::featureSpace(spec.target.space);
  store::Workspace::SteerRunRecord r;
  r.space = space.name;
  r.spaceVersion = space.version;
  r.target = spec.target.toJson();
  r.specHash = ws_.putSpec(spec.toJson());
  r.modelHash = sampler_.modelHash();
  const auto id = ws_.addSteerRun(r);
  return guarded(id, spec, cancel);
}

SteerResult BeamSearch::resume(std::int64_t run, const CancelToken* cancel) {
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
  const auto spec = SteerSpec::fromJson(json, "steering run " + std::to_string(run));
  if (spec.seeding == Seeding::Auto) // run() stores what auto chose: this spec was not written by a run
    throw InputError("steering run " + std::to_string(run) + "'s spec asks for auto seeding, which a run chooses "
                     "when it starts; start a new run instead");
  return guarded(run, spec, cancel);
}

SteerResult BeamSearch::guarded(std::int64_t run, const SteerSpec& spec, const CancelToken* cancel) {
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

SteerResult BeamSearch::go(std::int64_t id, const SteerSpec& spec, const CancelToken* cancel) {
  Run run(*this, id, spec, cancel);
  run.restore();
  std::optional<Clock::time_point> lastStart;
  for (;; ++run.generation) {
    const double lastGeneration = lastStart ? std::chrono::duration<double>(Clock::now() - *lastStart).count() : 0;
    // An exact match being checked may end the run: its check is waited for.
    if (run.exactPending()) run.checks->wait(run.checkWaitLeft(false));
    run.collectChecks();
    run.stopReason = run.stopBefore(lastGeneration);
    if (!run.stopReason.empty()) break;
    Generation g;
    g.started = Clock::now();
    lastStart = g.started;
    std::mt19937_64 rng(generationSeed(spec.seed, run.generation));
    // A stalled search starts again from the seeds; the run keeps its best.
    g.reseeded = spec.reseedAfter > 0 && run.generation > 0 &&
                 stalledGenerations(run.bests, run.since) >= spec.reseedAfter;
    if (g.reseeded) run.reseed(rng);
    // Escalation: larger holes and infills once the best has stalled.
    int holeMax = spec.holeMax, maxNewTokens = spec.maxNewTokens;
    if (spec.escalateAfter > 0) {
      const int factor = 1 << std::min(2, stalledGenerations(run.bests, run.since) / spec.escalateAfter);
      holeMax *= factor;
      maxNewTokens *= factor;
    }
    // Generation 0 of corpus or given seeds: nothing to sample.
    if (run.generation == 0 && !seedsFromTheModel(spec.seeding)) run.seedCandidates(g);
    else if (!run.infillCandidates(g, holeMax, maxNewTokens, rng)) break;
    run.keep(g, rng);
  }
  if (run.checks && run.stopReason != "cancelled") { // the contenders still in the checks: a last wait
    run.checks->wait(run.checkWaitLeft(true));
    run.collectChecks();
  }
  return run.result();
}

} // namespace steerbench::steer

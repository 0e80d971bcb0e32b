// bench-clean: what the clean-compile rules and the dead-code check refuse
// among real kernels. Steering refuses a candidate that breaks a rule
// (steer/CleanCompile.h) and will not take as its best one whose counts the
// -O1 IR shows to be dead (features/DeadCode.h); both were written for
// generated code, so on human-written kernels they should refuse little.
// For N random corpus kernels of roles train and capped (a fixed seed) it
// prints how many each rule refuses (alone, and as the first rule broken),
// how many the dead-code check flags and why, and the time both take.
//
// With --candidates FILE (a workspace bench-steer kept, --keep-workspace) it
// judges instead the steering candidates the drive checks ran, under the
// rules of this build, and prints per check outcome how many the rules now
// refuse and by which rule first: a rule worth having refuses many that
// failed the checks and few that passed. The relative rules are judged
// against the candidate's parent, as steering judges them; it also prints
// how many hold their sites at all, and what measuring a candidate costs
// with every rule and without cross-item-race. With --against seed the
// relative rules are judged against the candidate's seed (the first
// candidate of its lineage) instead: what a rule added since the run would
// have refused, since it would have refused the edit that brought the
// sites in, and with it every descendant that inherited them.
//
// Usage: bench-clean [--workspace FILE] [--sample 500] [--seed 1] [--show N] (print N refused kernels' reasons, and N
//                    kernels holding each rule judged against the parent)
//                    [--candidates FILE [--against parent|seed]]
#include "common/Paths.h"
#include "features/DeadCode.h"
#include "features/FeatureSpace.h"
#include "steer/CleanCompile.h"
#include "steer/MeasurePool.h"
#include "store/Workspace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace steerbench;

namespace {

/// --candidates: the checked candidates of a kept steering workspace, per outcome.
int judgeCheckedCandidates(const std::string& path, std::size_t show, bool againstSeed) {
  auto ws = store::Workspace::open(path, store::Workspace::Mode::OpenExisting);
  const auto rows =
      againstSeed
          ? ws.rows("WITH RECURSIVE up(cid, aid) AS ("
                    " SELECT id, id FROM steer_candidates WHERE compiled = 1 AND check_outcome NOT IN ('', 'NOT_CHECKED')"
                    " UNION ALL SELECT up.cid, s.parent_id FROM up JOIN steer_candidates s ON s.id = up.aid"
                    " WHERE coalesce(s.parent_id, 0) != 0) "
                    "SELECT c.id, c.check_outcome, c.text, c.distance,"
                    " CASE WHEN r.id = c.id THEN '' ELSE r.text END FROM steer_candidates c"
                    " JOIN up ON up.cid = c.id JOIN steer_candidates r ON r.id = up.aid"
                    " WHERE coalesce(r.parent_id, 0) = 0 ORDER BY c.id")
          : ws.rows("SELECT c.id, c.check_outcome, c.text, c.distance, coalesce(p.text, '') FROM "
                    "steer_candidates c LEFT JOIN steer_candidates p ON p.id = c.parent_id "
                    "WHERE c.compiled = 1 AND c.check_outcome NOT IN ('', 'NOT_CHECKED') ORDER BY c.id");
  std::printf("bench-clean: %zu checked steering candidates of %s, judged by this build's rules (the relative ones "
              "against the candidate's %s)\n",
              rows.size(), path.c_str(), againstSeed ? "seed" : "parent");
  const auto& space = features::featureSpace("grewe");
  const std::vector<double> origin(space.dimensions.size(), 0.0);
  const auto rules = steer::cleanRuleNames();
  struct Tally {
    std::size_t all = 0, exact = 0, refused = 0, refusedExact = 0;
    std::map<std::string, std::size_t> first;
    std::map<std::string, std::size_t> holding; ///< candidates holding a relative rule's sites, whatever the parent
  };
  std::map<std::string, Tally> byOutcome;
  std::map<std::string, steer::RelativeCounts> parentSites; ///< by parent text: many candidates share a parent
  // What the newest AST rule costs: each candidate measured again without it.
  auto withoutRaces = rules;
  withoutRaces.erase(std::find(withoutRaces.begin(), withoutRaces.end(), std::string("cross-item-race")));
  double withRules = 0, withoutRace = 0;
  std::size_t shown = 0;
  for (const auto& row : rows) {
    auto& t = byOutcome[row[1]];
    const bool exact = std::strtod(row[3].c_str(), nullptr) == 0;
    ++t.all;
    t.exact += exact;
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    auto m = steer::measureCandidate(row[2], space, origin, {}, rules);
    const auto t1 = Clock::now();
    (void)steer::measureCandidate(row[2], space, origin, {}, withoutRaces);
    withRules += std::chrono::duration<double>(t1 - t0).count();
    withoutRace += std::chrono::duration<double>(Clock::now() - t1).count();
    for (const auto& [rule, sites] : m.relative)
      t.holding[rule] += !sites.empty();
    if (m.unclean.empty() && !row[4].empty()) { // the relative rules: against the parent, as steering judges them (or the seed)
      auto [it, fresh] = parentSites.try_emplace(row[4]);
      if (fresh) it->second = steer::siteCounts(steer::measureCandidate(row[4], space, origin, {}, rules).relative);
      m.unclean = steer::relativeRuleAdded(m.relative, it->second);
    }
    if (m.unclean.empty()) continue;
    ++t.refused;
    t.refusedExact += exact;
    ++t.first[m.unclean.substr(0, m.unclean.find(':'))];
    if (shown < show) {
      std::printf("  candidate #%s (%s): %s\n", row[0].c_str(), row[1].c_str(), m.unclean.c_str());
      ++shown;
    }
  }
  std::printf("%-18s %8s %8s %14s  refused by (first rule broken)\n", "check outcome", "checked", "exact",
              "refused (exact)");
  for (const auto& [outcome, t] : byOutcome) {
    std::printf("%-18s %8zu %8zu %8zu (%zu)  ", outcome.c_str(), t.all, t.exact, t.refused, t.refusedExact);
    for (const auto& [rule, n] : t.first)
      std::printf(" %s %zu;", rule.c_str(), n);
    std::printf("\n");
  }
  if (!rows.empty())
    std::printf("time: measuring with the rules %.2f ms a candidate, without cross-item-race %.2f ms\n",
                1e3 * withRules / rows.size(), 1e3 * withoutRace / rows.size());
  // A relative rule refuses only what an edit adds; how many hold its sites at
  // all says how well it tells the outcomes apart.
  if (std::none_of(byOutcome.begin(), byOutcome.end(), [](const auto& o) { return !o.second.holding.empty(); }))
    return 0;
  std::printf("%-18s  holding the sites of a rule judged against the parent, whatever the parent holds\n", "");
  for (const auto& [outcome, t] : byOutcome) {
    std::printf("%-18s ", outcome.c_str());
    for (const auto& [rule, n] : t.holding)
      std::printf(" %s %zu;", rule.c_str(), n);
    std::printf("\n");
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string wsPath = defaultWorkspacePath();
  std::size_t sample = 500, show = 0;
  std::uint64_t seed = 1;
  std::string candidates;
  bool againstSeed = false;
  for (int i = 1; i < argc; ++i) {
    auto arg = [&](const char* name) { return !std::strcmp(argv[i], name) && i + 1 < argc; };
    if (arg("--workspace")) wsPath = argv[++i];
    else if (arg("--sample")) sample = std::strtoull(argv[++i], nullptr, 10);
    else if (arg("--seed")) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg("--show")) show = std::strtoull(argv[++i], nullptr, 10);
    else if (arg("--candidates")) candidates = argv[++i];
    else if (arg("--against") && (!std::strcmp(argv[i + 1], "parent") || !std::strcmp(argv[i + 1], "seed")))
      againstSeed = !std::strcmp(argv[++i], "seed");
    else {
      std::fprintf(stderr, "usage: see the comment at the top of bench/clean_bench.cpp\n");
      return 2;
    }
  }
  try {
    if (!candidates.empty()) return judgeCheckedCandidates(candidates, show, againstSeed);
    auto ws = store::Workspace::open(wsPath, store::Workspace::Mode::OpenExisting);
    auto rows = ws.rows("SELECT id, source FROM kernels WHERE role IN ('train', 'capped') ORDER BY id");
    std::mt19937_64 rng(seed);
    std::shuffle(rows.begin(), rows.end(), rng);
    rows.resize(std::min(rows.size(), sample));
    std::printf("bench-clean: %zu random corpus kernels of roles train and capped (seed %llu, %s)\n", rows.size(),
                (unsigned long long)seed, wsPath.c_str());
    const auto& space = features::featureSpace("grewe");
    const std::vector<double> origin(space.dimensions.size(), 0.0);
    const auto rules = steer::cleanRuleNames();
    std::map<std::string, std::size_t> first, alone, dead;
    std::size_t compiled = 0, clean = 0, measuredDead = 0, shown = 0;
    std::map<std::string, std::size_t> holding, shownSites; ///< kernels with findings of a relative rule, by rule
    double judging = 0, deadSeconds = 0;
    using Clock = std::chrono::steady_clock;
    for (const auto& row : rows) {
      auto t0 = Clock::now();
      const auto m = steer::measureCandidate(row[1], space, origin, {}, rules);
      judging += std::chrono::duration<double>(Clock::now() - t0).count();
      if (!m.compiled) continue;
      ++compiled;
      for (const auto& [rule, sites] : m.relative) {
        holding[rule] += !sites.empty();
        if (!sites.empty() && shownSites[rule] < show) { // what a seed keeps
          std::printf("  kernel #%s holds %s: %s\n", row[0].c_str(), rule.c_str(), sites.front().c_str());
          ++shownSites[rule];
        }
      }
      if (m.unclean.empty()) ++clean;
      else {
        ++first[m.unclean.substr(0, m.unclean.find(':'))];
        // Each rule alone: does the kernel break it?
        std::string also;
        for (const auto& r : rules)
          if (!steer::measureCandidate(row[1], space, origin, {}, {r}).unclean.empty()) {
            ++alone[r];
            also += " " + r;
          }
        if (shown < show) {
          std::printf("  kernel #%s: %s (breaks:%s)\n", row[0].c_str(), m.unclean.c_str(), also.c_str());
          ++shown;
        }
      }
      t0 = Clock::now();
      const auto d = features::checkDeadCode(m.text, m.kernel);
      deadSeconds += std::chrono::duration<double>(Clock::now() - t0).count();
      if (!d.measured) continue;
      ++measuredDead;
      if (!d.dead.empty()) {
        const std::string why = d.dead.find("writes no global") != std::string::npos ? "writes no global memory"
                                : d.dead.find("local memory that nothing") != std::string::npos ? "local memory nothing reads"
                                : d.dead.find("may not reach") != std::string::npos ? "divergent barrier"
                                : d.dead.find("memory accesses") != std::string::npos ? "dead memory accesses"
                                : d.dead.find("depends on its input") != std::string::npos ? "output ignores the input"
                                                                                           : "dead operations";
        ++dead[why];
        if (shown < show) {
          std::printf("  kernel #%s: DEAD_CODE: %s\n", row[0].c_str(), d.dead.c_str());
          ++shown;
        }
      }
    }
    std::printf("compiled: %zu; clean under every rule: %zu (%.1f%%)\n", compiled, clean,
                100.0 * double(clean) / double(std::max<std::size_t>(1, compiled)));
    std::printf("%-22s %10s %10s\n", "rule", "alone", "first");
    for (const auto& r : rules)
      std::printf("%-22s %6zu (%4.1f%%) %6zu\n", r.c_str(), alone[r], 100.0 * double(alone[r]) / double(std::max<std::size_t>(1, compiled)),
                  first[r]);
    for (const auto& r : steer::cleanRules())
      if (r.relative)
        std::printf("%s is judged against a candidate's parent, never alone: %zu of these kernels (%.1f%%) hold some, "
                    "and keep them as seeds\n",
                    r.name, holding[r.name], 100.0 * double(holding[r.name]) / double(std::max<std::size_t>(1, compiled)));
    std::size_t flagged = 0;
    for (const auto& [why, n] : dead)
      flagged += n;
    std::printf("dead-code check: %zu of %zu flagged (%.1f%%):", flagged, measuredDead,
                100.0 * double(flagged) / double(std::max<std::size_t>(1, measuredDead)));
    for (const auto& [why, n] : dead)
      std::printf(" %s %zu;", why.c_str(), n);
    std::printf("\ntime: measuring with the rules %.1f ms a kernel, the dead-code check %.1f ms a kernel\n",
                1000 * judging / double(std::max<std::size_t>(1, rows.size())),
                1000 * deadSeconds / double(std::max<std::size_t>(1, measuredDead)));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-clean: %s\n", e.what());
    return 1;
  }
  return 0;
}

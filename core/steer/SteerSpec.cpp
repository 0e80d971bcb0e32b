#include "steer/SteerSpec.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "features/FeatureSpace.h"
#include "steer/CleanCompile.h"

#include <llvm/Support/JSON.h>

namespace steerbench::steer {

const char* seedingName(Seeding s) {
  switch (s) {
  case Seeding::Empty: return "empty";
  case Seeding::Nearest: return "nearest";
  case Seeding::Given: return "given";
  case Seeding::Generated: return "generated";
  case Seeding::Auto: return "auto";
  }
  return "?";
}

std::vector<std::string> defaultCleanRules() { return cleanRuleNames(); }

std::string SteerSpec::toJson() const {
  std::string rules = "[";
  for (std::size_t i = 0; i < cleanRules.size(); ++i)
    rules += (i ? "," : "") + jsonString(cleanRules[i]);
  rules += "]";
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
         ",\"escalate_after\":" + std::to_string(escalateAfter) + ",\"restarts\":" + std::to_string(restarts) + ",\"redraws\":" + std::to_string(redraws) +
         ",\"combine\":" + std::to_string(combine) + ",\"combine_greedy\":" + std::to_string(combineGreedy) + ",\"aliases\":" + std::to_string(aliases) + ",\"alias_seeds\":" + (aliasSeeds ? "true" : "false") + ",\"max_per_vector\":" + std::to_string(maxPerVector) +
         ",\"reseed_after\":" + std::to_string(reseedAfter) + ",\"reseed_draw\":" + (reseedDraw ? "true" : "false") +
         ",\"fill_insertions\":" + (fillInsertions ? "true" : "false") +
         ",\"clean_seeds\":" + (cleanSeeds ? "true" : "false") + ",\"seed_near\":" + formatNumber(seedNear) + ",\"seed_lean\":" + formatNumber(seedLean) + ",\"seed_restarts\":" + std::to_string(seedRestarts) + ",\"seed_local\":" + formatNumber(seedLocal) +
         ",\"guide_logits\":" + formatNumber(guideLogits) +
         ",\"endhole_bias\":" + formatNumber(endHoleBias) + ",\"endhole_ramp\":" + formatNumber(endHoleRamp) + ",\"guard\":" + (guard ? "true" : "false") + ",\"guard_types\":" + (guardTypes ? "true" : "false") + ",\"guard_calls\":" + (guardCalls ? "true" : "false") + ",\"check\":" + (check ? "true" : "false") + ",\"context\":" + std::to_string(context) +
         ",\"scale\":" + jsonNumbers(scale) +
         ",\"seeding\":\"" + seedingName(seeding) + "\",\"generated_below\":" + formatNumber(generatedBelow) +
         (seedingWhy.empty() ? "" : ",\"seeding_why\":" + jsonString(seedingWhy)) + ",\"nearest\":" + std::to_string(nearest) +
         ",\"seed_package_share\":" + formatNumber(seedPackageShare) +
         ",\"seed_roles\":" + roles + ",\"seeds\":" + given + ",\"time_budget\":" + formatNumber(timeBudget) +
         ",\"patience\":" + std::to_string(patience) + ",\"seed\":" + std::to_string(seed) +
         ",\"batch\":" + std::to_string(batchSize) + ",\"streams\":" + std::to_string(streams) +
         ",\"clean_rules\":" + rules + ",\"drive_check\":" + (driveCheck ? "true" : "false") + ",\"dead_code\":" + (deadCode ? "true" : "false") +
         ",\"check_timeout\":" + formatNumber(checkTimeout) + ",\"confirm_timeout\":" + formatNumber(confirmTimeout) + ",\"confirm_sizes\":" + jsonSizes(confirmSizes) + ",\"race_check_size\":" + std::to_string(raceCheckSize) +
         ",\"failing_members\":" + std::to_string(failingMembers) +
         ",\"seeds_refill\":" + (seedsRefill ? "true" : "false") + ",\"repairs\":" + (repairs ? "true" : "false") +
         ",\"lineage_checks\":" + (lineageChecks ? "true" : "false") +
         ",\"package_failures\":" + (packageFailures ? "true" : "false") +
         ",\"parallel_seeds\":" + (parallelSeeds ? "true" : "false") +
         ",\"new_kernels\":" + (newKernels ? "true" : "false") + "}";
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
  s.redraws = 0; // and before redraws kept an infill that rebuilt its hole
  integer("redraws", s.redraws);
  s.combine = 0; // and before combining infills made none
  integer("combine", s.combine);
  s.combineGreedy = 0; // and before greedy combining made none
  integer("combine_greedy", s.combineGreedy);
  s.aliases = 0; // and before aliases none was made
  integer("aliases", s.aliases);
  s.aliasSeeds = o->getBoolean("alias_seeds").value_or(false); // and before alias seeds kernels were ranked as they are
  s.maxPerVector = 0; // and before the cap let any number of members share a vector
  integer("max_per_vector", s.maxPerVector);
  s.reseedAfter = 0; // and before reseeding searched on from a stalled beam
  integer("reseed_after", s.reseedAfter);
  s.reseedDraw = o->getBoolean("reseed_draw").value_or(false); // and before draws a reseed took generation 0's beam
  s.fillInsertions = o->getBoolean("fill_insertions").value_or(false); // and before fills an insertion could stay empty
  s.cleanSeeds = o->getBoolean("clean_seeds").value_or(false); // and before seeds from nothing were sampled plain
  s.seedNear = 0; // and before generated seeds were held to the target
  real("seed_near", s.seedNear);
  real("seed_lean", s.seedLean); // absent: 0, as the member's default
  s.seedRestarts = 0; // and before seed restarts a given-up seed had one try
  integer("seed_restarts", s.seedRestarts);
  s.seedLocal = 0; // and before local seeds every seed began as kernel void [HOLE]
  real("seed_local", s.seedLocal);
  s.guideLogits = 0; // and before guided infills sampled the model as it is
  real("guide_logits", s.guideLogits);
  integer("nearest", s.nearest);
  s.seedPackageShare = 1; // and before the share took the nearest, whatever their packages
  real("seed_package_share", s.seedPackageShare);
  real("time_budget", s.timeBudget);
  real("endhole_bias", s.endHoleBias);
  s.endHoleRamp = 0; // a run stored before the ramp had a flat prior
  real("endhole_ramp", s.endHoleRamp);
  s.guard = o->getBoolean("guard").value_or(false); // a run stored before the guard existed sampled without it
  s.guardTypes = o->getBoolean("guard_types").value_or(false); // and before its rules of types and scopes, without them
  s.guardCalls = o->getBoolean("guard_calls").value_or(false);  // and before its rule of builtin calls, without it
  s.check = o->getBoolean("check").value_or(false); // likewise the compiler checks
  integer("context", s.context);
  integer("patience", s.patience);
  integer("batch", s.batchSize);
  s.streams = 1; // a run stored before streams existed sampled with one
  integer("streams", s.streams);
  s.cleanRules.clear(); // a run stored before the clean-compile rules kept any candidate that compiled
  if (const auto* a = o->getArray("clean_rules"))
    for (const auto& v : *a)
      if (auto r = v.getAsString()) s.cleanRules.push_back(r->str());
  s.driveCheck = o->getBoolean("drive_check").value_or(false); // and took the nearest, runnable or not
  s.deadCode = o->getBoolean("dead_code").value_or(false);     // and kept candidates whose counts were dead
  real("check_timeout", s.checkTimeout);
  s.confirmTimeout = 2 * s.checkTimeout; // as runs stored without it confirmed
  real("confirm_timeout", s.confirmTimeout);
  s.confirmSizes.clear(); // a run stored before confirmation checked at one size on one device
  if (const auto* a = o->getArray("confirm_sizes"))
    for (const auto& v : *a)
      if (auto x = v.getAsUINT64(); x && *x > 0) s.confirmSizes.push_back(*x);
  s.raceCheckSize = 0; // and ran no check in Oclgrind
  if (const auto x = o->getInteger("race_check_size"); x && *x > 0) s.raceCheckSize = std::uint64_t(*x);
  s.failingMembers = -1; // and kept any number of members of failing lineages
  integer("failing_members", s.failingMembers);
  s.seedsRefill = o->getBoolean("seeds_refill").value_or(false); // and refilled the beam from failing lineages
  s.repairs = o->getBoolean("repairs").value_or(false); // and repaired no failing candidate
  s.lineageChecks = o->getBoolean("lineage_checks").value_or(false); // and checked no lineage
  s.packageFailures = o->getBoolean("package_failures").value_or(false); // and presumed nothing of a package
  s.parallelSeeds = o->getBoolean("parallel_seeds").value_or(false); // and took seeds that run as one work-item
  s.newKernels = o->getBoolean("new_kernels").value_or(false); // and took a kernel driven before as well
  if (const auto* v = o->get("seed"))
    if (auto x = v->getAsUINT64()) s.seed = *x;
  if (const auto* a = o->getArray("scale"))
    for (const auto& v : *a)
      if (auto d = v.getAsNumber()) s.scale.push_back(*d);
  s.seeding = Seeding::Nearest; // runs stored without a seeding had nearest seeds
  if (auto x = o->getString("seeding")) {
    if (*x == "empty") s.seeding = Seeding::Empty;
    else if (*x == "given") s.seeding = Seeding::Given;
    else if (*x == "generated") s.seeding = Seeding::Generated;
    else if (*x == "auto") s.seeding = Seeding::Auto;
    else s.seeding = Seeding::Nearest;
  }
  if (const auto* v = o->get("generated_below"))
    if (auto x = v->getAsNumber()) s.generatedBelow = *x;
  if (auto x = o->getString("seeding_why")) s.seedingWhy = x->str();
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

void SteerSpec::validate() const {
  const auto& space = features::featureSpace(target.space);
  if (target.values.size() != space.dimensions.size())
    throw InputError("the target has " + std::to_string(target.values.size()) + " values; the " + space.name +
                     " space has " + std::to_string(space.dimensions.size()) + " dimensions");
  if (!scale.empty() && scale.size() != space.dimensions.size())
    throw InputError("--scale has " + std::to_string(scale.size()) + " factors; the " + space.name +
                     " space has " + std::to_string(space.dimensions.size()) + " dimensions");
  if (width < 1 || candidatesPerMember < 1 || depth < 0 || holeMin < 0 ||
      holeMax < holeMin || swapProbability < 0 || swapProbability > 1 ||
      !(directedHoles >= 0 && directedHoles <= 1) || escalateAfter < 0 || restarts < 0 || seedRestarts < 0 || redraws < 0 ||
      combine < 0 || combineGreedy < 0 || aliases < 0 || maxPerVector < 0 || reseedAfter < 0 || failingMembers < -1)
    throw InputError("bad steering parameters: width and candidates must be at least 1, 0 <= hole min <= hole max, "
                     "the swap probability and the share of directed holes within [0, 1], and escalation, "
                     "restarts, redraws, combined and aliased candidates, members per vector and reseeding at least 0, failing members at least "
                     "-1 (any)");
  if (seeding == Seeding::Given && seeds.empty()) throw InputError("no seed kernels given");
  if (!(seedLocal >= 0 && seedLocal <= 1)) throw InputError("the share of seeds from a local buffer must be within [0, 1]");
  if (!(seedPackageShare > 0 && seedPackageShare <= 1))
    throw InputError("the seeds' share from one package must be more than 0 and at most 1");
  if (!(generatedBelow >= 0 && generatedBelow <= 1))
    throw InputError("auto seeding's proximity threshold must be within [0, 1]");
  if (seeding == Seeding::Generated && space.name != "grewe")
    throw InputError("generated seeds are asked for Grewe counts; the target is in the " + space.name +
                     " space (seed from the nearest kernels or the empty kernel)");
  for (const auto& r : cleanRules)
    if (!cleanRule(r)) throw InputError("no clean-compile rule is called '" + r + "' (the rules: " + cleanRuleList() + ")");
  if (!(checkTimeout > 0)) throw InputError("the contenders' check timeout must be more than 0 seconds");
  if (!(confirmTimeout > 0)) throw InputError("the contenders' confirmation timeout must be more than 0 seconds");
  if (raceCheckSize % 64)
    throw InputError("a race check at " + std::to_string(raceCheckSize) +
                     " work-items: the checks need a multiple of their work-group size, 64");
  for (const auto n : confirmSizes) // checks use work-groups of 64
    if (n == 0 || n % 64)
      throw InputError("a confirmation size of " + std::to_string(n) +
                       " work-items: the checks need a multiple of their work-group size, 64");
}

} // namespace steerbench::steer

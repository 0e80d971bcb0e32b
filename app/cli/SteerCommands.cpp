// steerbench-cli steer: a beam search toward a target in a feature space;
// runs and lineage: what steering runs did, from seed to best.
#include "cli/SteerCommands.h"

#include "cli/DriveCommands.h"
#include "cli/Interrupt.h"
#include "cli/ModelCommands.h"

#include "common/Error.h"
#include "common/Paths.h"
#include "common/TextFormat.h"
#include "drive/host/DriveJob.h"
#include "drive/host/WorkerProcess.h"
#include "engine/FeatureTable.h"
#include "features/Distance.h"
#include "explore/Explorer.h"
#include "model/Sampler.h"
#include "model/Trainer.h"
#include "source/SourceFile.h"
#include "steer/BeamSearch.h"
#include "steer/CleanCompile.h"
#include "steer/Combining.h"
#include "steer/Lineage.h"
#include "steer/PlotTarget.h"
#include "steer/RunSummary.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace steerbench::cli {
namespace {

/// For people: 4 significant digits (distances, rates); the workspace keeps every digit.
std::string shortNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string seconds(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", v);
  return buf;
}

std::pair<int, int> parseRange(const std::string& text, const std::string& what) {
  const auto dash = text.find('-');
  try {
    std::size_t used = 0;
    if (dash == std::string::npos) {
      const int v = std::stoi(text, &used);
      if (used == text.size() && v >= 0) return {v, v};
    } else {
      const int a = std::stoi(text.substr(0, dash), &used);
      std::size_t used2 = 0;
      const int b = std::stoi(text.substr(dash + 1), &used2);
      if (used == dash && used2 == text.size() - dash - 1 && a >= 0 && b >= a) return {a, b};
    }
  } catch (const std::exception&) {
  }
  throw UsageError(what + ": expected MIN-MAX (0 <= MIN <= MAX), got \"" + text + "\"");
}

std::string readText(const std::string& path) { return source::readSourceFile(path); }

/// A PCA target is fitted on the workspace at `wsPath` (it must exist); the others need none.
steer::Target targetFrom(const CommandLine& cl, const std::string& wsPath) {
  const std::string space = cl.value("space");
  int given = int(cl.has("target")) + int(cl.has("target-kernel")) + int(cl.has("target-devmap")) +
              int(cl.has("target-pca"));
  if (given != 1)
    throw UsageError("give exactly one target: --target, --target-kernel, --target-devmap or --target-pca");
  if (cl.has("target")) {
    const auto t = cl.value("target");
    if (std::filesystem::is_regular_file(t)) {
      auto target = steer::Target::fromJson(readText(t), t);
      if (cl.has("space") && target.space != space)
        throw InputError(t + " is a target in the " + target.space + " space, not " + space);
      return target;
    }
    return steer::targetFromAssignments(space, t);
  }
  if (cl.has("target-kernel")) return steer::targetFromKernelFile(space, cl.value("target-kernel"), cl.value("kernel"));
  if (cl.has("target-devmap")) {
    if (space != "grewe") throw UsageError("--target-devmap gives Grewe targets: use --space grewe");
    if (!cl.has("row")) throw UsageError("--target-devmap needs --row BENCHMARK|INDEX");
    return steer::targetFromDevMap(cl.value("target-devmap"), cl.value("row"));
  }
  const auto xy = cl.value("target-pca");
  const auto comma = xy.find(',');
  if (comma == std::string::npos) throw UsageError("--target-pca: expected X,Y");
  const double x = parseNumber(xy.substr(0, comma), "--target-pca X", -1e12, 1e12);
  const double y = parseNumber(xy.substr(comma + 1), "--target-pca Y", -1e12, 1e12);
  const auto ws = store::Workspace::open(wsPath, store::Workspace::Mode::OpenExisting);
  const auto table = engine::loadWorkspaceTable(ws, features::featureSpace(space));
  auto rows = engine::corpusRows(table); // as the workbench fits PCA-2 on the corpus
  if (rows.size() < 2) rows = table.rows;
  if (rows.size() < 2)
    throw InputError(ws.path() + " has fewer than two kernels with " + space + " features to fit the PCA on");
  return steer::targetFromPcaClick(space, features::Pca::fit(rows), rows, x, y).target;
}

std::vector<double> parseScale(const std::string& text, const std::string& space) {
  const auto& fs = features::featureSpace(space);
  std::vector<double> scale;
  if (text.find('=') != std::string::npos) {
    const auto t = steer::targetFromAssignments(space, text); // same NAME=VALUE syntax
    scale.assign(fs.dimensions.size(), 1.0);
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
      const auto eq = item.find('=');
      auto name = item.substr(0, eq);
      name.erase(0, name.find_first_not_of(" \t"));
      name.erase(name.find_last_not_of(" \t") + 1);
      for (std::size_t i = 0; i < fs.dimensions.size(); ++i)
        if (fs.dimensions[i] == name) scale[i] = t.values[i];
    }
    return scale;
  }
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    scale.push_back(parseNumber(item, "--scale", 0, 1e12));
  if (scale.size() != fs.dimensions.size())
    throw UsageError("--scale: " + std::to_string(scale.size()) + " factors for the " + space + " space's " +
                     std::to_string(fs.dimensions.size()) + " dimensions (or give NAME=FACTOR pairs)");
  return scale;
}

} // namespace

namespace {

std::string distanceText(double d) { return d < 0 ? "-" : shortNumber(d); }

} // namespace

void addSearchOptions(CommandLine& cl) {
  cl.option({"width", 'k', "K", "beam width", false, "16"});
  cl.option({"candidates", 'c', "N", "infills per beam member and generation", false, "4"});
  cl.option({"depth", 'd', "N", "generations after the seeds", false, "100000"});
  cl.option({"swap", 0, "P", "probability of swapping a kept slot for a lower-ranked candidate", false, "0.15"});
  cl.option({"temperature", 'T', "T", "sampling temperature", false, "0.8"});
  cl.option({"hole", 0, "MIN-MAX", "tokens a hole replaces, uniform in MIN-MAX", false, "0-3"});
  cl.option({"hole-fraction", 0, "F", "a hole replaces at most this share of the kernel's tokens", false, "0.25"});
  cl.option({"directed-holes", 0, "P", "share of holes aimed at the tokens of a feature that is off target (Grewe: "
                                        "operators, comparisons, __global and __local uses, atomics); the rest go "
                                        "anywhere", false, "0.5"});
  cl.option({"no-rename-holes", 0, "", "directed holes are never renames (by default a directed hole for a localmem "
                                   "(coalesced) count that is too low is, half the time, one token on the name of a "
                                   "__global (__local) subscript, for the model to write a name of the other kind)"});
  cl.option({"max-new-tokens", 0, "N", "cap on the tokens one infill adds", false, "8"});
  cl.option({"escalate-after", 0, "N", "after N generations without a better best, holes and infills may be twice as "
                                       "long, after 2N four times (0: never)", false, "0"});
  cl.option({"restarts", 0, "N", "an infill given up, or still in error once the check patience is spent, starts "
                                 "again at most N times", false, "0"});
  cl.option({"redraws", 0, "N", "an infill that puts back exactly the tokens its hole replaced (its beam member "
                                "again) is drawn again at most N times", false, "0"});
  cl.option({"combine", 0, "N", "also try, each generation, up to N pairs of a beam member's infills applied together "
                                "(this generation's with each other or with the last 8 generations'), those whose "
                                "summed feature changes predict a kernel nearer than the member (0: none)", false, "16"});
  cl.option({"aliases", 0, "N", "also try, each generation, up to N beam members whose Grewe mem count is above the "
                                "target's with some of a buffer's uses through a pointer declared in the body "
                                "(`__global float *q = a;`): mem falls, nothing the kernel does changes (0: none)",
              false, "4"});
  cl.option({"alias-seeds", 0, "", "nearest seeding in the Grewe space ranks a kernel whose mem is above the target's "
                                  "by the distance it reaches with some buffer uses through aliases, and seeds with "
                                  "it so aliased (by default kernels are ranked as they are)"});
  cl.option({"max-per-vector", 0, "N", "at most N beam members share one feature vector, so the beam keeps other "
                                       "directions besides rewordings of the best (0: no cap)", false, "4"});
  cl.option({"reseed-after", 0, "N", "after N generations without a better best in the beam, the beam starts again "
                                     "from the seeds with new random draws; the run keeps its best (0: never)",
             false, "100"});
  cl.option({"guide", 0, "B", "guided infills: added to the logits of the tokens that move a feature the beam member "
                             "lacks toward the target (Grewe: operators, comparisons, the kernel's __global and "
                             "__local names, atomics), taken from those of a feature it has too much of (0: none)",
             false, "1"});
  cl.option({"endhole-bias", 0, "B", "added to the [ENDHOLE] logit of infills (> 0: shorter infills)", false, "4"});
  cl.option({"endhole-ramp", 0, "R", "added to the [ENDHOLE] logit again for each token an infill has written "
                                     "(> 0: a long infill closes at its next chance instead of being lost at "
                                     "--max-new-tokens)", false, "0"});
  cl.option({"unguarded", 0, "", "infill without the grammar guard (mismatched brackets, undeclared names allowed)"});
  cl.option({"unchecked", 0, "", "infill without compiler checks (by default each statement an infill writes is "
                                 "compiled as it ends, and sampled again if it has an error)"});
  cl.option({"context", 0, "N", "tokens the model sees around a hole (0: as many as it takes)", false, "64"});
  cl.option({"scale", 0, "F,...|NAME=F,...", "per-dimension factors applied to differences (default: none)"});
  cl.option({"seeding", 0, "MODE", "auto (generated when the nearest corpus kernel is below --generated-below "
                                   "proximity and the model can be told the target, else nearest), nearest (corpus "
                                   "kernels nearest the target), empty (kernel void [HOLE]), generated (kernel void "
                                   "[HOLE] from a model told the target's Grewe counts: one trained with --conditions) "
                                   "or given (--seed-kernel)", false, "auto"});
  cl.option({"generated-below", 0, "P", "with --seeding auto: seeds generated for the target when the nearest corpus "
                                        "kernel's relative proximity is below P", false,
             formatNumber(steer::kGeneratedBelow)});
  cl.option({"seed-near", 0, "P", "with --seeding generated (or auto, when it generates): hold the seeds to the target's counts (as sample --near: "
                                 "a statement that takes them past where they can come within proximity P is written "
                                 "again, a seed short of P may not end; held seeds are also sampled clean; 0: the "
                                 "conditions alone)", false, "0.8"});
  cl.option({"seed-restarts", 0, "N", "with --seeding generated or empty: a seed given up, or still in error once the "
                                     "check patience is spent, starts again from the empty feed up to N times (--restarts "
                                     "when more)", false, "3"});
  cl.option({"seed-local", 0, "F", "with --seeding generated or empty and a target with local memory accesses (Grewe's "
                                  "localmem): this share of the seeds starts from a kernel whose first argument is a "
                                  "local buffer (the model seldom writes one on its own)", false, "0.5"});
  cl.option({"nearest", 0, "N", "corpus kernels to seed from: the nearest that compile cleanly", false, "32"});
  cl.option({"seed-package-share", 0, "F", "at most this share of the nearest seeds from one package, whose drive checks "
                                           "then take the packages in turn (1: the nearest, whatever their packages)",
             false, "0.75"});
  cl.option({"allow", 0, "RULE,...|all", "clean-compile rules not enforced (by default a candidate with unused values, "
                                       "comma tricks, implicit int, unreachable code, a loop that never changes its "
                                       "condition, tautologies, floats made indices, uninitialised reads, ... is never "
                                       "kept; dead-code: a candidate that could enter the beam and whose counts its -O1 IR shows to be dead is "
                                       "not kept either; docs/steering.md lists the rules)"});
  cl.option({"no-drive-check", 0, "", "take the nearest candidate as the best, runnable or not (by default a candidate "
                                      "becomes the best only once its -O1 IR shows no dead counts and the drive worker "
                                      "PASSes it at 4096 work-items on one device, then at every --confirm-sizes on "
                                      "every device)"});
  cl.option({"check-timeout", 0, "SECONDS", "time limit of each request of a contender's quick drive check, in "
                                            "CPU seconds of its niced worker", false, "5"});
  cl.option({"confirm-timeout", 0, "SECONDS", "time limit of each request of a contender's confirmation at "
                                              "--confirm-sizes, in CPU seconds (drive's default: 20)", false, "20"});
  cl.option({"confirm-sizes", 0, "N,...|none", "global sizes a contender that passed the quick check is then driven "
                                               "at on every device, as drive labels it ('none': the quick check alone)",
             false, "4096,65536"});
  cl.option({"race-check", 0, "N", "with drive checks, a contender that passed its confirmation runs the checks once "
                                    "more inside Oclgrind's simulator at N work-items (Debian's oclgrind), whose race "
                                    "and memory checkers fail a data race or an out-of-bounds access that PoCL's runs "
                                    "let through (0: not)", false, "0"});
  cl.option({"failing-members", 0, "N|any", "with drive checks, at most N beam members come from a lineage that failed "
                                            "them (the member or its nearest checked ancestor); the rest of the beam "
                                            "goes to lineages that passed or were not checked yet (0: failing ones only when too few "
                                            "others are left)", false, "0"});
  cl.option({"seeds-refill", 0, "", "with drive checks, beam places that members of failing lineages would fill "
                                    "go to seeds outside them (generation 0's beam); a failing member is kept only "
                                    "when no other is left"});
  cl.option({"repairs", 0, "", "with drive checks, repair failing candidates: a candidate nearer than the best that "
                               "fails them comes back as repairs, each edit since its nearest ancestor that passed "
                               "(or its seed, checked first) undone in one"});
  cl.option({"lineage-checks", 0, "", "with drive checks, check lineages too, not only seeds and contenders: the "
                                     "ancestors of a failing candidate are bisected to find the edit that broke it, "
                                     "and while the checks are idle the least known beam member is checked; a "
                                     "failing one takes its descendants out of the beam"});
  cl.option({"no-package-failures", 0, "", "with drive checks, judge each seed by its own check only (by default "
                                          "an unchecked seed of a package whose checked seeds all failed counts as "
                                          "failing, with its descendants)"});
  cl.option({"new-kernels", 0, "", "with drive checks, the best is a kernel the workspace has not driven: a "
                                  "candidate whose text a driven kernel has passes as a stepping stone only (always "
                                  "on in explore)"});
}

namespace {

/// Where a runnable best passed: the quick check's device, the
/// confirmation's sizes on every device, and Oclgrind's run.
std::string checkedWhere(const steer::SteerResult& r) {
  if (r.confirmSizes.empty()) return "on " + r.checkDevice;
  std::string sizes;
  for (const auto n : r.confirmSizes)
    sizes += (sizes.empty() ? "" : " and ") + std::to_string(n);
  return "on every device at " + sizes + " work-items" +
         (r.raceCheckSize ? ", and in Oclgrind at " + std::to_string(r.raceCheckSize) : std::string());
}

} // namespace

void readSearchOptions(const CommandLine& cl, steer::SteerSpec& spec) {
    spec.width = int(cl.unsignedValue("width", 1, 4096));
    spec.candidatesPerMember = int(cl.unsignedValue("candidates", 1, 4096));
    spec.depth = int(cl.unsignedValue("depth", 0, 100000));
    spec.swapProbability = cl.numberValue("swap", 0, 1);
    spec.temperature = cl.numberValue("temperature", 0, 100);
    std::tie(spec.holeMin, spec.holeMax) = parseRange(cl.value("hole"), "--hole");
    spec.holeMaxFraction = cl.numberValue("hole-fraction", 0, 1);
    spec.directedHoles = cl.numberValue("directed-holes", 0, 1);
    spec.renameHoles = !cl.has("no-rename-holes");
    spec.maxNewTokens = int(cl.unsignedValue("max-new-tokens", 1, 100000));
    spec.escalateAfter = int(cl.unsignedValue("escalate-after", 0, 100000));
    spec.restarts = int(cl.unsignedValue("restarts", 0, 1000));
    spec.redraws = int(cl.unsignedValue("redraws", 0, 1000));
    spec.combine = int(cl.unsignedValue("combine", 0, 100000));
    spec.aliases = int(cl.unsignedValue("aliases", 0, 100000));
    spec.aliasSeeds = cl.has("alias-seeds");
    spec.maxPerVector = int(cl.unsignedValue("max-per-vector", 0, 100000));
    spec.failingMembers = cl.value("failing-members") == "any" ? -1 : int(cl.unsignedValue("failing-members", 0, 100000));
    spec.seedsRefill = cl.has("seeds-refill");
    spec.repairs = cl.has("repairs");
    spec.lineageChecks = cl.has("lineage-checks");
    spec.packageFailures = !cl.has("no-package-failures");
    if (cl.has("new-kernels")) spec.newKernels = true;
    spec.reseedAfter = int(cl.unsignedValue("reseed-after", 0, 100000));
    spec.guideLogits = cl.numberValue("guide", -100, 100);
    spec.endHoleBias = cl.numberValue("endhole-bias", -100, 100);
    spec.endHoleRamp = cl.numberValue("endhole-ramp", -100, 100);
    spec.guard = !cl.has("unguarded");
    spec.check = !cl.has("unchecked");
    spec.context = int(cl.unsignedValue("context", 0, 100000));
    if (cl.has("scale")) spec.scale = parseScale(cl.value("scale"), spec.target.space);
    spec.seedPackageShare = cl.numberValue("seed-package-share", 1e-9, 1);
    const auto mode = cl.value("seeding");
    if (mode == "auto") spec.seeding = steer::Seeding::Auto;
    else if (mode == "nearest") spec.seeding = steer::Seeding::Nearest;
    else if (mode == "empty") spec.seeding = steer::Seeding::Empty;
    else if (mode == "given") spec.seeding = steer::Seeding::Given;
    else if (mode == "generated") spec.seeding = steer::Seeding::Generated;
    else throw UsageError("--seeding: expected auto, nearest, empty, generated or given, got \"" + mode + "\"");
    spec.generatedBelow = cl.numberValue("generated-below", 0, 1);
    if (cl.has("generated-below") && spec.seeding != steer::Seeding::Auto)
      throw UsageError("--generated-below is auto seeding's threshold: give it with --seeding auto");
    spec.seedNear = cl.numberValue("seed-near", 0, 0.999);
    const bool mayGenerate = spec.seeding == steer::Seeding::Generated || spec.seeding == steer::Seeding::Auto;
    if (cl.has("seed-near") && spec.seedNear > 0 && !mayGenerate)
      throw UsageError("--seed-near holds seeds generated for the target: give it with --seeding generated or auto");
    if (!mayGenerate) spec.seedNear = 0; // nothing to hold
    spec.seedRestarts = int(cl.unsignedValue("seed-restarts", 0, 1000));
    spec.seedLocal = cl.numberValue("seed-local", 0, 1);
    if (cl.has("allow")) {
      std::stringstream in(cl.value("allow"));
      std::string rule;
      while (std::getline(in, rule, ',')) {
        if (rule == "all") {
          spec.cleanRules.clear();
          spec.deadCode = false;
          break;
        }
        if (rule == "dead-code") {
          spec.deadCode = false;
          continue;
        }
        const auto at = std::find(spec.cleanRules.begin(), spec.cleanRules.end(), rule);
        if (at == spec.cleanRules.end())
          throw UsageError("--allow: no clean-compile rule is called '" + rule + "' (the rules: " +
                           steer::cleanRuleList() + ", dead-code, or all)");
        spec.cleanRules.erase(at);
      }
    }
    spec.driveCheck = !cl.has("no-drive-check");
    spec.checkTimeout = cl.numberValue("check-timeout", 0.1, 3600);
    spec.confirmTimeout = cl.numberValue("confirm-timeout", 0.1, 3600);
    spec.confirmSizes = cl.value("confirm-sizes") == "none" ? std::vector<std::uint64_t>{}
                                                            : sizeList(cl, "confirm-sizes", false);
    spec.raceCheckSize = cl.unsignedValue("race-check", 0, 1u << 24);
    if (spec.raceCheckSize && spec.driveCheck && !spec.raceCheckRuns()) // it would never run
      throw UsageError("--race-check runs after the confirmation: it needs --confirm-sizes (not none)");
    if (spec.raceCheckSize && spec.driveCheck && drive::oclgrindPath().empty())
      throw UsageError("--race-check needs Oclgrind (Debian: apt install oclgrind)");
}


CommandLine steerCommandLine() {
  CommandLine cl("steer", "Steer generated kernels toward a target vector in a feature space.", "",
                 "A beam search (docs/steering.md): generation 0 holds the seeds (by default the corpus\n"
                 "kernels nearest the target); each later generation puts a hole of random position and\n"
                 "length into every beam member --candidates times, lets the model infill them all in\n"
                 "one batch while finished samples compile and are measured on the other cores, and keeps\n"
                 "the --width nearest distinct kernels, each slot but the best swapped with probability\n"
                 "--swap for a random lower-ranked one. It stops at an exact match, --depth, --time-budget\n"
                 "or --patience generations without a better best of the run. With --reseed-after, a\n"
                 "stalled beam starts again from the seeds. Every candidate, its parent, the span\n"
                 "its hole replaced, its compile status, features and distance, and the run's spec go to\n"
                 "the workspace as each generation completes; Ctrl-C (or kill -9) keeps what is done,\n"
                 "and --resume RUN goes on from there with the same result. The best candidate becomes a\n"
                 "kernel with role 'steered'. Seeds never come from held-out kernels.\n\n"
                 "Targets: --target comp=40,mem=12 (unnamed dimensions are 0; Grewe's F2 and F4 follow\n"
                 "from the counts unless given) or a JSON file {\"space\", \"values\"}; --target-kernel FILE;\n"
                 "--target-devmap CSV --row BENCHMARK|INDEX; --target-pca X,Y (a point of the PCA-2 plot\n"
                 "fitted on the workspace's corpus kernels).");
  cl.option({"space", 's', "SPACE", "grewe, instcount or autophase", false, "grewe"});
  cl.option({"target", 't', "NAME=V,...|FILE", "the target vector, or a JSON file holding it"});
  cl.option({"target-kernel", 0, "FILE", "target the features of a kernel file"});
  cl.option({"kernel", 0, "NAME", "with --target-kernel: which kernel of the file (default: the first)"});
  cl.option({"target-devmap", 0, "CSV", "target a row of a DevMap-layout CSV (Grewe)"});
  cl.option({"row", 0, "BENCHMARK|INDEX", "with --target-devmap: the row"});
  cl.option({"target-pca", 0, "X,Y", "target a point of the PCA-2 plane"});
  cl.option({"workspace", 'w', "FILE", "the workspace", false, defaultWorkspacePath()});
  cl.option({"checkpoint", 'o', "FILE", "the model (default: the workspace's, else the shipped default)"});
  addSearchOptions(cl);
  cl.option({"seed-kernel", 0, "FILE", "a seed kernel (repeatable; implies --seeding given)", true});
  cl.option({"time-budget", 0, "SECONDS", "stop after this much time (0: none)", false, "600"});
  cl.option({"patience", 0, "N", "stop after N generations without a better best of the run (0: never)", false, "0"});
  cl.option({"seed", 0, "N", "random seed", false, "1"});
  cl.option({"batch", 0, "N", "rows the model infills together", false, "64"});
  cl.option({"threads", 'j', "N", "model (BLAS) and compile threads (default: all cores)", false, "0"});
  cl.option({"resume", 0, "RUN", "go on with a stored run (its own spec is used)"});
  cl.option({"out", 0, "FILE", "also write the best kernel to FILE"});
  cl.option({"drive", 0, "", "at the end, label the best kernel: drive it on every device at the global sizes "
                             "drive uses (4096 and 65536), storing the cases (steerbench-cli export writes them)"});
  cl.option({"quiet", 'q', "", "no progress line per generation"});
  return cl;
}

int runSteer(const CommandLine& cl) {
  const std::string wsPath = cl.value("workspace");
  const std::string ckpt = checkpointFor(cl, wsPath);
  const int threads = int(cl.unsignedValue("threads", 0, 256));

  // Every option is read before the workspace opens: a bad one leaves no new file behind.
  steer::SteerSpec spec;
  std::int64_t resume = 0;
  if (cl.has("resume")) {
    resume = std::int64_t(cl.unsignedValue("resume", 1, 2000000000u));
  } else {
    spec.target = targetFrom(cl, wsPath);
    readSearchOptions(cl, spec);
    if (cl.has("seed-kernel")) {
      if (cl.has("seed-near") || cl.has("generated-below"))
        throw UsageError("--seed-kernel seeds from your kernels: --seed-near and --generated-below are for seeds "
                         "the model writes");
      spec.seeding = steer::Seeding::Given;
      spec.seedNear = 0; // nothing to hold, and the spec says so
    }
    if (spec.seeding == steer::Seeding::Given && !cl.has("seed-kernel"))
      throw UsageError("--seeding given needs --seed-kernel FILE");
    for (const auto& f : cl.values("seed-kernel"))
      spec.seeds.push_back({f, readText(f)});
    spec.nearest = int(cl.unsignedValue("nearest", 1, 100000));
    spec.timeBudget = cl.numberValue("time-budget", 0, 1e9);
    spec.patience = int(cl.unsignedValue("patience", 0, 100000));
    spec.seed = parseSeed(cl);
    spec.batchSize = int(cl.unsignedValue("batch", 1, 4096));
    spec.jobs = unsigned(threads);
  }

  auto ws = store::Workspace::open(wsPath, resume ? store::Workspace::Mode::OpenExisting : store::Workspace::Mode::OpenOrCreate);
  auto sampler = loadSampler(ckpt, threads);
  if (!resume) std::cerr << "target (" << spec.target.space << "): " << spec.target.origin << "\n";
  steer::BeamSearch search(ws, sampler);
  const bool quiet = cl.has("quiet");
  search.onMessage = [](const std::string& m) { std::cerr << m << "\n"; };
  search.onGeneration = [&](const steer::GenerationReport& g) {
    if (quiet) return;
    std::cerr << "run " << g.run << " generation " << g.generation << ": best " << distanceText(g.bestDistance)
              << " (proximity " << formatPercent(g.bestProximity) << ")";
    if (g.nearestDistance >= 0 && g.nearestDistance != g.bestDistance)
      std::cerr << ", nearest " << distanceText(g.nearestDistance);
    std::cerr << ", beam median " << distanceText(g.medianDistance) << ", " << g.compiled << "/" << g.candidates
              << " compile";
    if (g.unclean) std::cerr << " (" << g.unclean << " unclean)";
    if (g.checked || g.checksPending)
      std::cerr << ", " << g.passed << "/" << g.checked << " contenders ran" << (g.checksPending ? " (" + std::to_string(g.checksPending) + " pending)" : "");
    std::cerr << ", " << shortNumber(g.candidatesPerSecond) << " candidates/s, " << seconds(g.elapsed)
              << (g.reseeded ? ", reseeded" : "") << "\n";
  };
  InterruptGuard interrupt;
  const auto r = resume ? search.resume(resume, &interrupt.token()) : search.run(spec, &interrupt.token());
  if (r.bestId == 0 && r.nearestId == 0) {
    std::cout << "run " << r.run << ": no candidate compiled cleanly (" << r.stopReason << ")\n";
    return r.status == "cancelled" ? 130 : 1;
  }
  std::cout << "run " << r.run << ": " << r.stopReason << " after " << r.generations << " generations in "
            << seconds(r.elapsed);
  if (r.bestId)
    std::cout << "; best" << (r.runnable ? " runnable" : "") << " candidate " << r.bestId << ": distance "
              << shortNumber(r.bestDistance) << ", relative proximity " << formatPercent(r.bestProximity)
              << (r.runnable ? ", PASSes the drive checks " + checkedWhere(r) : std::string())
              << (r.bestKernelId ? ", kernel #" + std::to_string(r.bestKernelId) : std::string()) << "\n";
  else
    std::cout << "; no candidate passed the drive checks\n";
  if (r.nearestId)
    std::cout << "nearest, not the best: candidate " << r.nearestId << ": distance " << shortNumber(r.nearestDistance)
              << ", relative proximity " << formatPercent(r.nearestProximity) << ", "
              << (r.nearestOutcome.empty() ? std::string("not checked")
                                           : r.nearestOutcome + (r.nearestDetail.empty() ? "" : " (" + r.nearestDetail.substr(0, 200) + ")"))
              << "\n";
  if (r.checked) std::cout << "contenders checked: " << r.checked << ", passed: " << r.passed << "\n";
  if (cl.has("drive") && r.bestKernelId && r.status != "cancelled") {
    const auto k = ws.kernel(r.bestKernelId);
    drive::DriveJobOptions o;
    o.drive.cacheDir = drive::poclCacheFor(wsPath);
    o.cancel = &interrupt.token();
    o.onCase = [](const drive::DrivenKernel& dk, const drive::CaseResult& c) {
      std::cout << "drive " << dk.kernel << " at " << c.globalSize << " work-items: " << c.outcome;
      if (c.outcome == "PASS") std::cout << ", fastest: " << c.labelDevice() << " (" << c.label.status() << ")";
      else if (!c.detail.empty()) std::cout << " (" << c.detail.substr(0, 200) << ")";
      std::cout << "\n";
    };
    (void)drive::runDriveJob({{"kernel #" + std::to_string(k->id), k->source, k->name}}, o, &ws);
  }
  if (cl.has("out") && r.bestId) {
    std::ofstream out(cl.value("out"));
    out << r.bestText << "\n";
    if (!out) throw InputError("cannot write " + cl.value("out"));
  }
  if (r.status == "cancelled") {
    std::cerr << "interrupted: every complete generation is stored; go on with: steerbench-cli steer -w " << wsPath
              << " --resume " << r.run << "\n";
    return 130;
  }
  return 0;
}

CommandLine runsCommandLine() {
  CommandLine cl("runs", "List the workspace's steering runs.", "",
                 "One line per run: its space, status and why it stopped, generations, the nearest\n"
                 "candidate's distance and relative proximity, the same of the nearest that passed the\n"
                 "drive checks (runnable; '-' when none did or the run did not check), time, and where\n"
                 "its target came from. An exact match shows as proximity 100%.");
  cl.option({"workspace", 'w', "FILE", "the workspace", false, defaultWorkspacePath()});
  return cl;
}

int runRuns(const CommandLine& cl) {
  auto ws = store::Workspace::open(cl.value("workspace"), store::Workspace::Mode::OpenExisting);
  const auto runs = ws.steerRuns();
  if (runs.empty()) {
    std::cout << "no steering runs in " << ws.path() << "\n";
    return 0;
  }
  std::cout << "run  space      status     stop          gens  nearest    proximity  runnable   proximity  time_s  target\n";
  for (const auto& r : runs) {
    const auto s = steer::summarizeRun(ws, r);
    auto shown = [](double distance, double proximity, std::string& d, std::string& p) {
      d = p = "-";
      if (distance >= 0) {
        d = shortNumber(distance);
        p = formatPercent(proximity);
      }
    };
    std::string best, prox, runnable, runnableProx;
    shown(s.bestDistance, s.bestProximity, best, prox);
    shown(s.runnableDistance, s.runnableProximity, runnable, runnableProx);
    char line[512];
    std::snprintf(line, sizeof line, "%-4lld %-10s %-10s %-13s %4d  %-10s %-10s %-10s %-10s %6.0f  ", (long long)s.id,
                  s.space.c_str(), s.status.c_str(), s.stopReason.empty() ? "-" : s.stopReason.c_str(),
                  s.generations, best.c_str(), prox.c_str(), runnable.c_str(), runnableProx.c_str(), s.elapsed);
    std::cout << line << s.targetOrigin << "\n";
  }
  return 0;
}

CommandLine lineageCommandLine() {
  CommandLine cl("lineage", "Print the path from a seed to a run's best candidate, with a diff per step.", "RUN",
                 "Each step shows its generation, candidate, distance to the target, and what its\n"
                 "hole changed: the parent's tokens it replaced (-) and the model's infill (+).\n"
                 "The last step's kernel follows in full.");
  cl.option({"workspace", 'w', "FILE", "the workspace", false, defaultWorkspacePath()});
  cl.option({"candidate", 0, "ID", "trace this candidate instead of the run's best"});
  return cl;
}

int runLineage(const CommandLine& cl) {
  if (cl.positionals().size() != 1) throw UsageError("lineage takes one RUN");
  const auto& arg = cl.positionals()[0];
  const std::int64_t run = std::atoll(arg.c_str());
  if (run <= 0 || std::to_string(run) != arg) throw UsageError("RUN must be a run number, got \"" + arg + "\"");
  auto ws = store::Workspace::open(cl.value("workspace"), store::Workspace::Mode::OpenExisting);
  const std::int64_t id = cl.has("candidate") ? std::int64_t(cl.unsignedValue("candidate", 1, 2000000000u)) : 0;
  const auto steps = steer::lineage(ws, run, id);
  if (steps.empty()) {
    std::cout << "run " << run << " has no compiling candidate yet\n";
    return 0;
  }
  const auto r = ws.steerRun(run);
  std::cout << "run " << run << " (" << r->space << "), target: "
            << steer::Target::fromJson(r->target, "run").origin << "\n";
  for (const auto& s : steps) {
    std::cout << "\ngeneration " << s.generation << ", candidate " << s.id << ": distance " << distanceText(s.distance);
    if (!s.parent) {
      std::cout << " (seed: " << s.origin << ")\n";
      continue;
    }
    if (steer::isCombined(s.origin)) // disjoint infills: the span from the first to the end of the last
      std::cout << " (from " << s.parent << ", " << s.origin << ", tokens " << s.holeStart << " to "
                << s.holeStart + s.holeLength << ")\n";
    else
      std::cout << " (from " << s.parent << ", hole at token " << s.holeStart << ")\n";
    std::cout << "  - " << (s.replaced.empty() ? "(nothing)" : s.replaced) << "\n";
    std::cout << "  + " << (s.infill.empty() ? "(nothing)" : s.infill) << "\n";
  }
  std::cout << "\n" << steps.back().text << "\n";
  return 0;
}

} // namespace steerbench::cli

// bench-generate: what a checkpoint generates: undirected samples and infill.
//   1. Undirected generation from "kernel void [HOLE]": unique count, compile
//      rate, token lengths, the largest compiling sample, ms per sample; and
//      how many compiling samples steering's clean-compile rules would keep
//      (a rule judged against a parent counts any finding: a sample has none).
//   2. Coverage (BenchPress's Figure 7 measure): the compiling samples'
//      distinct Grewe vectors, and how near they come to DevMap's 256
//      benchmark kernels (median distance from each to its nearest sample,
//      within 1 and 5, exact), beside CLgen's and CLSmith's published samples
//      subsampled to the same n (--devmap DIR, --clgen DIR: read at run time);
//      then the clean samples alone, beside CLgen's at their n.
//      Then richness at equal length: per band of token counts, the share of
//      compiling samples with local memory, with 4 comparisons or more and
//      with comp 10 or more, beside the workspace's training kernels.
//   3. Novelty: compiling samples that equal a training kernel (same tokens)
//      are copies; novel ones equal no corpus kernel at all (count, median
//      length, per minute).
//   4. Infilling: held-out kernels (the trainer's validation split, then the
//      corpus kernels training never saw), one random hole each, filled in
//      one batched run: compile rate, and how many merely rebuild the original.
//      For holes as training makes them (up to 90% of a kernel), and as
//      steering makes them (0 to 8 tokens); each kind twice: as the model
//      fills it, and with a fill that rebuilds the original drawn again
//      (--redraws times at most, as steering samples its infills). Each hole covers whole lexemes,
//      as a [HOLE] written in text and steering's holes do (--cut-lexemes:
//      as training draws them, possibly inside a spelled literal, where the
//      feed's text lexes the rest of the literal differently).
//   5. Conditioned sampling (--conditioned N, a model trained with
//      conditions): N of DevMap's kernel vectors, drawn with a fixed seed,
//      each asked for (SampleOptions::target) in --per-target samples from
//      "kernel void [HOLE]"; the compiling samples' relative proximity to
//      what they were asked for (1 - d(x, t) / d(0, t) over the six counts),
//      beside as many samples without a target measured against the same
//      vectors; and the share that compile. With --near P, the samples
//      asked for a vector are held to it (steer::targetCheck): a statement
//      that takes their counts past where they can still come within
//      proximity P is written again, and a kernel short of P may not end;
//      their counts leave out the declarations that do no work, which go
//      from the finished kernel (--count-all: counted whole, kept). Then,
//      as benchmarks: how many of each arm's compiling samples keep
//      steering's clean-compile rules, and with --drive N, how many of N of
//      them (spread evenly) pass steering's dynamic checks: the dead-code
//      check of the -O1 IR, the drive worker at 4,096 work-items on one
//      device, then `drive`'s default sizes on every device. With --clean,
//      both arms are sampled as `sample --clean` samples.
//   6. A grid of conditioned samples (--grid comp=0:400,mem=0:100 --cells 8
//      --per-cell 20; other counts may follow an axis: coalesced=mem*0.67):
//      each cell's vector asked for in --per-cell samples; the share of
//      cells whose nearest compiling sample is within 10% of the cell's
//      vector (relative proximity at least 90%), the median of the cells'
//      nearest, the share of samples that compile, the clean ones, and with
//      --drive N the share that pass the dynamic checks.
//
// Usage: bench-generate [--checkpoint FILE] [--workspace FILE] [-n 1000] [--infill 500] [--batch 128]
//                       (the checkpoint defaults to the workspace's model, else the shipped one)
//                        [--temperature 0.8] [--top-p 1] [--max-new-tokens 512] [--seed 1] [--threads 0]
//                        [--unguarded] [--typed] [--no-calls] [--untyped] [--patience 6]   (the grammar guard, model::SyntaxGuard;
//                        --typed: its builtin-call rule for the undirected samples, which the infills always have
//                        as the product fills holes between text, --no-calls: not for them either;
//                        --untyped: without its rules of types and scopes)
//                        [--unchecked] [--check-patience 8]   (compiler-checked statements, SampleOptions::check)
//                        [--unbatched-checks]   (each statement check a compile of its own, not a step's
//                        together: clangfe::firstErrorOffsets; the same verdicts)
//                        [--unpacked-products]   (a decoder's products by libtorch, which repacks the weights at
//                        every step, not with weights packed once: SampleOptions::packedProducts)
//                        [--clean-statements]   (undirected samples' statements also checked against the clean-compile
//                        rules a statement can break alone, steer::cleanStatementWarnings)
//                        [--clean-kernels]   (an undirected sample's last hole closes only on a kernel that breaks
//                        no clean-compile rule, steer::cleanKernelCheck; else its last statement goes back)
//                        [--tidy]   (an undirected sample's declarations that do no work removed as it ends,
//                        features::pruneDeadDeclarations; SampleOptions::tidyAll)
//                        [--min-tokens 0]   (a length floor for the undirected samples only)
//                        [--close-bias 0]   (a soft length prior for them: added to the logit of closing the kernel)
//                        [--cut-lexemes] [--restarts 0] [--redraws 4] [--dump-failed-infills DIR]
//                        [--vectors FILE]   (the compiling undirected samples' tokens and Grewe vectors, CSV)
//                        [--repeat-close 2]   (SampleOptions::closeOnRepeat; 0: off)
//                        [--devmap DIR] [--clgen DIR]   (coverage; skipped when DevMap is not there)
//                        [--conditioned 0] [--per-target 10]   (conditioned sampling toward DevMap's vectors)
//                        [--grid A=LO:HI,B=LO:HI] [--cells 8] [--per-cell 20]   (conditioned samples over a grid)
//                        [--near 0]   (conditioned and grid samples held to their vectors; 0: the conditions alone)
//                        [--count-all]   (held samples counted whole, dead declarations and all)
//                        [--lean 0]   (held samples lean toward the counts they lack by this much, steer::heldLean; 0: none)
//                        [--clean]   (conditioned and grid samples as `sample --clean` makes them)
//                        [--drive 0]   (conditioned and grid samples driven, at most N an arm)
#include "Coverage.h"
#include "clang/CheckBatch.h"
#include "clang/OpenCLFrontend.h"
#include "common/Paths.h"
#include "common/TextFormat.h"
#include "dataset/DevMap.h"
#include "drive/host/Driver.h"
#include "drive/host/KernelSignatures.h"
#include "engine/ParallelFor.h"
#include "features/DeadDeclarations.h"
#include "features/Distance.h"
#include "features/FeatureSpace.h"
#include "features/Measurement.h"
#include "model/Conditioning.h"
#include "model/Datapoints.h"
#include "model/Sampler.h"
#include "model/Tokenizer.h"
#include "model/Trainer.h"
#include "steer/CleanCompile.h"
#include "steer/CleanKernelCheck.h"
#include "steer/ContenderChecks.h"
#include "steer/TargetCheck.h"
#include "store/Workspace.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace steerbench;
using Clock = std::chrono::steady_clock;

namespace {

/// comp, rational, mem, localmem, coalesced, atomic: the Grewe counts DevMap's
/// and CLgen's files hold (the ratios F2 and F4 follow from them).
using bench::Counts;
using bench::printCoverage;
using bench::readCounts;
using bench::subsample;

/// A sample's relative proximity to the six counts it was asked for.
double proximityTo(const Counts& got, const std::vector<double>& target) {
  return features::relativeProximity(std::vector<double>(got.begin(), got.end()),
                                     std::vector<double>(target.begin(), target.begin() + 6));
}

std::vector<bool> compileAll(const std::vector<std::string>& texts, unsigned jobs,
                             std::vector<std::string>* errors = nullptr, std::vector<Counts>* grewe = nullptr) {
  features::MeasureOptions mo;
  mo.spaces = {&features::featureSpace("grewe")};
  std::vector<char> ok(texts.size(), 0);
  if (errors) errors->assign(texts.size(), {});
  if (grewe) grewe->assign(texts.size(), Counts{});
  engine::parallelFor(texts.size(), jobs, [&](std::size_t i) {
    const auto m = features::measureSource(texts[i], "sample.cl", mo);
    ok[i] = m.ok();
    if (grewe && m.ok() && !m.spaces.empty() && !m.spaces[0].kernels.empty())
      for (std::size_t d = 0; d < 6 && d < m.spaces[0].kernels[0].values.size(); ++d)
        (*grewe)[i][d] = m.spaces[0].kernels[0].values[d];
    if (errors && !m.ok()) {
      (*errors)[i] = m.error;
      for (const auto& d : m.diagnostics)
        if (d.severity == clangfe::Severity::Error || d.severity == clangfe::Severity::Fatal) {
          (*errors)[i] = d.message;
          break;
        }
    }
  });
  return {ok.begin(), ok.end()};
}

// A diagnostic without its names and numbers, so that like errors count together.
std::string errorKind(const std::string& message) {
  std::string out;
  bool quoted = false;
  for (char c : message) {
    if (c == '\'') {
      if (!quoted) out += "'_'";
      quoted = !quoted;
    } else if (!quoted) {
      out += c;
    }
  }
  return out;
}

std::size_t median(std::vector<std::size_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// A tally as (count, key) pairs, the largest count first.
std::vector<std::pair<std::size_t, std::string>> mostFrequentFirst(const std::map<std::string, std::size_t>& tally) {
  std::vector<std::pair<std::size_t, std::string>> byCount;
  for (const auto& [key, count] : tally)
    byCount.emplace_back(count, key);
  std::sort(byCount.rbegin(), byCount.rend());
  return byCount;
}


/// Steering's dynamic checks on samples (steer::ContenderChecks): the -O1
/// IR's dead-code check, the drive worker at 4,096 work-items on one device,
/// then at `drive`'s default sizes on every device. At most `most` of the
/// texts marked ok are checked, spread evenly over them. The outcome of
/// each text (PASS, NO_OUTPUT, DEAD_CODE, ...), "" when not checked.
std::vector<std::string> driveSome(const std::vector<std::string>& texts, const std::vector<bool>& ok, int most) {
  std::vector<std::size_t> candidates, chosen;
  for (std::size_t i = 0; i < texts.size(); ++i)
    if (ok[i]) candidates.push_back(i);
  std::vector<std::string> outcome(texts.size());
  if (most <= 0 || candidates.empty()) return outcome;
  const std::size_t take = std::min(candidates.size(), std::size_t(most));
  steer::ContenderCheckOptions co;
  co.confirmSizes = drive::DriveOptions{}.globalSizes;
  co.niceIncrement = 0;
  co.mayBeBest = [](const std::string&) { return false; }; // a pass takes no waiting check back
  steer::ContenderChecks checks(co);
  for (std::size_t k = 0; k < take; ++k) {
    const std::size_t i = candidates[k * candidates.size() / take];
    const auto scan = drive::kernelSignatures(texts[i]);
    if (scan.kernels.empty()) {
      outcome[i] = "NO_KERNEL";
      continue;
    }
    chosen.push_back(i); // a copy of a text queued before gets that text's verdict
    (void)checks.submit(std::int64_t(i), texts[i], scan.kernels.front().name, 0, double(k));
  }
  while (checks.pending() > 0)
    checks.wait(5);
  // DEAD_CODE with its kind (features::checkDeadCode's reasons).
  auto named = [](const steer::ContenderCheck& c) {
    if (c.outcome != "DEAD_CODE") return c.outcome;
    const std::string& d = c.detail;
    return std::string("DEAD_CODE (") +
           (d.find("writes no global") != std::string::npos   ? "no global write"
            : d.find("memory accesses") != std::string::npos  ? "mem not in the IR"
            : d.find("operations") != std::string::npos       ? "comp not in the IR"
            : d.find("depends on its input") != std::string::npos ? "output ignores the input"
                                                               : "other") +
           ")";
  };
  for (const std::size_t i : chosen)
    if (const auto* c = checks.known(texts[i])) outcome[i] = named(*c);
  return outcome;
}

/// "P of W (x.y%)".
std::string partOf(std::size_t part, std::size_t whole, const char* what) {
  return std::to_string(part) + " of " + std::to_string(whole) + what + " (" +
         formatNumber(std::round(1000.0 * double(part) / double(std::max<std::size_t>(1, whole))) / 10.0) + "%)";
}

/// `s`, then `lead` and the tally, the largest count first: "a 3, b 2".
std::string withTally(std::string s, const char* lead, const std::map<std::string, std::size_t>& tally) {
  for (const auto& [count, name] : mostFrequentFirst(tally)) {
    s += lead + name + " " + std::to_string(count);
    lead = ", ";
  }
  return s;
}

/// "N of M driven pass (P%): A x, B y, ..." for driveSome's outcomes.
std::string driveSummary(const std::vector<std::string>& outcome) {
  std::map<std::string, std::size_t> tally;
  std::size_t checked = 0, passed = 0;
  for (const auto& x : outcome) {
    if (x.empty()) continue;
    ++checked;
    passed += steer::passes(x);
    ++tally[x];
  }
  return withTally(partOf(passed, checked, " driven pass"), ": ", tally);
}

double medianOf(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// "clean C of N compiling (P%); broken: rule x, ..." by steering's
/// clean-compile rules for a whole kernel (steer::cleanKernelViolation: a
/// rule judged against a parent counts any finding; then dead code).
std::string cleanSummary(const std::vector<std::string>& texts, const std::vector<bool>& ok, unsigned jobs) {
  std::vector<std::string> broken(texts.size());
  const auto rules = steer::cleanRuleNames();
  engine::parallelFor(texts.size(), jobs, [&](std::size_t i) {
    if (ok[i]) broken[i] = steer::cleanKernelViolation(texts[i], rules);
  });
  std::map<std::string, std::size_t> tally;
  std::size_t compiled = 0, clean = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (!ok[i]) continue;
    ++compiled;
    if (broken[i].empty()) ++clean;
    else ++tally[broken[i].substr(0, broken[i].find(':'))];
  }
  return withTally("clean " + partOf(clean, compiled, " compiling"), "; broken: ", tally);
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is printed, also into a file
  bool infillCalls = true; // the builtin-call rule for infills (model::fillsBetweenText)
  std::string ckpt, wsPath = defaultWorkspacePath(), dumpDir, vectorsCsv, devmapDir = STEERBENCH_DEVMAP_DIR,
                    clgenDir = STEERBENCH_DEVMAP_DIR "/../clgen";
  if (const char* e = std::getenv("STEERBENCH_DEVMAP_DIR"); e && *e) devmapDir = e, clgenDir = std::string(e) + "/../clgen";
  int n = 1000, infill = 500, threads = 0, conditioned = 0, perTarget = 10, cells = 8, perCell = 20;
  std::string grid;
  bool checked = true;
  int minTokens = 0;
  double near = 0;
  double closeBias = 0;
  bool cutLexemes = false;
  bool cleanStatements = false, cleanKernels = false, tidy = false;
  bool batchedChecks = true; // --unbatched-checks: each statement check a compile of its own
  bool cleanAsked = false; // conditioned and grid samples as `sample --clean` makes them
  int driveCount = 0;      // conditioned and grid samples driven, per arm
  double lean = 0;         // held samples' lean toward the counts they lack (steer::heldLean)
  bool countAll = false;   // held samples counted whole, dead declarations and all, and not tidied
  model::SampleOptions o;
  for (int i = 1; i < argc; ++i) {
    auto arg = [&](const char* name) { return !std::strcmp(argv[i], name) && i + 1 < argc; };
    if (arg("--checkpoint")) ckpt = argv[++i];
    else if (arg("--workspace")) wsPath = argv[++i];
    else if (arg("-n")) n = std::atoi(argv[++i]);
    else if (arg("--infill")) infill = std::atoi(argv[++i]);
    else if (arg("--batch")) o.batchSize = std::atoi(argv[++i]);
    else if (arg("--temperature")) o.temperature = std::atof(argv[++i]);
    else if (arg("--top-p")) o.topP = std::atof(argv[++i]);
    else if (arg("--max-new-tokens")) o.maxNewTokens = std::atoi(argv[++i]);
    else if (arg("--seed")) o.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg("--threads")) threads = std::atoi(argv[++i]);
    else if (arg("--patience")) o.guardPatience = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--unguarded")) o.guard = false;
    else if (!std::strcmp(argv[i], "--typed")) o.typedArguments = true;
    else if (!std::strcmp(argv[i], "--no-calls")) infillCalls = false;
    else if (!std::strcmp(argv[i], "--untyped")) o.typeRules = false;
    else if (arg("--check-patience")) o.checkPatience = std::atoi(argv[++i]);
    else if (arg("--min-tokens")) minTokens = std::atoi(argv[++i]);
    else if (arg("--near")) near = std::atof(argv[++i]);
    else if (arg("--lean")) lean = std::atof(argv[++i]);
    else if (arg("--close-bias")) closeBias = std::atof(argv[++i]);
    else if (arg("--streams")) o.streams = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--restart-statements")) o.resumeAtError = false;
    else if (!std::strcmp(argv[i], "--unchecked")) checked = false;
    else if (arg("--dump-failed-infills")) dumpDir = argv[++i];
    else if (arg("--vectors")) vectorsCsv = argv[++i];
    else if (arg("--restarts")) o.restarts = std::atoi(argv[++i]);
    else if (arg("--redraws")) o.redraws = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--clean-statements")) cleanStatements = true;
    else if (!std::strcmp(argv[i], "--unbatched-checks")) batchedChecks = false;
    else if (!std::strcmp(argv[i], "--unpacked-products")) o.packedProducts = false;
    else if (!std::strcmp(argv[i], "--clean-kernels")) cleanKernels = true;
    else if (!std::strcmp(argv[i], "--tidy")) tidy = true;
    else if (!std::strcmp(argv[i], "--clean")) cleanAsked = true;
    else if (arg("--drive")) driveCount = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--count-all")) countAll = true;
    else if (arg("--repeat-close")) o.closeOnRepeat = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--cut-lexemes")) cutLexemes = true;
    else if (arg("--devmap")) devmapDir = argv[++i];
    else if (arg("--clgen")) clgenDir = argv[++i];
    else if (arg("--conditioned")) conditioned = std::atoi(argv[++i]);
    else if (arg("--per-target")) perTarget = std::max(1, std::atoi(argv[++i]));
    else if (arg("--grid")) grid = argv[++i];
    else if (arg("--cells")) cells = std::max(1, std::atoi(argv[++i]));
    else if (arg("--per-cell")) perCell = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: bench-generate [--checkpoint FILE] [--workspace FILE] [-n 1000] [--infill 500] "
                           "[--batch 128] [--temperature 0.8] [--top-p 1] [--max-new-tokens 512] [--seed 1] [--threads 0] "
                           "[--unguarded] [--typed] [--no-calls] [--untyped] [--patience 6] [--unchecked] [--check-patience 8] [--min-tokens 0] "
                           "[--close-bias 0] [--streams 0] [--restart-statements] [--dump-failed-infills DIR] [--vectors FILE] [--restarts 0] [--redraws 4] [--clean-statements] [--unbatched-checks] [--unpacked-products] [--clean-kernels] [--tidy] [--repeat-close 2] [--cut-lexemes] [--devmap DIR] [--clgen DIR] [--conditioned 0] [--per-target 10] [--grid A=LO:HI,B=LO:HI] [--cells 8] [--per-cell 20] [--near 0] [--clean] [--drive 0] [--count-all] [--lean 0]\n");
      return 2;
    }
  }
  if (ckpt.empty()) ckpt = modelForWorkspace(wsPath); // the workspace's own model, else the shipped default
  // How conditioned samples are held, as the reports say it.
  const std::string heldText =
      near > 0 ? ", held to proximity " + formatNumber(near) + (lean != 0 ? ", leaning " + formatNumber(lean) : std::string())
               : std::string();
  if (ckpt.empty()) {
    std::fprintf(stderr, "bench-generate: no model; give --checkpoint (a model trained by steerbench-cli train)\n");
    return 2;
  }
  try {
    // Compiler checks (statements, and whole kernels as holes close): how
    // many, how many failed, and their CPU time (summed over threads).
    std::atomic<long> checks{0}, failedChecks{0}, checkMicros{0};
    // Statement checks, counted; with --clean-statements the undirected
    // samples' are also checked against the clean-compile rules a statement
    // can break on its own.
    auto counted = [&](std::function<std::size_t(const std::string&)> check) {
      return [&, check = std::move(check)](const std::string& text) {
        const auto t = Clock::now();
        const std::size_t at = check(text);
        checkMicros += long(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
        ++checks;
        failedChecks += at != std::string::npos;
        return at;
      };
    };
    // The same for a step's statements at once (clangfe::firstErrorOffsets).
    auto countedMany = [&](std::function<std::vector<std::size_t>(const std::vector<std::string>&)> checkMany) {
      return [&, checkMany = std::move(checkMany)](const std::vector<std::string>& texts) {
        const auto t = Clock::now();
        auto at = checkMany(texts);
        checkMicros += long(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
        checks += long(texts.size());
        for (const std::size_t a : at)
          failedChecks += a != std::string::npos;
        return at;
      };
    };
    if (checked) {
      o.check = counted(clangfe::firstErrorOffset);
      if (batchedChecks)
        o.checkMany = countedMany([](const std::vector<std::string>& texts) { return clangfe::firstErrorOffsets(texts); });
    }
    std::printf("BLAS: %s\n", model::useThreads(threads).c_str());
    model::Sampler sampler(ckpt, threads);
    if (o.streams <= 0) o.streams = sampler.defaultStreams();
    const unsigned jobs = threads > 0 ? unsigned(threads) : engine::hardwareJobs();
    std::printf("model: %s (sha256 %.12s), %d stream(s) of batch %d, temperature %g, top-p %g, seed %llu, %s\n",
                sampler.describe().c_str(), sampler.modelHash().c_str(), o.streams, o.batchSize, o.temperature, o.topP,
                (unsigned long long)o.seed,
                (std::string(o.guard ? std::string("grammar guard") +
                                           (o.typedArguments ? " with builtin calls"
                                                             : infillCalls ? " with builtin calls in the infills" : "") +
                                           (o.typeRules ? "" : " without types and scopes") +
                                           ", patience " + std::to_string(o.guardPatience)
                                     : "unguarded") +
                 (checked ? ", compiler-checked statements, patience " + std::to_string(o.checkPatience) +
                            (o.resumeAtError ? ", taken back to the error" : ", taken back whole")
                          : ", unchecked") +
                 (sampler.decoder() ? (o.packedProducts ? ", weights packed once" : ", libtorch's products") : ""))
                    .c_str());
    auto ws = store::Workspace::open(wsPath, store::Workspace::Mode::OpenExisting);
    // Training kernels; and every corpus kernel, for a stricter novelty. The
    // held-out kernels are the trainer's validation split first, then the
    // corpus kernels training never saw (role 'capped': over a family cap).
    std::set<std::string> training, corpus;
    std::vector<std::string> heldOut;
    std::size_t validationKernels = 0;
    for (const auto& row : ws.rows("SELECT source FROM kernels WHERE role = 'train' ORDER BY id")) {
      corpus.insert(model::tokenKey(row[0]));
      if (model::isValidationKernel(row[0], 0.05))
        heldOut.push_back(row[0]);
      else
        training.insert(model::tokenKey(row[0]));
    }
    validationKernels = heldOut.size();
    for (const auto& row : ws.rows("SELECT source FROM kernels WHERE role = 'capped' ORDER BY id")) {
      corpus.insert(model::tokenKey(row[0]));
      heldOut.push_back(row[0]);
    }

    if (n > 0) { // -n 0: infill only
      // 1. Undirected.
      const auto t0 = Clock::now();
      model::SampleOptions undirected = o;
      undirected.minNewTokens = minTokens;
      undirected.closeBias = closeBias;
      if (checked && cleanStatements) {
        undirected.check = counted(steer::cleanStatementCheck());
        undirected.checkMany = nullptr;
        if (batchedChecks) undirected.checkMany = countedMany(steer::cleanStatementChecks());
      }
      if (checked && cleanKernels) undirected.wholeCheck = counted(steer::cleanKernelCheck(steer::cleanRuleNames()));
      if (tidy) {
        undirected.tidy = features::pruneDeadDeclarations;
        undirected.tidyAll = true;
      }
      const auto samples = sampler.sample({"kernel void [HOLE]"}, n, undirected);
      const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      std::vector<std::string> texts;
      for (const auto& s : samples)
        texts.push_back(s.text);
      std::vector<Counts> grewe;
      std::vector<std::string> sampleErrors;
      const auto ok = compileAll(texts, jobs, &sampleErrors, &grewe);
      if (!dumpDir.empty())
        for (std::size_t i = 0; i < samples.size(); ++i)
          if (!ok[i])
            std::ofstream(dumpDir + "/sample-" + std::to_string(i) + ".cl")
                << "// error: " << sampleErrors[i] << (samples[i].complete ? "" : " (incomplete: given up or cut)") << "\n"
                << samples[i].text << "\n";
      std::set<std::string> unique;
      std::size_t compiled = 0, copies = 0, corpusCopies = 0, largest = 0, largestAt = 0;
      std::vector<std::size_t> lengths, novelLengths;
      std::map<std::string, std::size_t> copyCounts; // by the copied kernel, whitespace folded
      for (std::size_t i = 0; i < samples.size(); ++i) {
        const std::string key = model::tokenKey(samples[i].text);
        unique.insert(key);
        lengths.push_back(samples[i].ids.size());
        if (!ok[i]) continue;
        ++compiled;
        if (samples[i].ids.size() > largest) {
          largest = samples[i].ids.size();
          largestAt = i;
        }
        if (training.count(key)) ++copies;
        if (corpus.count(key)) {
          ++corpusCopies;
          ++copyCounts[key];
        } else
          novelLengths.push_back(samples[i].ids.size());
      }
      const double total = double(std::max<std::size_t>(1, samples.size()));
      auto sorted = lengths;
      std::sort(sorted.begin(), sorted.end());
      std::printf("\nUndirected: %zu samples from \"kernel void [HOLE]\" in %.1f s%s%s\n", samples.size(), seconds,
                  minTokens > 0 ? (", at least " + std::to_string(minTokens) + " tokens each").c_str() : "",
                  closeBias != 0 ? (", closing bias " + formatNumber(closeBias)).c_str() : "");
      if (checked)
        std::printf("  compiler checks: %ld (statements and whole kernels), %ld taken back, %.1f s of Clang (all threads)\n", checks.load(),
                    failedChecks.load(), double(checkMicros.load()) / 1e6);
      std::printf("  unique %zu (%.1f%%; goal >= 80%%), compile %zu (%.1f%%; goal >= 90%%)\n", unique.size(),
                  100.0 * double(unique.size()) / total, compiled, 100.0 * double(compiled) / total);
      std::vector<std::size_t> compilingLengths;
      for (std::size_t i = 0; i < samples.size(); ++i)
        if (ok[i]) compilingLengths.push_back(samples[i].ids.size());
      std::printf("  tokens per sample: median %zu, p90 %zu, max %zu; compiling samples: median %zu (goal >= 60), "
                  "largest %zu\n",
                  median(lengths), sorted.empty() ? 0 : sorted[sorted.size() * 9 / 10], sorted.empty() ? 0 : sorted.back(),
                  median(compilingLengths), largest);
      std::printf("  %.1f ms per sample (wall time / samples, %d stream(s) of batch %d; goal <= 20)\n",
                  1000.0 * seconds / total, o.streams, o.batchSize);
      // 2. Coverage of DevMap's benchmark kernels.
      std::vector<Counts> ours;
      for (std::size_t i = 0; i < samples.size(); ++i)
        if (ok[i]) ours.push_back(grewe[i]);
      if (!vectorsCsv.empty()) {
        std::ofstream csv(vectorsCsv);
        if (!csv) std::fprintf(stderr, "bench-generate: cannot write %s\n", vectorsCsv.c_str());
        csv << "tokens,comp,rational,mem,localmem,coalesced,atomic\n";
        for (std::size_t i = 0; i < samples.size(); ++i)
          if (ok[i]) {
            csv << samples[i].ids.size();
            for (double x : grewe[i]) csv << ',' << x;
            csv << '\n';
          }
      }
      const std::size_t distinctOurs = std::set<Counts>(ours.begin(), ours.end()).size();
      std::printf("  distinct Grewe vectors: %zu of the %zu compiling samples (%.1f%%; goal >= 50%%)\n", distinctOurs,
                  ours.size(), 100.0 * double(distinctOurs) / double(std::max<std::size_t>(1, ours.size())));
      // Steering's clean-compile rules (steer/CleanCompile.h) on the compiling
      // samples; a rule judged against a parent counts any finding here (a
      // sample has no parent).
      std::vector<Counts> cleanOurs; // the clean samples' vectors, for their own coverage
      {
        const auto rules = steer::cleanRuleNames();
        std::vector<std::size_t> compiling;
        for (std::size_t i = 0; i < samples.size(); ++i)
          if (ok[i]) compiling.push_back(i);
        std::vector<std::string> broken(compiling.size());
        engine::parallelFor(compiling.size(), jobs, [&](std::size_t k) {
          broken[k] = steer::cleanKernelViolation(texts[compiling[k]], rules);
        });
        std::map<std::string, std::size_t> byRule;
        std::size_t clean = 0, cleanAt = compiling.size();
        for (std::size_t k = 0; k < compiling.size(); ++k)
          if (broken[k].empty()) {
            ++clean;
            cleanOurs.push_back(grewe[compiling[k]]);
            if (cleanAt == compiling.size() || samples[compiling[k]].ids.size() > samples[compiling[cleanAt]].ids.size())
              cleanAt = k;
          } else
            ++byRule[broken[k].substr(0, broken[k].find(':'))];
        std::printf("  clean by steering's rules: %zu of the %zu compiling samples (%.1f%%); the others by the first "
                    "rule they break:",
                    clean, compiling.size(), 100.0 * double(clean) / double(std::max<std::size_t>(1, compiling.size())));
        for (const auto& [count, rule] : mostFrequentFirst(byRule))
          std::printf(" %s %zu;", rule.c_str(), count);
        std::printf("\n");
        if (cleanAt < compiling.size())
          std::printf("  the largest clean sample (%zu tokens):\n%s\n", samples[compiling[cleanAt]].ids.size(),
                      texts[compiling[cleanAt]].c_str());
      }
      const std::string devmapCsv = devmapDir + "/cgo17-amd.csv";
      if (std::ifstream(devmapCsv).good()) {
        const std::vector<Counts> reference = bench::devmapKernelVectors(devmapCsv);
        std::printf("\nCoverage of DevMap's %zu benchmark kernels (Euclidean distance over comp, rational, mem, "
                    "localmem, coalesced, atomic; the baselines subsampled to the same n, seed 204):\n",
                    reference.size());
        bench::printCoverageHeader();
        printCoverage("these samples", ours, reference);
        const auto clgen = readCounts(clgenDir + "/clgen-features.csv");
        for (const auto& [name, file] : {std::pair<const char*, const char*>{"CLgen samples", "clgen-features.csv"},
                                         {"CLSmith", "clsmith-features.csv"}}) {
          const auto all = std::string(file) == "clgen-features.csv" ? clgen : readCounts(clgenDir + "/" + file);
          if (all.empty())
            std::printf("  %-22s (no %s/%s)\n", name, clgenDir.c_str(), file);
          else
            printCoverage(name, subsample(all, ours.size(), 204), reference);
        }
        std::printf("  (goal: these samples nearer than CLgen's in median, and more within 5 and exact)\n");
        // What the generator offers as benchmarks: its clean samples alone,
        // beside CLgen's at their n (CLgen's published vectors come without
        // their texts, so they cannot be judged clean).
        if (!cleanOurs.empty()) {
          printCoverage("the clean samples only", cleanOurs, reference);
          if (!clgen.empty()) printCoverage("CLgen samples", subsample(clgen, cleanOurs.size(), 204), reference);
        }
      } else {
        std::printf("\nCoverage: skipped (no %s; give --devmap DIR)\n", devmapCsv.c_str());
      }

      // Richness at equal length: which kinds of kernel the samples write less
      // often than the training kernels of the same length do (local memory,
      // comparisons, arithmetic), and how their lengths differ.
      {
        const auto& grewe6 = features::featureSpace("grewe");
        std::map<std::int64_t, std::size_t> trainLength;
        for (const auto& row : ws.rows("SELECT id, source FROM kernels WHERE role = 'train'"))
          trainLength[std::stoll(row[0])] = sampler.tokenizer().encode(row[1]).size();
        std::vector<std::pair<std::size_t, Counts>> train, drawn;
        for (const auto& r : ws.featureRows(grewe6.name, grewe6.version))
          if (const auto it = trainLength.find(r.kernelId); it != trainLength.end() && r.values.size() >= 6)
            train.push_back({it->second, {r.values[0], r.values[1], r.values[2], r.values[3], r.values[4], r.values[5]}});
        for (std::size_t i = 0; i < samples.size(); ++i)
          if (ok[i]) drawn.push_back({samples[i].ids.size(), grewe[i]});
        std::printf("\nRichness at equal length: compiling samples beside the training kernels (their tokens), the "
                    "share with local memory (localmem > 0), with 4 comparisons or more, with comp 10 or more:\n");
        std::printf("  %-11s %8s %7s %7s %7s   %8s %7s %7s %7s\n", "tokens", "samples", "local", "cmp", "comp",
                    "training", "local", "cmp", "comp");
        const std::size_t bands[] = {0, 60, 100, 150, 256, std::size_t(-1)};
        for (std::size_t b = 0; b + 1 < std::size(bands); ++b) {
          auto shares = [&](const std::vector<std::pair<std::size_t, Counts>>& set) {
            std::size_t n = 0, local = 0, cmp = 0, comp = 0;
            for (const auto& [len, c] : set)
              if (len >= bands[b] && len < bands[b + 1]) {
                ++n;
                local += c[3] > 0;
                cmp += c[1] >= 4;
                comp += c[0] >= 10;
              }
            const double d = double(std::max<std::size_t>(1, n));
            char out[96];
            std::snprintf(out, sizeof out, "%8zu %6.1f%% %6.1f%% %6.1f%%", n, 100.0 * double(local) / d,
                          100.0 * double(cmp) / d, 100.0 * double(comp) / d);
            return std::string(out);
          };
          const std::string band = bands[b + 1] == std::size_t(-1)
                                       ? std::to_string(bands[b]) + " or more"
                                       : std::to_string(bands[b]) + "-" + std::to_string(bands[b + 1] - 1);
          std::printf("  %-11s %s   %s\n", band.c_str(), shares(drawn).c_str(), shares(train).c_str());
        }
      }

      std::printf("\nNovelty: %zu of the compiling samples are copies of training kernels, %zu of any corpus kernel "
                  "(training, validation or capped); %zu novel, in none of them (%.1f%% of all samples, %.1f%% of the compiling "
                  "ones; goal >= 60%%), median %zu tokens, %.1f novel per minute\n",
                  copies, corpusCopies, novelLengths.size(), 100.0 * double(novelLengths.size()) / total,
                  100.0 * double(novelLengths.size()) / double(std::max<std::size_t>(1, compiled)),
                  median(novelLengths), double(novelLengths.size()) / (seconds / 60.0));
      if (!copyCounts.empty()) {
        const auto byCount = mostFrequentFirst(copyCounts);
        std::printf("  the copies: %zu distinct corpus kernels; the most copied:\n", byCount.size());
        for (std::size_t k = 0; k < byCount.size() && k < 5; ++k)
          std::printf("    %4zu x  %s\n", byCount[k].first, byCount[k].second.c_str());
      }
      if (largest > 0)
        std::printf("  the largest compiling sample (%zu tokens%s):\n%s\n", largest,
                    corpus.count(model::tokenKey(samples[largestAt].text)) ? ", a copy" : ", novel",
                    samples[largestAt].text.c_str());
    }

    // 5. Conditioned sampling toward DevMap's kernel vectors (with --clean,
    // as `sample --clean` makes them; so are the grid's samples).
    if (conditioned > 0) {
      const auto reference = bench::devmapKernelVectors(devmapDir + "/cgo17-amd.csv");
      std::vector<Counts> targets;
      for (const auto& r : reference)
        if (std::any_of(r.begin(), r.end(), [](double v) { return v != 0; })) targets.push_back(r);
      targets = subsample(targets, std::size_t(conditioned), 204);
      if (targets.empty()) {
        std::printf("\nConditioned sampling: skipped (no DevMap in %s; give --devmap DIR)\n", devmapDir.c_str());
      } else {
        std::printf("\nConditioned sampling: %zu of DevMap's kernel vectors, %d samples each from \"kernel void "
                    "[HOLE]\" (at least %d tokens%s), beside as many without a target\n",
                    targets.size(), perTarget, minTokens,
                    heldText.c_str());
        auto asVector = [](const Counts& c) { return std::vector<double>(c.begin(), c.end()); };
        struct Arm {
          std::vector<std::string> texts;
          std::vector<bool> ok;
          std::vector<Counts> grewe;
          std::vector<std::size_t> target; // each sample's target
          double seconds = 0;
        };
        Arm with, without;
        model::SampleOptions plain = o;
        plain.minNewTokens = minTokens;
        if (cleanAsked) steer::sampleClean(plain, steer::cleanRuleNames());
        const auto t0 = Clock::now();
        // Without a target: one run, sample i measured against target i / per-target.
        for (const auto& s : sampler.sample({"kernel void [HOLE]"}, perTarget * int(targets.size()), plain)) {
          without.texts.push_back(s.text);
          without.target.push_back(without.target.size() / std::size_t(perTarget));
        }
        without.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        if (near > 0 && checked) steer::holdToTarget(plain, near, cleanAsked, !countAll);
        if (near > 0 && checked && lean != 0) plain.heldLean = steer::heldLean(sampler.tokenizer(), lean, !countAll);
        for (std::size_t t = 0; t < targets.size(); ++t) {
          model::SampleOptions asked = plain;
          asked.target = asVector(targets[t]);
          const auto t1 = Clock::now();
          for (const auto& s : sampler.sample({"kernel void [HOLE]"}, perTarget, asked)) {
            with.texts.push_back(s.text);
            with.target.push_back(t);
          }
          with.seconds += std::chrono::duration<double>(Clock::now() - t1).count();
        }
        std::printf("  %-16s %8s %9s %26s %24s %14s\n", "samples", "n", "compile", "median proximity (goal 80%)",
                    "median best per target", "ms per sample");
        for (auto* arm : {&with, &without}) {
          arm->ok = compileAll(arm->texts, jobs, nullptr, &arm->grewe);
          std::vector<double> proximity, best(targets.size(), -1e300);
          std::size_t compiled = 0;
          for (std::size_t i = 0; i < arm->texts.size(); ++i) {
            if (!arm->ok[i]) continue;
            ++compiled;
            const double p = proximityTo(arm->grewe[i], asVector(targets[arm->target[i]]));
            proximity.push_back(p);
            best[arm->target[i]] = std::max(best[arm->target[i]], p);
          }
          best.erase(std::remove_if(best.begin(), best.end(), [](double b) { return b < -1e299; }), best.end());
          std::printf("  %-16s %8zu %8.1f%% %25.1f%% %23.1f%% %14.1f\n", arm == &with ? "asked for it" : "without a target",
                      arm->texts.size(), 100.0 * double(compiled) / double(std::max<std::size_t>(1, arm->texts.size())),
                      100.0 * medianOf(proximity), 100.0 * medianOf(best),
                      1000.0 * arm->seconds / double(std::max<std::size_t>(1, arm->texts.size())));
        }
        // As benchmarks: clean (steering's rules for a whole kernel) and runnable (the drive's checks).
        for (auto* arm : {&with, &without}) {
          const char* name = arm == &with ? "asked for it" : "without a target";
          std::printf("  %s: %s\n", name, cleanSummary(arm->texts, arm->ok, jobs).c_str());
          if (driveCount <= 0) continue;
          const auto outcome = driveSome(arm->texts, arm->ok, driveCount);
          std::vector<double> runnable;
          std::vector<double> best(targets.size(), -1e300);
          for (std::size_t i = 0; i < outcome.size(); ++i)
            if (steer::passes(outcome[i])) {
              const double p = proximityTo(arm->grewe[i], asVector(targets[arm->target[i]]));
              runnable.push_back(p);
              best[arm->target[i]] = std::max(best[arm->target[i]], p);
            }
          std::size_t reached = 0;
          for (double b : best) reached += b > -1e299;
          std::printf("  %s: %s; median proximity of those that pass %.1f%%, %zu of %zu targets have one\n", name,
                      driveSummary(outcome).c_str(), 100.0 * medianOf(runnable), reached, targets.size());
        }
      }
    }

    // 6. A grid of conditioned samples.
    if (!grid.empty()) {
      const auto cellTargets = model::gridTargets(grid, cells, {});
      model::SampleOptions asked = o;
      asked.minNewTokens = minTokens;
      if (cleanAsked) steer::sampleClean(asked, steer::cleanRuleNames());
      if (near > 0 && checked) steer::holdToTarget(asked, near, cleanAsked, !countAll);
      if (near > 0 && checked && lean != 0) asked.heldLean = steer::heldLean(sampler.tokenizer(), lean, !countAll);
      std::vector<std::string> feeds;
      for (const auto& t : cellTargets)
        for (int k = 0; k < perCell; ++k) {
          feeds.push_back("kernel void [HOLE]");
          asked.feedTargets.push_back(t);
        }
      const auto t0 = Clock::now();
      const auto got = sampler.sample(feeds, int(feeds.size()), asked);
      const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      std::vector<std::string> texts;
      for (const auto& s : got)
        texts.push_back(s.text);
      std::vector<Counts> grewe;
      const auto ok = compileAll(texts, jobs, nullptr, &grewe);
      std::vector<double> best(cellTargets.size(), -1e300);
      std::size_t compiled = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        if (!ok[i]) continue;
        ++compiled;
        const std::size_t cell = got[i].feed / std::size_t(perCell);
        const auto& t = cellTargets[cell];
        best[cell] = std::max(best[cell], proximityTo(grewe[i], t));
      }
      std::size_t within = 0;
      for (double b : best)
        within += b >= 0.9;
      auto sortedBest = best;
      std::sort(sortedBest.begin(), sortedBest.end());
      std::printf("\nA grid of conditioned samples: %s, %d x %d cells, %d samples a cell%s (%zu in %.1f s, %.1f ms a sample)\n",
                  grid.c_str(), cells, cells, perCell, heldText.c_str(), got.size(), seconds, 1000.0 * seconds / double(std::max<std::size_t>(1, got.size())));
      std::printf("  compile %zu (%.1f%%); cells whose nearest compiling sample is within 10%%: %zu of %zu (%.1f%%); "
                  "median nearest proximity %.1f%%\n",
                  compiled, 100.0 * double(compiled) / double(std::max<std::size_t>(1, got.size())), within, best.size(),
                  100.0 * double(within) / double(std::max<std::size_t>(1, best.size())),
                  sortedBest.empty() || sortedBest[sortedBest.size() / 2] < -1e299 ? 0.0 : 100.0 * sortedBest[sortedBest.size() / 2]);
      // Row by row, as the grid's first count grows: each cell's nearest proximity.
      for (int r = 0; r < cells; ++r) {
        std::printf("  ");
        for (int c = 0; c < cells; ++c) {
          const double b = best[std::size_t(r * cells + c)];
          std::printf(b < -1e299 ? "    - " : " %4.0f%%", 100.0 * std::max(b, -9.99));
        }
        std::printf("\n");
      }
      std::printf("  %s\n", cleanSummary(texts, ok, jobs).c_str());
      if (driveCount > 0) {
        const auto outcome = driveSome(texts, ok, driveCount);
        std::size_t passed = 0, driven = 0;
        for (const auto& x : outcome) {
          driven += !x.empty();
          passed += steer::passes(x);
        }
        std::printf("  %s; so about %.1f%% of all samples pass the drive\n", driveSummary(outcome).c_str(),
                    100.0 * double(compiled) / double(std::max<std::size_t>(1, got.size())) * double(passed) /
                        double(std::max<std::size_t>(1, driven)));
      }
    }

    // 4. Infill of held-out kernels: one random hole each, first as training
    // makes them (up to 90% of a kernel), then as steering makes them (0 to 8 tokens).
    const auto& tok = sampler.tokenizer();
    std::vector<bool> okOriginal; // the control: do the held-out kernels compile as they stand
    // With `redraw`, a fill that rebuilds what its hole hid is drawn again
    // (SampleOptions::feedReplaced), as steering samples its infills.
    auto infillRun = [&](const char* what, const model::DatapointOptions& d, bool redraw) {
      std::mt19937_64 rng(o.seed);
      std::vector<std::string> feeds, originals;
      model::SampleOptions fo = o;
      fo.typedArguments = infillCalls; // as sample, steer and Fill holes fill holes between text
      std::size_t fromValidation = 0;
      for (std::size_t i = 0; i < heldOut.size() && int(feeds.size()) < infill; ++i) {
        auto ids = tok.encode(heldOut[i]);
        if (ids.size() + 4 > d.maxLength) continue; // whole kernels only
        auto point = model::makeDatapoint(ids, d, rng);
        std::vector<int> inner(point.inputs.begin() + 1, point.inputs.end() - 1);
        if (redraw) { // the hidden tokens: the kernel's between the text before and after the hole
          const auto hole = std::size_t(std::find(inner.begin(), inner.end(), model::Tokenizer::kHole) - inner.begin());
          fo.feedReplaced.emplace_back(ids.begin() + std::ptrdiff_t(hole),
                                       ids.begin() + std::ptrdiff_t(hole + ids.size() + 1 - inner.size()));
        }
        feeds.push_back(tok.decode(inner));
        originals.push_back(heldOut[i]);
        fromValidation += i < validationKernels;
      }
      if (feeds.empty()) {
        std::printf("\nInfill: no held-out kernel short enough\n");
        return;
      }
      // All feeds in one batched run: each feed once (the sampler takes them in turn).
      std::vector<std::string> filled(feeds);
      std::vector<char> complete(feeds.size(), 0);
      const auto t1 = Clock::now();
      std::size_t redrawn = 0, redrawsSpent = 0;
      for (const auto& s : sampler.sample(feeds, int(feeds.size()), fo)) {
        filled[s.feed] = s.text;
        complete[s.feed] = s.complete;
        redrawn += s.redraws > 0;
        redrawsSpent += std::size_t(s.redraws);
      }
      const double infillSeconds = std::chrono::duration<double>(Clock::now() - t1).count();
      std::vector<std::string> errors;
      const auto okFilled = compileAll(filled, jobs, &errors);
      if (okOriginal.empty()) okOriginal = compileAll(originals, jobs); // the same kernels in both runs
      std::size_t fc = 0, rebuilt = 0, incomplete = 0;
      std::map<std::string, std::size_t> kinds;
      for (std::size_t f = 0; f < filled.size(); ++f) {
        if (!okFilled[f]) {
          ++kinds[errorKind(errors[f])];
          incomplete += !complete[f];
          if (!dumpDir.empty()) {
            std::ofstream out(dumpDir + "/" + (d.shortHoleProbability >= 1 ? "short-" : "long-") + std::to_string(f) + ".cl");
            out << "// error: " << errors[f] << (complete[f] ? "" : " (incomplete: given up)") << "\n// feed: " << feeds[f]
                << "\n" << filled[f] << "\n";
          }
          continue;
        }
        ++fc;
        rebuilt += model::sameTokens(filled[f], originals[f]);
      }
      std::printf("\nInfill, %s%s: %zu held-out kernels (%zu of the validation split, %zu capped) with one random hole, "
                  "filled in %.1f s: %zu compile (%.1f%%; goal >= 70%%), of which %zu rebuild the original and %zu differ "
                  "(goal: at least half differ)\n",
                  what, redraw ? ", a fill that rebuilds the original drawn again (as steering samples)" : "",
                  filled.size(), fromValidation, filled.size() - fromValidation, infillSeconds, fc,
                  100.0 * double(fc) / double(filled.size()), rebuilt, fc - rebuilt);
      if (redraw)
        std::printf("  %zu fills were drawn again (%zu draws in all, at most %d a fill)\n", redrawn, redrawsSpent,
                    fo.redraws);
      std::printf("  control: %zu of the %zu originals compile as the bench compiles them\n",
                  std::size_t(std::count(okOriginal.begin(), okOriginal.end(), true)), originals.size());
      const auto byCount = mostFrequentFirst(kinds);
      std::printf("  the %zu fills that fail (%zu given up before their hole closed), by their first error:\n",
                  filled.size() - fc, incomplete);
      for (std::size_t k = 0; k < byCount.size() && k < 8; ++k)
        std::printf("    %4zu  %s\n", byCount[k].first, byCount[k].second.c_str());
    };
    if (infill <= 0) return 0;
    model::DatapointOptions d;
    d.maxLength = 200;
    if (!cutLexemes) d.wholeLexemes = &tok;
    std::printf("\nInfill holes %s\n", cutLexemes ? "as training draws them (--cut-lexemes: some start or end inside a "
                                                     "spelled literal)"
                                                   : "cover whole lexemes (as a [HOLE] written in text does)");
    infillRun("training's holes (up to 90% of a kernel)", d, false);
    infillRun("training's holes (up to 90% of a kernel)", d, true);
    d.shortHoleProbability = 1.0; // steering's holes
    infillRun("steering's holes (0 to 8 tokens)", d, false);
    infillRun("steering's holes (0 to 8 tokens)", d, true);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-generate: %s\n", e.what());
    return 1;
  }
}

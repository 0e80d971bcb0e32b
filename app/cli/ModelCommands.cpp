// steerbench-cli train: trains (or resumes) the infilling model on the
// workspace's training corpus, printing and storing its progress.
// steerbench-cli sample: fills [HOLE]s with a trained model, compiles and
// measures the samples, and stores them with the model hash and seed.
#include "cli/ModelCommands.h"

#include "cli/Interrupt.h"
#include "clang/OpenCLFrontend.h"

#include "common/Error.h"
#include "common/Paths.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "model/Conditioning.h"
#include "model/InfillModelInfo.h"
#include "model/Tokenizer.h"
#include "model/Sampler.h"
#include "model/Trainer.h"
#include "model/TrainingSession.h"
#include "engine/FeatureJob.h"
#include "features/DeadDeclarations.h"
#include "features/Measurement.h"
#include "corpus/SourceFormatting.h"
#include "steer/CleanCompile.h"
#include "steer/CleanKernelCheck.h"
#include "steer/SampleRecording.h"
#include "steer/TargetCheck.h"
#include "store/Workspace.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <set>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>

namespace steerbench::cli {
namespace {

std::string clock(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = long(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

} // namespace

model::Sampler loadSampler(const std::string& checkpoint, int threads) {
  model::Sampler sampler(checkpoint, threads);
  std::cerr << "BLAS: " << model::useThreads(threads) << "\nmodel: " << sampler.describe() << " (sha256 "
            << sampler.modelHash().substr(0, 12) << ")\n";
  return sampler;
}

std::string checkpointFor(const CommandLine& cl, const std::string& workspace) {
  const std::string ckpt = cl.has("checkpoint") ? cl.value("checkpoint") : modelForWorkspace(workspace);
  if (ckpt.empty())
    throw InputError("no model: " + workspaceModelPath(workspace) + " does not exist and no default model is "
                     "installed; train one with: steerbench-cli train -w " + workspace);
  return ckpt;
}

CommandLine trainCommandLine() {
  CommandLine cl("train", "Train the [HOLE]-infilling model on the workspace's training corpus.", "",
                 "Builds the tokenizer from the corpus (kept in the checkpoint and beside it as\n"
                 "CHECKPOINT.tokenizer.json), then trains with hole datapoints made on the fly:\n"
                 "--holes MIN-MAX per sequence plus --mask masked tokens (the CPU objective; --holes 1-1\n"
                 "--mask 0 is the paper's single hole). Batches are padded to their longest sequence;\n"
                 "AdamW with linear warmup and decay; validation on kernels held out by content hash.\n"
                 "A checkpoint is written atomically every --checkpoint-every steps; run the same\n"
                 "command again (after Ctrl-C or kill -9) to resume. Same seed and threads: same run.\n"
                 "Progress goes to the terminal and to the workspace (training_runs, training_steps).\n\n"
                 "Data parallel: started N times by mpirun or srun (or with RANK and WORLD_SIZE set),\n"
                 "the processes train one model: each step draws N x --batch sequences, each process\n"
                 "runs its share, and gradients are summed with libtorch's c10d over Gloo (TCP) at\n"
                 "MASTER_ADDR:MASTER_PORT (default 127.0.0.1:29500; set MASTER_ADDR to rank 0's host\n"
                 "across nodes). Rank 0 records the run and writes the checkpoints, which resume on\n"
                 "any number of processes. docs/cluster.md.");
  cl.option({"workspace", 'w', "FILE", "the workspace holding the corpus", false, defaultWorkspacePath()});
  cl.option({"checkpoint", 'o', "FILE", "checkpoint to write and resume from (default: WORKSPACE.model.ckpt)"});
  cl.option({"steps", 0, "N", "optimizer steps in all", false, "2000"});
  cl.option({"batch", 0, "N", "sequences per step", false, "16"});
  cl.option({"arch", 0, "KIND", "encoder (reads the hole both ways, re-run per token) or decoder (fill-in-the-middle, "
                              "left to right, with a key/value cache: one step per token)", false, "encoder"});
  cl.option({"fim-order", 0, "ORDER", "a decoder's reading order: psm (prefix, hole, suffix, then the infill) or spm "
                                      "(hole, suffix, then the prefix and the infill, which continues it); default psm, "
                                      "or the starting model's with --init-from"});
  cl.option({"layers", 0, "N", "Transformer layers", false, "3"});
  cl.option({"hidden", 0, "N", "hidden size", false, "192"});
  cl.option({"heads", 0, "N", "attention heads", false, "4"});
  cl.option({"ffn", 0, "N", "feed-forward size", false, "768"});
  cl.option({"max-length", 0, "N", "sequence length (longer kernels are cut)", false, "256"});
  cl.option({"lr", 0, "RATE", "peak learning rate", false, "5e-4"});
  cl.option({"warmup", 0, "N", "warmup steps", false, "100"});
  cl.option({"holes", 0, "MIN-MAX", "holes per sequence", false, "1-8"});
  cl.option({"mask", 0, "P", "share of other tokens masked and predicted", false, "0.1"});
  cl.option({"short-holes", 0, "P", "share of holes that hide at most 8 tokens (the holes steering makes)", false,
             "0"});
  cl.option({"balance", 0, "POWER", "draw packages in proportion to their kernel counts to this power (1: every kernel "
                                    "alike; 0.5: a package with 4 times the kernels is drawn twice as often)", false, "1"});
  cl.option({"richness", 0, "POWER", "draw kernels in proportion to (1 + comp + mem + localmem + coalesced + atomic)"
                                     " to this power, counts capped at 32 (0: off)", false, "0"});
  cl.option({"local-memory", 0, "FACTOR", "draw kernels that access local memory this many times as often (1: off)",
             false, "1"});
  cl.option({"one-work-item", 0, "FACTOR", "draw kernels that ask no work-item function (get_global_id, get_local_id, "
                                           "...; every work-item does the same) this many times as often (1: off)",
             false, "1"});
  cl.option({"continuation", 0, "P", "share of datapoints with one hole from a random start to the end", false,
             "0.3"});
  cl.option({"whole", 0, "P", "share of the kernels that fit whole which hide all but `kernel void` in one hole "
                              "(undirected sampling's task)", false, "0"});
  cl.option({"conditions", 0, "P", "share of rows that start with their kernel's Grewe counts as condition tokens, so "
                                   "that the model can be asked for counts (sample --target; a decoder's; 0: off)",
             false, "0"});
  cl.option({"seed", 0, "N", "seed of initialisation and data", false, "1"});
  cl.option({"threads", 'j', "N", "model (BLAS) threads (default: all cores)", false, "0"});
  cl.option({"validate-every", 0, "N", "steps between validation losses", false, "100"});
  cl.option({"checkpoint-every", 0, "N", "steps between checkpoints", false, "100"});
  cl.option({"max-words", 0, "N", "tokenizer: most frequent names and numbers kept as words", false, "4000"});
  cl.option({"rendezvous-timeout", 0, "SECONDS", "data parallel: how long the processes wait for each other", false,
             "600"});
  cl.option({"init-from", 0, "MODEL", "fine-tune: start from this checkpoint's weights, shape and tokenizer (the shape "
                                      "options are then ignored, except a --max-length above its own, which adds "
                                      "positions), with a new optimizer, warmup and decay over --steps"});
  return cl;
}

int runTrain(const CommandLine& cl) {
  const std::string wsPath = cl.value("workspace");
  const std::string ckpt = cl.has("checkpoint") ? cl.value("checkpoint") : workspaceModelPath(wsPath);
  model::TrainOptions o;
  o.steps = int(cl.unsignedValue("steps", 1, 100000000));
  o.batchSize = int(cl.unsignedValue("batch", 1, 4096));
  try {
    o.model.arch = model::ModelConfig::parseArch(cl.value("arch"), "--arch");
  } catch (const InputError& e) {
    throw UsageError(e.what());
  }
  if (cl.has("fim-order")) {
    try {
      o.suffixFirst = model::ModelConfig::parseFimOrder(cl.value("fim-order"), "--fim-order");
    } catch (const InputError& e) {
      throw UsageError(e.what());
    }
  }
  o.model.layers = int(cl.unsignedValue("layers", 1, 48));
  o.model.hidden = int(cl.unsignedValue("hidden", 8, 4096));
  o.model.heads = int(cl.unsignedValue("heads", 1, 64));
  o.model.ffn = int(cl.unsignedValue("ffn", 8, 16384));
  o.model.maxLength = int(cl.unsignedValue("max-length", 8, 8192));
  o.learningRate = cl.numberValue("lr", 0, 1);
  if (!(o.learningRate > 0 && o.learningRate < 1)) throw UsageError("--lr must be in (0, 1), e.g. 5e-4");
  o.warmupSteps = int(cl.unsignedValue("warmup", 0, 100000000));
  unsigned lo = 0, hi = 0;
  if (std::sscanf(cl.value("holes").c_str(), "%u-%u", &lo, &hi) != 2 || lo < 1 || hi < lo || hi > 64)
    throw UsageError("--holes must be MIN-MAX with 1 <= MIN <= MAX <= 64, e.g. 1-8");
  o.data.minHoles = lo;
  o.data.maxHoles = hi;
  o.data.maskProbability = cl.numberValue("mask", 0, 1);
  if (o.data.maskProbability == 1) throw UsageError("--mask must be in [0, 1)");
  o.data.continuationProbability = cl.numberValue("continuation", 0, 1);
  o.data.shortHoleProbability = cl.numberValue("short-holes", 0, 1);
  o.data.wholeKernelProbability = cl.numberValue("whole", 0, 1);
  o.conditionShare = cl.numberValue("conditions", 0, 1);
  o.seed = parseSeed(cl);
  o.packageBalance = cl.numberValue("balance", 0, 1);
  o.richness = cl.numberValue("richness", 0, 2);
  o.localMemory = cl.numberValue("local-memory", 0.01, 100);
  o.oneWorkItem = cl.numberValue("one-work-item", 0.01, 100);
  o.threads = int(cl.unsignedValue("threads", 0, 256));
  o.validateEvery = int(cl.unsignedValue("validate-every", 1, 100000000));
  o.checkpointEvery = int(cl.unsignedValue("checkpoint-every", 1, 100000000));
  o.checkpoint = ckpt;
  if (cl.has("init-from")) o.initFrom = cl.value("init-from");
  if (cl.has("init-from") && cl.has("max-length")) o.positions = int(o.model.maxLength);

  o.ranks = model::trainingRanksFromEnvironment();
  o.rendezvousTimeout = std::atof(cl.value("rendezvous-timeout").c_str());
  if (!(o.rendezvousTimeout >= 1)) throw UsageError("--rendezvous-timeout: expected seconds (at least 1)");
  const bool lead = o.ranks.lead();

  auto ws = store::Workspace::open(wsPath, store::Workspace::Mode::OpenExisting);
  const model::TrainingSession training(ws, o, cl.unsignedValue("max-words", 0, 1000000));
  const std::string blas = model::useThreads(o.threads);
  if (o.ranks.world > 1) {
    // One write per line: the ranks share the launcher's stderr, and piecewise writes interleave.
    std::ostringstream line;
    line << "rank " << o.ranks.rank << " of " << o.ranks.world << " (" << o.ranks.from << "), meeting at "
         << o.ranks.masterAddr << ":" << o.ranks.masterPort << "; each step " << o.batchSize << " sequences a rank, "
         << o.batchSize * o.ranks.world << " in all\n";
    std::cerr << line.str() << std::flush;
  }
  if (lead)
  std::cerr << "BLAS: " << blas << "\n"
            << "model: " << training.options().model.describe() << "; tokenizer " << training.tokenizer().hash().substr(0, 12)
            << "\n"
            << "training draws " << training.kernelCount() << " kernels: " << training.drawSummary() << "\n"
            << (training.resuming() ? "resuming " : "writing ") << ckpt
            << (o.initFrom.empty() || training.resuming() ? "" : " from the weights of " + o.initFrom) << "\n";
  InterruptGuard interrupt;
  model::TrainResult result;
  try {
    result = training.train(
      [&](const model::TrainProgress& p) {
        training.record(ws, p);
        if (lead && (p.step % 10 == 0 || p.validationLoss >= 0 || p.step == p.steps)) {
          char line[256];
          std::snprintf(line, sizeof line, "step %lld/%lld  loss %.4f%s  %.0f tok/s  %.0f labels/s  elapsed %s  ETA %s%s",
                        (long long)p.step, (long long)p.steps, p.loss,
                        p.validationLoss >= 0 ? ("  val " + std::to_string(p.validationLoss).substr(0, 6)).c_str() : "",
                        p.tokensPerSecond, p.labelsPerSecond, clock(p.elapsedSeconds).c_str(),
                        clock(p.etaSeconds).c_str(), p.checkpointed ? "  [checkpoint]" : "");
          std::cerr << line << "\n";
        }
      },
      &interrupt.token());
  } catch (...) {
    result.cancelled = true; // stopped by the error (a full disk, ...): the run is marked stopped
    training.finish(ws, result);
    throw;
  }
  training.finish(ws, result);
  if (!lead) return result.cancelled ? 130 : 0;
  std::cout << "trained " << result.trainKernels << " kernels (" << result.validationKernels << " for validation), "
            << result.parameters << " parameters, steps " << result.startStep << " -> " << result.step
            << ", final loss " << formatNumber(result.lastLoss) << ", validation loss "
            << (result.lastValidationLoss >= 0 ? formatNumber(result.lastValidationLoss) : std::string("-")) << "\n";
  if (result.cancelled) {
    std::cerr << "interrupted: the checkpoint holds step " << result.step << "; run the same command to go on\n";
    return 130;
  }
  return 0;
}

CommandLine sampleCommandLine() {
  CommandLine cl("sample", "Fill every [HOLE] of the feeds with the trained model.", "",
                 "Rows of a batch are refilled from a queue as they finish, so the batch stays full.\n"
                 "Each sample is compiled with the in-process Clang and measured in every feature\n"
                 "space; samples, compile status, features, the model's sha256 and the seed go to the\n"
                 "workspace (compiling samples also become kernels with role 'sample').");
  cl.option({"feed", 'f', "TEXT", "OpenCL text with [HOLE]s (repeatable; default: kernel void [HOLE])", true});
  cl.option({"count", 'n', "N", "samples in all (the feeds are taken in turn)", false, "10"});
  cl.option({"workspace", 'w', "FILE", "the workspace", false, defaultWorkspacePath()});
  cl.option({"checkpoint", 'o', "FILE", "the model (default: WORKSPACE.model.ckpt when trained, else the shipped default model)"});
  cl.option({"temperature", 't', "T", "sampling temperature (0: most likely token)", false, "0.8"});
  cl.option({"top-p", 0, "P", "nucleus sampling: draw among the most likely tokens whose probabilities sum to P "
                              "(1: all; default: 0.9 for a decoder, 1 for an encoder)"});
  cl.option({"batch", 0, "N", "rows sampled together (per stream)", false, "128"});
  cl.option({"max-new-tokens", 0, "N", "cap on the tokens one sample adds", false, "512"});
  cl.option({"seed", 0, "N", "sampling seed", false, "1"});
  cl.option({"unguarded", 0, "", "sample the model as it is: no grammar guard (mismatched brackets, undeclared names)"});
  cl.option({"patience", 0, "N", "give a row up once the guard has banned its most likely token N times (0: never)",
             false, "6"});
  cl.option({"min-tokens", 0, "N", "each sample writes at least N tokens before it may close its hole or the "
                                   "kernel's body (0: the model decides)", false, "0"});
  cl.option({"unchecked", 0, "", "no compiler checks: statements with errors are kept (by default each statement is "
                                 "compiled as it ends, and one with an error is sampled again)"});
  cl.option({"clean", 0, "", "samples that break none of steering's clean-compile rules: each statement is also "
                             "checked against the rules a statement can break on its own (a pointer compared with an "
                             "integer, a float made an index, a test whose answer is known, a value nothing uses, ...), "
                             "and a kernel that breaks any rule as its last hole closes (a variable nothing uses, a "
                             "store every work-item makes to one element, ...) is written on; slower a sample "
                             "(the default for samples held to a vector: see --near and --unclean)"});
  cl.option({"unclean", 0, "", "samples held to a vector (--near) that may break steering's clean-compile rules: "
                               "more of them compile, far fewer run (by default they are clean, as --clean makes them)"});
  cl.option({"as-written", 0, "", "keep each sample as the model wrote it (by default a sample of a whole kernel loses, "
                                  "as it ends, the declarations whose variables nothing reads and whose initialisers "
                                  "do nothing else: a variable nothing uses is no benchmark's work)"});
  cl.option({"check-patience", 0, "N", "give a row up after N statements sampled again", false, "8"});
  cl.option({"restarts", 0, "N", "a sample given up, or whose last hole would close into a kernel with an error once "
                                "the check patience is spent, starts again from its feed, at most N times (default: "
                                "3 for a decoder, 0 for an encoder; 10 for samples held to a vector)"});
  cl.option({"threads", 'j', "N", "model (BLAS) and compile threads (default: all cores)", false, "0"});
  cl.option({"streams", 0, "N", "batches sampled at once, each on one core (0: one per BLAS thread with OpenBLAS, "
                                "else 1); the samples depend on it as on the seed", false, "0"});
  cl.option({"target", 0, "COUNTS", "ask a model trained with conditions for these Grewe counts, e.g. "
                                   "comp=60,mem=12 (comp, rational, mem, localmem, coalesced, atomic; others 0)"});
  cl.option({"spread", 0, "S", "with --target: each sample asks for its own vector around it, every count times a "
                               "factor in [1-S, 1+S] (seeded)"});
  cl.option({"grid", 0, "A=LO:HI,B=LO:HI", "ask for a grid of vectors over two counts, e.g. comp=0:400,mem=0:100 "
                                            "(the other counts from --target, else 0; or in proportion to an axis: coalesced=mem*0.67); -n samples per cell"});
  cl.option({"cells", 0, "N", "cells a side of --grid", false, "8"});
  cl.option({"near", 0, "P", "with --target, --spread or --grid: hold each sample to its vector: a statement that "
                             "takes its counts past where they can still come within proximity P (1 - distance / "
                             "the vector's length) is written again, the kernel may not end before it is within P, "
                             "and one given up on the way ends at its last checked statement (0: the conditions "
                             "alone)", false, "0.8"});
  cl.option({"lean", 0, "B", "with --near: lean each held sample toward the counts its kernel still lacks: after each "
                             "statement, B is added to the logits of the operators, comparisons, atomics and buffer "
                             "names it needs more of, and taken from those it has too many of (steering's guide; 0: none)",
             false, "1"});
  cl.option({"out", 0, "DIR", "also write each sample as DIR/sample_NNNN.cl"});
  cl.option({"no-store", 0, "", "store nothing in the workspace (to time or try the model; --out still writes the "
                                "files, numbered from 1)"});
  return cl;
}

int runSample(const CommandLine& cl) {
  const std::string wsPath = cl.value("workspace");
  const std::string ckpt = checkpointFor(cl, wsPath);
  std::vector<std::string> feeds = cl.has("feed") ? cl.values("feed") : std::vector<std::string>{"kernel void [HOLE]"};
  const int count = int(cl.unsignedValue("count", 1, 100000000));
  model::SampleOptions o;
  o.temperature = cl.numberValue("temperature", 0, 100);
  if (cl.has("top-p")) {
    o.topP = cl.numberValue("top-p", 0, 1);
    if (!(o.topP > 0)) throw UsageError("--top-p must be in (0, 1]");
  }
  o.batchSize = int(cl.unsignedValue("batch", 1, 4096));
  o.maxNewTokens = int(cl.unsignedValue("max-new-tokens", 1, 1000000));
  o.seed = parseSeed(cl);
  o.guard = !cl.has("unguarded");
  o.guardPatience = int(cl.unsignedValue("patience", 0, 1000000));
  o.checkPatience = int(cl.unsignedValue("check-patience", 1, 1000000));
  o.minNewTokens = int(cl.unsignedValue("min-tokens", 0, 1000000));
  if (cl.has("restarts")) o.restarts = int(cl.unsignedValue("restarts", 0, 1000));
  if (cl.has("target")) o.target = model::parseConditionTarget(cl.value("target"));
  // Each sample its own target: around --target, or the cells of a grid (-n per cell), feeds taken in turn.
  int samplesWanted = count;
  if (cl.has("spread") && cl.has("grid")) throw UsageError("give --spread or --grid, not both");
  if (cl.has("spread") && !cl.has("target")) throw UsageError("--spread needs --target, the vector to spread around");
  const double spread = cl.has("spread") ? cl.numberValue("spread", 0, 1e9) : 0.0;
  std::vector<std::vector<double>> targets;
  if (cl.has("spread"))
    targets = model::spreadTargets(o.target, spread, count, o.seed);
  else if (cl.has("grid")) {
    targets = model::gridSampleTargets(cl.value("grid"), int(cl.unsignedValue("cells", 1, 64)), o.target, count);
    samplesWanted = int(targets.size());
  }
  if (!targets.empty()) {
    std::vector<std::string> each;
    for (std::size_t i = 0; i < targets.size(); ++i)
      each.push_back(feeds[i % feeds.size()]);
    feeds = each;
    o.feedTargets = targets;
  }
  o.typedArguments = model::fillsBetweenText(feeds);
  const bool checked = !cl.has("unchecked");
  if (cl.has("clean") && !checked) throw UsageError("--clean needs the compiler checks: give it without --unchecked");
  if (cl.has("clean") && cl.has("unclean")) throw UsageError("give --clean or --unclean, not both");
  // Held to the vector by default when there is one and the checks run.
  const bool asked = !o.target.empty() || !targets.empty();
  double near = cl.numberValue("near", 0, 0.999);
  if (cl.has("near") && near > 0 && !asked)
    throw UsageError("--near needs a vector to be near: give --target, --spread or --grid");
  if (cl.has("near") && near > 0 && !checked)
    throw UsageError("--near needs the compiler checks: give it without --unchecked");
  if (!asked || !checked) near = 0;
  if (cl.has("unclean") && near == 0) throw UsageError("--unclean is for samples held to a vector (--target with --near)");
  // Clean when asked, and by default when held to a vector: held samples
  // that may break the rules reach their counts in code that does nothing.
  const bool clean = cl.has("clean") || (near > 0 && !cl.has("unclean"));
  if (clean)
    steer::sampleClean(o, steer::cleanRuleNames());
  else if (checked)
    steer::sampleChecked(o);
  if (near > 0) steer::holdToTarget(o, near, clean);
  if (!cl.has("as-written")) {
    o.tidy = features::pruneDeadDeclarations;
    o.tidyAll = true;
  }
  const double lean = cl.numberValue("lean", 0, 100);
  if (cl.has("lean") && lean > 0 && near == 0) throw UsageError("--lean is for samples held to a vector (--target with --near)");
  const int threads = int(cl.unsignedValue("threads", 0, 256));
  o.checkJobs = unsigned(threads);
  o.streams = int(cl.unsignedValue("streams", 0, 256)); // read before the model loads: a bad value fails at once
  const std::string out = cl.value("out");
  if (!out.empty()) std::filesystem::create_directories(out);

  const bool store = !cl.has("no-store");
  std::optional<store::Workspace> ws;
  if (store) ws.emplace(store::Workspace::open(wsPath));
  auto sampler = loadSampler(ckpt, threads);
  if (o.streams == 0) o.streams = sampler.defaultStreams();
  const auto recommended = sampler.recommendedOptions(); // what the model samples best with, unless given
  if (!cl.has("top-p")) o.topP = recommended.topP;
  // Held samples restart more (steer::kHeldRestarts).
  if (!cl.has("restarts"))
    o.restarts = near > 0 ? std::max(recommended.restarts, steer::kHeldRestarts) : recommended.restarts;
  if (near > 0 && lean > 0) o.heldLean = steer::heldLean(sampler.tokenizer(), lean);
  InterruptGuard interrupt;
  const auto t0 = std::chrono::steady_clock::now();
  const auto samples = sampler.sample(feeds, samplesWanted, o, {}, &interrupt.token());
  const double sampleSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Compile and measure on all cores, then store in one transaction.
  const auto mo = features::MeasureOptions::everySpace();
  std::vector<features::FileMeasurement> measured(samples.size());
  engine::parallelFor(samples.size(), threads > 0 ? unsigned(threads) : engine::hardwareJobs(), [&](std::size_t i) {
    measured[i] = features::measureSource(samples[i].text, "sample.cl", mo);
  });
  const std::string spec = steer::sampleSpecJson(
      o, checked, clean,
      (o.target.empty() ? std::string() : ",\"target\":" + jsonString(model::describeConditionTarget(o.target))) +
          (cl.has("spread") ? ",\"spread\":" + formatNumber(spread) : std::string()) +
          (cl.has("grid") ? ",\"grid\":" + jsonString(cl.value("grid")) + ",\"cells\":" + cl.value("cells") : std::string()) +
          (near > 0 ? ",\"near\":" + formatNumber(near) : std::string()) +
          (near > 0 && lean > 0 ? ",\"lean\":" + formatNumber(lean) : std::string()) +
          ",\"checkpoint\":" + jsonString(ckpt));
  // A sample's own target, when each has one, goes into its spec.
  auto specOf = [&](const model::Sample& s) {
    return o.feedTargets.empty() ? spec : steer::withSampleTarget(spec, o.feedTargets[s.feed]);
  };
  const std::string featureSpec = engine::featureSpecJson(mo);
  std::size_t compiled = 0;
  std::set<std::string> unique;
  auto keep = [&](const std::function<void()>& all) { // one transaction when stored
    if (ws) ws->transaction(all);
    else all();
  };
  keep([&] {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const auto& s = samples[i];
      const auto& m = measured[i];
      unique.insert(corpus::foldWhitespace(s.text));
      if (m.ok()) ++compiled;
      const auto id = ws ? steer::recordSample(*ws, s, feeds[s.feed], m,
                                               {sampler.modelHash(), o.seed, specOf(s), featureSpec}).sampleId
                         : std::int64_t(i + 1);
      if (!out.empty()) {
        char name[64];
        std::snprintf(name, sizeof name, "/sample_%04lld.cl", (long long)id);
        std::ofstream(out + name) << corpus::formatSource(s.text) << "\n"; // formatted code, not the token stream
      }
    }
  });
  std::vector<int> lengths;
  for (const auto& s : samples)
    lengths.push_back(int(s.ids.size()));
  std::sort(lengths.begin(), lengths.end());
  std::cout << samples.size() << " samples, " << unique.size() << " unique, " << compiled << " compile ("
            << formatNumber(std::round(samples.empty() ? 0.0 : 1000.0 * double(compiled) / double(samples.size())) / 10) << "%), "
            << formatNumber(std::round(samples.empty() ? 0.0 : 1000.0 * sampleSeconds / double(samples.size())))
            << " ms per sample (sampling only), median length "
            << (lengths.empty() ? 0 : lengths[lengths.size() / 2]) << " tokens; "
            << (ws ? "stored in " + wsPath : std::string("not stored (--no-store)")) << "\n";
  if (near > 0) {
    const auto givenUp = std::count_if(samples.begin(), samples.end(), [](const model::Sample& x) { return !x.complete; });
    std::cout << "held to their vectors (proximity " << formatNumber(near) << (clean ? ", clean" : "") << "): " << givenUp
              << (clean ? " given up with no clean kernel to end at (--unclean: more compile, far fewer run)"
                        : " given up with no kernel to end at")
              << "\n";
  }
  if (interrupt.token().cancelled()) {
    std::cerr << (ws ? "interrupted: the samples made so far are stored\n" : "interrupted\n");
    return 130;
  }
  return 0;
}

CommandLine modelInfoCommandLine() {
  CommandLine cl("model info", "Print what a model checkpoint holds: shape, step, hashes and recipe.", "[CHECKPOINT]",
                 "Without CHECKPOINT: the model `sample` would use for the workspace (its own,\n"
                 "else the default model Steerbench ships).");
  cl.option({"workspace", 'w', "FILE", "the workspace whose model to describe", false, defaultWorkspacePath()});
  return cl;
}

int runModelInfo(const CommandLine& cl) {
  const std::string path = cl.positionals().empty() ? modelForWorkspace(cl.value("workspace")) : cl.positionals()[0];
  if (path.empty())
    throw InputError("no model for " + cl.value("workspace") + " and no default model installed");
  const auto s = model::summarizeCheckpoint(path);
  std::cout << "file:        " << path << "\n"
            << "sha256:      " << s.fileSha256 << "\n"
            << "model:       " << s.config << ", " << s.parameters << " parameters\n"
            << "step:        " << s.step << (s.hasOptimizer ? " (training checkpoint: resumable)" : " (exported model)") << "\n"
            << "tokenizer:   " << s.tokenizerHash << "\n"
            << "corpus:      " << s.corpusHash << "\n"
            << "recipe:      " << (s.recipe.empty() ? std::string("-") : s.recipe) << "\n";
  return 0;
}

CommandLine modelExportCommandLine() {
  return CommandLine("model export", "Write a checkpoint's model without its optimizer state (for sharing).",
                     "CHECKPOINT OUT",
                     "OUT keeps the config, tokenizer, corpus hash, step and recipe, and samples exactly\n"
                     "like CHECKPOINT; it is a third of the size and cannot resume training. It is\n"
                     "written atomically.");
}

int runModelExport(const CommandLine& cl) {
  if (cl.positionals().size() != 2) throw UsageError("give the checkpoint and the file to write");
  model::exportModel(cl.positionals()[0], cl.positionals()[1]);
  const auto s = model::summarizeCheckpoint(cl.positionals()[1]);
  std::cout << "wrote " << cl.positionals()[1] << " (" << s.config << ", step " << s.step << ", sha256 "
            << s.fileSha256 << ")\n";
  return 0;
}

} // namespace steerbench::cli

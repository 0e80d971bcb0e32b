// The driver on real devices: every DevMap kernel source driven on the
// machine's OpenCL devices (both PoCL devices here) at three global sizes;
// worker reuse against a fresh worker per kernel; and PIE's identical-pair
// test (one kernel timed twice as if it were two, for 50 kernels).
//
// Usage: bench-drive [--devmap CSV] [--global-sizes 1024,8192,65536] [--local 64] [--runs 10] [--warmup 2]
//                    [--limit N] [--reuse-kernels 40] [--pairs 50] [--timeout 20] [--csv FILE]
//                    [--pairs-workspace WS]   (corpus kernels for the pairs; default: the default workspace)
//                    [--corpus WS --sample N --seed S]  (N random corpus kernels of roles train and capped instead)
//                    [--sources DIR]          (every .cl file of DIR instead: generated kernels, say)
// Timed runs are interleaved across devices (see Driver), also for the pairs.
// Prints: throughput (kernels per minute), counts per outcome, the compile-pass
// and execute-pass rates, label counts and the AMBIGUOUS fraction; the reuse
// comparison; the distribution of identical-pair time ratios.
#include "common/Paths.h"
#include "corpus/TypeReconstruction.h"
#include "dataset/DevMap.h"
#include "drive/host/Driver.h"
#include "drive/host/KernelSignatures.h"
#include "store/Workspace.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>

using namespace steerbench;
using namespace steerbench::drive;

namespace {

struct Kernel {
  std::string name, source;
  KernelSignature signature;
  bool compiled = false;  ///< Clang accepts the unit
  std::string clangError; ///< its first error when it does not
};

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = q * double(v.size() - 1);
  const std::size_t lo = std::size_t(at);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (at - double(lo));
}

std::vector<std::uint64_t> sizes(const char* text) {
  std::vector<std::uint64_t> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    out.push_back(std::stoull(item));
  return out;
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is printed, also into a file
  std::string devmap = devmapDir().empty() ? std::string() : devmapDir() + "/cgo17-amd.csv";
  DriveOptions o;
  o.globalSizes = {1024, 8192, 65536};
  o.localSizes = {64};
  o.timedRuns = 10;
  o.warmupRuns = 2;
  std::size_t limit = 0, reuseKernels = 40, pairs = 50;
  std::string csvPath;
  std::string pairsWorkspace = defaultWorkspacePath();
  bool explain = false;
  std::string corpusWorkspace, sourcesDir;
  std::size_t corpusSample = 300;
  std::string onlyPath; // a file of kernel names, one a line: drive only these
  unsigned corpusSeed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench-drive: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--devmap") devmap = next();
    else if (a == "--global-sizes") o.globalSizes = sizes(next());
    else if (a == "--local") o.localSizes = {std::stoull(next())};
    else if (a == "--runs") o.timedRuns = unsigned(std::stoul(next()));
    else if (a == "--warmup") o.warmupRuns = unsigned(std::stoul(next()));
    else if (a == "--limit") limit = std::stoul(next());
    else if (a == "--reuse-kernels") reuseKernels = std::stoul(next());
    else if (a == "--pairs") pairs = std::stoul(next());
    else if (a == "--timeout") o.timeoutSeconds = std::stod(next());
    else if (a == "--csv") csvPath = next();
    else if (a == "--pairs-workspace") pairsWorkspace = next();
    else if (a == "--corpus") corpusWorkspace = next();
    else if (a == "--sample") corpusSample = std::stoul(next());
    else if (a == "--seed") corpusSeed = unsigned(std::stoul(next()));
    else if (a == "--sources") sourcesDir = next();
    else if (a == "--payload-sets") {
      o.payloadSets.clear();
      std::stringstream ss(next());
      for (std::string set; std::getline(ss, set, ',');)
        o.payloadSets.push_back(set);
    } else if (a == "--explain") explain = true;
    else if (a == "--oclgrind") o.oclgrind = true;
    else if (a == "--only") onlyPath = next();
    else {
      std::fprintf(stderr, "usage: bench-drive [--devmap CSV] [--global-sizes A,B,C] [--local N] [--runs N] "
                           "[--warmup N] [--limit N] [--reuse-kernels N] [--pairs N] [--timeout S] [--csv FILE] "
                           "[--payload-sets roles,cldrive,big,scalars] [--explain] [--corpus WS [--sample N] [--seed S]] "
                           "[--sources DIR] [--only FILE] [--oclgrind]\n");
      return 2;
    }
  }
  const auto scratch = std::filesystem::temp_directory_path() / "steerbench-bench-drive";
  std::filesystem::create_directories(scratch);
  o.cacheDir = (scratch / "pocl-cache").string();

  std::vector<Kernel> kernels;
  int clangFailures = 0;
  std::string what;
  // A kernel unit and its first kernel's signature; units Clang rejects are
  // kept (they count, as BUILD_FAILURE).
  auto add = [&](std::string name, std::string source, bool reconstruct) {
    Kernel k;
    k.name = std::move(name);
    k.source = std::move(source);
    auto scan = kernelSignatures(k.source);
    if (!scan.compiled && reconstruct) {
      // DevMap sources that need declarations identifier rewriting dropped get the corpus's reconstruction.
      const auto rec = corpus::reconstructDeclarations(k.source, k.name + ".cl", {});
      if (rec.compiled) {
        k.source = rec.prelude + "\n" + k.source;
        scan = kernelSignatures(k.source);
      }
    }
    k.compiled = scan.compiled;
    if (!scan.compiled) k.clangError = scan.error.substr(0, scan.error.find('\n'));
    if (!scan.compiled || scan.kernels.empty()) {
      ++clangFailures;
      k.signature.name = "A";
    } else {
      k.signature = scan.kernels[0];
    }
    kernels.push_back(std::move(k));
  };
  if (!corpusWorkspace.empty()) {
    // A seeded random sample of the corpus's kernels that models train on.
    auto ws = store::Workspace::open(corpusWorkspace, store::Workspace::Mode::OpenExisting);
    auto rows = ws.rows("SELECT id, source FROM kernels WHERE role IN ('train', 'capped') ORDER BY id");
    std::mt19937_64 rng(corpusSeed);
    std::shuffle(rows.begin(), rows.end(), rng);
    rows.resize(std::min(rows.size(), corpusSample));
    for (const auto& row : rows)
      add("corpus-" + row[0], row[1], false);
    what = "random corpus kernels of roles train and capped (seed " + std::to_string(corpusSeed) + ", " + corpusWorkspace + ")";
  } else if (!sourcesDir.empty()) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(sourcesDir))
      if (e.path().extension() == ".cl") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f);
      std::stringstream text;
      text << in.rdbuf();
      add(f.stem().string(), text.str(), false);
    }
    what = "kernel files of " + sourcesDir;
  } else {
    if (devmap.empty()) {
      std::fprintf(stderr, "bench-drive: no DevMap CSV (give --devmap or set STEERBENCH_DEVMAP_DIR)\n");
      return 2;
    }
    // Every distinct kernel source in DevMap, with its signature.
    std::set<std::string> seen;
    for (const auto& r : dataset::readDevMap(devmap))
      if (seen.insert(r.src).second) add(r.benchmark, r.src, true);
    what = "distinct DevMap sources";
  }
  if (!onlyPath.empty()) {
    // --only: the kernels named in a file (say, those that passed in an
    // earlier run, for a rerun under Oclgrind).
    std::ifstream in(onlyPath);
    if (!in) {
      std::fprintf(stderr, "bench-drive: cannot read %s\n", onlyPath.c_str());
      return 2;
    }
    std::set<std::string> only;
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) only.insert(line);
    kernels.erase(std::remove_if(kernels.begin(), kernels.end(), [&](const Kernel& k) { return !only.count(k.name); }),
                  kernels.end());
    what += ", those named in " + onlyPath;
  }
  if (limit && kernels.size() > limit) kernels.resize(limit);

  Driver driver(o);
  std::printf("devices:");
  for (const auto& d : driver.devices())
    std::printf("  %s (%s, %u compute units)", d.name.c_str(), d.id.c_str(), d.computeUnits);
  std::printf("\nkernels: %zu %s (%d do not compile with Clang)\n", kernels.size(), what.c_str(), clangFailures);
  std::printf("global sizes:");
  for (auto g : o.globalSizes)
    std::printf(" %llu", (unsigned long long)g);
  std::printf(", local %llu, %u warm-up + %u timed runs, timeout %.0f s\n\n",
              (unsigned long long)o.localSizes[0], o.warmupRuns, o.timedRuns, o.timeoutSeconds);

  // 1. Drive everything.
  std::FILE* csv = csvPath.empty() ? nullptr : std::fopen(csvPath.c_str(), "w");
  if (csv) std::fprintf(csv, "kernel,global,outcome,label,label_status\n");
  std::map<std::string, int> outcomes, kernelOutcomes, labels, sets, passSets;
  int passedAtSomeSize = 0;
  int cases = 0, labelled = 0, ambiguous = 0, compiled = 0, executed = 0;
  std::vector<std::size_t> passing;
  std::vector<std::pair<std::string, std::size_t>> passedSomewhere; // kernel passed at one size at least
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& k = kernels[i];
    std::vector<CaseResult> results;
    bool driven = false;
    const auto kernelStart = std::chrono::steady_clock::now();
    const auto spentBefore = driver.timeSpent();
    if (!k.compiled) {
      CaseResult c;
      c.outcome = "BUILD_FAILURE";
      c.detail = "Clang: " + k.clangError;
      results.push_back(c);
    } else {
      results = driver.drive(k.source, k.signature);
      driven = true;
    }
    bool allPass = !results.empty(), built = true, anyPass = false;
    for (const auto& c : results) {
      ++cases;
      ++outcomes[c.outcome];
      allPass = allPass && c.outcome == "PASS";
      built = built && c.outcome != "BUILD_FAILURE";
      if (c.outcome == "PASS") passedSomewhere.push_back({k.name, i});
      anyPass = anyPass || c.outcome == "PASS";
      if (c.outcome == "PASS" && c.label.best >= 0) {
        ++labelled;
        ambiguous += c.label.status() == "AMBIGUOUS";
        ++labels[c.labelDevice() + (c.label.significant ? "" : " (AMBIGUOUS)")];
      }
      if (csv)
        std::fprintf(csv, "%s,%llu,%s,\"%s\",%s\n", k.name.c_str(), (unsigned long long)c.globalSize,
                     c.outcome.c_str(), c.labelDevice().c_str(), c.label.status().c_str());
    }
    // A kernel's outcome: PASS when every size passed, else its first other outcome.
    std::string ko = "PASS";
    for (const auto& c : results)
      if (c.outcome != "PASS") {
        ko = c.outcome;
        break;
      }
    ++kernelOutcomes[ko];
    passedAtSomeSize += anyPass;
    if (!results.empty() && !results.front().payloadSet.empty()) {
      ++sets[results.front().payloadSet];
      if (anyPass) ++passSets[results.front().payloadSet];
    }
    if (explain && !results.empty()) {
      std::printf("%s: %s [%s] %s\n", k.name.c_str(), ko.c_str(), results.front().payloadSet.c_str(),
                  results.front().payload.c_str());
      std::printf("    %.1f s (probing %.1f s)\n", seconds(kernelStart), driver.timeSpent().probing - spentBefore.probing);
      for (const auto& e : driven ? driver.evidence() : std::vector<std::string>{})
        std::printf("    %s\n", e.c_str());
      for (const auto& c : results)
        if (c.outcome != "PASS") {
          std::printf("    %llu: %s\n", (unsigned long long)c.globalSize, c.detail.substr(0, 300).c_str());
          break;
        }
    }
    compiled += built;
    executed += allPass;
    if (allPass) passing.push_back(i);
    if ((i + 1) % 25 == 0)
      std::fprintf(stderr, "[%zu/%zu] %.0f s\n", i + 1, kernels.size(), seconds(start));
  }
  const double took = seconds(start);
  if (csv) std::fclose(csv);
  std::printf("1. the kernels on every device\n");
  std::printf("  throughput: %zu kernels in %.0f s = %.1f kernels per minute (%d cases, %zu devices each)\n",
              kernels.size(), took, 60.0 * double(kernels.size()) / took, cases, driver.devices().size());
  std::printf("  time in the worker: probing %.0f s, checks and warm-ups %.0f s, timed runs %.0f s\n",
              driver.timeSpent().probing, driver.timeSpent().checking, driver.timeSpent().timing);
  std::printf("  outcomes per case:");
  for (const auto& [k, v] : outcomes)
    std::printf("  %s %d", k.c_str(), v);
  std::printf("\n  outcomes per kernel:");
  for (const auto& [k, v] : kernelOutcomes)
    std::printf("  %s %d", k.c_str(), v);
  std::printf("\n  compile-pass: %d/%zu = %.1f%%   execute-pass (PASS at every size): %d/%zu = %.1f%%\n", compiled,
              kernels.size(), 100.0 * compiled / double(kernels.size()), executed, kernels.size(),
              100.0 * executed / double(kernels.size()));
  std::printf("  PASS at one size or more: %d/%zu = %.1f%%\n", passedAtSomeSize, kernels.size(),
              100.0 * passedAtSomeSize / double(kernels.size()));
  std::printf("  payload constraint set chosen (of them PASS somewhere):");
  for (const auto& [k, v] : sets)
    std::printf("  %s %d (%d)", k.c_str(), v, passSets[k]);
  std::printf("\n");
  std::printf("  labels (%d labelled cases):\n", labelled);
  for (const auto& [k, v] : labels)
    std::printf("    %-70s %d\n", k.c_str(), v);
  std::printf("  AMBIGUOUS: %d/%d = %.1f%%\n  workers started: %d\n\n", ambiguous, labelled,
              labelled ? 100.0 * ambiguous / labelled : 0.0, driver.workersStarted());

  // 2. Reusing one worker against a fresh worker per kernel, on the same kernels.
  {
    // The kernels that passed first (a failing kernel replaces the worker in
    // both modes), then others.
    std::vector<std::size_t> sample(passing.begin(), passing.begin() + std::ptrdiff_t(std::min(passing.size(), reuseKernels)));
    const std::size_t passed = sample.size();
    for (std::size_t i = 0; i < kernels.size() && sample.size() < reuseKernels; ++i)
      if (std::find(passing.begin(), passing.end(), i) == passing.end()) sample.push_back(i);
    std::printf("2. worker reuse (%zu kernels: %zu that passed, then others)\n", sample.size(), passed);
    std::map<bool, std::vector<std::string>> outcomesBy;
    for (bool fresh : {false, true}) {
      DriveOptions w = o;
      w.freshWorkerPerKernel = fresh;
      Driver d(w);
      const auto t0 = std::chrono::steady_clock::now();
      for (auto i : sample) {
        const auto& k = kernels[i];
        if (!k.compiled) continue;
        for (const auto& c : d.drive(k.source, k.signature))
          outcomesBy[fresh].push_back(c.outcome);
      }
      const double s = seconds(t0);
      std::printf("  %-28s %.1f s, %.1f kernels per minute, %d workers\n",
                  fresh ? "fresh worker per kernel:" : "one worker, reused:", s, 60.0 * double(sample.size()) / s,
                  d.workersStarted());
    }
    std::size_t agree = 0;
    for (std::size_t i = 0; i < std::min(outcomesBy[false].size(), outcomesBy[true].size()); ++i)
      agree += outcomesBy[false][i] == outcomesBy[true][i];
    std::printf("  same outcome in both modes: %zu/%zu cases\n\n", agree, outcomesBy[false].size());
  }

  // 3. PIE's identical-pair test: one device, the same kernel timed twice as
  // if it were two devices. DevMap kernels that passed come first; when there
  // are fewer than --pairs, kernels of the default workspace's corpus follow
  // (the checker runs first, so only kernels that pass are timed).
  {
    DriveOptions p = o;
    p.globalSizes = {o.globalSizes.back()};
    const std::string device = driver.devices().back().id;
    p.devices = {device, device};
    Driver d(p);
    std::vector<std::pair<std::string, KernelSignature>> candidates;
    std::set<std::size_t> anyPass;
    for (const auto& [name, index] : passedSomewhere)
      anyPass.insert(index);
    for (auto i : anyPass)
      candidates.push_back({kernels[i].source, kernels[i].signature});
    std::size_t fromCorpus = 0;
    if (candidates.size() < pairs * 2) {
      try {
        auto ws = store::Workspace::open(pairsWorkspace, store::Workspace::Mode::OpenExisting);
        for (const auto& row : ws.rows("SELECT source, name FROM kernels WHERE role = 'train' ORDER BY id LIMIT 400")) {
          const auto scan = kernelSignatures(row[0]);
          // Corpus kernels are rewritten (the kernel is A); one kernel per unit.
          if (scan.compiled && scan.kernels.size() == 1) {
            candidates.push_back({row[0], scan.kernels[0]});
            ++fromCorpus;
          }
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "bench-drive: no corpus kernels for the pairs (%s)\n", e.what());
      }
    }
    std::vector<double> ratios;
    int significant = 0, measured = 0, fromDevMap = 0;
    for (std::size_t c = 0; c < candidates.size() && std::size_t(measured) < pairs; ++c) {
      const auto results = d.drive(candidates[c].first, candidates[c].second);
      if (results.empty() || results[0].outcome != "PASS" || results[0].devices.size() != 2) continue;
      ++measured;
      fromDevMap += c < anyPass.size();
      const auto& a = results[0].devices[0].total;
      const auto& b = results[0].devices[1].total;
      ratios.push_back(a.mean / b.mean);
      significant += results[0].label.significant;
    }
    std::printf("3. identical pairs (%d kernels: %d from DevMap, %d from the corpus; each timed twice on %s at global "
                "%llu)\n",
                measured, fromDevMap, measured - fromDevMap, d.devices()[0].name.c_str(),
                (unsigned long long)p.globalSizes[0]);
    (void)fromCorpus;
    double mean = 0, sd = 0;
    for (double r : ratios)
      mean += r / double(ratios.size());
    for (double r : ratios)
      sd += (r - mean) * (r - mean) / double(std::max<std::size_t>(1, ratios.size() - 1));
    sd = std::sqrt(sd);
    std::printf("  time ratio first/second: min %.3f  p5 %.3f  median %.3f  p95 %.3f  max %.3f  (mean %.3f, sd %.3f)\n",
                quantile(ratios, 0), quantile(ratios, 0.05), quantile(ratios, 0.5), quantile(ratios, 0.95),
                quantile(ratios, 1), mean, sd);
    std::printf("  labelled significantly different: %d/%d (goal: 0)\n", significant, measured);
  }
  return 0;
}

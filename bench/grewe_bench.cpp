// The Grewe et al. CPU/GPU heuristic, as the literature evaluates it.
//
//   bench-grewe [--seeds 50]
//       Replication on DevMap's two CSVs: stratified 10-fold at seed 204 beside
//       the published numbers (docs/evaluation.md), the spread of accuracy and
//       speedup over --seeds other fold splits, and leave-one-benchmark-out.
//   bench-grewe --write-suite-kernels DIR
//       Writes every distinct DevMap kernel source as DIR/BENCHMARK.cl (with
//       reconstructed declarations where identifier rewriting dropped them), to drive.
//   bench-grewe --write-corpus-kernels DIR --workspace W --count N [--seed S]
//       Writes N random training kernels of a workspace's corpus, to drive.
//   bench-grewe --local W [--csv FILE]
//       Local labels: the suite kernels driven into W on this machine's
//       devices; prints the oracle and static-mapping numbers for the pair and
//       the tree's 10-fold result; --csv writes them in DevMap layout.
//   bench-grewe --augment --suites W [--corpus W] [--passive W] [--active W] [--seeds 10] [--csv FILE]
//       The augmentation experiment: the tree cross-validated on the suite
//       labels of --suites (rows of DevMap kernels, written by
//       --write-suite-kernels), its training folds augmented with the rows
//       each other workspace added (kernels whose text no drive case of
//       --suites has), in BenchPress's Table 2 layout (speedups averaged and
//       confusion counts pooled over --seeds fold splits); each arm's
//       speedup on each split (printed, and in --csv with column split); the
//       arms paired split by split (Wilcoxon's signed-rank test and the sign test: does
//       active learning lead passive steering on most splits?); then the
//       speedup against the active-learning epoch (Figure 10).
#include "common/AtomicFile.h"
#include "common/Error.h"
#include "common/Paths.h"
#include "common/TextFormat.h"
#include "corpus/TypeReconstruction.h"
#include "dataset/DevMap.h"
#include "drive/host/DevMapExport.h"
#include "drive/host/KernelSignatures.h"
#include "heuristic/DeviceMapping.h"
#include "heuristic/PairedTest.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>

using namespace steerbench;
using namespace steerbench::heuristic;

namespace {

struct Args {
  std::map<std::string, std::string> values;
  std::set<std::string> flags;
  [[nodiscard]] bool has(const std::string& k) const { return values.count(k) || flags.count(k); }
  [[nodiscard]] std::string get(const std::string& k, const std::string& d = "") const {
    auto it = values.find(k);
    return it == values.end() ? d : it->second;
  }
};

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string pct(double x) {
  char b[32];
  if (std::isnan(x)) return "n/a";
  std::snprintf(b, sizeof b, "%.2f%%", 100 * x);
  return b;
}
std::string times(double x) {
  char b[32];
  if (std::isnan(x)) return "n/a";
  std::snprintf(b, sizeof b, "%.3fx", x);
  return b;
}

// ---------------------------------------------------------------- replication

struct Published {
  const char* name;
  const char* file;
  double staticAccuracy, accuracy, speedup, oracle;
};

int replication(const Args& args) {
  const std::string dir = devmapDir();
  if (dir.empty()) {
    std::fprintf(stderr, "bench-grewe: DevMap is not on this machine (set STEERBENCH_DEVMAP_DIR)\n");
    return 2;
  }
  const int seeds = std::stoi(args.get("seeds", "50"));
  if (seeds < 1) throw InputError("--seeds must be at least 1");
  const Published published[] = {{"AMD Tahiti 7970", "devmap-amd", 0.5882, 0.7338, 2.91, 3.64},
                                 {"NVIDIA GTX 970", "devmap-nvidia", 0.5691, 0.7294, 1.26, 1.53}};
  std::printf("Replication: Grewe et al. decision tree (CART, entropy, max depth 5, min 5 per leaf) on F1..F4,\n"
              "stratified 10-fold cross-validation. Published: DeepTune's evaluation (docs/evaluation.md).\n"
              "Goal: accuracy within 2 points, speedup over static mapping within 5%%.\n\n");
  std::printf("%-17s %-26s %10s %10s %8s %8s\n", "platform", "metric", "published", "ours", "gap", "goal");
  struct Spread {
    std::vector<double> acc, speed;
  };
  std::map<std::string, Spread> spreads;
  std::map<std::string, Metrics> lobo;
  for (const auto& p : published) {
    const auto data = readMappingCases(p.file, FeatureSet::Grewe);
    EvaluationSpec spec; // seed 204, 10 folds, depth 5, min leaf 5
    const Metrics m = crossValidate(data, {}, spec).metrics;
    const double accGap = 100 * (m.accuracy - p.accuracy);
    const double speedGap = 100 * (m.speedupMean / p.speedup - 1);
    std::printf("%-17s %-26s %10s %10s %+7.2fpt %8s\n", p.name, "static mapping accuracy", pct(p.staticAccuracy).c_str(),
                pct(m.staticAccuracy).c_str(), 100 * (m.staticAccuracy - p.staticAccuracy), "");
    std::printf("%-17s %-26s %10s %10s %+7.2fpt %8s\n", "", "accuracy", pct(p.accuracy).c_str(),
                pct(m.accuracy).c_str(), accGap, std::abs(accGap) <= 2 ? "met" : "MISSED");
    std::printf("%-17s %-26s %10s %10s %+7.2f%% %8s\n", "", "speedup over static (mean)", times(p.speedup).c_str(),
                times(m.speedupMean).c_str(), speedGap, std::abs(speedGap) <= 5 ? "met" : "MISSED");
    std::printf("%-17s %-26s %10s %10s %+7.2f%% %8s\n", "", "oracle speedup (mean)", times(p.oracle).c_str(),
                times(m.oracleMean).c_str(), 100 * (m.oracleMean / p.oracle - 1), "");
    std::printf("%-17s %-26s %10s %10s\n", "", "precision / recall", "", (pct(m.precision) + " / " + pct(m.recall)).c_str());
    std::printf("%-17s %-26s %10s %10s\n", "", "specificity", "", pct(m.specificity).c_str());
    std::printf("%-17s %-26s %10s %10s\n", "", "speedup (geomean)", "", times(m.speedupGeomean).c_str());
    auto& s = spreads[p.name];
    for (int seed = 1; seed <= seeds; ++seed) {
      spec.seed = std::uint64_t(seed);
      const Metrics r = crossValidate(data, {}, spec).metrics;
      s.acc.push_back(r.accuracy);
      s.speed.push_back(r.speedupMean);
    }
    EvaluationSpec l;
    l.protocol = Protocol::LeaveOneBenchmarkOut;
    lobo[p.name] = crossValidate(data, {}, l).metrics;
  }
  std::printf("\nThe same, over %d other fold splits (seeds 1..%d): median [min, max], and how many splits come within 2 points (accuracy) or 5% (speedup) of the published figure\n",
              seeds, seeds);
  for (const auto& p : published) {
    const auto& s = spreads[p.name];
    const auto accMet = std::count_if(s.acc.begin(), s.acc.end(), [&](double a) { return std::abs(a - p.accuracy) <= 0.02; });
    const auto speedMet =
        std::count_if(s.speed.begin(), s.speed.end(), [&](double v) { return std::abs(v / p.speedup - 1) <= 0.05; });
    std::printf("%-17s accuracy %s [%s, %s] (%ld/%d within 2pt); speedup %s [%s, %s] (%ld/%d within 5%%)\n", p.name,
                pct(median(s.acc)).c_str(), pct(*std::min_element(s.acc.begin(), s.acc.end())).c_str(),
                pct(*std::max_element(s.acc.begin(), s.acc.end())).c_str(), long(accMet), seeds,
                times(median(s.speed)).c_str(), times(*std::min_element(s.speed.begin(), s.speed.end())).c_str(),
                times(*std::max_element(s.speed.begin(), s.speed.end())).c_str(), long(speedMet), seeds);
  }
  std::printf("\nLeave one benchmark out (all kernels and data sets of one program per fold):\n");
  for (const auto& p : published) {
    const auto& m = lobo[p.name];
    std::printf("%-17s accuracy %s, speedup over static %s (geomean %s), oracle %s\n", p.name, pct(m.accuracy).c_str(),
                times(m.speedupMean).c_str(), times(m.speedupGeomean).c_str(), times(m.oracleMean).c_str());
  }
  return 0;
}

// ------------------------------------------------------------ kernel writers

int writeSuiteKernels(const Args& args) {
  const std::string dir = args.get("write-suite-kernels");
  std::filesystem::create_directories(dir);
  std::set<std::string> seen;
  int written = 0, reconstructed = 0;
  for (const auto& r : dataset::readDevMap(dataSetPath(args.get("devmap", "devmap-amd")))) {
    if (!seen.insert(r.src).second) continue;
    std::string source = r.src;
    if (!drive::kernelSignatures(source).compiled) {
      const auto rec = corpus::reconstructDeclarations(source, r.benchmark + ".cl", {});
      if (rec.compiled) {
        source = rec.prelude + "\n" + source;
        ++reconstructed;
      }
    }
    std::ofstream(dir + "/" + r.benchmark + ".cl") << source;
    ++written;
  }
  std::printf("wrote %d DevMap kernels to %s (%d with reconstructed declarations)\n", written, dir.c_str(), reconstructed);
  return 0;
}

int writeCorpusKernels(const Args& args) {
  const std::string dir = args.get("write-corpus-kernels");
  auto ws = store::Workspace::open(args.get("workspace", defaultWorkspacePath()), store::Workspace::Mode::OpenExisting);
  std::vector<std::int64_t> ids;
  for (const auto& row : ws.rows("SELECT id FROM kernels WHERE role = 'train' ORDER BY id"))
    ids.push_back(std::stoll(row[0]));
  const std::size_t count = std::min<std::size_t>(std::stoul(args.get("count", "20")), ids.size());
  std::mt19937_64 rng(std::stoull(args.get("seed", "1")));
  for (std::size_t i = 0; i < count; ++i) // a seeded partial Fisher-Yates
    std::swap(ids[i], ids[i + std::size_t(rng() % (ids.size() - i))]);
  std::filesystem::create_directories(dir);
  for (std::size_t i = 0; i < count; ++i) {
    const auto k = ws.kernel(ids[i]);
    std::ofstream(dir + "/corpus-" + std::to_string(k->id) + ".cl") << k->source;
  }
  std::printf("wrote %zu of %zu corpus training kernels to %s\n", count, ids.size(), dir.c_str());
  return 0;
}

// ---------------------------------------------------------------- local labels

struct LabelledSet {
  std::vector<drive::LabelledRow> rows;
  std::vector<std::int64_t> kernelIds;   ///< per row
  std::vector<std::string> kernelHashes; ///< per row: the kernel's content hash
  std::set<std::string> drivenHashes;    ///< every kernel with a drive case, labelled or not
};

std::int64_t kernelIdOf(const std::string& benchmark) { // "steerbench-ID-NAME"
  return std::stoll(benchmark.substr(std::strlen("steerbench-")));
}

std::set<std::string> devmapBenchmarks() {
  std::set<std::string> names;
  for (const auto& r : dataset::readDevMap(dataSetPath("devmap-amd")))
    names.insert(r.benchmark);
  return names;
}

/// The workspace's labelled rows. Kernels driven from DIR/BENCHMARK.cl files
/// (--write-suite-kernels) get their DevMap benchmark name back, so that
/// leave-one-out groups them by program; the others are each their own program.
LabelledSet labelled(const std::string& path, const std::set<std::string>& suiteNames) {
  auto ws = store::Workspace::open(path, store::Workspace::Mode::OpenExisting);
  LabelledSet out;
  out.rows = drive::labelledRows(ws);
  for (auto& r : out.rows) {
    const auto id = kernelIdOf(r.row.benchmark);
    const auto k = ws.kernel(id);
    out.kernelIds.push_back(id);
    out.kernelHashes.push_back(k ? k->contentHash : std::string());
    const std::string stem = k ? std::filesystem::path(k->originFile).stem().string() : "";
    if (suiteNames.count(stem)) r.row.benchmark = stem;
    else r.row.benchmark = "generated-0-" + std::to_string(id) + "-" + r.row.benchmark;
  }
  for (const auto& row : ws.rows("SELECT DISTINCT k.content_hash FROM drive_cases d JOIN kernels k ON k.id = d.kernel_id"))
    out.drivenHashes.insert(row[0]);
  return out;
}

/// The rows of DevMap kernels only.
std::vector<drive::LabelledRow> suiteRows(const LabelledSet& set, const std::set<std::string>& suiteNames) {
  std::vector<drive::LabelledRow> rows;
  for (const auto& r : set.rows)
    if (suiteNames.count(r.row.benchmark)) rows.push_back(r);
  return rows;
}

std::vector<MappingCase> casesOf(const std::vector<drive::LabelledRow>& rows, const std::string& name) {
  return mappingCases(drive::devMapRows(rows), FeatureSet::Grewe, name);
}

int local(const Args& args) {
  const std::string path = args.get("local");
  const auto names = devmapBenchmarks();
  const auto rows = suiteRows(labelled(path, names), names);
  std::set<std::string> kernels, devices;
  std::size_t significant = 0;
  for (const auto& r : rows) {
    kernels.insert(r.row.benchmark);
    devices.insert(r.row.deviceCpu + " (as CPU) vs " + r.row.deviceGpu + " (as GPU)");
    significant += r.labelStatus == "significant";
  }
  const auto cases = casesOf(rows, path);
  std::printf("Local labels from %s: %zu rows (kernel x size) of %zu DevMap kernels; devices: ", path.c_str(),
              cases.size(), kernels.size());
  for (const auto& d : devices)
    std::printf("%s; ", d.c_str());
  std::printf("\n%zu of %zu labels significant (95%% intervals separate), the rest AMBIGUOUS\n", significant,
              rows.size());
  if (args.has("csv")) { // the local labels in DevMap layout, benchmark names restored
    const std::string csv = drive::devMapCsv(rows);
    writeFileAtomically(args.get("csv"), csv);
    std::printf("wrote %s\n", args.get("csv").c_str());
  }
  if (cases.empty()) return 1;
  const int dev = staticDeviceOf(cases);
  const Metrics o = metricsOf(cases, [&] {
    std::vector<int> p;
    for (const auto& c : cases)
      p.push_back(c.oracle);
    return p;
  }(), dev);
  std::size_t gpu = 0;
  for (const auto& c : cases)
    gpu += c.oracle == kGpu;
  std::printf("oracle: %zu rows fastest on the 'CPU' role, %zu on the 'GPU' role\n", cases.size() - gpu, gpu);
  std::printf("static mapping: %s, right on %s of rows\n", deviceName(dev), pct(o.staticAccuracy).c_str());
  std::printf("oracle speedup over static: mean %s, geomean %s\n", times(o.oracleMean).c_str(),
              times(o.oracleGeomean).c_str());
  if (cases.size() >= 10) {
    EvaluationSpec spec;
    spec.tree.minSamplesLeaf = 2; // the set is small
    const Metrics m = crossValidate(cases, {}, spec).metrics;
    std::printf("the tree, 10-fold (min 2 per leaf): accuracy %s, speedup over static %s (geomean %s), precision %s, "
                "recall %s, specificity %s\n",
                pct(m.accuracy).c_str(), times(m.speedupMean).c_str(), times(m.speedupGeomean).c_str(),
                pct(m.precision).c_str(), pct(m.recall).c_str(), pct(m.specificity).c_str());
  }
  return 0;
}

// ------------------------------------------------------------ augmentation

struct Arm {
  std::string name, workspace;
  std::vector<MappingCase> added;
  std::vector<std::int64_t> addedKernels; ///< per added row
};

/// Cross-validated over fold splits 1..seeds: speedups averaged over the
/// splits; precision, recall and specificity from confusion counts pooled
/// over them (so a split without GPU predictions does not count as 0).
Metrics meanOver(const std::vector<MappingCase>& suites, const std::vector<MappingCase>& augment, int seeds,
                 int minLeaf, std::vector<double>* perSplit = nullptr) {
  Metrics sum;
  for (int s = 1; s <= seeds; ++s) {
    EvaluationSpec spec;
    spec.seed = std::uint64_t(s);
    spec.tree.minSamplesLeaf = minLeaf;
    spec.folds = std::min<int>(10, int(suites.size()));
    const Metrics m = crossValidate(suites, augment, spec).metrics;
    sum.truePositives += m.truePositives;
    sum.falsePositives += m.falsePositives;
    sum.trueNegatives += m.trueNegatives;
    sum.falseNegatives += m.falseNegatives;
    sum.speedupMean += m.speedupMean / seeds;
    sum.speedupGeomean += m.speedupGeomean / seeds;
    if (perSplit) perSplit->push_back(m.speedupMean);
    sum.oracleMean = m.oracleMean;
    sum.oracleGeomean = m.oracleGeomean;
    sum.staticDevice = m.staticDevice;
    sum.staticAccuracy = m.staticAccuracy;
    sum.cases = m.cases;
  }
  deriveRates(sum);
  return sum;
}

int augmentation(const Args& args) {
  const auto names = devmapBenchmarks();
  const auto suitesSet = labelled(args.get("suites"), names);
  const auto suites = casesOf(suiteRows(suitesSet, names), args.get("suites"));
  const int seeds = std::stoi(args.get("seeds", "10"));
  if (seeds < 1) throw InputError("--seeds must be at least 1");
  const int minLeaf = std::stoi(args.get("min-leaf", "2"));
  std::vector<Arm> arms;
  for (const char* name : {"corpus", "passive", "active"}) {
    if (!args.has(name)) continue;
    Arm arm{name, args.get(name), {}, {}};
    const auto set = labelled(arm.workspace, names);
    std::vector<drive::LabelledRow> rows;
    for (std::size_t i = 0; i < set.rows.size(); ++i)
      if (!suitesSet.drivenHashes.count(set.kernelHashes[i])) { // a kernel the suites workspace never drove
        rows.push_back(set.rows[i]);
        arm.addedKernels.push_back(set.kernelIds[i]);
      }
    arm.added = casesOf(rows, arm.workspace);
    arms.push_back(std::move(arm));
  }
  std::printf("Augmentation: the tree (entropy, depth 5, min %d per leaf) cross-validated (10-fold, mean of %d seeds)\n"
              "on %zu local suite rows; generated rows join every training fold, never a test fold.\n\n",
              minLeaf, seeds, suites.size());
  std::vector<double> baseSplits;
  const Metrics base = meanOver(suites, {}, seeds, minLeaf, &baseSplits);
  std::printf("static mapping: %s (right on %s of suite rows); oracle speedup over it: %s (geomean %s)\n\n",
              deviceName(base.staticDevice), pct(base.staticAccuracy).c_str(), times(base.oracleMean).c_str(),
              times(base.oracleGeomean).c_str());
  std::printf("%-32s %5s %7s %9s %17s %9s %9s %9s %9s\n", "training data", "added", "kernels", "speedup",
              "[split min, max]", "geomean", "precision", "recall", "specif.");
  auto line = [&](const std::string& name, std::size_t added, std::size_t kernels, const Metrics& m,
                  const std::vector<double>& splits) {
    const std::string range = "[" + times(*std::min_element(splits.begin(), splits.end())) + ", " +
                              times(*std::max_element(splits.begin(), splits.end())) + "]";
    std::printf("%-32s %5zu %7zu %9s %17s %9s %9s %9s %9s\n", name.c_str(), added, kernels,
                times(m.speedupMean).c_str(), range.c_str(), times(m.speedupGeomean).c_str(), pct(m.precision).c_str(),
                pct(m.recall).c_str(), pct(m.specificity).c_str());
  };
  line("(a) suites alone", 0, 0, base, baseSplits);
  const char* labels[] = {"(b) + corpus kernels", "(c) + steered, random targets", "(d) + active learning"};
  std::FILE* csv = args.has("csv") ? std::fopen(args.get("csv").c_str(), "w") : nullptr;
  if (args.has("csv") && !csv) throw InputError("cannot write " + args.get("csv") + ": " + std::strerror(errno));
  if (csv) std::fprintf(csv, "arm,epoch,added_rows,kernels,speedup_mean,speedup_geomean,precision,recall,specificity,split\n");
  std::map<std::string, std::vector<double>> armSplits; // per arm: each split's mean speedup
  for (const auto& arm : arms) {
    const int index = arm.name == "corpus" ? 0 : arm.name == "passive" ? 1 : 2;
    auto& splits = armSplits[arm.name];
    const Metrics m = meanOver(suites, arm.added, seeds, minLeaf, &splits);
    line(labels[index], arm.added.size(),
         std::set<std::int64_t>(arm.addedKernels.begin(), arm.addedKernels.end()).size(), m, splits);
    if (csv)
      std::fprintf(csv, "%s,,%zu,,%g,%g,%g,%g,%g,\n", arm.name.c_str(), arm.added.size(), m.speedupMean,
                   m.speedupGeomean, m.precision, m.recall, m.specificity);
  }
  std::printf("%-32s %5s %7s %9s %17s %9s\n", "oracle", "", "", times(base.oracleMean).c_str(), "",
              times(base.oracleGeomean).c_str());

  // Split by split: every arm trains on the same folds of each split, so the
  // arms pair up. The splits share their data, so a small p says the lead
  // holds across ways of cutting these rows, not that it holds beyond them.
  armSplits["suites"] = baseSplits;
  auto paired = [&](const char* a, const char* b) {
    if (!armSplits.count(a) || !armSplits.count(b)) return;
    const auto r = heuristic::comparePaired(armSplits[a], armSplits[b]);
    std::printf("%s against %s over %zu splits: ahead on %zu, behind on %zu; mean difference %+.2f points, median "
                "%+.2f; Wilcoxon signed-rank z = %.2f, p = %.3g; sign test p = %.3g\n",
                a, b, r.n, r.wins, r.losses, 100 * r.meanDifference, 100 * r.medianDifference, r.z, r.pWilcoxon,
                r.pSign);
  };
  // Each split's speedup per arm, the numbers the paired tests below compare.
  std::printf("\nspeedup over static mapping, split by split (each the mean over its 10 folds):\nsplit");
  std::vector<std::string> order{"suites"};
  for (const auto& arm : arms)
    order.push_back(arm.name);
  for (const auto& name : order)
    std::printf(" %8s", name.c_str());
  std::printf("\n");
  for (std::size_t s = 0; s < baseSplits.size(); ++s) {
    std::printf("%5zu", s + 1);
    for (const auto& name : order)
      std::printf(" %8.4f", armSplits[name][s]);
    std::printf("\n");
  }
  if (csv)
    for (const auto& name : order)
      for (std::size_t s = 0; s < armSplits[name].size(); ++s)
        std::fprintf(csv, "%s,,,,%g,,,,,%zu\n", name.c_str(), armSplits[name][s], s + 1);

  std::printf("\npaired across the fold splits (speedup over static, per split):\n");
  paired("active", "passive");
  paired("active", "suites");
  paired("passive", "suites");
  paired("corpus", "suites");

  // Figure 10: speedup against the epoch, for the explore arms (rows added up to each epoch).
  for (const auto& arm : arms) {
    if (arm.name == "corpus") continue;
    auto ws = store::Workspace::open(arm.workspace, store::Workspace::Mode::OpenExisting);
    std::map<std::int64_t, int> epochOf; // kernel -> epoch
    for (const auto& run : ws.rows("SELECT id FROM explore_runs ORDER BY id"))
      for (const auto& e : ws.exploreEpochs(std::stoll(run[0])))
        if (e.kernelId) epochOf.emplace(e.kernelId, e.epoch);
    int last = 0;
    for (const auto& [k, e] : epochOf)
      last = std::max(last, e);
    std::printf("\nspeedup against the epoch (%s): epoch, rows added so far, speedup over static (mean)\n",
                arm.name.c_str());
    for (int epoch = 0; epoch <= last; ++epoch) {
      std::vector<MappingCase> upTo;
      for (std::size_t i = 0; i < arm.added.size(); ++i) {
        auto it = epochOf.find(arm.addedKernels[i]);
        if (it != epochOf.end() && it->second <= epoch) upTo.push_back(arm.added[i]);
      }
      const Metrics m = meanOver(suites, upTo, seeds, minLeaf);
      std::printf("  %3d %5zu  %s  %s\n", epoch, upTo.size(), times(m.speedupMean).c_str(),
                  std::string(std::size_t(std::max(0.0, (m.speedupMean - 0.9) * 200)), '#').c_str());
      if (csv)
        std::fprintf(csv, "%s,%d,%zu,,%g,%g,%g,%g,%g,\n", arm.name.c_str(), epoch, upTo.size(), m.speedupMean,
                     m.speedupGeomean, m.precision, m.recall, m.specificity);
    }
  }
  if (csv) std::fclose(csv);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) {
      std::fprintf(stderr, "bench-grewe: unexpected '%s' (see the comment at the top of bench/grewe_bench.cpp)\n", argv[i]);
      return 2;
    }
    a = a.substr(2);
    if (a == "augment") args.flags.insert(a);
    else if (i + 1 < argc) args.values[a] = argv[++i];
    else {
      std::fprintf(stderr, "bench-grewe: --%s needs a value\n", a.c_str());
      return 2;
    }
  }
  try {
    if (args.has("write-suite-kernels")) return writeSuiteKernels(args);
    if (args.has("write-corpus-kernels")) return writeCorpusKernels(args);
    if (args.has("local")) return local(args);
    if (args.has("augment")) return augmentation(args);
    return replication(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-grewe: %s\n", e.what());
    return 1;
  }
}

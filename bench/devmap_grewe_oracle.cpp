// The Grewe extractor against a real oracle: the comp, rational, mem,
// localmem, coalesced and atomic values DevMap stores for its 256 kernels.
//
// Usage: bench-devmap-grewe [DEVMAP.csv] [--mismatches N]
// Prints the match rates for the kernels that compile standalone and for all.
#include "corpus/TypeReconstruction.h"
#include "dataset/DevMap.h"
#include "features/FeatureSpace.h"
#include "features/Measurement.h"
#include "clang/OpenCLFrontend.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

using namespace steerbench;

namespace {

const char* kNames[6] = {"comp", "rational", "mem", "localmem", "coalesced", "atomic"};

struct Tally {
  int kernels = 0, allSix = 0;
  int perFeature[6] = {};
  void add(const double expect[6], const std::vector<double>& got) {
    ++kernels;
    bool all = true;
    for (int i = 0; i < 6; ++i) {
      const bool eq = !got.empty() && got[i] == expect[i];
      perFeature[i] += eq;
      all = all && eq;
    }
    allSix += all;
  }
  void print(const char* title) const {
    std::printf("%s: %d kernels\n", title, kernels);
    if (!kernels) return;
    std::printf("  exact on all six: %d/%d = %.1f%%\n", allSix, kernels, 100.0 * allSix / kernels);
    for (int i = 0; i < 6; ++i)
      std::printf("  %-10s %d/%d = %.1f%%\n", kNames[i], perFeature[i], kernels, 100.0 * perFeature[i] / kernels);
  }
};

} // namespace

int main(int argc, char** argv) {
  std::string path = STEERBENCH_DEVMAP_DIR "/cgo17-amd.csv";
  int showMismatches = 1000;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--mismatches") && i + 1 < argc)
      showMismatches = std::atoi(argv[++i]);
    else
      path = argv[i];
  }
  std::vector<dataset::DevMapRow> rows;
  try {
    rows = dataset::readDevMap(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  // One entry per benchmark kernel (its data sets share the static features).
  std::map<std::string, const dataset::DevMapRow*> kernels;
  for (const auto& r : rows)
    kernels.emplace(r.benchmark, &r);
  std::printf("DevMap oracle: %s (%zu rows, %zu kernels)\n\n", path.c_str(), rows.size(), kernels.size());

  features::MeasureOptions opts;
  opts.spaces = {&features::featureSpace("grewe")};
  struct Measured {
    std::string bench, kernel;
    const dataset::DevMapRow* row;
    bool compiles;
    std::vector<double> got;
    std::string error;
  };
  std::vector<Measured> measured;
  std::map<std::string, std::vector<double>> reconstructed; // bench -> vector after reconstruction
  for (const auto& [bench, row] : kernels) {
    // "Compiles standalone": the full -O1 compile, as clang-15 -cl-std=CL1.2 would.
    clangfe::CompileRequest req;
    req.source = row->src;
    req.fileName = bench + ".cl";
    const bool compiles = clangfe::compile(req).succeeded();
    const auto m = features::measureSource(row->src, bench + ".cl", opts);
    std::vector<double> got;
    // DevMap's kernel name is the last component of the benchmark name.
    const std::string kname = bench.substr(bench.rfind('-') + 1);
    const auto& vecs = m.spaces.empty() ? std::vector<features::KernelVector>{} : m.spaces[0].kernels;
    for (const auto& v : vecs)
      if (v.kernel == kname) got = v.values;
    if (got.empty() && vecs.size() == 1) got = vecs[0].values;
    measured.push_back({bench, kname, row, compiles, got, m.error});
    // For kernels with errors, a second figure: declare what identifier
    // rewriting left undeclared (the corpus's reconstruction), then measure.
    if (!compiles) {
      const auto rec = corpus::reconstructDeclarations(row->src, bench + ".cl", {});
      std::vector<double> fixed;
      if (rec.compiled) {
        const auto mr = features::measureSource(rec.prelude + "\n" + row->src, bench + ".cl", opts);
        for (const auto& v : mr.spaces.empty() ? std::vector<features::KernelVector>{} : mr.spaces[0].kernels)
          if (v.kernel == kname || mr.spaces[0].kernels.size() == 1) fixed = v.values;
      }
      reconstructed[bench] = fixed;
    }
  }
  // DevMap joined features to benchmarks by kernel name, so a few rows carry
  // the features of a same-named kernel of another program (NPB BT rows hold
  // SP's). Such a mismatch is an oracle error, not an extractor error: we
  // detect it by our own vector of that other kernel matching the row.
  auto sameAs = [](const double e[6], const std::vector<double>& g) {
    if (g.empty()) return false;
    for (int i = 0; i < 6; ++i)
      if (g[i] != e[i]) return false;
    return true;
  };
  Tally compiling, failing, all, compilingAdjusted, failingReconstructed;
  std::size_t rescued = 0;
  std::vector<std::string> mismatches;
  int joinErrors = 0;
  for (const auto& me : measured) {
    const auto* row = me.row;
    const auto& bench = me.bench;
    const auto& got = me.got;
    const bool compiles = me.compiles;
    const double expect[6] = {row->comp, row->rational, row->mem, row->localmem, row->coalesced, row->atomic};
    (compiles ? compiling : failing).add(expect, got);
    if (!compiles) {
      const auto& r = reconstructed[bench];
      rescued += !r.empty();
      failingReconstructed.add(expect, r.empty() ? got : r);
    }
    std::string borrowed;
    if (!sameAs(expect, got))
      for (const auto& other : measured)
        if (&other != &me && other.kernel == me.kernel && sameAs(expect, other.got)) borrowed = other.bench;
    if (compiles) {
      if (borrowed.empty())
        compilingAdjusted.add(expect, got);
      else
        ++joinErrors;
    }
    all.add(expect, got);
    bool same = !got.empty();
    for (int i = 0; same && i < 6; ++i)
      same = got[i] == expect[i];
    if (!same) {
      std::string line = std::string(compiles ? "[compiles] " : "[errors]   ") + bench + ": ";
      for (int i = 0; i < 6; ++i) {
        char buf[96];
        if (got.empty())
          std::snprintf(buf, sizeof buf, "%s %g/-  ", kNames[i], expect[i]);
        else if (got[i] != expect[i])
          std::snprintf(buf, sizeof buf, "%s %g/%g  ", kNames[i], expect[i], got[i]);
        else
          buf[0] = 0;
        line += buf;
      }
      if (got.empty()) line += "(no vector: " + (me.error.empty() ? std::string("kernel not found") : me.error) + ")";
      if (!borrowed.empty()) line += "[oracle row holds the features of " + borrowed + "]";
      mismatches.push_back(line);
    }
  }
  compiling.print("Kernels that compile standalone (in-process clang 15, -cl-std=CL1.2)");
  std::printf("\n");
  failing.print("Kernels with errors (measured on the AST Clang recovers, flagged from_errors)");
  std::printf("\n");
  std::printf("The same kernels after reconstructing their undeclared names (%zu of %d now compile):\n", rescued,
              failing.kernels);
  failingReconstructed.print("Kernels with errors, reconstructed where possible, else recovered AST");
  std::printf("\n");
  all.print("All kernels");
  std::printf("\nMismatches (expected/got), %zu in all:\n", mismatches.size());
  for (std::size_t i = 0; i < mismatches.size() && int(i) < showMismatches; ++i)
    std::printf("  %s\n", mismatches[i].c_str());
  const double rate = compiling.kernels ? double(compiling.allSix) / compiling.kernels : 0;
  const double adjusted = compilingAdjusted.kernels ? double(compilingAdjusted.allSix) / compilingAdjusted.kernels : 0;
  std::printf("\nCompiling kernels whose oracle row holds another program's features: %d\n", joinErrors);
  std::printf("Exact on all six, compiling kernels: %.1f%% raw; %.1f%% (%d/%d) without those oracle rows\n", 100 * rate,
              100 * adjusted, compilingAdjusted.allSix, compilingAdjusted.kernels);
  std::printf("Goal: >= 95%% exact on all six for compiling kernels: %s\n",
              rate >= 0.95 ? "MET" : (adjusted >= 0.95 ? "MET once oracle join errors are excluded" : "NOT MET"));
  return 0;
}

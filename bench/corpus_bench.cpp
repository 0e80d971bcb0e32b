// The corpus acceptance figures: the Debian preset ingested from scratch
// (time, counts per stage and per package, unique compiling kernels), and
// type/constant reconstruction on and off, on the preset and on the 30+
// reconstruction fixtures.
//
// Then the training set by origin: its Grewe distribution and its own
// coverage of DevMap's 256 benchmark kernels, with and without the code the
// preset adds beyond OpenCL files (pyFAI's assembled programs, kernels mined
// from C).
//
// Usage: bench-corpus [--debian-dir DIR] [--jobs N] [--fixtures-only] [--both] [--workspace FILE]
//   --both        also ingest the preset a second time with reconstruction off
//   --workspace   only the training-set report, on an existing workspace
#include "Coverage.h"
#include "corpus/CorpusIngest.h"
#include "corpus/DebianPreset.h"
#include "corpus/TypeReconstruction.h"
#include "source/SourceFile.h"
#include "store/HexDoubles.h"
#include "store/Workspace.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <filesystem>
#include <unistd.h>

using namespace steerbench;
namespace fs = std::filesystem;

namespace {

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::size_t scalar(const store::Workspace& ws, const std::string& sql) {
  const auto r = ws.rows(sql);
  return r.empty() || r[0].empty() || r[0][0].empty() ? 0 : std::size_t(std::stoll(r[0][0]));
}

void fixtures() {
  const std::string dir = STEERBENCH_SOURCE_DIR "/tests/data/corpus/reconstruct";
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".cl") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::size_t without = 0, with = 0;
  std::printf("Reconstruction fixtures (%zu isolated kernels with undeclared typedefs, structs, macros, calls):\n",
              files.size());
  for (const auto& f : files) {
    const std::string src = source::readSourceFile(f);
    const auto off = corpus::reconstructDeclarations(src, f, {}, false);
    const auto on = corpus::reconstructDeclarations(src, f, {});
    without += off.compiled;
    with += on.compiled;
    std::printf("  %-28s %s", fs::path(f).filename().c_str(), on.compiled ? "rescued:" : "NOT rescued");
    for (const auto& a : on.added)
      std::printf(" [%s]", a.c_str());
    std::printf("\n");
  }
  std::printf("  compile rate without reconstruction: %zu/%zu = %.1f%%\n", without, files.size(),
              100.0 * double(without) / double(files.size()));
  std::printf("  compile rate with reconstruction:    %zu/%zu = %.1f%%\n", with, files.size(),
              100.0 * double(with) / double(files.size()));
  std::printf("  goal: reconstruction rescues at least half: %s\n\n",
              2 * (with - without) >= files.size() ? "MET" : "NOT MET");
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(q * double(v.size())))];
}

/// The training kernels' Grewe vectors by origin, and their coverage of DevMap.
void trainingSetReport(const store::Workspace& ws, const std::string& devmapCsv) {
  struct Kernel {
    std::string package;
    bench::Counts counts{};
  };
  std::vector<Kernel> kernels;
  for (const auto& r : ws.rows("SELECT k.package, hex(f.vals) FROM kernels k JOIN feature_vectors f ON f.kernel_id = "
                               "k.id WHERE k.role = 'train' AND f.space = 'grewe'")) {
    Kernel k{r[0], {}};
    const auto v = store::doublesFromHex(r[1]);
    for (std::size_t d = 0; d < 6 && d < v.size(); ++d)
      k.counts[d] = v[d];
    kernels.push_back(k);
  }
  auto mined = [](const Kernel& k) { return k.package.rfind("src:", 0) == 0; };
  auto openclFiles = [&](const Kernel& k) { return !mined(k) && k.package != "python3-pyfai"; };
  const std::vector<std::pair<const char*, std::function<bool(const Kernel&)>>> groups = {
      {"OpenCL files", openclFiles},
      {"+ pyFAI programs", [&](const Kernel& k) { return !mined(k); }},
      {"mined C only", mined},
      {"all (today's preset)", [](const Kernel&) { return true; }},
  };
  const auto reference = bench::devmapKernelVectors(devmapCsv);
  std::printf("\nThe training set by origin: Grewe counts (median / p90) and coverage of DevMap's %zu benchmark "
              "kernels\n", reference.size());
  std::printf("  %-22s %6s %12s %12s %12s %12s\n", "kernels", "n", "comp", "mem", "localmem", "coalesced");
  for (const auto& [name, in] : groups) {
    std::vector<std::vector<double>> dims(6);
    std::size_t n = 0;
    for (const auto& k : kernels)
      if (in(k)) {
        ++n;
        for (std::size_t d = 0; d < 6; ++d)
          dims[d].push_back(k.counts[d]);
      }
    std::printf("  %-22s %6zu", name, n);
    for (std::size_t d : {0, 2, 3, 4})
      std::printf(" %5.0f / %4.0f", quantile(dims[d], 0.5), quantile(dims[d], 0.9));
    std::printf("\n");
  }
  if (reference.empty()) {
    std::printf("  coverage: skipped (no %s)\n", devmapCsv.c_str());
    return;
  }
  bench::printCoverageHeader();
  for (const auto& [name, in] : groups) {
    std::vector<bench::Counts> members;
    for (const auto& k : kernels)
      if (in(k)) members.push_back(k.counts);
    bench::printCoverage(name, members, reference);
  }
}

struct PresetRun {
  double seconds = 0;
  std::size_t found = 0, compiled = 0, asIs = 0, rescued = 0, unique = 0, train = 0;
};

unsigned gMaxTokens = corpus::IngestOptions{}.maxTokens;

PresetRun ingestPreset(const std::string& wsPath, const std::string& debianDir, unsigned jobs, bool reconstruct,
                       bool print) {
  std::vector<std::string> missing;
  const auto inputs = corpus::debianPresetSources(&missing, debianDir);
  for (const auto& m : missing)
    std::printf("  (package %s not found: run scripts/fetch-debian-%s)\n", m.c_str(),
                m.rfind("src:", 0) == 0 ? "sources" : "corpus");
  store::Workspace ws = store::Workspace::open(wsPath);
  corpus::CorpusIngestOptions o;
  o.jobs = jobs;
  o.pipeline.reconstruct = reconstruct;
  o.pipeline.maxTokens = gMaxTokens;
  const std::string devmap = STEERBENCH_DEVMAP_DIR "/cgo17-amd.csv";
  if (fs::exists(devmap)) o.referenceCsvs = {devmap};
  const auto t0 = std::chrono::steady_clock::now();
  (void)corpus::ingestCorpus(ws, inputs, o);
  PresetRun r;
  r.seconds = seconds(t0);
  r.found = scalar(ws, "SELECT count(*) FROM corpus_kernels");
  r.compiled = r.found - scalar(ws, "SELECT count(*) FROM corpus_kernels WHERE stage = 'isolate'");
  r.asIs = scalar(ws, "SELECT sum(compiled_as_is) FROM corpus_kernels");
  r.rescued = scalar(ws, "SELECT sum(reconstructed) FROM corpus_kernels");
  r.unique = scalar(ws, "SELECT count(*) FROM kernels WHERE role != 'user'");
  r.train = scalar(ws, "SELECT count(*) FROM kernels WHERE role = 'train'");
  if (print) std::printf("%s\n", corpus::corpusReport(ws, false).c_str());
  return r;
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is printed, also into a file
  std::string debianDir;
  unsigned jobs = engine::hardwareJobs();
  bool fixturesOnly = false, both = false;
  std::string workspace;
  std::string devmapDir = STEERBENCH_DEVMAP_DIR;
  if (const char* e = std::getenv("STEERBENCH_DEVMAP_DIR"); e && *e) devmapDir = e;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--debian-dir") && i + 1 < argc)
      debianDir = argv[++i];
    else if (!std::strcmp(argv[i], "--jobs") && i + 1 < argc)
      jobs = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--fixtures-only"))
      fixturesOnly = true;
    else if (!std::strcmp(argv[i], "--both"))
      both = true;
    else if (!std::strcmp(argv[i], "--workspace") && i + 1 < argc)
      workspace = argv[++i];
    else if (!std::strcmp(argv[i], "--max-tokens") && i + 1 < argc)
      gMaxTokens = unsigned(std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: bench-corpus [--debian-dir DIR] [--jobs N] [--max-tokens N] [--fixtures-only] [--both] "
                           "[--workspace FILE]\n");
      return 2;
    }
  }
  if (!workspace.empty()) {
    const store::Workspace ws = store::Workspace::open(workspace, store::Workspace::Mode::OpenExisting);
    trainingSetReport(ws, devmapDir + "/cgo17-amd.csv");
    return 0;
  }
  fixtures();
  if (fixturesOnly) return 0;
  const fs::path tmp = fs::temp_directory_path() / ("steerbench-bench-corpus-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::printf("Debian preset, fresh workspace, %u threads, kernels up to %u tokens:\n", jobs, gMaxTokens);
  const PresetRun on = ingestPreset((tmp / "on.sbw").string(), debianDir, jobs, true, true);
  std::printf("Ingest time: %.0f s (%.1f min)\n", on.seconds, on.seconds / 60);
  std::printf("Kernels found %zu, %zu short enough to compile; of those, compile rate without reconstruction "
              "%.1f%%, with it %.1f%% (+%zu kernels)\n",
              on.found, on.compiled, 100.0 * double(on.asIs) / double(on.compiled),
              100.0 * double(on.asIs + on.rescued) / double(on.compiled), on.rescued);
  std::printf("Unique compiling kernels: %zu (%zu for training)\n", on.unique, on.train);
  std::printf("Goal: >= 5,000 unique compiling kernels: %s; < 20 minutes on 2 cores: %s\n",
              on.unique >= 5000 ? "MET" : "NOT MET", on.seconds < 1200 ? "MET" : "NOT MET");
  trainingSetReport(store::Workspace::open((tmp / "on.sbw").string(), store::Workspace::Mode::OpenExisting),
                    devmapDir + "/cgo17-amd.csv");
  if (both) {
    std::printf("\nDebian preset again, reconstruction off:\n");
    const PresetRun off = ingestPreset((tmp / "off.sbw").string(), debianDir, jobs, false, false);
    std::printf("Unique compiling kernels without reconstruction: %zu (with: %zu); time %.0f s\n", off.unique,
                on.unique, off.seconds);
  }
  fs::remove_all(tmp);
  return 0;
}

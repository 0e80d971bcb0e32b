// Compile-and-extract throughput: the in-process path (one Clang compile per
// kernel, all three spaces) against spawning clang-15 -O1 -S -emit-llvm per
// kernel and counting the IR text. On one thread and on all cores.
//
// Usage: bench-throughput [--kernels N] [--repeats R] [--devmap FILE.csv] [--only in-process|spawned|phases]
// Prints kernels/s (median of R runs) for each path and their ratio, and
// where one thread's time goes (parse, IR generation, -O1 passes, extraction).
#include "clang/OpenCLFrontend.h"
#include "common/Version.h"
#include "dataset/DevMap.h"
#include "engine/ParallelFor.h"
#include "features/FeatureSpace.h"
#include "features/Measurement.h"
#include "source/SourceFile.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;
using namespace steerbench;
using Clock = std::chrono::steady_clock;

namespace {

/// Spawns clang-15 on `path`, reads the .ll from a pipe and counts its
/// instructions (the first word after "%x = ", else the first word). Returns
/// the instruction count, or -1 if clang failed.
long spawnedCount(const std::string& path) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  const char* argv[] = {kClang15Path, "-x",
                        "cl",         "-cl-std=CL1.2",
                        "-target",    "spir64-unknown-unknown",
                        "-Xclang",    "-finclude-default-header",
                        "-Xclang",    "-fdeclare-opencl-builtins",
                        "-O1",        "-S",
                        "-emit-llvm", "-o",
                        "-",          path.c_str(),
                        nullptr};
  pid_t pid;
  const int rc = posix_spawn(&pid, kClang15Path, &fa, nullptr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  std::string text;
  char buf[65536];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    text.append(buf, std::size_t(n));
  close(fds[0]);
  int status = 0;
  if (rc != 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  long count = 0;
  bool inFunction = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + pos, end - pos);
    if (line.rfind("define ", 0) == 0)
      inFunction = true;
    else if (line.rfind("}", 0) == 0)
      inFunction = false;
    else if (inFunction && line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ';')
      ++count;
    pos = end + 1;
  }
  return count;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is printed, also into a file
  std::size_t target = 500;
  int repeats = 3;
  std::string devmap = STEERBENCH_DEVMAP_DIR "/cgo17-amd.csv";
  std::string only; // "in-process" or "spawned", for profiling one path
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--kernels") && i + 1 < argc)
      target = std::size_t(std::atol(argv[++i]));
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
      repeats = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--devmap") && i + 1 < argc)
      devmap = argv[++i];
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else {
      std::fprintf(
          stderr,
          "usage: bench-throughput [--kernels N] [--repeats R] [--devmap FILE.csv] [--only in-process|spawned|phases]\n");
      return 2;
    }
  }
  std::vector<dataset::DevMapRow> rows;
  try {
    rows = dataset::readDevMap(devmap);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  auto opts = features::MeasureOptions::everySpace();

  std::set<std::string> seen;
  std::vector<std::string> devmapSources;
  for (const auto& r : rows)
    if (seen.insert(r.src).second) devmapSources.push_back(r.src);
  // Small kernels: the ones the project ships and tests with (tens of lines).
  std::vector<std::string> smallSources;
  for (const char* dir : {STEERBENCH_SOURCE_DIR "/resources/examples", STEERBENCH_SOURCE_DIR "/tests/data/kernels"})
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".cl") smallSources.push_back(source::readSourceFile(entry.path().string()));

  const unsigned cores = engine::hardwareJobs();
  std::printf("Compile + extract throughput, median of %d runs, %u cores.\n", repeats, cores);
  std::printf("In-process: compile once to -O1 IR in memory, extract Grewe + InstCount + Autophase.\n");
  std::printf("Spawned: spawn clang-15 -O1 -S -emit-llvm on a ready file, read the IR, count its instructions.\n");

  auto runSet = [&](const char* title, const std::vector<std::string>& candidates, bool phasesOnly = false) {
    // Only sources that compile: the IR spaces need IR.
    std::vector<std::string> distinct;
    for (const auto& src : candidates)
      if (features::measureSource(src, "k.cl", opts).ok()) distinct.push_back(src);
    std::vector<std::size_t> order;
    while (order.size() < target)
      order.push_back(order.size() % distinct.size());
    char tmpl[] = "/tmp/steerbench-bench-XXXXXX";
    const std::string dir = mkdtemp(tmpl);
    std::vector<std::string> paths;
    for (std::size_t i = 0; i < distinct.size(); ++i) {
      paths.push_back(dir + "/k" + std::to_string(i) + ".cl");
      std::ofstream(paths.back()) << distinct[i];
    }
    auto removeFiles = [&] {
      for (const auto& p : paths)
        std::remove(p.c_str());
      rmdir(dir.c_str());
    };
    std::printf("\n%s: %zu kernels (%zu distinct compiling sources, repeated)\n", title, order.size(), distinct.size());

    // Fidelity first: the in-process IR must be the IR clang-15 makes.
    if (only.empty()) {
      std::size_t agree = 0, single = 0;
      for (std::size_t i = 0; i < distinct.size(); ++i) {
        const auto m = features::measureSource(distinct[i], paths[i], opts);
        if (m.kernels.size() != 1) continue; // one kernel: its InstCount covers the whole module
        ++single;
        agree += m.spaces[1].kernels[0].values[0] == double(spawnedCount(paths[i]));
      }
      std::printf("  IR check: %zu of %zu single-kernel sources have clang-15's instruction count in process\n", agree,
                  single);
    }

    // Where one thread's time goes: parsing alone, then code generation, then
    // LLVM's -O1 pipeline, then the extractors (each step includes the one before).
    if (only.empty() || only == "phases" || phasesOnly) {
      auto perKernel = [&](auto&& one) {
        std::vector<double> runs;
        for (int r = 0; r < repeats; ++r) {
          const auto t0 = Clock::now();
          for (std::size_t i : order)
            one(distinct[i]);
          runs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / double(order.size()));
        }
        return median(runs);
      };
      auto compileOnly = [&](bool ir, bool optimize) {
        return perKernel([&](const std::string& src) {
          clangfe::CompileRequest req;
          req.source = src;
          req.fileName = "k.cl";
          req.options = opts.compile;
          req.options.optimize = optimize;
          req.emitIR = ir;
          (void)clangfe::compile(req);
        });
      };
      const double parse = compileOnly(false, true), codegen = compileOnly(true, false), ir = compileOnly(true, true);
      const double all = perKernel([&](const std::string& src) { (void)features::measureSource(src, "k.cl", opts); });
      std::printf("  one thread, ms a kernel: parse %.2f, + IR generation %.2f (%.2f), + -O1 passes %.2f (%.2f), "
                  "+ extract %.2f (%.2f)\n",
                  parse, codegen - parse, codegen, ir - codegen, ir, all - ir, all);
      // LLVM's -O1 pipeline is what the IR spaces are defined on, so no front
      // end can take this path past what the pipeline alone allows.
      std::printf("  the -O1 passes alone allow at most %.0f kernels/s on one thread\n",
                  ir > codegen ? 1000.0 / (ir - codegen) : 0.0);
      if (only == "phases" || phasesOnly) return removeFiles();
    }

    // The machine is shared and noisy: the two paths alternate run by run,
    // so both see the same conditions, and each figure is a median.
    auto rate = [&](auto&& body) {
      const auto t0 = Clock::now();
      body();
      return double(order.size()) / std::chrono::duration<double>(Clock::now() - t0).count();
    };
    std::printf("  %-8s %14s %14s %8s\n", "threads", "in-process/s", "spawned/s", "ratio");
    for (unsigned threads : {1u, cores}) {
      std::atomic<std::size_t> failures{0};
      std::vector<double> inRates, spRates;
      for (int r = 0; r < repeats; ++r) {
        if (only != "spawned")
          inRates.push_back(rate([&] {
            engine::parallelFor(order.size(), threads, [&](std::size_t i) {
              if (!features::measureSource(distinct[order[i]], "k.cl", opts).ok()) ++failures;
            });
          }));
        if (only != "in-process")
          spRates.push_back(rate([&] {
            engine::parallelFor(order.size(), threads, [&](std::size_t i) {
              if (spawnedCount(paths[order[i]]) < 0) ++failures;
            });
          }));
      }
      const double inProcess = inRates.empty() ? 0 : median(inRates);
      const double spawned = spRates.empty() ? 0 : median(spRates);
      std::printf("  %-8u %14.1f %14.1f %7.1fx\n", threads, inProcess, spawned,
                  spawned > 0 ? inProcess / spawned : 0.0);
      if (failures) std::printf("    (%zu failures!)\n", failures.load());
      if (threads == 1 && only.empty())
        std::printf("    goal on one thread: >= 300 kernels/s in process: %s; >= 6x the spawned path: %s\n",
                    inProcess >= 300 ? "MET" : "NOT MET", inProcess / spawned >= 6 ? "MET" : "NOT MET");
      if (cores == 1) break;
    }
    removeFiles();
  };
  runSet("DevMap kernel sources", devmapSources);
  runSet("Small kernels (resources/examples, tests/data/kernels)", smallSources);
  // What every compile pays, whatever its kernel: setting up Clang, the
  // default header, the pass pipeline, and passes over one tiny function.
  runSet("A one-line kernel (the cost of any compile)", {"kernel void k(global int* a) { a[0] = 1; }\n"},
         /*phasesOnly=*/true);
  return 0;
}

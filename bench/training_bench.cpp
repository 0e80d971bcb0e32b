// bench-training: training speed and the curve of a short run.
//   1. Speed: tokens/s, labels/s and the median step time of the default
//      config, on the BLAS this process loads (OpenBLAS here) and on Debian's
//      reference BLAS (the same binary re-run with LD_LIBRARY_PATH pointing
//      at /usr/lib/x86_64-linux-gnu/blas).
//   2. Objectives: the same model and schedule trained with several
//      objectives, each validated on the sampling task (one hole, nothing
//      masked), compared by validation loss against CPU time.
//
// Usage: bench-training [--workspace FILE] [--steps 600] [--speed-steps 12] [--batch 16]
//                       [--layers 3 --hidden 192 --heads 4 --ffn 768] [--validate-every 50]
//                       [--csv FILE] [--svg FILE] [--no-speed] [--no-objectives] [--objectives 1-1:0,1-8:0.1,1-8:0.1:0.3]
// Figures print as they come; --csv writes every learning-curve point, --svg plots them.
#include "common/Paths.h"
#include "model/Tokenizer.h"
#include "model/Trainer.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace steerbench;

namespace {

struct Point {
  std::int64_t step = 0;
  double cpu = 0, wall = 0, loss = 0, validation = -1;
};

struct Arm {
  std::string name;
  unsigned minHoles = 1, maxHoles = 1;
  double mask = 0, continuation = 0;
  std::vector<Point> curve;
  double tokensPerSecond = 0, labelsPerSecond = 0;
};

/// Validation loss against CPU seconds, one line per arm, as a small SVG.
void writeSvg(const std::string& path, const std::vector<Arm>& arms) {
  const double w = 720, h = 420, left = 70, right = 230, top = 30, bottom = 50;
  double xMax = 1, yMin = 1e30, yMax = -1e30;
  for (const auto& a : arms)
    for (const auto& p : a.curve)
      if (p.validation >= 0) {
        xMax = std::max(xMax, p.cpu);
        yMin = std::min(yMin, p.validation);
        yMax = std::max(yMax, p.validation);
      }
  if (yMin > yMax) return;
  yMin = std::floor(yMin * 10) / 10;
  yMax = std::ceil(yMax * 10) / 10;
  auto X = [&](double x) { return left + (w - left - right) * x / xMax; };
  auto Y = [&](double y) { return top + (h - top - bottom) * (yMax - y) / std::max(1e-9, yMax - yMin); };
  std::ofstream out(path);
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h
      << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  out << "<text x='" << left << "' y='18' font-size='14'>Validation loss (one hole, held-out kernels) against CPU "
         "time</text>\n";
  for (int k = 0; k <= 5; ++k) {
    const double yv = yMin + (yMax - yMin) * k / 5, xv = xMax * k / 5;
    out << "<line x1='" << left << "' x2='" << w - right << "' y1='" << Y(yv) << "' y2='" << Y(yv)
        << "' stroke='#ddd'/><text x='" << left - 8 << "' y='" << Y(yv) + 4 << "' text-anchor='end'>" << yv
        << "</text>\n";
    out << "<text x='" << X(xv) << "' y='" << h - bottom + 18 << "' text-anchor='middle'>" << int(xv) << "</text>\n";
  }
  out << "<text x='" << (left + w - right) / 2 << "' y='" << h - 12 << "' text-anchor='middle'>CPU seconds</text>\n";
  const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
  for (std::size_t i = 0; i < arms.size(); ++i) {
    const char* c = colours[i % 6];
    out << "<polyline fill='none' stroke='" << c << "' stroke-width='2' points='";
    for (const auto& p : arms[i].curve)
      if (p.validation >= 0) out << X(p.cpu) << ',' << Y(p.validation) << ' ';
    out << "'/>\n<rect x='" << w - right + 15 << "' y='" << top + 20 * double(i) << "' width='14' height='4' fill='" << c
        << "'/><text x='" << w - right + 35 << "' y='" << top + 20 * double(i) + 6 << "'>" << arms[i].name
        << "</text>\n";
  }
  out << "</svg>\n";
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The validation loss an arm had reached after `cpu` CPU seconds (the
/// last validation at or before it), or -1.
double validationAt(const Arm& a, double cpu) {
  double v = -1;
  for (const auto& p : a.curve)
    if (p.validation >= 0 && p.cpu <= cpu) v = p.validation;
  return v;
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is printed, also into a file
  std::string wsPath = defaultWorkspacePath(), csv, svg, objectives = "1-1:0,1-8:0.1,1-8:0.1:0.3";
  int steps = 600, speedSteps = 12, validateEvery = 50;
  bool speed = true, compare = true, child = false;
  model::TrainOptions base;
  base.batchSize = 16;
  for (int i = 1; i < argc; ++i) {
    auto arg = [&](const char* name) { return !std::strcmp(argv[i], name) && i + 1 < argc; };
    if (arg("--workspace")) wsPath = argv[++i];
    else if (arg("--steps")) steps = std::atoi(argv[++i]);
    else if (arg("--speed-steps")) speedSteps = std::atoi(argv[++i]);
    else if (arg("--batch")) base.batchSize = std::atoi(argv[++i]);
    else if (arg("--layers")) base.model.layers = std::atoi(argv[++i]);
    else if (arg("--hidden")) base.model.hidden = std::atoi(argv[++i]);
    else if (arg("--heads")) base.model.heads = std::atoi(argv[++i]);
    else if (arg("--ffn")) base.model.ffn = std::atoi(argv[++i]);
    else if (arg("--validate-every")) validateEvery = std::atoi(argv[++i]);
    else if (arg("--csv")) csv = argv[++i];
    else if (arg("--svg")) svg = argv[++i];
    else if (arg("--objectives")) objectives = argv[++i];
    else if (!std::strcmp(argv[i], "--no-speed")) speed = false;
    else if (!std::strcmp(argv[i], "--no-objectives")) compare = false;
    else if (!std::strcmp(argv[i], "--speed-child")) child = true;
    else {
      std::fprintf(stderr, "usage: bench-training [--workspace FILE] [--steps N] [--speed-steps N] [--batch N] "
                           "[--layers N --hidden N --heads N --ffn N] [--validate-every N] [--csv FILE] [--svg FILE] "
                           "[--objectives MIN-MAX:MASK[:CONT],...] [--no-speed] [--no-objectives]\n");
      return 2;
    }
  }

  std::vector<std::string> kernels;
  try {
    auto ws = store::Workspace::open(wsPath, store::Workspace::Mode::OpenExisting);
    for (const auto& row : ws.rows("SELECT source FROM kernels WHERE role = 'train' ORDER BY id"))
      kernels.push_back(row[0]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-training: %s\n", e.what());
    return 1;
  }
  if (kernels.empty()) {
    std::fprintf(stderr, "bench-training: %s holds no training kernels; build the corpus first\n", wsPath.c_str());
    return 1;
  }
  const auto tokenizer = model::Tokenizer::build(kernels, {});

  // One timed run of `n` steps of the default objective; prints one line.
  auto speedRun = [&](int n) {
    model::TrainOptions o = base;
    o.data.minHoles = 1;
    o.data.maxHoles = 8;
    o.data.maskProbability = 0.1;
    o.data.continuationProbability = 0.3;
    o.steps = n;
    o.warmupSteps = 1;
    o.validateEvery = 1 << 30;
    o.checkpointEvery = 1 << 30;
    const std::string blas = model::useThreads(0);
    std::vector<double> seconds, tokens, labels;
    double last = 0;
    (void)model::train(tokenizer, kernels, o,
                       [&](const model::TrainProgress& p) {
                         seconds.push_back(p.elapsedSeconds - last);
                         last = p.elapsedSeconds;
                         tokens.push_back(p.tokensPerSecond);
                         labels.push_back(p.labelsPerSecond);
                       },
                       nullptr);
    // The first steps warm the allocator and BLAS buffers: leave out a quarter.
    const std::size_t skip = seconds.size() / 4;
    seconds.erase(seconds.begin(), seconds.begin() + std::ptrdiff_t(skip));
    tokens.erase(tokens.begin(), tokens.begin() + std::ptrdiff_t(skip));
    labels.erase(labels.begin(), labels.begin() + std::ptrdiff_t(skip));
    std::printf("  %-58s %8.3f s/step %8.0f tok/s %7.0f labels/s  (median of %zu steps)\n", blas.c_str(), median(seconds),
                median(tokens), median(labels), seconds.size());
    std::fflush(stdout);
  };
  if (child) {
    speedRun(speedSteps);
    return 0;
  }

  std::printf("Corpus: %zu training kernels of %s; tokenizer of %d tokens\n", kernels.size(), wsPath.c_str(),
              tokenizer.size());
  model::ModelConfig shown = base.model;
  shown.vocab = tokenizer.size();
  std::printf("Model: %s; batch %d\n\n", shown.describe().c_str(), base.batchSize);

  if (speed) {
    std::printf("Training speed, default objective (1-8 holes + 10%% masked + 30%% continuations), all cores:\n");
    std::fflush(stdout);
    speedRun(speedSteps * 2);
    // The same binary on reference BLAS: libblas.so.3 resolved from Debian's
    // reference implementation instead of the alternative (OpenBLAS).
    char self[4096] = {};
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
      std::ostringstream cmd;
      cmd << "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas '" << self << "' --speed-child --workspace '" << wsPath
          << "' --speed-steps " << std::max(4, speedSteps / 3) << " --batch " << base.batchSize << " --layers "
          << base.model.layers << " --hidden " << base.model.hidden << " --heads " << base.model.heads << " --ffn "
          << base.model.ffn;
      if (std::system(cmd.str().c_str()) != 0) std::printf("  (the reference-BLAS run failed)\n");
    }
    std::printf("\n");
  }
  if (!compare) return 0;

  std::vector<Arm> arms;
  {
    std::stringstream list(objectives);
    std::string item;
    while (std::getline(list, item, ',')) {
      Arm a;
      const int got = std::sscanf(item.c_str(), "%u-%u:%lf:%lf", &a.minHoles, &a.maxHoles, &a.mask, &a.continuation);
      if (got < 3 || a.minHoles < 1 || a.maxHoles < a.minHoles) {
        std::fprintf(stderr, "bench-training: bad objective \"%s\" (MIN-MAX:MASK[:CONTINUATION], e.g. 1-8:0.1:0.3)\n",
                     item.c_str());
        return 2;
      }
      char name[64];
      if (a.continuation > 0)
        std::snprintf(name, sizeof name, "%u-%u holes, mask %g, cont. %g", a.minHoles, a.maxHoles, a.mask,
                      a.continuation);
      else
        std::snprintf(name, sizeof name, "%u-%u holes, mask %g", a.minHoles, a.maxHoles, a.mask);
      a.name = name;
      arms.push_back(a);
    }
  }
  std::printf("Objectives: %d steps each, same seed and schedule; validation loss on the sampling task\n"
              "(one hole, nothing masked) of held-out kernels, every %d steps:\n",
              steps, validateEvery);
  std::fflush(stdout);
  for (auto& a : arms) {
    model::TrainOptions o = base;
    o.data.minHoles = a.minHoles;
    o.data.maxHoles = a.maxHoles;
    o.data.maskProbability = a.mask;
    o.data.continuationProbability = a.continuation;
    o.steps = steps;
    o.warmupSteps = std::min(100, steps / 10);
    o.validateEvery = validateEvery;
    o.checkpointEvery = 1 << 30;
    std::vector<double> tokens, labels;
    (void)model::train(tokenizer, kernels, o,
                       [&](const model::TrainProgress& p) {
                         a.curve.push_back({p.step, p.cpuSeconds, p.elapsedSeconds, p.loss, p.validationLoss});
                         tokens.push_back(p.tokensPerSecond);
                         labels.push_back(p.labelsPerSecond);
                       },
                       nullptr);
    a.tokensPerSecond = median(tokens);
    a.labelsPerSecond = median(labels);
    const auto& end = a.curve.back();
    std::printf("  %-24s final validation %.4f after %.0f CPU s (%.0f wall s); %.0f tok/s, %.0f labels/s\n",
                a.name.c_str(), validationAt(a, 1e30), end.cpu, end.wall, a.tokensPerSecond, a.labelsPerSecond);
    std::fflush(stdout);
  }

  // Learning curves on a common CPU-time axis: each arm's validation loss at
  // tenths of the shortest arm's CPU time.
  double shortest = 1e30;
  for (const auto& a : arms)
    shortest = std::min(shortest, a.curve.back().cpu);
  std::printf("\nValidation loss against CPU time (CPU seconds of all threads):\n  %8s", "CPU s");
  for (const auto& a : arms)
    std::printf("  %24s", a.name.c_str());
  std::printf("\n");
  for (int k = 1; k <= 10; ++k) {
    const double at = shortest * k / 10;
    std::printf("  %8.0f", at);
    for (const auto& a : arms) {
      const double v = validationAt(a, at);
      if (v < 0)
        std::printf("  %24s", "-");
      else
        std::printf("  %24.4f", v);
    }
    std::printf("\n");
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < arms.size(); ++i)
    if (validationAt(arms[i], shortest) < validationAt(arms[best], shortest)) best = i;
  std::printf("\nLowest validation loss at %.0f CPU s: %s. Per CPU hour that is the objective to train with.\n",
              shortest, arms[best].name.c_str());

  if (!csv.empty()) {
    std::ofstream out(csv);
    out << "objective,step,cpu_s,wall_s,loss,validation_loss\n";
    for (const auto& a : arms)
      for (const auto& p : a.curve)
        out << '"' << a.name << "\"," << p.step << ',' << p.cpu << ',' << p.wall << ',' << p.loss << ','
            << (p.validation >= 0 ? std::to_string(p.validation) : std::string()) << "\n";
    std::printf("Learning curves written to %s\n", csv.c_str());
  }
  if (!svg.empty()) {
    writeSvg(svg, arms);
    std::printf("Plot written to %s\n", svg.c_str());
  }
  return 0;
}

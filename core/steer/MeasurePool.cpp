#include "steer/MeasurePool.h"

#include "corpus/SourceFormatting.h"
#include "steer/CleanAst.h"
#include "steer/CleanCompile.h"
#include "features/Distance.h"
#include "features/Measurement.h"

#include <algorithm>
#include <utility>

namespace steerbench::steer {

namespace {
std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }
} // namespace

Measured measureCandidate(const std::string& text, const features::FeatureSpace& space,
                          const std::vector<double>& target, const std::vector<double>& scale,
                          const std::vector<std::string>& cleanRules) {
  Measured out;
  features::MeasureOptions mo;
  mo.spaces = {&space};
  mo.compile.warnings = cleanCompileWarnings(cleanRules);
  CleanAstChecks ast(cleanRules);
  if (ast.active()) mo.observers.push_back(&ast);
  auto m = features::measureSource(text, "candidate.cl", mo);
  out.text = text;
  if (!m.ok()) {
    out.error = firstLine(m.error);
    return out;
  }
  const auto& sr = m.spaces.at(0);
  if (!sr.error.empty() || sr.kernels.empty()) {
    out.error = sr.error.empty() ? "no kernel" : firstLine(sr.error);
    return out;
  }
  for (const auto& k : sr.kernels) {
    const double d = features::distance(k.values, target, scale);
    if (out.distance < 0 || d < out.distance) {
      out.distance = d;
      out.values = k.values;
      out.kernel = k.kernel;
    }
  }
  out.compiled = true;
  if (!ast.findings().empty()) { // in source order with Clang's, so the first rule broken is the first in the text
    m.diagnostics.insert(m.diagnostics.end(), ast.findings().begin(), ast.findings().end());
    std::stable_sort(m.diagnostics.begin(), m.diagnostics.end(), [](const auto& a, const auto& b) {
      return std::pair(a.line, a.column) < std::pair(b.line, b.column);
    });
  }
  out.unclean = cleanCompileViolation(m.diagnostics, cleanRules);
  out.relative = relativeSites(ast.findings());
  out.text = corpus::formatSource(text);
  return out;
}

MeasureCache::MeasureCache(const features::FeatureSpace& space, std::vector<double> target, std::vector<double> scale,
                           std::vector<std::string> cleanRules)
    : space_(space), target_(std::move(target)), scale_(std::move(scale)), cleanRules_(std::move(cleanRules)) {}

Measured MeasureCache::operator()(const std::string& text) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(text); it != cache_.end()) return it->second;
  }
  auto m = measureCandidate(text, space_, target_, scale_, cleanRules_);
  std::lock_guard lock(mutex_);
  return cache_.emplace(text, std::move(m)).first->second;
}

MeasurePool::MeasurePool(unsigned threads, std::function<void(std::size_t)> work) : work_(std::move(work)) {
  for (unsigned t = 0; t < std::max(1u, threads); ++t)
    threads_.emplace_back([this] { loop(); });
}

MeasurePool::~MeasurePool() { close(); }

void MeasurePool::push(std::size_t i) {
  {
    std::lock_guard lock(m_);
    queue_.push_back(i);
  }
  cv_.notify_one();
}

void MeasurePool::finish() {
  close();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void MeasurePool::close() {
  {
    std::lock_guard lock(m_);
    closed_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_)
    t.join();
  threads_.clear();
}

void MeasurePool::loop() {
  for (;;) {
    std::size_t i = 0;
    {
      std::unique_lock lock(m_);
      cv_.wait(lock, [&] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) return;
      i = queue_.front();
      queue_.pop_front();
    }
    try {
      work_(i);
    } catch (...) {
      std::lock_guard lock(m_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

} // namespace steerbench::steer

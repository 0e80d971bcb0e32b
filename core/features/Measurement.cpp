#include "features/Measurement.h"

#include "common/Error.h"

namespace steerbench::features {

MeasureOptions MeasureOptions::everySpace() {
  MeasureOptions o;
  for (const auto& s : featureSpaces())
    o.spaces.push_back(&s);
  return o;
}

FileMeasurement measureSource(std::string source, const std::string& name, const MeasureOptions& options) {
  FileMeasurement m;
  m.path = name;
  try {
    source::checkSourceText(source, name, options.limits);
  } catch (const InputError& e) {
    m.error = e.what();
    return m;
  }
  m.source = std::move(source);

  bool needIR = false;
  std::vector<std::unique_ptr<Extractor>> extractors;
  for (const FeatureSpace* s : options.spaces) {
    needIR = needIR || s->needsIR;
    extractors.push_back(s->makeExtractor());
  }
  // One observer per compile: the AST spaces share it through a small fan-out.
  struct FanOut : clangfe::AstObserver {
    std::vector<clangfe::AstObserver*> targets;
    void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override {
      for (auto* t : targets)
        t->onTranslationUnit(ast, hasErrors);
    }
  } fanOut;
  for (auto& e : extractors)
    if (auto* o = e->astObserver()) fanOut.targets.push_back(o);
  fanOut.targets.insert(fanOut.targets.end(), options.observers.begin(), options.observers.end());

  clangfe::CompileRequest req;
  req.source = m.source;
  req.fileName = name;
  req.options = options.compile;
  req.emitIR = needIR;
  req.observer = fanOut.targets.empty() ? nullptr : &fanOut;
  clangfe::CompileResult unit = clangfe::compile(req);

  m.diagnostics = unit.diagnostics();
  m.errorCount = unit.errorCount();
  m.compilerCrashed = unit.crashed();
  m.kernels = unit.kernelNames();
  if (!unit.succeeded()) {
    m.error = name + ": does not compile (" + std::to_string(unit.errorCount()) +
              (unit.errorCount() == 1 ? " error" : " errors") + "); first: " + unit.firstError();
  } else if (m.kernels.empty()) {
    m.error = name + ": no kernel function found (a kernel is declared `kernel void name(...)` or "
                     "`__kernel void name(...)`)";
  }
  for (std::size_t i = 0; i < extractors.size(); ++i) {
    SpaceResult r;
    r.space = options.spaces[i];
    if (!unit.succeeded() && !r.space->worksOnErrors) {
      r.error = r.space->name + " needs a kernel that compiles";
    } else {
      try {
        r.kernels = extractors[i]->finish(unit);
      } catch (const std::exception& e) {
        r.error = e.what();
      }
    }
    m.spaces.push_back(std::move(r));
  }
  return m;
}

FileMeasurement measureFile(const std::string& path, const MeasureOptions& options) {
  std::string text;
  try {
    text = source::readSourceFile(path, options.limits);
  } catch (const InputError& e) {
    FileMeasurement m;
    m.path = path;
    m.error = e.what();
    return m;
  }
  return measureSource(std::move(text), path, options);
}

} // namespace steerbench::features

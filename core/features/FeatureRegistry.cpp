// The registry of feature spaces.
#include "features/FeatureSpace.h"

#include "common/Error.h"
#include "features/AutophaseFeatures.h"
#include "features/GreweFeatures.h"
#include "features/InstCountFeatures.h"
#include "features/IrFunctions.h"
#include "clang/OpenCLFrontend.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace steerbench::features {
namespace {

class GreweExtractor : public Extractor {
public:
  clangfe::AstObserver* astObserver() override { return &counter_; }
  std::vector<KernelVector> finish(const clangfe::CompileResult&) override {
    std::vector<KernelVector> out;
    for (const auto& [name, counts] : counter_.kernels())
      out.push_back({name, greweVector(counts), counter_.sawErrors()});
    return out;
  }

private:
  GreweAstCounter counter_;
};

template <std::vector<double> (*Count)(const std::vector<const llvm::Function*>&)>
class IrExtractor : public Extractor {
public:
  std::vector<KernelVector> finish(const clangfe::CompileResult& unit) override {
    if (!unit.module()) throw InputError("the IR feature spaces need a kernel that compiles: " + unit.firstError());
    std::vector<KernelVector> out;
    for (const auto& k : unit.kernelNames())
      out.push_back({k, Count(functionsOfKernel(*unit.module(), k)), false});
    return out;
  }
};

std::vector<FeatureSpace> makeSpaces() {
  std::vector<FeatureSpace> spaces;
  spaces.push_back({"grewe", 1, greweDimensions(), false, true,
                    "Grewe et al. (CGO 2013) static features from the Clang AST",
                    [] { return std::unique_ptr<Extractor>(new GreweExtractor); }});
  spaces.push_back({"instcount", 1, instCountDimensions(), true, false,
                    "LLVM InstCount over the -O1 spir64 IR (70 dimensions)",
                    [] { return std::unique_ptr<Extractor>(new IrExtractor<countInstructions>); }});
  spaces.push_back({"autophase", 1, autophaseDimensions(), true, false,
                    "Autophase (CompilerGym variant) over the -O1 spir64 IR (56 dimensions)",
                    [] { return std::unique_ptr<Extractor>(new IrExtractor<autophaseCounts>); }});
  return spaces;
}

} // namespace

const std::vector<FeatureSpace>& featureSpaces() {
  static const std::vector<FeatureSpace> spaces = makeSpaces();
  return spaces;
}

const FeatureSpace& featureSpace(const std::string& name) {
  std::string known;
  for (const auto& s : featureSpaces()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw InputError("unknown feature space '" + name + "'; known spaces: " + known);
}

} // namespace steerbench::features

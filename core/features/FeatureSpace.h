// Feature spaces: named, versioned vectors of counts measured on a compiled kernel.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace steerbench::clangfe {
class AstObserver;
class CompileResult;
} // namespace steerbench::clangfe

namespace steerbench::features {

/// One kernel's vector in one space. `fromErrors` is set when it was measured
/// on the AST that Clang recovered from a source with errors.
struct KernelVector {
  std::string kernel;
  std::vector<double> values;
  bool fromErrors = false;
};

/// Measures one space over one compile. An extractor may watch the AST
/// (astObserver) and/or read the IR module (finish). One per compile; not shared
/// between threads.
class Extractor {
public:
  virtual ~Extractor() = default;
  /// Observer to attach to the compile, or nullptr for IR-only spaces.
  virtual clangfe::AstObserver* astObserver() { return nullptr; }
  /// One vector per kernel in `unit.kernelNames()`, in that order. Throws
  /// InputError when the space cannot be measured (e.g. IR missing).
  virtual std::vector<KernelVector> finish(const clangfe::CompileResult& unit) = 0;
};

struct FeatureSpace {
  std::string name;                    ///< "grewe", "instcount", "autophase"
  int version = 1;                     ///< bumped whenever a definition changes
  std::vector<std::string> dimensions; ///< column names, in vector order
  bool needsIR = false;                ///< measured on the -O1 IR module
  bool worksOnErrors = false;          ///< can measure the recovered AST of a failing compile
  std::string description;
  std::unique_ptr<Extractor> (*makeExtractor)() = nullptr;
};

/// All spaces known to this build, in a fixed order. Thread-safe (immutable).
[[nodiscard]] const std::vector<FeatureSpace>& featureSpaces();

/// The space called `name`; throws InputError listing the known names.
[[nodiscard]] const FeatureSpace& featureSpace(const std::string& name);

} // namespace steerbench::features

// Kernel isolation: each kernel of a preprocessed unit becomes a unit of its
// own, with the user types, helper functions and constants it references.
#pragma once

#include "clang/OpenCLFrontend.h"

#include <string>
#include <vector>

namespace steerbench::corpus {

struct IsolatedKernel {
  std::string name;
  std::string source; ///< OpenCL extension pragmas, then the referenced declarations in source order
};

/// Watches the compile of a preprocessed unit and cuts out each kernel
/// defined in its main file, with everything it needs that the main file
/// declares. Works on the AST Clang recovers from sources with errors too.
/// One per compile.
class KernelIsolator : public clangfe::AstObserver {
public:
  void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override;
  [[nodiscard]] const std::vector<IsolatedKernel>& kernels() const { return kernels_; }

private:
  std::vector<IsolatedKernel> kernels_;
};

} // namespace steerbench::corpus

// Identifier rewriting (CLgen): variables become a, b, ..., functions A, B,
// ...; OpenCL builtins, types and struct fields keep their names.
#pragma once

#include "clang/OpenCLFrontend.h"

#include <string>

namespace steerbench::corpus {

/// Watches the compile of a unit and computes its rewritten text: every
/// variable and parameter declared in the main file is
/// renamed a, b, ..., z, aa, ... and every function A, B, ..., in order of
/// first declaration, skipping names the unit already uses for anything
/// else and keywords. One per compile.
class IdentifierRewriter : public clangfe::AstObserver {
public:
  void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override;
  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] const std::string& rewritten() const { return text_; }
  /// Original -> new names of functions (kernels included), in order.
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& functionNames() const { return functions_; }

private:
  bool ok_ = false;
  std::string text_;
  std::vector<std::pair<std::string, std::string>> functions_;
};

/// Nth name of a sequence: a..z, aa..zz, ... (uppercase for functions).
[[nodiscard]] std::string sequenceName(std::size_t n, bool upper);

} // namespace steerbench::corpus

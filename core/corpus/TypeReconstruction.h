// Type and constant reconstruction: where an isolated kernel uses a type,
// constant, struct member or function that nothing declares, infer a
// declaration from how it is used (CLgen's shim; AnghaBench's inference).
#pragma once

#include "clang/OpenCLFrontend.h"

#include <string>
#include <vector>

namespace steerbench::corpus {

struct Reconstruction {
  bool compiledAsIs = false;      ///< the unit compiled without help
  bool compiled = false;          ///< it compiles with the declarations below
  std::string prelude;            ///< declarations to put before the unit (empty when none)
  std::vector<std::string> added; ///< one line per inferred declaration, for the record
  std::string firstError;         ///< when it still does not compile
};

/// Tries to make `source` compile (syntax and semantics, no IR) by adding
/// inferred declarations, for up to `maxRounds` compile rounds. Thread-safe.
/// `observer`, when given, watches every round's compile: after a success it
/// has seen the AST of the unit that compiled (prelude included).
[[nodiscard]] Reconstruction reconstructDeclarations(const std::string& source, const std::string& name,
                                                     const clangfe::CompileOptions& options, bool enabled = true,
                                                     int maxRounds = 8, clangfe::AstObserver* observer = nullptr);

} // namespace steerbench::corpus

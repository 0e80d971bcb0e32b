// Declarations that do no work (docs/features.md, "Counting live code"): a
// local variable whose value reaches nothing but the initialisers of other
// such variables, declared with an initialiser free of side effects. A
// generated kernel often opens with a dozen of them (`const int m = c - i;`
// and nothing reads m); their operators count toward Grewe's comp and mem
// although -O1 drops them all. Counting without them says what a kernel
// does; removing them leaves the same kernel without the noise.
#pragma once

#include <set>
#include <string>

namespace clang {
class ASTContext;
class DeclStmt;
class FunctionDecl;
} // namespace clang

namespace steerbench::features {

/// The declaration statements of `f`'s body, directly inside a block, whose
/// every variable is dead: referenced only from the initialisers of dead
/// variables (or not at all), with an initialiser that has no side effects
/// (a call to a builtin that only computes is none; a store, an atomic or a
/// call of a helper is one). Liveness is found over all of them at once, so
/// a chain of declarations that ends in nothing is dead to its first link.
[[nodiscard]] std::set<const clang::DeclStmt*> deadDeclarations(const clang::FunctionDecl& f, clang::ASTContext& ast);

/// `text` without the dead declarations of its functions (a line left empty
/// goes too); `text` itself when it does not compile or has none. Spans
/// inside a macro's expansion are kept. Thread-safe.
[[nodiscard]] std::string pruneDeadDeclarations(const std::string& text);

} // namespace steerbench::features

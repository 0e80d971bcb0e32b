// Values assigned to a variable that nothing reads afterwards: assigned
// again first, or never read before the kernel returns or the variable's
// block ends. The computation counts in Grewe's comp and mem and does
// nothing (docs/steering.md, "overwritten-value"). Steering found bests
// that moved a buffer argument and never used it again (`c += d;` as the
// last statement) and that assigned a counter in one branch and left it.
//
// Read with Clang's live-variables analysis over the function's control
// flow graph: an assignment `x = e`, `x op= e`, an increment or decrement
// as a statement, or a declaration `T x = e`, where x is not live after it
// on any path. Left alone: variables whose address is taken (a pointer may
// read them), variables outside private memory, values with side effects
// (a call, an increment inside), and constants (`x = 0;`, `int k = 0;`
// count nothing and are a common way to declare).
#pragma once

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class SourceLocation;
class Stmt;
} // namespace clang

namespace steerbench::steer {

struct DeadValue {
  const clang::Stmt* at = nullptr; ///< the assignment, increment or declaration
  std::string variable;            ///< the variable's name
  bool declaration = false;        ///< a declaration's initial value
};

/// The values of `f`'s body that nothing reads, in the order the control
/// flow graph holds them (sort by location to show them).
[[nodiscard]] std::vector<DeadValue> deadValues(const clang::FunctionDecl& f, clang::ASTContext& ast);

} // namespace steerbench::steer

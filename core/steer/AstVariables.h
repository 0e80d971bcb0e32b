// Small readings of a kernel's AST that the clean-compile walks share
// (steer/CleanAst, UniformStores, OverwrittenStores, QuadraticIndices): the
// variable an expression names, and which OpenCL functions tell a
// work-item where it is.
#pragma once

#include <clang/Basic/AddressSpaces.h>

namespace clang {
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace steerbench::steer {

/// The variable an expression names (`x`, through parentheses and implicit
/// casts; not `a[i]`), or null.
[[nodiscard]] const clang::VarDecl* variableOf(const clang::Expr* e);

/// A pointer into memory of `space` (a store through it is visible to every
/// work-item that shares it): a pointer, or a local array as it decays.
[[nodiscard]] bool pointsInto(const clang::Expr* e, clang::LangAS space);

/// A work-item function: the ids, sizes, counts and offsets of the NDRange
/// (`get_global_id`, `get_local_size`, `get_work_dim`, ...). Each gives the
/// same answer every time one work-item calls it.
[[nodiscard]] bool isWorkItemFunction(const clang::FunctionDecl* f);

/// A work-item function whose answer differs between work-items of one
/// NDRange: `get_global_id`, `get_local_id`, `get_group_id` and the linear
/// ids (not the sizes, counts or offsets, which all share).
[[nodiscard]] bool isWorkItemId(const clang::FunctionDecl* f);

} // namespace steerbench::steer

#include "steer/AstVariables.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <algorithm>
#include <initializer_list>
#include <iterator>

namespace steerbench::steer {

namespace {

bool named(const clang::FunctionDecl* f, const char* const* first, const char* const* last) {
  if (!f || !f->getIdentifier()) return false;
  const auto name = f->getName();
  return std::any_of(first, last, [&](const char* n) { return name == n; });
}

} // namespace

const clang::VarDecl* variableOf(const clang::Expr* e) {
  const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  return r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
}

bool pointsInto(const clang::Expr* e, clang::LangAS space) {
  for (const clang::Expr* x : {e->IgnoreParens(), e->IgnoreParenImpCasts()}) {
    const auto t = x->getType();
    if (t->isPointerType() && t->getPointeeType().getAddressSpace() == space) return true;
  }
  return false;
}

bool isWorkItemFunction(const clang::FunctionDecl* f) {
  static const char* const kNames[] = {"get_global_id",   "get_local_id",   "get_group_id",      "get_global_size",
                                       "get_local_size",  "get_num_groups", "get_global_offset", "get_work_dim",
                                       "get_global_linear_id", "get_local_linear_id", "get_enqueued_local_size"};
  return named(f, std::begin(kNames), std::end(kNames));
}

bool isWorkItemId(const clang::FunctionDecl* f) {
  static const char* const kNames[] = {"get_global_id", "get_local_id", "get_group_id", "get_global_linear_id",
                                       "get_local_linear_id"};
  return named(f, std::begin(kNames), std::end(kNames));
}

} // namespace steerbench::steer

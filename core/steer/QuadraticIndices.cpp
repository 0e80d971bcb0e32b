#include "steer/QuadraticIndices.h"

#include "steer/AstVariables.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <map>

namespace steerbench::steer {

namespace {

constexpr int kMost = 2; // degrees above are no different to the rule

/// Global or constant memory, which the host sized by the work-items, and
/// local memory, which holds a work-group's share of them.
bool sizedMemory(const clang::Expr* base) {
  return pointsInto(base, clang::LangAS::opencl_global) || pointsInto(base, clang::LangAS::opencl_constant) ||
         pointsInto(base, clang::LangAS::opencl_local);
}

class Degrees {
public:
  int of(const clang::Expr* e) const {
    if (!e) return 0;
    e = e->IgnoreParenCasts();
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      const auto it = vars_.find(llvm::dyn_cast<clang::VarDecl>(r->getDecl()));
      return it == vars_.end() ? 0 : it->second;
    }
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e)) {
      if (isWorkItemId(c->getDirectCallee())) return 1;
      if (isWorkItemFunction(c->getDirectCallee())) return 0;
      int most = 0;
      for (const clang::Expr* a : c->arguments())
        most = std::max(most, of(a));
      return most;
    }
    if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
      return std::min(1, std::max(of(a->getIdx()), of(a->getBase())));
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      switch (b->getOpcode()) {
      case clang::BO_Mul:
      case clang::BO_MulAssign:
        return std::min(kMost, of(b->getLHS()) + of(b->getRHS()));
      case clang::BO_Div:
      case clang::BO_Rem:
      case clang::BO_Shl:
      case clang::BO_Shr:
      case clang::BO_DivAssign:
      case clang::BO_RemAssign:
      case clang::BO_ShlAssign:
      case clang::BO_ShrAssign:
        return of(b->getLHS());
      case clang::BO_Comma:
        return of(b->getRHS());
      default:
        if (b->isComparisonOp() || b->isLogicalOp()) return 0; // a 0 or 1
        return std::max(of(b->getLHS()), of(b->getRHS()));
      }
    }
    int most = 0;
    for (const clang::Stmt* child : e->children())
      if (const auto* x = llvm::dyn_cast_or_null<clang::Expr>(child)) most = std::max(most, of(x));
    return most;
  }

  /// Raises `v` to `degree`; true when that changed it.
  bool raise(const clang::VarDecl* v, int degree) {
    if (!v || degree == 0) return false;
    int& d = vars_[v];
    if (degree <= d) return false;
    d = degree;
    return true;
  }

private:
  std::map<const clang::VarDecl*, int> vars_;
};

/// One pass over the body: every assignment raises its variable.
class Assignments : public clang::RecursiveASTVisitor<Assignments> {
public:
  explicit Assignments(Degrees& d) : d_(d) {}
  bool VisitVarDecl(clang::VarDecl* v) {
    if (v->getInit()) changed |= d_.raise(v, d_.of(v->getInit()));
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->isAssignmentOp()) changed |= d_.raise(variableOf(b->getLHS()), d_.of(b));
    return true;
  }
  bool changed = false;

private:
  Degrees& d_;
};

class Subscripts : public clang::RecursiveASTVisitor<Subscripts> {
public:
  explicit Subscripts(const Degrees& d) : d_(d) {}
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* a) {
    if (sizedMemory(a->getBase()) && d_.of(a->getIdx()) >= kMost) {
      const auto* v = variableOf(a->getBase());
      found.push_back({a, v ? v->getNameAsString() : std::string()});
    }
    return true;
  }
  std::vector<QuadraticIndex> found;

private:
  const Degrees& d_;
};

} // namespace

std::vector<QuadraticIndex> quadraticIndices(const clang::FunctionDecl& f) {
  if (!f.hasBody()) return {};
  auto* body = f.getBody();
  Degrees degrees;
  // Each pass raises at least one variable, and none above kMost.
  for (bool changed = true; changed;) {
    Assignments pass(degrees);
    pass.TraverseStmt(body);
    changed = pass.changed;
  }
  Subscripts s(degrees);
  s.TraverseStmt(body);
  return std::move(s.found);
}

} // namespace steerbench::steer

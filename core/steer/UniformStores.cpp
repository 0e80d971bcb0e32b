#include "steer/UniformStores.h"

#include "steer/AstVariables.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <algorithm>
#include <initializer_list>
#include <set>

namespace steerbench::steer {

namespace {

/// The functions whose value differs between the work-items that share
/// memory of `space` (the sizes and counts of the NDRange do not; the group's
/// id is the same for all who share its local memory).
bool identifiesTheWorkItem(const clang::FunctionDecl* f, clang::LangAS space) {
  if (!isWorkItemId(f)) return false;
  return f->getName() != "get_group_id" || space == clang::LangAS::opencl_global;
}

class Analysis {
public:
  /// Stores into memory of `space`: global, or local (shared by a work-group).
  explicit Analysis(clang::LangAS space) : space_(space) {}
  /// Which variables vary: assignments are followed until nothing changes.
  void settle(const clang::Stmt* body) {
    do {
      changed_ = exited_ = false;
      walk(body, false);
    } while (changed_);
  }
  /// Whether the walk met a store into local memory (an analysis of another
  /// space, then, has something to find).
  [[nodiscard]] bool storesLocal() const { return storesLocal_; }
  /// Then the stores, with what guards them.
  std::vector<UniformStore> stores(const clang::Stmt* body) {
    collecting_ = true;
    exited_ = false;
    walk(body, false);
    return std::move(found_);
  }

private:
  bool varies(const clang::Stmt* s) const {
    if (!s) return false;
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(s); c && identifiesTheWorkItem(c->getDirectCallee(), space_))
      return true;
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(s))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()); v && varying_.count(v)) return true;
    for (const clang::Stmt* child : s->children())
      if (varies(child)) return true;
    return false;
  }

  void assigned(const clang::VarDecl* v, bool varying) {
    if (v && varying && varying_.insert(v).second) changed_ = true;
  }

  /// A store to memory of the space: `p[i] = `, `*p = `, `p[i] += `, `p[i]++`.
  void store(const clang::Expr* op, const clang::Expr* target, bool guarded) {
    const clang::Expr* t = target->IgnoreParenImpCasts();
    const clang::Expr* base = nullptr;
    if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(t)) base = a->getBase();
    else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(t); u && u->getOpcode() == clang::UO_Deref)
      base = u->getSubExpr();
    if (!base) return;
    storesLocal_ = storesLocal_ || pointsInto(base, clang::LangAS::opencl_local);
    if (!collecting_ || guarded || !pointsInto(base, space_) || varies(t)) return;
    const auto* v = variableOf(base);
    found_.push_back({op, v ? v->getNameAsString() : std::string(), space_ == clang::LangAS::opencl_local});
  }

  /// A condition, then the parts it decides whether to run: guarded when it varies.
  void branch(const clang::Expr* cond, std::initializer_list<const clang::Stmt*> parts, bool guarded) {
    walk(cond, guarded);
    const bool g = guarded || varies(cond);
    for (const clang::Stmt* p : parts)
      walk(p, g);
  }

  /// `guarded`: a condition that varies between work-items decides whether this runs.
  void walk(const clang::Stmt* s, bool guarded) {
    if (!s) return;
    guarded = guarded || exited_;
    if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s)) {
      for (const auto* decl : d->decls())
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(decl); v && v->getInit()) {
          walk(v->getInit(), guarded);
          assigned(v, guarded || varies(v->getInit()));
        }
      return;
    }
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(s)) {
      if (b->isAssignmentOp()) {
        walk(b->getLHS(), guarded); // `a[k++] = ...`
        walk(b->getRHS(), guarded);
        assigned(variableOf(b->getLHS()), guarded || varies(b->getRHS()));
        store(b, b->getLHS(), guarded);
        return;
      }
      if (b->isLogicalOp()) { // the right side runs only when the left allows it
        walk(b->getLHS(), guarded);
        walk(b->getRHS(), guarded || varies(b->getLHS()));
        return;
      }
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(s); u && u->isIncrementDecrementOp()) {
      assigned(variableOf(u->getSubExpr()), guarded);
      store(u, u->getSubExpr(), guarded);
      return;
    }
    if (const auto* i = llvm::dyn_cast<clang::IfStmt>(s)) {
      walk(i->getInit(), guarded);
      branch(i->getCond(), {i->getThen(), i->getElse()}, guarded);
      return;
    }
    if (const auto* f = llvm::dyn_cast<clang::ForStmt>(s)) {
      walk(f->getInit(), guarded);
      branch(f->getCond(), {f->getBody(), f->getInc()}, guarded);
      return;
    }
    if (const auto* w = llvm::dyn_cast<clang::WhileStmt>(s)) {
      branch(w->getCond(), {w->getBody()}, guarded);
      return;
    }
    if (const auto* d = llvm::dyn_cast<clang::DoStmt>(s)) {
      walk(d->getBody(), guarded || varies(d->getCond()));
      walk(d->getCond(), guarded);
      return;
    }
    if (const auto* c = llvm::dyn_cast<clang::AbstractConditionalOperator>(s)) {
      branch(c->getCond(), {c->getTrueExpr(), c->getFalseExpr()}, guarded);
      return;
    }
    if (llvm::isa<clang::ReturnStmt>(s)) {
      // Past a return that only some work-items take, the rest of the
      // kernel is guarded by it (`if (i != 0) return;`).
      if (guarded) exited_ = true;
      return;
    }
    for (const clang::Stmt* child : s->children())
      walk(child, guarded);
  }

  clang::LangAS space_;
  std::set<const clang::VarDecl*> varying_;
  std::vector<UniformStore> found_;
  bool changed_ = false, collecting_ = false, exited_ = false, storesLocal_ = false;
};

} // namespace

std::vector<UniformStore> uniformStores(const clang::FunctionDecl& kernel) {
  if (!kernel.hasBody()) return {};
  Analysis global(clang::LangAS::opencl_global);
  global.settle(kernel.getBody());
  auto out = global.stores(kernel.getBody());
  if (!global.storesLocal()) return out; // most kernels: the second analysis would find nothing
  Analysis local(clang::LangAS::opencl_local);
  local.settle(kernel.getBody());
  const auto found = local.stores(kernel.getBody());
  out.insert(out.end(), found.begin(), found.end());
  std::stable_sort(out.begin(), out.end(), [](const UniformStore& x, const UniformStore& y) {
    return x.at->getBeginLoc().getRawEncoding() < y.at->getBeginLoc().getRawEncoding();
  });
  return out;
}

} // namespace steerbench::steer

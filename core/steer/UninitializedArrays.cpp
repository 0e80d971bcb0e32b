#include "steer/UninitializedArrays.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <map>

namespace steerbench::steer {
namespace {

using namespace clang;

/// The variable an access names: `c[i][j]` -> c (nullptr: not a variable).
const VarDecl* arrayOf(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  while (const auto* s = dyn_cast<ArraySubscriptExpr>(e))
    e = s->getBase()->IgnoreParenImpCasts();
  if (const auto* r = dyn_cast<DeclRefExpr>(e)) return dyn_cast<VarDecl>(r->getDecl());
  return nullptr;
}

/// A private array declared with no initialiser, or a kernel's local
/// array (it starts undefined at each launch; a local array cannot be
/// initialised).
bool untouchedArray(const VarDecl* v) {
  if (!v->getType()->isConstantArrayType() || v->hasInit()) return false;
  return v->getType().getAddressSpace() == LangAS::opencl_local || v->hasLocalStorage();
}

/// A pointer into local memory: a kernel's local buffer argument, which the
/// host only sizes.
bool localBuffer(const ParmVarDecl* p) {
  const auto t = p->getType();
  return t->isPointerType() && t->getPointeeType().getAddressSpace() == LangAS::opencl_local;
}

class FirstAccesses {
public:
  /// Tests `v` (a local buffer argument) as an array declared before the body.
  void open(const VarDecl* v) { open_[v] = true; }

  /// `conditional`: the statement runs only when some test holds.
  void walk(const Stmt* s, bool conditional) {
    if (!s) return;
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* x : d->decls())
        if (const auto* v = dyn_cast<VarDecl>(x)) {
          if (untouchedArray(v)) open_[v] = true;
          else walk(v->getInit(), conditional);
        }
      return;
    }
    if (const auto* b = dyn_cast<BinaryOperator>(s)) {
      if (b->getOpcode() == BO_Assign) {
        walk(b->getRHS(), conditional); // the value first, then the store
        const Expr* to = b->getLHS()->IgnoreParenImpCasts();
        if (const auto* m = dyn_cast<MemberExpr>(to)) to = m->getBase()->IgnoreParenImpCasts();
        else if (const auto* v = dyn_cast<ExtVectorElementExpr>(to)) to = v->getBase()->IgnoreParenImpCasts();
        if (const auto* sub = dyn_cast<ArraySubscriptExpr>(to); sub && open_.count(arrayOf(sub))) {
          indices(sub, conditional);
          open_[arrayOf(sub)] = false; // written (a member or a component of an element: some of it)
          return;
        }
        walk(b->getLHS(), conditional);
        return;
      }
      if (b->isLogicalOp()) {
        walk(b->getLHS(), conditional);
        walk(b->getRHS(), true);
        return;
      }
    }
    if (const auto* c = dyn_cast<ConditionalOperator>(s)) {
      walk(c->getCond(), conditional);
      walk(c->getTrueExpr(), true);
      walk(c->getFalseExpr(), true);
      return;
    }
    if (const auto* i = dyn_cast<IfStmt>(s)) {
      walk(i->getInit(), conditional);
      walk(i->getCond(), conditional);
      walk(i->getThen(), true);
      walk(i->getElse(), true);
      return;
    }
    if (const auto* w = dyn_cast<SwitchStmt>(s)) {
      walk(w->getInit(), conditional);
      walk(w->getCond(), conditional);
      walk(w->getBody(), true);
      return;
    }
    if (const auto* f = dyn_cast<ForStmt>(s)) { // in the order a first pass runs
      walk(f->getInit(), conditional);
      ++loops_;
      walk(f->getCond(), conditional);
      walk(f->getBody(), conditional);
      walk(f->getInc(), conditional);
      --loops_;
      return;
    }
    if (isa<WhileStmt>(s) || isa<DoStmt>(s)) {
      ++loops_;
      for (const Stmt* child : s->children()) // while: its condition, then its body; do: the body first
        walk(child, conditional);
      --loops_;
      return;
    }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(s)) {
      if (const auto* v = arrayOf(sub); open_.count(v)) {
        indices(sub, conditional);
        // Under a test, a read in a loop may follow a write of an earlier
        // pass (`if (k > 0) s += c[k - 1];`); outside every loop nothing
        // can have written before it.
        if (open_[v] && (!conditional || loops_ == 0))
          found.push_back({sub, v->getNameAsString(),
                           llvm::isa<ParmVarDecl>(v) || v->getType().getAddressSpace() == LangAS::opencl_local});
        open_[v] = false;
        return;
      }
    }
    if (const auto* r = dyn_cast<DeclRefExpr>(s)) // the array's name itself: passed on, or its address taken
      if (const auto* v = dyn_cast<VarDecl>(r->getDecl()); v && open_.count(v)) open_[v] = false;
    for (const Stmt* child : s->children())
      walk(child, conditional);
  }

  std::vector<EarlyRead> found;

private:
  void indices(const ArraySubscriptExpr* sub, bool conditional) {
    for (const Expr* e = sub; const auto* s = dyn_cast<ArraySubscriptExpr>(e); e = s->getBase()->IgnoreParenImpCasts())
      walk(s->getIdx(), conditional);
  }
  std::map<const VarDecl*, bool> open_; ///< the arrays tested: true until their first access
  int loops_ = 0;                         ///< loops around the statement walked
};

} // namespace

std::vector<EarlyRead> readsBeforeWrites(const clang::FunctionDecl& f) {
  FirstAccesses walk;
  if (f.hasAttr<OpenCLKernelAttr>())
    for (const ParmVarDecl* p : f.parameters())
      if (localBuffer(p)) walk.open(p);
  walk.walk(f.getBody(), false);
  return walk.found;
}

} // namespace steerbench::steer

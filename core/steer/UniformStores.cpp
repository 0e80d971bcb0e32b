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
      changed_ = exited_ = exitedSingled_ = false;
      walk(body, false, false);
    } while (changed_);
  }
  /// Whether the walk met a store into local memory (an analysis of another
  /// space, then, has something to find).
  [[nodiscard]] bool storesLocal() const { return storesLocal_; }
  /// Then the stores, with what guards them.
  std::vector<UniformStore> stores(const clang::Stmt* body) {
    collecting_ = true;
    exited_ = exitedSingled_ = false;
    walk(body, false, false);
    return std::move(found_);
  }

private:
  /// Whether `s` or a node below it is one `is` accepts.
  template <class Predicate> static bool anyNode(const clang::Stmt* s, const Predicate& is) {
    if (!s) return false;
    if (is(s)) return true;
    for (const clang::Stmt* child : s->children())
      if (anyNode(child, is)) return true;
    return false;
  }

  /// Whether `s` names a work-item function that tells the work-items
  /// sharing the space's memory apart, or a variable that varies.
  bool varies(const clang::Stmt* s) const {
    return anyNode(s, [this](const clang::Stmt* n) {
      if (const auto* c = llvm::dyn_cast<clang::CallExpr>(n); c && identifiesTheWorkItem(c->getDirectCallee(), space_))
        return true;
      const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(n);
      const auto* v = r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
      return v && varying_.count(v) > 0;
    });
  }

  /// Whether `s` varies in the first turn of the loops around it whose
  /// counters start at 0 (`firstTurn_`): a product with such a counter as a
  /// factor is 0 then, whatever its other factors (`s[ac * (j + 1) * ae]`
  /// at `ae = 0`); the rest as varies() reads it.
  bool variesInFirstTurn(const clang::Stmt* s) const {
    if (!s) return false;
    if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) {
      const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e->IgnoreParenImpCasts());
      if (b && b->getOpcode() == clang::BO_Mul && (zeroInFirstTurn(b->getLHS()) || zeroInFirstTurn(b->getRHS())))
        return false;
      if (b) return variesInFirstTurn(b->getLHS()) || variesInFirstTurn(b->getRHS());
    }
    if (llvm::isa<clang::BinaryOperator>(s) || llvm::isa<clang::ParenExpr>(s) || llvm::isa<clang::ImplicitCastExpr>(s) ||
        llvm::isa<clang::ArraySubscriptExpr>(s) || llvm::isa<clang::CStyleCastExpr>(s)) {
      for (const clang::Stmt* child : s->children())
        if (variesInFirstTurn(child)) return true;
      return false;
    }
    return varies(s);
  }

  /// `e` is 0 in the first turn: a counter of `firstTurn_`, a sum or
  /// difference of such zeros (`ae + ae`), or a product with one (through
  /// parentheses and casts).
  bool zeroInFirstTurn(const clang::Expr* e) const {
    e = e->IgnoreParenCasts();
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      if (b->getOpcode() == clang::BO_Mul) return zeroInFirstTurn(b->getLHS()) || zeroInFirstTurn(b->getRHS());
      if (b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub)
        return zeroInFirstTurn(b->getLHS()) && zeroInFirstTurn(b->getRHS());
      return false;
    }
    const auto* v = variableOf(e);
    return v && std::find(firstTurn_.begin(), firstTurn_.end(), v) != firstTurn_.end();
  }

  /// The counter a for loop's init sets to 0 (`c = 0`, `int c = 0`) and its
  /// body never assigns (only its increment moves it), or null.
  static const clang::VarDecl* counterFromZero(const clang::ForStmt* f) {
    const clang::VarDecl* v = nullptr;
    const clang::Expr* value = nullptr;
    if (const auto* d = llvm::dyn_cast_or_null<clang::DeclStmt>(f->getInit()); d && d->isSingleDecl()) {
      v = llvm::dyn_cast<clang::VarDecl>(d->getSingleDecl());
      value = v ? v->getInit() : nullptr;
    } else if (const auto* b = llvm::dyn_cast_or_null<clang::BinaryOperator>(f->getInit());
               b && b->getOpcode() == clang::BO_Assign) {
      v = variableOf(b->getLHS());
      value = b->getRHS();
    }
    const auto* zero = value ? llvm::dyn_cast<clang::IntegerLiteral>(value->IgnoreParenImpCasts()) : nullptr;
    if (!v || !zero || zero->getValue() != 0 || !v->getType()->isIntegerType()) return nullptr;
    const bool assignedInBody = anyNode(f->getBody(), [v](const clang::Stmt* n) {
      if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(n); b && b->isAssignmentOp())
        return variableOf(b->getLHS()) == v;
      if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(n); u && (u->isIncrementDecrementOp() || u->getOpcode() == clang::UO_AddrOf))
        return variableOf(u->getSubExpr()) == v;
      return false;
    });
    return assignedInBody ? nullptr : v;
  }

  /// Whether `s` names one of `firstTurn_`'s counters.
  bool readsFirstTurnCounter(const clang::Stmt* s) const {
    return anyNode(s, [this](const clang::Stmt* n) {
      const auto* e = llvm::dyn_cast<clang::Expr>(n);
      return e && llvm::isa<clang::DeclRefExpr>(e) && zeroInFirstTurn(e);
    });
  }

  /// Whether `s` reads memory (a subscript, `*p`), calls a function other
  /// than the work-item functions, or names a variable computed so: a value
  /// from the data, not from the work-item's place alone.
  bool readsData(const clang::Stmt* s) const {
    return anyNode(s, [this](const clang::Stmt* n) {
      if (llvm::isa<clang::ArraySubscriptExpr>(n)) return true;
      if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(n); u && u->getOpcode() == clang::UO_Deref) return true;
      if (const auto* c = llvm::dyn_cast<clang::CallExpr>(n); c && !isWorkItemFunction(c->getDirectCallee()))
        return true;
      const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(n);
      const auto* v = r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
      return v && data_.count(v) > 0;
    });
  }

  /// Ranges only: comparisons with <, <=, > or >= of values that do not
  /// come from the data, joined by && or || (`c >= 0 || d >= c`, `i >= n`).
  /// Such a test leaves whole ranges of work-items, which then all store to
  /// the element; a test of equality (`i == 0`), of a number (`if (k)`), or
  /// of the data (`if (a[i] > m)`, a flag set where something was found)
  /// singles work-items out.
  bool rangesOnly(const clang::Expr* e) const {
    e = e->IgnoreParenImpCasts();
    const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e);
    if (!b) return false;
    if (b->isLogicalOp()) return rangesOnly(b->getLHS()) && rangesOnly(b->getRHS());
    return b->isRelationalOp() && !readsData(b->getLHS()) && !readsData(b->getRHS());
  }

  /// A test that varies between work-items and singles some out.
  bool singlesOut(const clang::Expr* cond) const { return cond && varies(cond) && !rangesOnly(cond); }

  /// A variable assigned from the data, or under a test of it (`if (a[k] >
  /// m) found = 1;`), holds a value from the data.
  void assigned(const clang::VarDecl* v, bool varying, const clang::Stmt* value = nullptr) {
    if (v && varying && varying_.insert(v).second) changed_ = true;
    if (v && (dataTests_ > 0 || (value && readsData(value))) && data_.insert(v).second) changed_ = true;
  }

  /// A store to memory of the space: `p[i] = `, `*p = `, `p[i] += `, `p[i]++`.
  void store(const clang::Expr* op, const clang::Expr* target, bool singled) {
    const clang::Expr* t = target->IgnoreParenImpCasts();
    const clang::Expr* base = nullptr;
    if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(t)) base = a->getBase();
    else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(t); u && u->getOpcode() == clang::UO_Deref)
      base = u->getSubExpr();
    if (!base) return;
    storesLocal_ = storesLocal_ || pointsInto(base, clang::LangAS::opencl_local);
    if (!collecting_ || singled || !pointsInto(base, space_)) return;
    std::string firstTurn;
    if (varies(t)) {
      if (firstTurn_.empty() || variesInFirstTurn(t)) return;
      // Uniform in the first turn: name the counter that zeroes it.
      for (const auto* c : firstTurn_)
        if (anyNode(t, [c](const clang::Stmt* n) {
              const auto* e = llvm::dyn_cast<clang::Expr>(n);
              return e && llvm::isa<clang::DeclRefExpr>(e) && variableOf(e) == c;
            }))
          firstTurn = c->getNameAsString();
    }
    const auto* v = variableOf(base);
    found_.push_back({op, v ? v->getNameAsString() : std::string(), space_ == clang::LangAS::opencl_local, firstTurn});
  }

  /// A condition, then the parts it decides whether to run: guarded when it
  /// varies, singled out when it singles work-items out.
  /// `counter`: a for loop's counter from 0, which is 0 in the parts' first turn.
  void branch(const clang::Expr* cond, std::initializer_list<const clang::Stmt*> parts, bool guarded, bool singled,
              const clang::VarDecl* counter = nullptr) {
    walk(cond, guarded, singled);
    const bool g = guarded || varies(cond), one = singled || singlesOut(cond);
    const int data = cond && readsData(cond);
    dataTests_ += data;
    // A test of a counter may skip its first turn (`if (k > 0)`, an inner
    // loop bounded by an outer counter, `l < k`): below it no counter is
    // known to be 0.
    const auto counters = firstTurn_;
    if (cond && readsFirstTurnCounter(cond)) firstTurn_.clear();
    if (counter) firstTurn_.push_back(counter);
    for (const clang::Stmt* p : parts)
      walk(p, g, one);
    firstTurn_ = counters;
    dataTests_ -= data;
  }

  /// `guarded`: a condition that varies between work-items decides whether
  /// this runs (what it assigns then varies); `singled`: one that singles
  /// work-items out (what it stores is no uniform store).
  void walk(const clang::Stmt* s, bool guarded, bool singled) {
    if (!s) return;
    guarded = guarded || exited_;
    singled = singled || exitedSingled_;
    if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s)) {
      for (const auto* decl : d->decls())
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(decl); v && v->getInit()) {
          walk(v->getInit(), guarded, singled);
          assigned(v, guarded || varies(v->getInit()), v->getInit());
        }
      return;
    }
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(s)) {
      if (b->isAssignmentOp()) {
        walk(b->getLHS(), guarded, singled); // `a[k++] = ...`
        walk(b->getRHS(), guarded, singled);
        assigned(variableOf(b->getLHS()), guarded || varies(b->getRHS()), b->getRHS());
        store(b, b->getLHS(), singled);
        return;
      }
      if (b->isLogicalOp()) { // the right side runs only when the left allows it
        walk(b->getLHS(), guarded, singled);
        walk(b->getRHS(), guarded || varies(b->getLHS()), singled || singlesOut(b->getLHS()));
        return;
      }
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(s); u && u->isIncrementDecrementOp()) {
      assigned(variableOf(u->getSubExpr()), guarded);
      store(u, u->getSubExpr(), singled);
      return;
    }
    if (const auto* i = llvm::dyn_cast<clang::IfStmt>(s)) {
      walk(i->getInit(), guarded, singled);
      branch(i->getCond(), {i->getThen(), i->getElse()}, guarded, singled);
      return;
    }
    if (const auto* f = llvm::dyn_cast<clang::ForStmt>(s)) {
      walk(f->getInit(), guarded, singled);
      // The body's first turn: a counter the init sets to 0 is 0 there.
      branch(f->getCond(), {f->getBody(), f->getInc()}, guarded, singled, counterFromZero(f));
      return;
    }
    if (const auto* w = llvm::dyn_cast<clang::WhileStmt>(s)) {
      branch(w->getCond(), {w->getBody()}, guarded, singled);
      return;
    }
    if (const auto* d = llvm::dyn_cast<clang::DoStmt>(s)) {
      walk(d->getBody(), guarded || varies(d->getCond()), singled || singlesOut(d->getCond()));
      walk(d->getCond(), guarded, singled);
      return;
    }
    if (const auto* c = llvm::dyn_cast<clang::AbstractConditionalOperator>(s)) {
      branch(c->getCond(), {c->getTrueExpr(), c->getFalseExpr()}, guarded, singled);
      return;
    }
    if (llvm::isa<clang::ReturnStmt>(s)) {
      // Past a return that only some work-items take, the rest of the
      // kernel is guarded by it (`if (i != 0) return;`); singled out only
      // when the test singles some out (`if (i >= n) return;` leaves a range).
      if (guarded) exited_ = true;
      if (singled) exitedSingled_ = true;
      return;
    }
    for (const clang::Stmt* child : s->children())
      walk(child, guarded, singled);
  }

  clang::LangAS space_;
  std::set<const clang::VarDecl*> varying_, data_;
  std::vector<UniformStore> found_;
  std::vector<const clang::VarDecl*> firstTurn_; ///< counters of the loops around, from 0, in their first turn
  int dataTests_ = 0; ///< tests of the data around the statement walked
  bool changed_ = false, collecting_ = false, exited_ = false, exitedSingled_ = false, storesLocal_ = false;
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

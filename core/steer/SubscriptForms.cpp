#include "steer/SubscriptForms.h"

#include "steer/AstVariables.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

namespace steerbench::steer {

namespace {

constexpr int kDepth = 8;               // how far a variable's value is followed
constexpr long long kLarge = 1LL << 40; // coefficients beyond are read as a term of their own

bool add(long long& into, long long c) {
  into += c;
  return into > -kLarge && into < kLarge;
}

bool sum(SubscriptForm& into, const SubscriptForm& f, long long sign) {
  for (const auto& [t, c] : f.terms)
    if (!add(into.terms[t], sign * c)) return false;
  return add(into.constant, sign * f.constant);
}

bool scale(SubscriptForm& f, long long by) {
  if (by <= -kLarge || by >= kLarge) return false;
  for (auto& [t, c] : f.terms)
    if (__builtin_mul_overflow(c, by, &c) || c <= -kLarge || c >= kLarge) return false;
  return !__builtin_mul_overflow(f.constant, by, &f.constant) && f.constant > -kLarge && f.constant < kLarge;
}

/// What the body does to each variable: the values assigned to it, and
/// whether it is assigned exactly once, by `=` or its declaration.
class Assignments : public clang::RecursiveASTVisitor<Assignments> {
public:
  struct Uses {
    std::vector<const clang::Expr*> values; ///< every value assigned (`=`, `+=`, ...) and the initialiser
    int writes = 0;                         ///< assignments, increments and address-takings
    const clang::Expr* only = nullptr;      ///< the value when there is one write, a plain one
  };
  bool VisitVarDecl(clang::VarDecl* v) {
    if (const auto* init = v->getInit()) note(v, init, true);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->isAssignmentOp()) note(variableOf(b->getLHS()), b->getRHS(), b->getOpcode() == clang::BO_Assign);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->isIncrementDecrementOp() || u->getOpcode() == clang::UO_AddrOf) note(variableOf(u->getSubExpr()), nullptr, false);
    return true;
  }
  const Uses* of(const clang::VarDecl* v) const {
    const auto it = uses.find(v);
    return it == uses.end() ? nullptr : &it->second;
  }
  std::map<const clang::VarDecl*, Uses> uses;

private:
  void note(const clang::VarDecl* v, const clang::Expr* value, bool plain) {
    if (!v) return;
    auto& u = uses[v];
    if (value) u.values.push_back(value);
    u.only = ++u.writes == 1 && plain ? value : nullptr;
  }
};

} // namespace

struct SubscriptForms::Reading {
  Reading(const clang::FunctionDecl& kernel, clang::ASTContext& context) : ast(context), body(kernel.getBody()) {
    assignments.TraverseStmt(kernel.getBody());
    for (bool changed = true; changed;) { // which variables vary: until nothing changes
      changed = false;
      for (const auto& [v, u] : assignments.uses)
        if (!varying.count(v))
          for (const auto* value : u.values)
            if (varies(value)) {
              varying.insert(v);
              changed = true;
              break;
            }
    }
    walk(kernel.getBody(), Role::Read);
  }

  bool varies(const clang::Stmt* s) const {
    if (!s) return false;
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(s); c && isWorkItemId(c->getDirectCallee())) return true;
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(s))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()); v && varying.count(v)) return true;
    for (const clang::Stmt* child : s->children())
      if (varies(child)) return true;
    return false;
  }

  SubscriptForm form(const clang::Expr* e, int depth = 0) {
    e = e->IgnoreParenCasts();
    if (!e->isValueDependent() && e->getType()->isIntegerType()) {
      clang::Expr::EvalResult r;
      if (e->EvaluateAsInt(r, ast) && r.Val.isInt() && r.Val.getInt().getMinSignedBits() <= 41) {
        SubscriptForm f;
        f.constant = r.Val.getInt().getSExtValue();
        return f;
      }
    }
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl())) {
        const auto* u = assignments.of(v);
        if (u && u->only && depth < kDepth && !llvm::isa<clang::ParmVarDecl>(v)) return form(u->only, depth + 1);
        return term(e, varying.count(v) ? TermKind::Variable : TermKind::Uniform);
      }
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e); c && isWorkItemId(c->getDirectCallee()))
      return term(e, TermKind::Id);
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      switch (b->getOpcode()) {
      case clang::BO_Add:
      case clang::BO_Sub: {
        SubscriptForm l = form(b->getLHS(), depth);
        if (sum(l, form(b->getRHS(), depth), b->getOpcode() == clang::BO_Sub ? -1 : 1)) return l;
        break;
      }
      case clang::BO_Mul: {
        SubscriptForm l = form(b->getLHS(), depth), r = form(b->getRHS(), depth);
        if (l.terms.empty() && scale(r, l.constant)) return r;
        if (r.terms.empty() && scale(l, r.constant)) return l;
        break;
      }
      case clang::BO_Shl: { // `d << 2` is 4 d
        SubscriptForm l = form(b->getLHS(), depth);
        const SubscriptForm r = form(b->getRHS(), depth);
        if (r.terms.empty() && r.constant >= 0 && r.constant < 40 && scale(l, 1LL << r.constant)) return l;
        break;
      }
      default:
        break;
      }
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (u->getOpcode() == clang::UO_Plus) return form(u->getSubExpr(), depth);
      if (u->getOpcode() == clang::UO_Minus) {
        SubscriptForm f = form(u->getSubExpr(), depth);
        if (scale(f, -1)) return f;
      }
    }
    return term(e, varies(e) ? TermKind::Expression : TermKind::Uniform);
  }

  /// `e` as a term of its own, by its text.
  SubscriptForm term(const clang::Expr* e, TermKind k) {
    std::string text;
    llvm::raw_string_ostream os(text);
    e->printPretty(os, nullptr, ast.getPrintingPolicy());
    os.flush();
    kinds[text] = k;
    SubscriptForm f;
    f.terms[text] = 1;
    return f;
  }

  /// The kernel's global buffer a pointer expression points into, and its
  /// offset there: a parameter nothing moves, or a pointer set once to one.
  const clang::ParmVarDecl* root(const clang::Expr* e, SubscriptForm& offset, int depth = 0) {
    e = e->IgnoreParenCasts();
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl());
      if (!v) return nullptr;
      const auto* u = assignments.of(v);
      if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v))
        return !u && pointsInto(r, clang::LangAS::opencl_global) ? p : nullptr;
      return u && u->only && depth < kDepth ? root(u->only, offset, depth + 1) : nullptr;
    }
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e);
        b && (b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub) &&
        b->getLHS()->getType()->isPointerType()) {
      const auto* p = root(b->getLHS(), offset, depth);
      if (p && sum(offset, form(b->getRHS()), b->getOpcode() == clang::BO_Sub ? -1 : 1)) return p;
    }
    return nullptr;
  }

  enum class Role { Read, Store, Update, Address };

  /// The accesses, in the order they are written; `role` is what the
  /// expression's value is used for.
  void walk(const clang::Stmt* s, Role role) {
    if (!s) return;
    if (const auto* p = llvm::dyn_cast<clang::ParenExpr>(s)) return walk(p->getSubExpr(), role);
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(s)) {
      if (b->isAssignmentOp()) {
        walk(b->getLHS(), b->getOpcode() == clang::BO_Assign ? Role::Store : Role::Update);
        return walk(b->getRHS(), Role::Read);
      }
      if (b->isLogicalOp()) { // the right side runs only when the left allows it
        walk(b->getLHS(), Role::Read);
        return conditionally({b->getRHS()});
      }
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(s)) {
      if (u->isIncrementDecrementOp()) return walk(u->getSubExpr(), Role::Update);
      if (u->getOpcode() == clang::UO_AddrOf) return walk(u->getSubExpr(), Role::Address);
      if (u->getOpcode() == clang::UO_Deref) {
        record(u, u->getSubExpr(), SubscriptForm(), role);
        return walk(u->getSubExpr(), Role::Read);
      }
    }
    if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(s)) {
      record(a, a->getBase(), form(a->getIdx()), role);
      walk(a->getBase(), Role::Read);
      return walk(a->getIdx(), Role::Read);
    }
    if (const auto* m = llvm::dyn_cast<clang::MemberExpr>(s); m && !m->isArrow()) return walk(m->getBase(), role);
    if (const auto* v = llvm::dyn_cast<clang::ExtVectorElementExpr>(s)) return walk(v->getBase(), role);
    if (const auto* i = llvm::dyn_cast<clang::IfStmt>(s)) {
      walk(i->getInit(), Role::Read);
      walk(i->getCond(), Role::Read);
      if (!i->getInit() && !i->getConditionVariable() && holdsForItemZero(i->getCond())) {
        ++passedByItemZero; // work-item 0 takes the then branch
        conditionally({i->getThen()});
        --passedByItemZero;
        return conditionally({i->getElse()});
      }
      return conditionally({i->getThen(), i->getElse()});
    }
    if (const auto* f = llvm::dyn_cast<clang::ForStmt>(s)) {
      walk(f->getInit(), Role::Read);
      walk(f->getCond(), Role::Read);
      const auto counter = firstPassOf(*f);
      if (!counter) return conditionally({f->getBody(), f->getInc()});
      // Its first pass, which runs: the counter holds its first value there.
      const auto before = firstPass;
      firstPass[counter->first] = counter->second;
      ++passedByItemZero;
      conditionally({f->getBody()});
      --passedByItemZero;
      firstPass = before;
      return conditionally({f->getInc()});
    }
    if (const auto* w = llvm::dyn_cast<clang::WhileStmt>(s)) {
      walk(w->getCond(), Role::Read);
      return conditionally({w->getBody()});
    }
    if (const auto* d = llvm::dyn_cast<clang::DoStmt>(s)) return conditionally({d->getBody(), d->getCond()});
    if (const auto* c = llvm::dyn_cast<clang::AbstractConditionalOperator>(s)) {
      walk(c->getCond(), Role::Read);
      return conditionally({c->getTrueExpr(), c->getFalseExpr()});
    }
    if (llvm::isa<clang::SwitchStmt>(s)) {
      ++conditional;
      for (const clang::Stmt* child : s->children())
        walk(child, Role::Read);
      --conditional;
      return;
    }
    if (llvm::isa<clang::ReturnStmt>(s) || llvm::isa<clang::BreakStmt>(s) || llvm::isa<clang::ContinueStmt>(s) ||
        llvm::isa<clang::GotoStmt>(s)) {
      if (const auto* r = llvm::dyn_cast<clang::ReturnStmt>(s)) walk(r->getRetValue(), Role::Read);
      if (conditional > 0) exited = true; // what follows may not run
      return;
    }
    for (const clang::Stmt* child : s->children())
      walk(child, Role::Read);
  }

  /// The value of `e` for work-item 0 when it is surely known: integer
  /// constants, ids (all 0 there: the driver runs without a global offset),
  /// variables set once to such, and `+`, `-`, `*` and `<<` of them, where
  /// every step's value fits its type as it is (a `k - 1` of an unsigned k
  /// wraps, a cast to `uchar` may: neither is known).
  std::optional<long long> atItemZero(const clang::Expr* e, int depth = 0) {
    constexpr long long kBound = 1LL << 31; // operands stay small: products and sums cannot overflow
    if (depth > kDepth) return std::nullopt;
    e = e->IgnoreParens();
    std::optional<long long> v;
    if (const auto* c = llvm::dyn_cast<clang::CastExpr>(e)) {
      if (c->getCastKind() == clang::CK_IntegralCast || c->getCastKind() == clang::CK_NoOp ||
          c->getCastKind() == clang::CK_LValueToRValue)
        v = atItemZero(c->getSubExpr(), depth);
    } else if (const auto* l = llvm::dyn_cast<clang::IntegerLiteral>(e)) {
      if (l->getValue().getActiveBits() < 32) v = (long long)l->getValue().getZExtValue();
    } else if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {
      if (isWorkItemId(call->getDirectCallee())) v = 0;
    } else if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(r->getDecl());
      const auto* u = var ? assignments.of(var) : nullptr;
      if (u && u->only && !llvm::isa<clang::ParmVarDecl>(var)) {
        v = atItemZero(u->only, depth + 1);
        if (v && !fits(*v, var->getType())) v.reset(); // the value converted to the variable's type
      }
    } else if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      const auto l = atItemZero(b->getLHS(), depth), r = atItemZero(b->getRHS(), depth);
      if (l && r) switch (b->getOpcode()) {
        case clang::BO_Add: v = *l + *r; break;
        case clang::BO_Sub: v = *l - *r; break;
        case clang::BO_Mul: v = *l * *r; break;
        case clang::BO_Shl: if (*l >= 0 && *r >= 0 && *r < 31) v = *l << *r; break;
        default: break;
        }
    }
    if (!v || *v <= -kBound || *v >= kBound || !e->getType()->isIntegerType() || !fits(*v, e->getType()))
      return std::nullopt;
    return v;
  }

  /// A for loop's counter and its value on work-item 0's first pass: set
  /// by the loop's header to a value atItemZero knows (`int f = 0`, `k =
  /// get_global_id(0)`), written in the loop by its step alone, its address
  /// taken nowhere, and a condition that holds on that pass: known to, or
  /// read from the counter and values every work-item shares alone (`f <
  /// n`: the host's sizes let the loop run), not from ids or the counters
  /// of loops around it (`g < f` in a triangular nest first runs later).
  std::optional<std::pair<const clang::VarDecl*, long long>> firstPassOf(const clang::ForStmt& f) {
    const clang::VarDecl* var = nullptr;
    const clang::Expr* value = nullptr;
    if (const auto* d = llvm::dyn_cast_or_null<clang::DeclStmt>(f.getInit()); d && d->isSingleDecl()) {
      var = llvm::dyn_cast<clang::VarDecl>(d->getSingleDecl());
      value = var ? var->getInit() : nullptr;
    } else if (const auto* b = llvm::dyn_cast_or_null<clang::BinaryOperator>(f.getInit());
               b && b->getOpcode() == clang::BO_Assign) {
      var = variableOf(b->getLHS());
      value = b->getRHS();
    }
    if (!var || !value || !f.getCond() || llvm::isa<clang::ParmVarDecl>(var) || !var->getType()->isIntegerType())
      return std::nullopt;
    if (!writes(f.getInc(), var) || writtenIn(f.getBody(), var) || writtenIn(f.getCond(), var) ||
        addressTaken(body, var))
      return std::nullopt; // the step alone moves it
    const auto first = atItemZero(value);
    if (!first || !fits(*first, var->getType())) return std::nullopt;
    const auto holds = atFirstPass(f.getCond(), var, *first);
    if (holds ? *holds == 0 : !shared(f.getCond(), var)) return std::nullopt;
    return std::make_pair(var, *first);
  }

  /// The value of `e` on the loop's first pass for work-item 0, `var` at
  /// `first`, when it is known: comparisons, `&&`, `||` and `!` give 0 or 1.
  std::optional<long long> atFirstPass(const clang::Expr* e, const clang::VarDecl* var, long long first) {
    e = e->IgnoreParenImpCasts();
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e); r && r->getDecl() == var) return first;
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_LNot) {
      const auto v = atFirstPass(u->getSubExpr(), var, first);
      return v ? std::optional<long long>(*v == 0) : std::nullopt;
    }
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      if (b->getOpcode() == clang::BO_LAnd || b->getOpcode() == clang::BO_LOr) {
        const auto l = atFirstPass(b->getLHS(), var, first), r = atFirstPass(b->getRHS(), var, first);
        const bool isAnd = b->getOpcode() == clang::BO_LAnd;
        if (l && (*l != 0) != isAnd) return *l != 0; // decided by its left side
        if (r && (*r != 0) != isAnd) return *r != 0;
        if (l && r) return isAnd;
        return std::nullopt;
      }
      if (b->isComparisonOp()) {
        // A side that is the counter, possibly converted, takes its value;
        // anything else must be known for work-item 0.
        auto side = [&](const clang::Expr* x) -> std::optional<long long> {
          const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(x->IgnoreParenImpCasts());
          if (r && r->getDecl() == var) return fits(first, x->getType()) ? std::optional<long long>(first) : std::nullopt;
          return atItemZero(x);
        };
        const auto l = side(b->getLHS()), r = side(b->getRHS());
        if (!l || !r) return std::nullopt;
        return compared(b->getOpcode(), *l, *r);
      }
    }
    return atItemZero(e);
  }

  /// `e` reads nothing but `var` and values every work-item shares: no id,
  /// no variable computed from one, no counter of a loop around.
  /// Variables are followed through every value they are given (`m = f`
  /// of an outer counter f is not shared).
  bool shared(const clang::Stmt* e, const clang::VarDecl* var) const {
    std::set<const clang::VarDecl*> seen{var};
    return shared(e, seen);
  }
  bool shared(const clang::Stmt* e, std::set<const clang::VarDecl*>& seen) const {
    if (!e) return true;
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e); c && isWorkItemId(c->getDirectCallee())) return false;
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()); v && seen.insert(v).second) {
        if (varying.count(v) || firstPass.count(v)) return false;
        if (const auto* u = assignments.of(v))
          for (const auto* value : u->values) // each variable once: `n += ... n ...` reads itself
            if (!shared(value, seen)) return false;
      }
    for (const clang::Stmt* child : e->children())
      if (!shared(child, seen)) return false;
    return true;
  }

  /// Somewhere in `s` the address of `var` is taken.
  static bool addressTaken(const clang::Stmt* s, const clang::VarDecl* var) {
    if (!s) return false;
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(s);
        u && u->getOpcode() == clang::UO_AddrOf && variableOf(u->getSubExpr()) == var)
      return true;
    for (const clang::Stmt* child : s->children())
      if (addressTaken(child, var)) return true;
    return false;
  }

  /// The counters a subscript's index names itself, with their first
  /// values, when the index can be read on the first pass: an index of a
  /// buffer itself (no offset of a pointer set before), whose variables are
  /// the counters or reach none through their values, and with no cast to a
  /// type narrower than int (`(uchar)(f - 1)` wraps). Else none.
  std::map<std::string, long long> countersOf(const clang::Expr* at, const SubscriptForm& offset) {
    const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(at);
    if (firstPass.empty() || !a || !offset.terms.empty()) return {};
    std::map<std::string, long long> named;
    std::set<std::string> others; // variables read that are no counter: a name shared with one is ambiguous
    bool ok = true;
    std::function<void(const clang::Stmt*, bool, int)> visit = [&](const clang::Stmt* x, bool direct, int depth) {
      if (!x || !ok) return;
      if (const auto* c = llvm::dyn_cast<clang::ExplicitCastExpr>(x);
          c && c->getType()->isIntegerType() && ast.getIntWidth(c->getType()) < 32)
        ok = false;
      if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(x))
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl())) {
          if (const auto it = firstPass.find(v); it != firstPass.end()) {
            if (!direct) ok = false; // a counter's value read through another variable: another time's
            else named[v->getNameAsString()] = it->second;
          } else {
            others.insert(v->getNameAsString());
            if (const auto* u = assignments.of(v); u && u->only && depth < kDepth) visit(u->only, false, depth + 1);
          }
        }
      for (const clang::Stmt* child : x->children())
        visit(child, direct, depth);
    };
    visit(a->getIdx(), true, 0);
    for (const auto& [name, value] : named)
      ok = ok && !others.count(name); // a term of that name may be the other variable's
    return ok ? named : std::map<std::string, long long>{};
  }

  /// The variable `s` itself writes (`f++`, `f += 8`, `f = e`), or null.
  static const clang::VarDecl* writtenBy(const clang::Stmt* s) {
    if (const auto* u = llvm::dyn_cast_or_null<clang::UnaryOperator>(s); u && u->isIncrementDecrementOp())
      return variableOf(u->getSubExpr());
    if (const auto* b = llvm::dyn_cast_or_null<clang::BinaryOperator>(s); b && b->isAssignmentOp())
      return variableOf(b->getLHS());
    return nullptr;
  }

  /// `s` writes `var` (the loop's step: `f++`, `f += 8`).
  static bool writes(const clang::Stmt* s, const clang::VarDecl* var) { return s && writtenBy(s) == var; }

  /// Something in `s` writes `var`.
  static bool writtenIn(const clang::Stmt* s, const clang::VarDecl* var) {
    if (!s) return false;
    if (writtenBy(s) == var) return true;
    for (const clang::Stmt* child : s->children())
      if (writtenIn(child, var)) return true;
    return false;
  }

  /// `v` is a value of integer type `t` as it is, without wrapping.
  bool fits(long long v, clang::QualType t) const {
    if (!t->isIntegerType()) return false;
    const unsigned width = std::min(62u, unsigned(ast.getIntWidth(t)));
    if (t->isUnsignedIntegerType()) return v >= 0 && v < (1LL << width);
    return v >= -(1LL << (width - 1)) && v < (1LL << (width - 1));
  }

  /// A condition that surely holds for work-item 0: `k == 0`, `!k`, `i < 4`
  /// for ids k and i, and `&&` and `||` of such.
  bool holdsForItemZero(const clang::Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_LNot) {
      const auto v = atItemZero(u->getSubExpr());
      return v && *v == 0;
    }
    const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e);
    if (!b) return false;
    if (b->getOpcode() == clang::BO_LAnd) return holdsForItemZero(b->getLHS()) && holdsForItemZero(b->getRHS());
    if (b->getOpcode() == clang::BO_LOr) return holdsForItemZero(b->getLHS()) || holdsForItemZero(b->getRHS());
    if (!b->isComparisonOp()) return false;
    // Each side as converted for the comparison: a negative value of an
    // unsigned comparison is not known.
    const auto l = atItemZero(b->getLHS()), r = atItemZero(b->getRHS());
    return l && r && compared(b->getOpcode(), *l, *r) == 1;
  }

  /// A comparison of two known values: 1 or 0.
  static long long compared(clang::BinaryOperatorKind op, long long l, long long r) {
    switch (op) {
    case clang::BO_EQ: return l == r;
    case clang::BO_NE: return l != r;
    case clang::BO_LT: return l < r;
    case clang::BO_LE: return l <= r;
    case clang::BO_GT: return l > r;
    default: return l >= r; // BO_GE: callers pass comparisons only
    }
  }

  void conditionally(std::initializer_list<const clang::Stmt*> parts) {
    ++conditional;
    for (const clang::Stmt* p : parts)
      walk(p, Role::Read);
    --conditional;
  }

  void record(const clang::Expr* at, const clang::Expr* base, const SubscriptForm& index, Role role) {
    if (role == Role::Address) return;
    SubscriptForm offset;
    const auto* buffer = root(base, offset);
    if (!buffer) return;
    auto counters = countersOf(at, offset);
    if (!sum(offset, index, 1)) return;
    found.push_back({at, buffer, std::move(offset), role == Role::Store || role == Role::Update,
                     conditional > passedByItemZero || exited, std::move(counters)});
  }

  clang::ASTContext& ast;
  Assignments assignments;
  std::set<const clang::VarDecl*> varying;
  std::map<std::string, TermKind> kinds;
  std::vector<BufferAccess> found;
  int conditional = 0;
  int passedByItemZero = 0; ///< of the `conditional` around, branches work-item 0 surely takes (or a loop's first pass)
  std::map<const clang::VarDecl*, long long> firstPass; ///< the counters of the loops around, on their first pass
  const clang::Stmt* body = nullptr;                     ///< the kernel's
  bool exited = false;
};

SubscriptForms::SubscriptForms(const clang::FunctionDecl& kernel, clang::ASTContext& ast)
    : reading_(std::make_unique<Reading>(kernel, ast)) {}

SubscriptForms::~SubscriptForms() = default;

const std::vector<BufferAccess>& SubscriptForms::accesses() const { return reading_->found; }

TermKind SubscriptForms::kind(const std::string& term) const {
  const auto it = reading_->kinds.find(term);
  return it == reading_->kinds.end() ? TermKind::Uniform : it->second;
}

bool SubscriptForms::varies(const SubscriptForm& f) const {
  for (const auto& [t, c] : f.terms)
    if (c != 0 && kind(t) != TermKind::Uniform) return true;
  return false;
}

} // namespace steerbench::steer

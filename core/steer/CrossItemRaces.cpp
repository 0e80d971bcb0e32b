#include "steer/CrossItemRaces.h"

#include "steer/AstVariables.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace steerbench::steer {

namespace {

constexpr int kDepth = 8;        // how far a variable's value is followed
constexpr long long kLarge = 1LL << 40; // coefficients beyond are read as a term of their own

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

/// A subscript read as a sum of terms with integer coefficients and a constant.
struct Form {
  std::map<std::string, long long> terms;
  long long constant = 0;
};

enum class Term { Id, Variable, Expression }; // what a varying term is

class Reader {
public:
  Reader(const clang::FunctionDecl& kernel, clang::ASTContext& ast) : ast_(ast) {
    assignments_.TraverseStmt(kernel.getBody());
    for (bool changed = true; changed;) { // which variables vary: until nothing changes
      changed = false;
      for (const auto& [v, u] : assignments_.uses)
        if (!varying_.count(v))
          for (const auto* value : u.values)
            if (varies(value)) {
              varying_.insert(v);
              changed = true;
              break;
            }
    }
  }

  bool varies(const clang::Stmt* s) const {
    if (!s) return false;
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(s); c && isWorkItemId(c->getDirectCallee())) return true;
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(s))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()); v && varying_.count(v)) return true;
    for (const clang::Stmt* child : s->children())
      if (varies(child)) return true;
    return false;
  }

  Form form(const clang::Expr* e, int depth = 0) {
    e = e->IgnoreParenCasts();
    if (!e->isValueDependent() && e->getType()->isIntegerType()) {
      clang::Expr::EvalResult r;
      if (e->EvaluateAsInt(r, ast_) && r.Val.isInt() && r.Val.getInt().getMinSignedBits() <= 41) {
        Form f;
        f.constant = r.Val.getInt().getSExtValue();
        return f;
      }
    }
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl())) {
        const auto* u = assignments_.of(v);
        if (u && u->only && depth < kDepth && !llvm::isa<clang::ParmVarDecl>(v)) return form(u->only, depth + 1);
        return term(e, varying_.count(v) ? Term::Variable : std::optional<Term>());
      }
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e); c && isWorkItemId(c->getDirectCallee()))
      return term(e, Term::Id);
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      switch (b->getOpcode()) {
      case clang::BO_Add:
      case clang::BO_Sub: {
        Form l = form(b->getLHS(), depth), r = form(b->getRHS(), depth);
        if (sum(l, r, b->getOpcode() == clang::BO_Sub ? -1 : 1)) return l;
        break;
      }
      case clang::BO_Mul: {
        Form l = form(b->getLHS(), depth), r = form(b->getRHS(), depth);
        if (l.terms.empty() && scale(r, l.constant)) return r;
        if (r.terms.empty() && scale(l, r.constant)) return l;
        break;
      }
      default:
        break;
      }
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (u->getOpcode() == clang::UO_Plus) return form(u->getSubExpr(), depth);
      if (u->getOpcode() == clang::UO_Minus) {
        Form f = form(u->getSubExpr(), depth);
        if (scale(f, -1)) return f;
      }
    }
    return term(e, varies(e) ? Term::Expression : std::optional<Term>());
  }

  /// The kernel's global buffer a pointer expression points into, and its
  /// offset there: a parameter nothing moves, or a pointer set once to one.
  const clang::ParmVarDecl* root(const clang::Expr* e, Form& offset, int depth = 0) {
    e = e->IgnoreParenCasts();
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl());
      if (!v) return nullptr;
      const auto* u = assignments_.of(v);
      if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v))
        return !u && pointsInto(r, clang::LangAS::opencl_global) ? p : nullptr;
      return u && u->only && depth < kDepth ? root(u->only, offset, depth + 1) : nullptr;
    }
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e);
        b && (b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub) && b->getLHS()->getType()->isPointerType()) {
      const auto* p = root(b->getLHS(), offset, depth);
      if (p && sum(offset, form(b->getRHS()), b->getOpcode() == clang::BO_Sub ? -1 : 1)) return p;
    }
    return nullptr;
  }

  std::optional<Term> kind(const std::string& term) const {
    const auto it = kinds_.find(term);
    return it == kinds_.end() ? std::nullopt : it->second;
  }

  static bool sum(Form& into, const Form& f, long long sign) {
    for (const auto& [t, c] : f.terms)
      if (!add(into.terms[t], sign * c)) return false;
    return add(into.constant, sign * f.constant);
  }

private:
  static bool add(long long& into, long long c) {
    into += c;
    return into > -kLarge && into < kLarge;
  }
  static bool scale(Form& f, long long by) {
    if (by <= -kLarge || by >= kLarge) return false;
    for (auto& [t, c] : f.terms)
      if (__builtin_mul_overflow(c, by, &c) || c <= -kLarge || c >= kLarge) return false;
    return !__builtin_mul_overflow(f.constant, by, &f.constant) && f.constant > -kLarge && f.constant < kLarge;
  }

  /// `e` as a term of its own, by its text; `varying` when it differs between work-items.
  Form term(const clang::Expr* e, std::optional<Term> varying) {
    std::string text;
    llvm::raw_string_ostream os(text);
    e->printPretty(os, nullptr, ast_.getPrintingPolicy());
    os.flush();
    kinds_[text] = varying;
    Form f;
    f.terms[text] = 1;
    return f;
  }

  clang::ASTContext& ast_;
  Assignments assignments_;
  std::set<const clang::VarDecl*> varying_;
  std::map<std::string, std::optional<Term>> kinds_;
};

struct Access {
  const clang::Expr* at;
  const clang::ParmVarDecl* buffer;
  Form index; // the element, from the buffer's start
  bool store;
};

/// The accesses of global buffers in a body, in the order they are written.
class Accesses {
public:
  explicit Accesses(Reader& r) : reader_(r) {}
  enum class Role { Read, Store, Update, Address };

  void walk(const clang::Stmt* s, Role role = Role::Read) {
    if (!s) return;
    if (const auto* p = llvm::dyn_cast<clang::ParenExpr>(s)) return walk(p->getSubExpr(), role);
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(s); b && b->isAssignmentOp()) {
      walk(b->getLHS(), b->getOpcode() == clang::BO_Assign ? Role::Store : Role::Update);
      return walk(b->getRHS());
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(s)) {
      if (u->isIncrementDecrementOp()) return walk(u->getSubExpr(), Role::Update);
      if (u->getOpcode() == clang::UO_AddrOf) return walk(u->getSubExpr(), Role::Address);
      if (u->getOpcode() == clang::UO_Deref) {
        Form zero;
        record(u, u->getSubExpr(), zero, role);
        return walk(u->getSubExpr());
      }
    }
    if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(s)) {
      record(a, a->getBase(), reader_.form(a->getIdx()), role);
      walk(a->getBase());
      return walk(a->getIdx());
    }
    if (const auto* m = llvm::dyn_cast<clang::MemberExpr>(s); m && !m->isArrow()) return walk(m->getBase(), role);
    if (const auto* v = llvm::dyn_cast<clang::ExtVectorElementExpr>(s)) return walk(v->getBase(), role);
    for (const clang::Stmt* child : s->children())
      walk(child);
  }
  std::vector<Access> found;

private:
  void record(const clang::Expr* at, const clang::Expr* base, const Form& index, Role role) {
    if (role == Role::Address) return;
    Form offset;
    const auto* buffer = reader_.root(base, offset);
    if (!buffer || !Reader::sum(offset, index, 1)) return;
    found.push_back({at, buffer, std::move(offset), role == Role::Store || role == Role::Update});
  }
  Reader& reader_;
};

} // namespace

std::vector<CrossItemRace> crossItemRaces(const clang::FunctionDecl& kernel, clang::ASTContext& ast) {
  if (!kernel.hasBody()) return {};
  Reader reader(kernel, ast);
  Accesses accesses(reader);
  accesses.walk(kernel.getBody());
  const auto& all = accesses.found;
  auto varies = [&](const Form& f) {
    for (const auto& [t, c] : f.terms)
      if (c != 0 && reader.kind(t)) return true;
    return false;
  };
  std::vector<bool> racing(all.size(), false);
  for (std::size_t s = 0; s < all.size(); ++s) {
    if (!all[s].store || !varies(all[s].index)) continue; // a store every work-item makes is a uniform-store
    for (std::size_t a = 0; a < all.size(); ++a) {
      if (a == s || racing[a] || all[a].buffer != all[s].buffer) continue;
      Form d = all[s].index;
      if (!Reader::sum(d, all[a].index, -1)) continue;
      bool zero = d.constant == 0, symbolic = false, opaque = false;
      for (const auto& [t, c] : d.terms) {
        if (c == 0) continue;
        zero = false;
        const auto k = reader.kind(t);
        symbolic = symbolic || !k;
        opaque = opaque || k == Term::Expression;
      }
      if (zero || symbolic) continue; // its own element; or a shift by an argument or a counter
      bool meets = opaque;
      if (!meets) { // ids and varying variables: a * i - c * j = k has a solution when gcd(a, c) divides k
        long long g = 0;
        for (const auto* f : {&all[s].index, &all[a].index})
          for (const auto& [t, c] : f->terms)
            if (const auto k = reader.kind(t); k && *k != Term::Expression) g = std::gcd(g, c < 0 ? -c : c);
        meets = g != 0 && d.constant % g == 0;
        // An element no work-item reaches: ids are never negative, so a
        // store at `2 * c + 3` never meets a read of `a[1]`.
        bool above = !varies(all[a].index) && d.constant > 0;
        for (const auto& [t, c] : d.terms)
          above = above && (c == 0 || (c > 0 && reader.kind(t) == Term::Id));
        meets = meets && !above;
      }
      racing[a] = meets;
    }
  }
  std::vector<CrossItemRace> out;
  for (std::size_t a = 0; a < all.size(); ++a)
    if (racing[a]) out.push_back({all[a].at, all[a].buffer->getNameAsString(), all[a].store});
  return out;
}

} // namespace steerbench::steer

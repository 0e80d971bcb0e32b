#include "steer/OverwrittenStores.h"

#include "steer/AstVariables.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

namespace steerbench::steer {

namespace {

using Vars = std::vector<const clang::VarDecl*>;

bool holds(const Vars& vars, const clang::Decl* d) { return std::find(vars.begin(), vars.end(), d) != vars.end(); }

/// A statement `p[i] = e` or `*p = e` of its own, for a variable p.
struct ElementStore {
  const clang::BinaryOperator* op = nullptr;
  const clang::VarDecl* buffer = nullptr;
  const clang::Expr* index = nullptr; ///< null for `*p`
};

ElementStore elementStore(const clang::Stmt* s) {
  const auto* b = llvm::dyn_cast_or_null<clang::BinaryOperator>(s);
  if (!b || b->getOpcode() != clang::BO_Assign || b->getLHS()->getType().isVolatileQualified()) return {};
  const clang::Expr* lhs = b->getLHS()->IgnoreParens();
  if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(lhs)) {
    if (const auto* v = variableOf(a->getBase())) return {b, v, a->getIdx()};
  } else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(lhs); u && u->getOpcode() == clang::UO_Deref) {
    if (const auto* v = variableOf(u->getSubExpr())) return {b, v, nullptr};
  }
  return {};
}

/// Whether an index reads memory (`a[b[i]]`): a store between could change it.
class ReadsMemory : public clang::RecursiveASTVisitor<ReadsMemory> {
public:
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr*) { return !(found = true); }
  bool VisitMemberExpr(clang::MemberExpr*) { return !(found = true); }
  bool VisitUnaryOperator(clang::UnaryOperator* u) { return !(found |= u->getOpcode() == clang::UO_Deref); }
  bool found = false;
};

/// Whether an expression calls a function other than the work-item
/// functions (`get_local_id(0)`: the same answer each time in a work-item).
class CallsOtherThanWorkItemFunctions : public clang::RecursiveASTVisitor<CallsOtherThanWorkItemFunctions> {
public:
  bool VisitCallExpr(clang::CallExpr* c) { return !(found |= !isWorkItemFunction(c->getDirectCallee())); }
  bool found = false;
};

/// The variables an expression names.
class Named : public clang::RecursiveASTVisitor<Named> {
public:
  bool VisitDeclRefExpr(clang::DeclRefExpr* r) {
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()); v && !holds(vars, v)) vars.push_back(v);
    return true;
  }
  Vars vars;
};

Vars named(const clang::Stmt* s) {
  Named n;
  n.TraverseStmt(const_cast<clang::Stmt*>(s));
  return n.vars;
}

/// Where pointers come from in a function: each pointer variable with what
/// it was set to (its initializer, its assignments), and the variables
/// whose address is taken.
class PointerFlows : public clang::RecursiveASTVisitor<PointerFlows> {
public:
  bool VisitVarDecl(clang::VarDecl* v) {
    if (v->getType()->isPointerType() && v->hasInit()) flows.emplace_back(v, v->getInit());
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (const auto* v = b->isAssignmentOp() ? variableOf(b->getLHS()) : nullptr; v && v->getType()->isPointerType())
      flows.emplace_back(v, b->getRHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->getOpcode() == clang::UO_AddrOf)
      if (const auto* v = variableOf(u->getSubExpr())) addressed.push_back(v);
    return true;
  }
  std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>> flows;
  Vars addressed;
};

/// Whether a statement between two stores may read the element or change
/// the index: it mentions one of `group` (the buffer and the pointers made
/// from it or it from them), calls a function, or changes one of `indexVars`
/// (an assignment, ++ or --; a store through one counts as a change).
class Interferes : public clang::RecursiveASTVisitor<Interferes> {
public:
  Interferes(const Vars& group, const Vars& indexVars) : group_(group), indexVars_(indexVars) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr* r) { return !(found |= holds(group_, r->getDecl())); }
  bool VisitCallExpr(clang::CallExpr*) { return !(found = true); }
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->isAssignmentOp()) change(b->getLHS());
    return !found;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->isIncrementDecrementOp()) change(u->getSubExpr());
    return !found;
  }
  bool found = false;

private:
  /// The variable at the root of an lvalue (`x`, `x[k]`, `*x`) changes.
  void change(const clang::Expr* e) {
    e = e->IgnoreParenImpCasts();
    while (true) {
      if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) e = a->getBase()->IgnoreParenImpCasts();
      else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_Deref)
        e = u->getSubExpr()->IgnoreParenImpCasts();
      else break;
    }
    if (const auto* v = variableOf(e); v && holds(indexVars_, v)) found = true;
  }
  const Vars& group_;
  const Vars& indexVars_;
};

class Search : public clang::RecursiveASTVisitor<Search> {
public:
  Search(const clang::Stmt* body, const clang::ASTContext& ast) : ast_(ast) {
    PointerFlows f;
    f.TraverseStmt(const_cast<clang::Stmt*>(body));
    flows_ = std::move(f.flows);
    addressed_ = std::move(f.addressed);
  }

  bool VisitCompoundStmt(clang::CompoundStmt* s) {
    const auto body = s->body();
    for (auto it = body.begin(); it != body.end(); ++it) {
      const ElementStore first = elementStore(*it);
      if (!first.op || first.op->getRHS()->HasSideEffects(ast_)) continue;
      if (first.index && !plainIndex(first.index)) continue;
      const Vars group = groupOf(first.buffer);
      if (group.empty()) continue;
      const Vars indexVars = first.index ? named(first.index) : Vars{};
      for (auto next = std::next(it); next != body.end(); ++next) {
        const ElementStore again = elementStore(*next);
        if (again.op && again.buffer == first.buffer && sameIndex(first.index, again.index)) {
          if (!mentionsAny(again.op->getRHS(), group)) found.push_back({first.op, first.buffer->getNameAsString()});
          break;
        }
        if (!llvm::isa<clang::Expr>(*next) && !llvm::isa<clang::DeclStmt>(*next)) break;
        Interferes between(group, indexVars);
        between.TraverseStmt(*next);
        if (between.found) break;
      }
    }
    return true;
  }

  std::vector<OverwrittenStore> found;

private:
  /// An index that names the same element each time it is computed, as
  /// long as its variables keep their values: no side effect, no memory
  /// read, no call but the work-item functions (Clang does not know these
  /// to be free of side effects).
  bool plainIndex(const clang::Expr* e) const {
    if (e->HasSideEffects(ast_, /*IncludePossibleEffects=*/false)) return false;
    ReadsMemory r;
    r.TraverseStmt(const_cast<clang::Expr*>(e));
    CallsOtherThanWorkItemFunctions c;
    c.TraverseStmt(const_cast<clang::Expr*>(e));
    return !r.found && !c.found;
  }
  static bool mentionsAny(const clang::Expr* e, const Vars& vars) {
    const Vars n = named(e);
    return std::any_of(n.begin(), n.end(), [&](const clang::VarDecl* v) { return holds(vars, v); });
  }
  /// The same element: both `*p`, or subscripts written the same way but
  /// for spaces. Text, not Clang's profile of the expression: each call of
  /// an OpenCL builtin may name a declaration of its own.
  bool sameIndex(const clang::Expr* a, const clang::Expr* b) const {
    if (!a || !b) return a == b;
    return written(a) == written(b);
  }
  [[nodiscard]] std::string written(const clang::Expr* e) const {
    const auto& sm = ast_.getSourceManager();
    const auto range = clang::CharSourceRange::getTokenRange(sm.getExpansionRange(e->getSourceRange()).getAsRange());
    std::string text(clang::Lexer::getSourceText(range, sm, ast_.getLangOpts()));
    text.erase(std::remove_if(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }), text.end());
    return text;
  }
  /// `buffer` and every pointer variable made from it, or it from them
  /// (`q = a + n` joins q and a), followed until nothing joins; empty when
  /// the address of one of them is taken (a pointer to it could read any).
  [[nodiscard]] Vars groupOf(const clang::VarDecl* buffer) const {
    Vars group{buffer};
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [v, from] : flows_) {
        Vars linked = named(from);
        linked.erase(std::remove_if(linked.begin(), linked.end(),
                                    [](const clang::VarDecl* x) {
                                      return !x->getType()->isPointerType() && !x->getType()->isArrayType();
                                    }),
                     linked.end());
        linked.push_back(v);
        const bool touches = std::any_of(linked.begin(), linked.end(), [&](auto* x) { return holds(group, x); });
        if (!touches) continue;
        for (const auto* x : linked)
          if (!holds(group, x)) group.push_back(x), grew = true;
      }
    }
    for (const auto* v : group)
      if (holds(addressed_, v)) return {};
    return group;
  }

  const clang::ASTContext& ast_;
  std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>> flows_;
  Vars addressed_;
};

} // namespace

std::vector<OverwrittenStore> overwrittenStores(const clang::FunctionDecl& f, const clang::ASTContext& ast) {
  if (!f.doesThisDeclarationHaveABody()) return {};
  Search search(f.getBody(), ast);
  search.TraverseStmt(f.getBody());
  return std::move(search.found);
}

} // namespace steerbench::steer

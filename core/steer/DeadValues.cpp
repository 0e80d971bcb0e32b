#include "steer/DeadValues.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Analysis/Analyses/LiveVariables.h>
#include <clang/Analysis/AnalysisDeclContext.h>

#include <algorithm>
#include <set>

namespace steerbench::steer {
namespace {

/// The expressions that are statements of their own (their value is not an
/// operand of something larger), and the variables whose address is taken.
class Statements : public clang::RecursiveASTVisitor<Statements> {
public:
  bool VisitCompoundStmt(clang::CompoundStmt* s) {
    for (const clang::Stmt* c : s->body())
      add(c);
    return true;
  }
  bool VisitIfStmt(clang::IfStmt* s) {
    add(s->getThen());
    add(s->getElse());
    return true;
  }
  bool VisitForStmt(clang::ForStmt* s) {
    add(s->getInit());
    add(s->getInc());
    add(s->getBody());
    return true;
  }
  bool VisitWhileStmt(clang::WhileStmt* s) {
    add(s->getBody());
    return true;
  }
  bool VisitDoStmt(clang::DoStmt* s) {
    add(s->getBody());
    return true;
  }
  bool VisitSwitchCase(clang::SwitchCase* s) {
    add(s->getSubStmt());
    return true;
  }
  bool VisitLabelStmt(clang::LabelStmt* s) {
    add(s->getSubStmt());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->getOpcode() == clang::UO_AddrOf)
      if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts()))
        addressTaken.insert(r->getDecl());
    return true;
  }

  std::set<const clang::Stmt*> statements;
  std::set<const clang::Decl*> addressTaken;

private:
  void add(const clang::Stmt* s) {
    const auto* e = llvm::dyn_cast_or_null<clang::Expr>(s);
    if (!e) return;
    e = e->IgnoreParens();
    statements.insert(e);
    // `x = 1, y = 2;`: each operand of a comma that is a statement is one.
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->getOpcode() == clang::BO_Comma) {
      add(b->getLHS());
      add(b->getRHS());
    }
  }
};

class Finder : public clang::LiveVariables::Observer {
public:
  Finder(const Statements& s, clang::ASTContext& ast) : s_(s), ast_(ast) {}

  void observeStmt(const clang::Stmt* s, const clang::CFGBlock*, const clang::LiveVariables::LivenessValues& live) override {
    // `live` holds what is live after s: the analysis runs backwards and
    // calls here before it applies s.
    if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl* x : d->decls()) {
        const auto* v = llvm::dyn_cast<clang::VarDecl>(x);
        if (!v || !v->getInit() || !followed(v) || live.isLive(v)) continue;
        const clang::Expr* init = v->getInit();
        if (init->HasSideEffects(ast_) || constant(init) || !declared_.insert(v).second) continue;
        note(d, v, true);
      }
      return;
    }
    if (!s_.statements.count(s)) return;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(s); b && b->isAssignmentOp()) {
      const auto* v = variable(b->getLHS());
      if (!v || live.isLive(v) || b->getRHS()->HasSideEffects(ast_)) return;
      if (b->getOpcode() == clang::BO_Assign && constant(b->getRHS())) return;
      note(b, v, false);
    } else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(s); u && u->isIncrementDecrementOp()) {
      if (const auto* v = variable(u->getSubExpr()); v && !live.isLive(v)) note(u, v, false);
    }
  }

  std::vector<DeadValue> found;

private:
  [[nodiscard]] const clang::VarDecl* variable(const clang::Expr* e) const {
    const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto* v = r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
    return v && followed(v) ? v : nullptr;
  }
  /// A private variable no pointer can reach.
  [[nodiscard]] bool followed(const clang::VarDecl* v) const {
    const auto t = v->getType();
    return v->hasLocalStorage() && !t.isVolatileQualified() && !t->isArrayType() &&
           (t.getAddressSpace() == clang::LangAS::Default || t.getAddressSpace() == clang::LangAS::opencl_private) &&
           !s_.addressTaken.count(v);
  }
  [[nodiscard]] bool constant(const clang::Expr* e) const { return !e->isValueDependent() && e->isEvaluatable(ast_); }
  void note(const clang::Stmt* at, const clang::VarDecl* v, bool declaration) {
    if (!seen_.insert(at).second) return;
    found.push_back({at, v->getNameAsString(), declaration});
  }

  const Statements& s_;
  clang::ASTContext& ast_;
  std::set<const clang::Stmt*> seen_;
  std::set<const clang::VarDecl*> declared_; ///< a declaration of several is seen whole and one at a time
};

} // namespace

std::vector<DeadValue> deadValues(const clang::FunctionDecl& f, clang::ASTContext& ast) {
  if (!f.doesThisDeclarationHaveABody()) return {};
  Statements statements;
  statements.TraverseStmt(f.getBody());
  clang::AnalysisDeclContextManager manager(ast);
  manager.getCFGBuildOptions().setAllAlwaysAdd();
  clang::AnalysisDeclContext* context = manager.getContext(&f);
  auto* liveness = context ? context->getAnalysis<clang::LiveVariables>() : nullptr;
  if (!liveness) return {};
  Finder finder(statements, ast);
  liveness->runOnAllBlocks(finder);
  return std::move(finder.found);
}

} // namespace steerbench::steer

#include "steer/CleanAst.h"

#include "steer/AstVariables.h"
#include "steer/DeadValues.h"
#include "steer/OverwrittenStores.h"
#include "steer/CrossItemRaces.h"
#include "steer/NegativeIndices.h"
#include "steer/QuadraticIndices.h"
#include "steer/SubscriptForms.h"
#include "steer/UniformStores.h"
#include "steer/UninitializedArrays.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <vector>

namespace steerbench::steer {

namespace {

using clangfe::Diagnostic;

/// The scalar variables a while loop's condition reads, and whether it reads
/// anything else that could change under it (memory, a call, a global).
class ConditionReads : public clang::RecursiveASTVisitor<ConditionReads> {
public:
  bool VisitDeclRefExpr(clang::DeclRefExpr* r) {
    const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl());
    if (!v) {
      if (!llvm::isa<clang::EnumConstantDecl>(r->getDecl())) opaque = true;
      return true;
    }
    if (!v->hasLocalStorage() || v->getType().isVolatileQualified() || !v->getType()->isScalarType()) opaque = true;
    else vars.push_back(v);
    return true;
  }
  bool VisitCallExpr(clang::CallExpr*) { return !(opaque = true); }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr*) { return !(opaque = true); }
  bool VisitMemberExpr(clang::MemberExpr*) { return !(opaque = true); }
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->getOpcode() == clang::UO_Deref) opaque = true;
    return true;
  }
  std::vector<const clang::VarDecl*> vars;
  bool opaque = false;
};

/// "'a', 'b'": the names of `vars`, each once.
std::string quoted(const std::vector<const clang::VarDecl*>& vars) {
  std::string names;
  for (const auto* v : vars)
    if (names.find("'" + v->getNameAsString() + "'") == std::string::npos)
      names += (names.empty() ? "'" : ", '") + v->getNameAsString() + "'";
  return names;
}

/// Whether a loop's body (or its condition) may change one of `vars` or
/// leave the loop: an assignment, ++ or --, its address taken, a break,
/// return or goto anywhere inside.
class ChangesOrLeaves : public clang::RecursiveASTVisitor<ChangesOrLeaves> {
public:
  explicit ChangesOrLeaves(const std::vector<const clang::VarDecl*>& vars) : vars_(vars) {}
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->isAssignmentOp()) mark(b->getLHS());
    return !found;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->isIncrementDecrementOp() || u->getOpcode() == clang::UO_AddrOf) mark(u->getSubExpr());
    return !found;
  }
  bool VisitBreakStmt(clang::BreakStmt*) { return !(found = true); }
  bool VisitReturnStmt(clang::ReturnStmt*) { return !(found = true); }
  bool VisitGotoStmt(clang::GotoStmt*) { return !(found = true); }
  bool found = false;

private:
  void mark(const clang::Expr* e) {
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (std::find(vars_.begin(), vars_.end(), r->getDecl()) != vars_.end()) found = true;
  }
  const std::vector<const clang::VarDecl*>& vars_;
};

/// How a loop moves one variable: every change of it there adds (++, or +=
/// a positive constant or an unsigned value such as get_global_size(0)), or
/// every change takes away; anything else (an assignment, its address, a
/// step of unknown sign, both ways) is Other.
class CounterMotion : public clang::RecursiveASTVisitor<CounterMotion> {
public:
  enum class Motion { None, Grows, Falls, Other };
  CounterMotion(const clang::VarDecl* v, const clang::ASTContext& ast) : v_(v), ast_(ast) {}
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (!names(u->getSubExpr())) return true;
    if (u->isIncrementOp()) note(Motion::Grows);
    else if (u->isDecrementOp()) note(Motion::Falls);
    else if (u->getOpcode() == clang::UO_AddrOf) note(Motion::Other);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (!b->isAssignmentOp() || !names(b->getLHS())) return true;
    const int sign = signOf(b->getRHS());
    if (sign != 0 && b->getOpcode() == clang::BO_AddAssign) note(sign > 0 ? Motion::Grows : Motion::Falls);
    else if (sign != 0 && b->getOpcode() == clang::BO_SubAssign) note(sign > 0 ? Motion::Falls : Motion::Grows);
    else note(Motion::Other);
    return true;
  }
  Motion motion = Motion::None;

private:
  bool names(const clang::Expr* e) const {
    const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    return r && r->getDecl() == v_;
  }
  void note(Motion m) { motion = motion == Motion::None || motion == m ? m : Motion::Other; }
  /// 1 for an amount above 0, -1 below, 0 when not known.
  int signOf(const clang::Expr* e) const {
    if (e->isValueDependent()) return 0;
    clang::Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ast_)) {
      const auto& i = r.Val.getInt();
      return i.isStrictlyPositive() ? 1 : i.isNegative() ? -1 : 0;
    }
    return e->IgnoreParenImpCasts()->getType()->isUnsignedIntegerType() ? 1 : 0;
  }
  const clang::VarDecl* v_;
  const clang::ASTContext& ast_;
};

/// A comparison or a logical operator: its value is 0 or 1.
bool isTruthValue(const clang::Expr* e);

/// The first assignment in a loop's body of a comparison's 0 or 1 to one of `vars`.
class TruthAssignment : public clang::RecursiveASTVisitor<TruthAssignment> {
public:
  explicit TruthAssignment(const std::vector<const clang::VarDecl*>& vars) : vars_(vars) {}
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->getOpcode() != clang::BO_Assign || !isTruthValue(b->getRHS()->IgnoreParenImpCasts())) return true;
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()))
      if (std::find(vars_.begin(), vars_.end(), r->getDecl()) != vars_.end()) found = b;
    return !found;
  }
  const clang::BinaryOperator* found = nullptr;

private:
  const std::vector<const clang::VarDecl*>& vars_;
};

bool isTruthValue(const clang::Expr* e) {
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) return b->isComparisonOp() || b->isLogicalOp();
  return false;
}

/// Whether a truth value (isTruthValue) appears anywhere in `e`.
bool holdsTruthValue(const clang::Stmt* s) {
  if (!s) return false;
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s); e && isTruthValue(e)) return true;
  for (const clang::Stmt* child : s->children())
    if (holdsTruthValue(child)) return true;
  return false;
}

/// The functions whose argument is a work-item dimension (0, 1 or 2).
bool takesDimension(const clang::FunctionDecl* f) {
  if (!f || !f->getIdentifier()) return false;
  static const char* const names[] = {"get_global_id",  "get_local_id",          "get_group_id",
                                      "get_global_size", "get_local_size",       "get_num_groups",
                                      "get_global_offset", "get_enqueued_local_size"};
  const auto name = f->getName();
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return name == n; });
}

/// The work-group barrier and the memory fences, whose argument is flags.
bool isFence(const clang::FunctionDecl* f) {
  if (!f || !f->getIdentifier()) return false;
  const auto name = f->getName();
  return name == "barrier" || name == "work_group_barrier" || name == "mem_fence" || name == "read_mem_fence" ||
         name == "write_mem_fence";
}

/// A kernel's buffer argument named in `e` (a global or constant pointer
/// parameter of a kernel function), else null.
const clang::ParmVarDecl* kernelBuffer(const clang::Expr* e) {
  const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* p = r ? llvm::dyn_cast<clang::ParmVarDecl>(r->getDecl()) : nullptr;
  if (!p || !p->getType()->isPointerType()) return nullptr;
  const auto space = p->getType()->getPointeeType().getAddressSpace();
  if (space != clang::LangAS::opencl_global && space != clang::LangAS::opencl_constant) return nullptr;
  const auto* f = llvm::dyn_cast<clang::FunctionDecl>(p->getDeclContext());
  return f && f->hasAttr<clang::OpenCLKernelAttr>() ? p : nullptr;
}

/// The value of a literal 0 or 1, looking through parentheses, casts and a
/// unary + or - (`+0`, `(float)1`, `-0.0f`): 0, 1, or -1 for anything else.
int zeroOrOne(const clang::Expr* e) {
  e = e->IgnoreParenCasts();
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    if (u->getOpcode() == clang::UO_Plus) return zeroOrOne(u->getSubExpr());
    if (u->getOpcode() == clang::UO_Minus) return zeroOrOne(u->getSubExpr()) == 0 ? 0 : -1; // -0 is 0; -1 is neither
    return -1;
  }
  if (const auto* i = llvm::dyn_cast<clang::IntegerLiteral>(e)) {
    const auto v = i->getValue();
    return v == 0 ? 0 : v == 1 ? 1 : -1;
  }
  if (const auto* f = llvm::dyn_cast<clang::FloatingLiteral>(e)) {
    const double v = f->getValueAsApproximateDouble();
    return v == 0 ? 0 : v == 1 ? 1 : -1;
  }
  return -1;
}

/// An expression of literals alone (`12`, `(6 + 14)`, `-2.0f`, `(float)3`):
/// a constant the compiler folds before any code is made. A literal a macro
/// of OpenCL's headers wrote (`CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE`,
/// `2.0f * M_PI_F`) is a name in the text, not a literal.
bool literalsOnly(const clang::Expr* e) {
  e = e->IgnoreParenCasts();
  if (llvm::isa<clang::IntegerLiteral, clang::FloatingLiteral, clang::CharacterLiteral>(e))
    return !e->getBeginLoc().isMacroID();
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e))
    return (u->getOpcode() == clang::UO_Plus || u->getOpcode() == clang::UO_Minus || u->getOpcode() == clang::UO_Not ||
            u->getOpcode() == clang::UO_LNot) &&
           literalsOnly(u->getSubExpr());
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e))
    return !b->isAssignmentOp() && b->getOpcode() != clang::BO_Comma && literalsOnly(b->getLHS()) &&
           literalsOnly(b->getRHS());
  return false;
}

/// A constant that the OpenCL headers' macros wrote alone (`CLK_FILTER_NEAREST`,
/// `CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE`): named flags,
/// whose values (one of them may be 0) the programmer did not choose.
bool macroConstant(const clang::Expr* e) {
  e = e->IgnoreParenCasts();
  if (llvm::isa<clang::IntegerLiteral>(e)) return e->getBeginLoc().isMacroID();
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e))
    return (b->getOpcode() == clang::BO_Or || b->getOpcode() == clang::BO_Add) && macroConstant(b->getLHS()) &&
           macroConstant(b->getRHS());
  return false;
}

/// The same variable on both sides (`x - x`): its value is known.
bool sameVariable(const clang::Expr* a, const clang::Expr* b) {
  const auto* l = llvm::dyn_cast<clang::DeclRefExpr>(a->IgnoreParenImpCasts());
  const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(b->IgnoreParenImpCasts());
  return l && r && l->getDecl() == r->getDecl() && llvm::isa<clang::VarDecl>(l->getDecl());
}

/// The same expression, written alike (through parentheses and implicit
/// casts), with nothing in it that changes anything: `d < c` and `(d < c)`.
bool sameExpression(const clang::Expr* a, const clang::Expr* b, const clang::ASTContext& ast) {
  a = a->IgnoreParenImpCasts();
  b = b->IgnoreParenImpCasts();
  if (a->HasSideEffects(ast) || b->HasSideEffects(ast)) return false;
  llvm::FoldingSetNodeID x, y;
  a->Profile(x, ast, /*Canonical=*/true);
  b->Profile(y, ast, /*Canonical=*/true);
  return x == y;
}

/// Whether `e`, or an operand of the chain of `op` it heads (`p && q && r`
/// through parentheses), is the same expression as `x`.
bool inChain(const clang::Expr* e, clang::BinaryOperatorKind op, const clang::Expr* x, const clang::ASTContext& ast) {
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e->IgnoreParenImpCasts()); b && b->getOpcode() == op)
    return inChain(b->getLHS(), op, x, ast) || inChain(b->getRHS(), op, x, ast);
  return sameExpression(e, x, ast);
}

/// Whether `x` and `y` are comparisons each the other's negation, written
/// either way round: `f < d` against `f >= d` or `d <= f`.
bool opposed(const clang::Expr* x, const clang::Expr* y, const clang::ASTContext& ast) {
  const auto* a = llvm::dyn_cast<clang::BinaryOperator>(x->IgnoreParenImpCasts());
  const auto* b = llvm::dyn_cast<clang::BinaryOperator>(y->IgnoreParenImpCasts());
  if (!a || !b || !a->isComparisonOp() || !b->isComparisonOp()) return false;
  const auto negated = clang::BinaryOperator::negateComparisonOp(a->getOpcode());
  if (b->getOpcode() == negated && sameExpression(a->getLHS(), b->getLHS(), ast) &&
      sameExpression(a->getRHS(), b->getRHS(), ast))
    return true;
  return b->getOpcode() == clang::BinaryOperator::reverseComparisonOp(negated) &&
         sameExpression(a->getLHS(), b->getRHS(), ast) && sameExpression(a->getRHS(), b->getLHS(), ast);
}

/// The operands of the chain of `op` that `e` heads, through parentheses.
void chainOperands(const clang::Expr* e, clang::BinaryOperatorKind op, std::vector<const clang::Expr*>& out) {
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e->IgnoreParenImpCasts()); b && b->getOpcode() == op) {
    chainOperands(b->getLHS(), op, out);
    chainOperands(b->getRHS(), op, out);
  } else {
    out.push_back(e);
  }
}

/// Whether a chain of `&&` or `||` holds a test on one side of `b` and its
/// negation on the other (every pair of the chain is split at one node).
bool opposesAcross(const clang::BinaryOperator* b, const clang::ASTContext& ast) {
  std::vector<const clang::Expr*> left, right;
  chainOperands(b->getLHS(), b->getOpcode(), left);
  chainOperands(b->getRHS(), b->getOpcode(), right);
  for (const auto* l : left)
    for (const auto* r : right)
      if (opposed(l, r, ast)) return true;
  return false;
}

/// Why a binary operator, or a compound assignment, does no arithmetic:
/// "adds nothing" (`x + 0`, `x * 1`, `x += 0`, `d < c && d < c`, `e - d + d`),
/// "is always 0" (`x * 0`, `x % 1`, `x - x`), a constant from literals
/// (`12 + 6`), or empty when it computes something.
std::string identityOf(const clang::BinaryOperator* b, const clang::ASTContext& ast) {
  // `i[12 + 6 + 14]`: operators between literals count as computation in
  // the AST, yet the compiler folds them into one number; steering wrote
  // such sums and products to reach a count.
  if (literalsOnly(b)) return "computes a constant from literals: one literal would write it";
  // A sampler's or a fence's flags joined: `CLK_NORMALIZED_COORDS_FALSE` is 0,
  // yet it says which flag is meant.
  if (macroConstant(b)) return {};
  // `x + 12 + 6`, `x * 2 * 4`: two literals a step apart, one would do.
  if (const auto* l = llvm::dyn_cast<clang::BinaryOperator>(b->getLHS()->IgnoreParenImpCasts());
      l && literalsOnly(b->getRHS()) && literalsOnly(l->getRHS()) &&
      (((b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub) &&
        (l->getOpcode() == clang::BO_Add || l->getOpcode() == clang::BO_Sub)) ||
       (b->getOpcode() == clang::BO_Mul && l->getOpcode() == clang::BO_Mul)))
    return b->getOpcode() == clang::BO_Mul ? "multiplies by a literal after a literal just multiplied by: one literal would write them"
                                            : "adds a literal to a literal just added: one literal would write them";
  // An operand a chain of && or ||, & or | holds already: the test or the
  // bits are those of the chain without it (the search wrote
  // `if (l >= b || n >= e || n >= e)` for a comparison's count).
  if (const auto op = b->getOpcode(); (op == clang::BO_LAnd || op == clang::BO_LOr || op == clang::BO_And ||
                                       op == clang::BO_Or) && inChain(b->getLHS(), op, b->getRHS(), ast))
    return "repeats an operand it already has: adds nothing";
  // `e - d + d`, `e + d - d`: a term taken away and given back.
  if (b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub)
    if (const auto* l = llvm::dyn_cast<clang::BinaryOperator>(b->getLHS()->IgnoreParenImpCasts());
        l && (l->getOpcode() == clang::BO_Add || l->getOpcode() == clang::BO_Sub) && l->getOpcode() != b->getOpcode() &&
        (sameExpression(l->getRHS(), b->getRHS(), ast) ||
         (l->getOpcode() == clang::BO_Add && sameExpression(l->getLHS(), b->getRHS(), ast))))
      return "takes back a term just given (`e - d + d`): adds nothing";
  using clang::BinaryOperator;
  const auto op = b->isCompoundAssignmentOp() ? BinaryOperator::getOpForCompoundAssignment(b->getOpcode())
                                              : b->getOpcode();
  const int l = b->isCompoundAssignmentOp() ? -1 : zeroOrOne(b->getLHS()), r = zeroOrOne(b->getRHS());
  const bool same = !b->isCompoundAssignmentOp() && sameVariable(b->getLHS(), b->getRHS());
  switch (op) {
  case clang::BO_Add: case clang::BO_Or: case clang::BO_Xor:
    if (l == 0 || r == 0) return "adds nothing";
    if (same && op == clang::BO_Xor) return "is always 0";
    return {};
  case clang::BO_Sub:
    if (r == 0) return "adds nothing";
    if (same) return "is always 0";
    return {};
  case clang::BO_Shl: case clang::BO_Shr:
    if (r == 0) return "adds nothing";
    if (l == 0) return "is always 0";
    return {};
  case clang::BO_Mul:
    if (l == 0 || r == 0) return "is always 0";
    if (l == 1 || r == 1) return "adds nothing";
    return {};
  case clang::BO_Div:
    if (r == 1) return "adds nothing";
    if (l == 0) return "is always 0";
    if (same) return "is always 1";
    return {};
  case clang::BO_Rem:
    if (r == 1 || l == 0 || same) return "is always 0";
    return {};
  case clang::BO_And:
    if (l == 0 || r == 0) return "is always 0";
    return {};
  default:
    return {};
  }
}

/// Which variables a function's body changes anywhere (assigned, stepped,
/// or with their address taken), in one walk.
class VariableChanges : public clang::RecursiveASTVisitor<VariableChanges> {
public:
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->isAssignmentOp()) note(changed, b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->isIncrementDecrementOp() || u->getOpcode() == clang::UO_AddrOf) note(changed, u->getSubExpr());
    return true;
  }
  std::vector<const clang::Decl*> changed;

private:
  static void note(std::vector<const clang::Decl*>& to, const clang::Expr* e) {
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts())) to.push_back(r->getDecl());
  }
};

class Walk : public clang::RecursiveASTVisitor<Walk> {
public:
  Walk(clang::ASTContext& ast, const AstRules& on, std::vector<Diagnostic>& out)
      : ast_(&ast), sm_(ast.getSourceManager()), on_(on), out_(out) {}

  bool VisitFunctionDecl(clang::FunctionDecl* f) {
    variables_ = {};
    if ((on_.rewinds || on_.tautologies || on_.localIndices || on_.identities) && f->doesThisDeclarationHaveABody())
      variables_.TraverseStmt(f->getBody());
    if (on_.overwrites)
      for (const auto& d : deadValues(*f, *ast_))
        report(location(d.at), kOverwrittenValue,
               (d.declaration ? "the initial value of '" + d.variable + "'" : "the value assigned to '" + d.variable + "'") +
                   " is never read: it is assigned again first, or nothing after reads it; its computation does nothing");
    if (on_.arrays && f->doesThisDeclarationHaveABody())
      for (const auto& r : readsBeforeWrites(*f))
        report(r.at->getExprLoc(), kUninitializedArray,
               std::string(r.local ? "local buffer '" : "array '") + r.array +
                   "' is read before anything was written to it: its elements are undefined");
    if (on_.uniforms && f->doesThisDeclarationHaveABody() && f->hasAttr<clang::OpenCLKernelAttr>())
      for (const auto& u : uniformStores(*f))
        report(u.at->getExprLoc(), kUniformStore,
               std::string(u.local ? "every work-item of a group" : "every work-item") +
                   " writes the same element of " +
                   (u.buffer.empty() ? std::string(u.local ? "a local buffer" : "a global buffer")
                                     : "buffer '" + u.buffer + "'") +
                   (u.firstTurn.empty()
                        ? ": the index does not depend on the work-item, and no test of the work-item guards the store"
                        : " in the first turn of the loop over '" + u.firstTurn +
                              "', which starts at 0: the index depends on the work-item only through a product with it"));
    if (on_.overwrittenStores)
      for (const auto& o : overwrittenStores(*f, *ast_))
        report(o.at->getOperatorLoc(), kOverwrittenStore,
               "the value stored to an element of '" + o.buffer +
                   "' is stored over before anything reads it: its computation does nothing");
    if (on_.quadratics && f->doesThisDeclarationHaveABody())
      for (const auto& q : quadraticIndices(*f))
        report(q.at->getIdx()->getBeginLoc(), kQuadraticIndex,
               "the subscript of " + (q.buffer.empty() ? std::string("a buffer") : "'" + q.buffer + "'") +
                   " multiplies two values computed from the work-item's id: it grows with the square of the "
                   "work-items, past buffers sized by them");
    if ((on_.races || on_.rewinds) && f->doesThisDeclarationHaveABody() && f->hasAttr<clang::OpenCLKernelAttr>()) {
      const SubscriptForms forms(*f, *ast_);
      if (on_.races)
        for (const auto& r : crossItemRaces(forms))
          report(r.at->getExprLoc(), kCrossItemRace,
                 std::string(r.store ? "a store to" : "a read of") + " an element of '" + r.buffer +
                     "' that another work-item stores: nothing orders the two, so the result depends on the order "
                     "the work-items run in");
      if (on_.rewinds)
        for (const auto& n : negativeIndices(forms))
          report(n.at->getExprLoc(), kBufferRewind,
                 "work-item 0 takes element " + std::to_string(n.lowest) + " of buffer '" + n.buffer +
                     "', before the start the host passed, and nothing keeps it from the subscript");
    }
    return true;
  }

  /// `b[x < g]`: a subscript that is a comparison's 0 or 1 reads one of two
  /// fixed elements; no kernel of the corpus indexes so, the search does to
  /// add a comparison's count.
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* a) {
    if (on_.indices && isTruthValue(a->getIdx()->IgnoreParenImpCasts()))
      report(a->getIdx()->getBeginLoc(), kTruthIndex,
             "a subscript that is a comparison's 0 or 1: it reads one of two fixed elements");
    // `b[-2]` of a buffer, or of a pointer set to one, that nothing moves:
    // an element before the start the host passed.
    if (on_.rewinds)
      if (const auto* p = unmovedBuffer(a->getBase()); p && !a->getIdx()->isValueDependent()) {
        clang::Expr::EvalResult r;
        if (a->getIdx()->EvaluateAsInt(r, *ast_) && r.Val.getInt().isNegative())
          report(a->getIdx()->getBeginLoc(), kBufferRewind,
                 "subscript " + std::to_string(r.Val.getInt().getExtValue()) + " reads before the start of buffer '" +
                     p->getNameAsString() + "' the host passed");
      }
    if (on_.localIndices && pointsInto(a->getBase(), clang::LangAS::opencl_local) && growsWithGlobalId(a->getIdx()))
      report(a->getIdx()->getBeginLoc(), kLocalGlobalIndex,
             "a subscript of local memory that grows with the global id: local memory holds one work-group's "
             "share, so the work-items of every group but the first reach past its end");
    // `e[d]` is `d[e]` in C; no kernel of the corpus writes it, the search
    // does when an infill puts an index before the brackets.
    if (on_.reversed && a->getLHS() != a->getBase())
      report(a->getBeginLoc(), kReversedSubscript, "a subscript written index first (`i[p]` for `p[i]`)");
    // `w[v]` on a float4 and v a work-item's id: the search's, and it reads
    // whatever lies beside w (nondeterministic outputs).
    if (on_.vectors)
      if (const auto* vt = a->getBase()->IgnoreParenImpCasts()->getType()->getAs<clang::VectorType>()) {
        clang::Expr::EvalResult r;
        const auto* idx = a->getIdx();
        const bool inside = !idx->isValueDependent() && idx->EvaluateAsInt(r, *ast_) &&
                            r.Val.getInt().isNonNegative() && r.Val.getInt().getLimitedValue() < vt->getNumElements();
        if (!inside)
          report(idx->getBeginLoc(), kVectorSubscript,
                 "an element of a " + std::to_string(vt->getNumElements()) +
                     "-element vector chosen by a subscript that is not a constant within it");
      }
    return true;
  }
  /// A statement that computes a value nothing uses and does nothing else.
  /// Clang warns of most (unused-value), but not of one a macro wrote:
  /// `(CLK_LOCAL_MEM_FENCE);`, which the search made of `barrier(...)`.
  bool VisitCompoundStmt(clang::CompoundStmt* s) {
    if (!on_.statements) return true;
    for (clang::Stmt* child : s->body()) {
      const auto* e = llvm::dyn_cast<clang::Expr>(child);
      if (!e || e->isValueDependent() || e->HasSideEffects(*ast_)) continue;
      if (const auto* cast = llvm::dyn_cast<clang::CStyleCastExpr>(e->IgnoreParens());
          cast && cast->getType()->isVoidType())
        continue; // `(void)x;` says the value is unused on purpose
      report(e->getBeginLoc(), kUnusedStatement, "a statement whose value nothing uses, and that does nothing else");
    }
    return true;
  }
  /// `get_global_size(j >= g)`: a dimension computed from a comparison.
  /// `get_global_id(2 * c)`: a dimension computed from a kernel argument or
  /// a variable, where kernels name the dimension they mean (0, 1 or 2).
  bool VisitCallExpr(clang::CallExpr* c) {
    // `barrier(l)`: the flags say which memory the fence orders; kernels
    // name them (CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE).
    if (on_.barriers && c->getNumArgs() == 1 && isFence(c->getDirectCallee()) && !constant(c->getArg(0)))
      report(c->getArg(0)->getBeginLoc(), kBarrierFlags,
             "the flags of '" + c->getDirectCallee()->getName().str() + "' are not a constant (CLK_LOCAL_MEM_FENCE, "
             "CLK_GLOBAL_MEM_FENCE)");
    if (c->getNumArgs() != 1 || !takesDimension(c->getDirectCallee())) return true;
    const auto name = c->getDirectCallee()->getName().str();
    if (on_.indices && holdsTruthValue(c->getArg(0)))
      report(c->getArg(0)->getBeginLoc(), kTruthIndex, "the work-item dimension of '" + name + "' is computed from a comparison");
    else if (on_.dimensions && !constant(c->getArg(0)))
      report(c->getArg(0)->getBeginLoc(), kWorkItemDimension,
             "the work-item dimension of '" + name + "' is not a constant: it depends on the kernel's arguments");
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    // `x / (i < n)`: a division by 0 or by 1; `(i < n) / 2`: a 0 or 1
    // divided, 0 for any divisor above 1.
    const bool divides = b->getOpcode() == clang::BO_Div || b->getOpcode() == clang::BO_Rem ||
                         b->getOpcode() == clang::BO_DivAssign || b->getOpcode() == clang::BO_RemAssign;
    if (on_.indices && divides && isTruthValue(b->getRHS()->IgnoreParenImpCasts()))
      report(b->getOperatorLoc(), kTruthIndex,
             "'" + b->getOpcodeStr().str() + "' divides by a comparison's 0 or 1: by zero, or by nothing");
    else if (on_.indices && divides && !b->isCompoundAssignmentOp() && isTruthValue(b->getLHS()->IgnoreParenImpCasts()))
      report(b->getOperatorLoc(), kTruthIndex,
             "'" + b->getOpcodeStr().str() + "' divides a comparison's 0 or 1: 0 for any divisor above 1");
    // `a[i] = a[i]`: Clang's -Wself-assign sees `x = x` of variables only.
    if (on_.tautologies && b->getOpcode() == clang::BO_Assign) {
      const auto* target = b->getLHS()->IgnoreParens();
      const auto* deref = llvm::dyn_cast<clang::UnaryOperator>(target);
      if ((llvm::isa<clang::ArraySubscriptExpr>(target) || (deref && deref->getOpcode() == clang::UO_Deref)) &&
          sameExpression(b->getLHS(), b->getRHS(), *ast_))
        report(b->getOperatorLoc(), kSelfStore, "the element is stored with its own value: the load and the store do nothing");
      // `a[e] = a[e] = x`, `v = v += x`: the inner assignment stored the
      // value already; the outer store repeats it (steering chained them
      // for the stores' counts).
      else if (const auto* inner = llvm::dyn_cast<clang::BinaryOperator>(b->getRHS()->IgnoreParenImpCasts());
               inner && inner->isAssignmentOp() && sameExpression(b->getLHS(), inner->getLHS(), *ast_))
        report(b->getOperatorLoc(), kSelfStore, "stores again the value its own right side just stored there: the outer store does nothing");
      // `d[j] = d[k] = d[j]`: the inner store's value is the outer target's
      // own, so the outer store writes back what it holds.
      else if (inner && inner->getOpcode() == clang::BO_Assign && sameExpression(b->getLHS(), inner->getRHS(), *ast_))
        report(b->getOperatorLoc(), kSelfStore, "stores the element's own value back through another store: the outer store does nothing");
    }
    // `f < d && f >= d`: never true; `f < d || d <= f`: always. Clang's
    // overlap check compares with numbers only.
    // `k == n` for k = get_local_id(1), n = get_local_size(1): a work-item's
    // place in its group is below the group's size, so the test's answer is
    // known (steering wrote such a test around a reduction's step).
    if (on_.tautologies && b->isComparisonOp()) {
      idBelowSize(b);
      sizeAgainstZero(b);
    }
    if (on_.tautologies && b->isLogicalOp() && opposesAcross(b, *ast_))
      report(b->getOperatorLoc(), kOpposedTests,
             "'" + b->getOpcodeStr().str() + "' joins a test and its negation: the chain is always " +
                 (b->getOpcode() == clang::BO_LAnd ? "false" : "true"));
    if (on_.identities) {
      if (const auto why = identityOf(b, *ast_); !why.empty())
        report(b->getOperatorLoc(), kIdentityArithmetic, "'" + b->getOpcodeStr().str() + "' " + why);
      else if (const auto held = heldIdentity(b); !held.empty())
        report(b->getOperatorLoc(), kIdentityArithmetic, "'" + b->getOpcodeStr().str() + "' " + held);
    }
    // `b -= 2 * e`, `b = b - e`: the buffer's start moved before its first
    // element, so the kernel's reads of b fall outside what the host passed.
    if (on_.rewinds) {
      const auto* p = kernelBuffer(b->getLHS());
      bool back = p && b->getOpcode() == clang::BO_SubAssign;
      if (p && b->getOpcode() == clang::BO_Assign)
        if (const auto* r = llvm::dyn_cast<clang::BinaryOperator>(b->getRHS()->IgnoreParenImpCasts()))
          back = r->getOpcode() == clang::BO_Sub && kernelBuffer(r->getLHS()) == p;
      if (back) rewound(*p, b->getOperatorLoc());
      // `c = 0;`: what the kernel reads or writes through c after it is
      // nothing the host passed.
      if (p && b->getOpcode() == clang::BO_Assign &&
          b->getRHS()->isNullPointerConstant(*ast_, clang::Expr::NPC_ValueDependentIsNotNull))
        report(b->getOperatorLoc(), kBufferRewind,
               "buffer '" + p->getNameAsString() + "' replaced by a null pointer: nothing it reaches after is the host's");
    }
    if (on_.chained && b->isComparisonOp())
      for (const clang::Expr* side : {b->getLHS(), b->getRHS()}) {
        // `a < b >= c` and `(a < b) >= c` order a 0 or 1 against a value:
        // never what a kernel means. `(a < 0) == (b < 0)` (two signs alike)
        // is real code; only an equality written without the parentheses is
        // taken for a chain.
        const clang::Expr* inner = b->isRelationalOp() ? side->IgnoreParenImpCasts() : side->IgnoreImpCasts();
        if (isTruthValue(inner)) {
          report(b->getOperatorLoc(), kChainedComparison,
                 "'" + b->getOpcodeStr().str() + "' compares the 0 or 1 of another comparison (`a < b >= c` is "
                 "`(a < b) >= c`)");
          break;
        }
      }
    if (b->isLogicalOp()) {
      truth(b->getLHS());
      truth(b->getRHS());
    }
    // `p != 0`, `p == NULL`: the same test spelled out (for a pointer p;
    // `x != 0` is a comparison).
    if (on_.pointers && b->isEqualityOp())
      for (auto [p, other] : {std::pair(b->getLHS(), b->getRHS()), std::pair(b->getRHS(), b->getLHS())})
        if (other->isNullPointerConstant(*ast_, clang::Expr::NPC_ValueDependentIsNotNull) &&
            !p->isNullPointerConstant(*ast_, clang::Expr::NPC_ValueDependentIsNotNull)) {
          if (!p->IgnoreParenImpCasts()->getType()->isArithmeticType()) truth(p);
          break;
        }
    // `f < g`, `e = (f < g)`, `f >= 0`, `g > h - 1` for buffers f, g and h
    // (or pointers set to them and never moved): where the host put two
    // buffers, or a buffer against a number, is fixed when the kernel runs
    // and says nothing of the data; `e >= c` with `e = c` always answers
    // alike. The search compared them for a comparison's count.
    if (on_.pointers && b->isComparisonOp()) bufferAddresses(b);
    return true;
  }
  /// A comparison of a buffer's address with another buffer's, with its own
  /// or with a number.
  void bufferAddresses(const clang::BinaryOperator* b) {
    bool lMoved = false, rMoved = false;
    const clang::Expr* l = b->getLHS()->IgnoreParenImpCasts();
    const clang::Expr* r = b->getRHS()->IgnoreParenImpCasts();
    const auto* lp = addressOf(l, lMoved);
    const auto* rp = addressOf(r, rMoved);
    const std::string op = "'" + b->getOpcodeStr().str() + "'";
    if (lp && rp && lp != rp)
      report(b->getOperatorLoc(), kPointerCondition,
             op + " compares where the host put buffers '" + lp->getNameAsString() + "' and '" +
                 rp->getNameAsString() + "': fixed when the kernel runs, nothing of the data");
    else if (lp && lp == rp && !lMoved && !rMoved)
      report(b->getOperatorLoc(), kPointerCondition,
             op + " compares buffer '" + lp->getNameAsString() + "' with itself: always the same answer");
    else if (b->isRelationalOp() && (lp || rp) && (lp ? r : l)->getType()->isIntegerType())
      report(b->getOperatorLoc(), kPointerCondition,
             op + " compares the address of buffer '" + (lp ? lp : rp)->getNameAsString() +
                 "' with a number: fixed when the kernel runs, nothing of the data");
  }
  /// The kernel buffer a pointer expression points into (`f`, `f - 1`, `f + n`
  /// for f a buffer or a pointer set to one, never moved), or null; `moved`
  /// tells whether a number was added or taken away.
  [[nodiscard]] const clang::ParmVarDecl* addressOf(const clang::Expr* e, bool& moved, int depth = 0) const {
    e = e->IgnoreParenImpCasts();
    if (!e->getType()->isPointerType() || depth > 8) return nullptr;
    if (const auto* a = llvm::dyn_cast<clang::BinaryOperator>(e);
        a && (a->getOpcode() == clang::BO_Add || a->getOpcode() == clang::BO_Sub) &&
        a->getLHS()->getType()->isPointerType() && a->getRHS()->getType()->isIntegerType()) {
      moved = true;
      return addressOf(a->getLHS(), moved, depth + 1);
    }
    return unmovedBuffer(e);
  }
  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->getOpcode() == clang::UO_LNot) truth(u->getSubExpr());
    if (on_.rewinds && u->isDecrementOp())
      if (const auto* p = kernelBuffer(u->getSubExpr())) rewound(*p, u->getOperatorLoc());
    return true;
  }
  bool VisitIfStmt(clang::IfStmt* s) {
    truth(s->getCond());
    return true;
  }
  bool VisitWhileStmt(clang::WhileStmt* s) {
    truth(s->getCond());
    endless(s->getCond(), s->getBody(), s->getWhileLoc());
    forever(s->getCond(), s->getBody(), s->getWhileLoc());
    wrongWay(s->getCond(), s->getBody(), nullptr);
    return true;
  }
  bool VisitDoStmt(clang::DoStmt* s) {
    truth(s->getCond());
    endless(s->getCond(), s->getBody(), s->getWhileLoc());
    forever(s->getCond(), s->getBody(), s->getWhileLoc());
    wrongWay(s->getCond(), s->getBody(), nullptr);
    return true;
  }
  bool VisitForStmt(clang::ForStmt* s) {
    truth(s->getCond());
    if (on_.loops && s->getCond()) {
      ConditionReads reads;
      reads.TraverseStmt(s->getCond());
      idleStep(s, reads);
      truthCounter(s, reads);
    }
    floatingBound(s);
    if (on_.statements && s->getInc()) idleStepOperands(s->getInc());
    forever(s->getCond(), s->getBody(), s->getForLoc());
    wrongWay(s->getCond(), s->getBody(), s->getInc());
    return true;
  }
  bool VisitAbstractConditionalOperator(clang::AbstractConditionalOperator* c) { // `c ? a : b` and `c ?: b`
    truth(c->getCond());
    return true;
  }

private:
  /// `for (...; ...; ++d, 0)`: an operand of the step's commas that does
  /// nothing. The step's value is never used, and Clang's comma and
  /// unused-value warnings are silent on a loop's step.
  void idleStepOperands(const clang::Expr* e) {
    e = e->IgnoreParens();
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->getOpcode() == clang::BO_Comma) {
      idleStepOperands(b->getLHS());
      idleStepOperands(b->getRHS());
      return;
    }
    if (!e->isValueDependent() && !e->HasSideEffects(*ast_))
      report(e->getBeginLoc(), kUnusedStatement, "an operand of the loop's step that does nothing");
  }
  /// Clang's -Wfor-loop-analysis for while and do loops: a condition on
  /// local scalars alone that nothing in the loop changes, with no way out
  /// of the body, never ends once entered (`while (e < c) { ... }` with e
  /// never written: one run's 185 exact candidates all hung so).
  void endless(const clang::Expr* cond, const clang::Stmt* body, clang::SourceLocation at) {
    if (!on_.loops || !cond || !body) return;
    ConditionReads reads;
    reads.TraverseStmt(const_cast<clang::Expr*>(cond));
    if (reads.opaque || reads.vars.empty()) return;
    ChangesOrLeaves inside(reads.vars);
    inside.TraverseStmt(const_cast<clang::Stmt*>(body));
    if (!inside.found) inside.TraverseStmt(const_cast<clang::Expr*>(cond));
    if (inside.found) return;
    const auto names = quoted(reads.vars);
    report(at, kWhileLoopAnalysis,
           "variable(s) " + names + " used in the loop condition are not modified in the loop body, "
           "and nothing leaves it: once entered, it never ends");
  }

  /// A loop whose counter moves away from where its condition would end it,
  /// with a bound nothing in the loop changes and no way out: `while (e > n)`
  /// or `>=` while e only grows, `<` or `<=` while it only falls, and an
  /// unsigned counter that only grows tested `!= 0` (it comes back to 0 only
  /// by wrapping round). Once entered, it never ends. The search made such
  /// loops of `while (e < n) { ...; e += get_global_size(0); }`: every exact
  /// match of one run hung on `while (e != 0.0f)`.
  void wrongWay(const clang::Expr* cond, const clang::Stmt* body, const clang::Expr* step) {
    if (!on_.loops || !cond || !body || cond->isValueDependent()) return;
    const auto* b = llvm::dyn_cast<clang::BinaryOperator>(cond->IgnoreParenImpCasts());
    if (!b || !b->isComparisonOp() || b->getOpcode() == clang::BO_EQ) return;
    for (const bool counterLeft : {true, false}) {
      const clang::Expr* counter = counterLeft ? b->getLHS() : b->getRHS();
      const clang::Expr* bound = counterLeft ? b->getRHS() : b->getLHS();
      const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(counter->IgnoreParenImpCasts());
      const auto* v = r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
      if (!v || !v->hasLocalStorage() || !v->getType()->isIntegerType() || v->getType().isVolatileQualified())
        continue;
      ConditionReads reads;
      reads.TraverseStmt(const_cast<clang::Expr*>(bound));
      // A bound with a call or a read of memory (`e != fabs(f)`) may change
      // in the loop: only a plain one can exempt a unit step.
      if (b->getOpcode() == clang::BO_NE && bound->IgnoreParenImpCasts()->getType()->isRealFloatingType() &&
          !mentions(bound, v) && !(!reads.opaque && unitStepToFixedBound(v, reads.vars, body, step)) &&
          oneWayWithoutExit(v, body, step, cond)) {
        report(b->getOperatorLoc(), kWhileLoopAnalysis,
               "the loop's integer counter '" + v->getNameAsString() +
                   "' moves one way and the loop runs until it equals a floating value, which it may step over or "
                   "never meet: it may never end");
        return;
      }
      if (reads.opaque || std::find(reads.vars.begin(), reads.vars.end(), v) != reads.vars.end()) continue;
      ChangesOrLeaves inside(reads.vars); // the bound changes, or a way out
      inside.TraverseStmt(const_cast<clang::Stmt*>(body));
      if (step && !inside.found) inside.TraverseStmt(const_cast<clang::Expr*>(step));
      if (inside.found) continue;
      const auto motion = motionOf(v, body, step, cond);
      const auto op = counterLeft ? b->getOpcode() : clang::BinaryOperator::reverseComparisonOp(b->getOpcode());
      const std::string name = "'" + v->getNameAsString() + "'";
      using Motion = CounterMotion::Motion;
      if (motion == Motion::Grows && (op == clang::BO_GT || op == clang::BO_GE))
        report(b->getOperatorLoc(), kWhileLoopAnalysis,
               "the loop's counter " + name + " only grows and the loop runs while it is above its bound: once "
               "entered, it never ends");
      else if (motion == Motion::Falls && (op == clang::BO_LT || op == clang::BO_LE))
        report(b->getOperatorLoc(), kWhileLoopAnalysis,
               "the loop's counter " + name + " only falls and the loop runs while it is below its bound: once "
               "entered, it never ends");
      else if (motion == Motion::Grows && op == clang::BO_NE && v->getType()->isUnsignedIntegerType() &&
               zeroOrOne(bound) == 0)
        report(b->getOperatorLoc(), kWhileLoopAnalysis,
               "the loop's unsigned counter " + name + " only grows and the loop runs until it is 0: once entered, "
               "it never ends");
      else
        continue;
      return;
    }
  }

  /// A `break`, `return` or `goto` in the loop's body.
  static bool hasWayOut(const clang::Stmt* body) {
    const std::vector<const clang::VarDecl*> none; // only a way out counts
    ChangesOrLeaves out(none);
    out.TraverseStmt(const_cast<clang::Stmt*>(body));
    return out.found;
  }

  /// How the loop's body, step and condition move the counter `v`.
  CounterMotion::Motion motionOf(const clang::VarDecl* v, const clang::Stmt* body, const clang::Expr* step,
                                 const clang::Expr* cond) const {
    CounterMotion moves(v, *ast_);
    moves.TraverseStmt(const_cast<clang::Stmt*>(body));
    if (step) moves.TraverseStmt(const_cast<clang::Expr*>(step));
    moves.TraverseStmt(const_cast<clang::Expr*>(cond));
    return moves.motion;
  }

  /// The counter `v` only grows or only falls, and nothing in the body
  /// leaves the loop, whatever else the condition reads and the body
  /// changes: an integer counter tested `!=` against a floating value ends
  /// only if it meets it exactly (the search made `while (e != -f)` of
  /// `while (e < n)`, with `f = fmin(f, ...)` in the body and `e +=
  /// get_global_size(0)`; every near miss of one run hung so).
  bool oneWayWithoutExit(const clang::VarDecl* v, const clang::Stmt* body, const clang::Expr* step,
                         const clang::Expr* cond) const {
    if (hasWayOut(body)) return false;
    const auto motion = motionOf(v, body, step, cond);
    return motion == CounterMotion::Motion::Grows || motion == CounterMotion::Motion::Falls;
  }

  /// `e` reads the variable `v` anywhere, calls and subscripts included.
  static bool mentions(const clang::Stmt* e, const clang::VarDecl* v) {
    if (!e) return false;
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e); r && r->getDecl() == v) return true;
    for (const auto* child : e->children())
      if (mentions(child, v)) return true;
    return false;
  }

  /// A for loop's step moves `v` by one (`++v`, `v--`), nothing else in the
  /// loop changes it, and nothing changes the variables of its bound: such
  /// a counter meets a fixed whole number (`i != fcount` for a float holding
  /// a count), so the loop may well end.
  bool unitStepToFixedBound(const clang::VarDecl* v, const std::vector<const clang::VarDecl*>& bound,
                            const clang::Stmt* body, const clang::Expr* step) const {
    const auto* u = step ? llvm::dyn_cast<clang::UnaryOperator>(step->IgnoreParens()) : nullptr;
    const auto* r = u && u->isIncrementDecrementOp() ? llvm::dyn_cast<clang::DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts())
                                                     : nullptr;
    if (!r || r->getDecl() != v) return false;
    std::vector<const clang::VarDecl*> counterAndBound = bound;
    counterAndBound.push_back(v);
    ChangesOrLeaves inside(counterAndBound); // a change of the bound or of the counter in the body
    inside.TraverseStmt(const_cast<clang::Stmt*>(body));
    return !inside.found;
  }

  /// A loop with no condition, or one that is always true (`for (i = 0;;
  /// ++i)`, `while (1)`), and no break, return or goto inside: it never
  /// ends. The search made such a loop of `for (i = 0; i < n; ++i)`.
  void forever(const clang::Expr* cond, const clang::Stmt* body, clang::SourceLocation at) {
    if (!on_.loops || !body) return;
    if (cond) {
      if (cond->isValueDependent()) return;
      clang::Expr::EvalResult r;
      if (!cond->EvaluateAsInt(r, *ast_) || r.Val.getInt().isZero()) return;
    }
    if (hasWayOut(body)) return;
    report(at, kWhileLoopAnalysis,
           std::string(cond ? "the loop's condition is always true" : "the loop has no condition") +
               ", and nothing leaves it: it never ends");
  }

  /// A for loop whose step changes none of the local scalars its
  /// condition reads (`for (m = 0; m < l; b++)`): Clang warns only when the
  /// body changes none of them either, and the search made loops that the
  /// body's `l += ...` kept quiet while m never moved.
  /// `for (c = 0; c < 6; c++) { ... c = f < -h; ... }`: the body sets a
  /// variable the condition reads to a comparison's 0 or 1, so the loop
  /// starts over from 0 or 1 (the exact matches of one run hung so, every
  /// one of them).
  void truthCounter(const clang::ForStmt* s, const ConditionReads& reads) {
    if (!s->getBody() || reads.vars.empty()) return;
    TruthAssignment set(reads.vars);
    set.TraverseStmt(const_cast<clang::Stmt*>(s->getBody()));
    if (!set.found) return;
    const auto* v = llvm::cast<clang::DeclRefExpr>(set.found->getLHS()->IgnoreParenImpCasts())->getDecl();
    report(set.found->getOperatorLoc(), kWhileLoopAnalysis,
           "the loop's variable '" + v->getNameAsString() + "' is set to a comparison's 0 or 1 in its body: the "
           "loop starts over");
  }
  /// `for (int l = 0; l <= d / i; l++)` with d / i a float: the integer
  /// counter is compared with a floating division, an infinity or a NaN
  /// when it divides by 0 (i, a work-item's id, is 0 for the first), and
  /// then the loop never ends, or ends at once (every exact match of one
  /// run hung so). A floating bound with no division (`k < n + s`) is kept.
  void floatingBound(const clang::ForStmt* s) {
    if (!on_.loops || !s->getInc()) return;
    const auto* b = llvm::dyn_cast_or_null<clang::BinaryOperator>(s->getCond() ? s->getCond()->IgnoreParens() : nullptr);
    if (!b || !b->isRelationalOp()) return;
    for (auto [counter, bound] : {std::pair(b->getLHS(), b->getRHS()), std::pair(b->getRHS(), b->getLHS())}) {
      const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(counter->IgnoreParenImpCasts());
      const auto* v = r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
      if (!v || !v->getType()->isIntegerType() || !bound->IgnoreParenImpCasts()->getType()->isRealFloatingType() ||
          !floatingDivision(bound))
        continue;
      const std::vector<const clang::VarDecl*> vars{v};
      ChangesOrLeaves step(vars);
      step.TraverseStmt(const_cast<clang::Expr*>(s->getInc()));
      if (!step.found) continue;
      report(b->getOperatorLoc(), kWhileLoopAnalysis,
             "the loop's integer counter '" + v->getNameAsString() +
                 "' is compared with a floating division (an infinity or a NaN when it divides by 0, and the "
                 "loop never ends, or ends at once)");
      return;
    }
  }
  /// A floating `/` in `e` (not inside a call).
  static bool floatingDivision(const clang::Stmt* e) {
    if (!e || llvm::isa<clang::CallExpr>(e)) return false;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e);
        b && b->getOpcode() == clang::BO_Div && b->getType()->isRealFloatingType())
      return true;
    for (const clang::Stmt* c : e->children())
      if (floatingDivision(c)) return true;
    return false;
  }
  /// (`reads`: what the loop's condition reads.)
  void idleStep(const clang::ForStmt* s, const ConditionReads& reads) {
    if (!s->getInc() || reads.opaque || reads.vars.empty()) return;
    ChangesOrLeaves step(reads.vars);
    step.TraverseStmt(const_cast<clang::Expr*>(s->getInc()));
    if (step.found) return;
    const auto names = quoted(reads.vars);
    report(s->getInc()->getBeginLoc(), kWhileLoopAnalysis,
           "the loop's step changes none of the variables its condition reads (" + names + ")");
  }

  /// An operand tested as a truth value (a condition, an operand of && or
  /// ||, of !). A pointer: a kernel's buffers are never null when it runs,
  /// so the test is constant, and a search uses it to add counts or to
  /// return before the work. A number: see kNumberCondition.
  void truth(const clang::Expr* e) {
    if (!e) return;
    const clang::Expr* x = e->IgnoreParenImpCasts();
    if (x->getType()->isPointerType() || x->getType()->isArrayType()) { // an array decays to its address
      if (!on_.pointers) return;
      std::string what = "a pointer";
      if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(x)) what = "pointer '" + ref->getDecl()->getNameAsString() + "'";
      report(x->getBeginLoc(), kPointerCondition,
             what + " tested as a truth value: never null when the kernel runs (the driver passes every buffer)");
    } else if (on_.numbers && numberTested(x)) {
      std::string what = "a number";
      if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(x)) what = "'" + ref->getDecl()->getNameAsString() + "'";
      report(x->getBeginLoc(), kNumberCondition, what + " tested as a truth value, where a comparison would say what is meant");
    }
  }

  /// A number where a truth value is read, other than the forms that are
  /// one already or say a test plainly: a comparison or logical operator,
  /// `!`, a call (`isnan(x)`, `any(v)`), a bit test (`x & 1`), a literal
  /// (the tautology rule's), a bool.
  static bool numberTested(const clang::Expr* x) {
    if (!x->getType()->isArithmeticType() || x->getType()->isBooleanType()) return false;
    if (isTruthValue(x) || llvm::isa<clang::CallExpr>(x) || llvm::isa<clang::IntegerLiteral>(x) ||
        llvm::isa<clang::FloatingLiteral>(x) || llvm::isa<clang::CharacterLiteral>(x))
      return false;
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(x); u && u->getOpcode() == clang::UO_LNot) return false;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(x); b && b->getOpcode() == clang::BO_And) return false;
    return true;
  }

  /// An integer constant expression (or one a template would decide).
  [[nodiscard]] bool constant(const clang::Expr* e) const {
    return e->isValueDependent() || e->isIntegerConstantExpr(*ast_);
  }

  /// The kernel's buffer argument `e` names, directly or through a local
  /// pointer set to it when declared, where the function changes neither;
  /// else null.
  [[nodiscard]] const clang::ParmVarDecl* unmovedBuffer(const clang::Expr* e, int depth = 0) const {
    const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenCasts());
    if (!r || depth > 8 || changed(r->getDecl())) return nullptr;
    if (const auto* p = kernelBuffer(r)) return p;
    const auto* init = r->getDecl()->getType()->isPointerType() ? declaredValue(r) : nullptr;
    return init ? unmovedBuffer(init, depth + 1) : nullptr;
  }

  /// Whether the function being walked changes `d` after its declaration.
  [[nodiscard]] bool changed(const clang::Decl* d) const {
    return std::find(variables_.changed.begin(), variables_.changed.end(), d) != variables_.changed.end();
  }

  /// The value a local variable (not a parameter) named by `r` was set to
  /// when declared, when the function never changes it; else null.
  [[nodiscard]] const clang::Expr* declaredValue(const clang::DeclRefExpr* r) const {
    const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl());
    if (!v || llvm::isa<clang::ParmVarDecl>(v) || !v->hasLocalStorage() || changed(v)) return nullptr;
    return v->getInit();
  }

  /// The call of a work-item function with a constant dimension that `e`
  /// reads: the call itself, or a local variable set to one when declared
  /// and never changed; else null.
  [[nodiscard]] const clang::CallExpr* workItemCall(const clang::Expr* e, int depth = 0) const {
    e = e->IgnoreParenImpCasts();
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e))
      return c->getDirectCallee() && c->getNumArgs() == 1 && !c->getArg(0)->isValueDependent() &&
                     c->getArg(0)->isIntegerConstantExpr(*ast_)
                 ? c
                 : nullptr;
    const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e);
    const auto* init = r && depth <= 8 ? declaredValue(r) : nullptr;
    return init ? workItemCall(init, depth + 1) : nullptr;
  }

  /// `e` is c * get_global_id(d) + u, c a positive constant and u free of
  /// ids (constants, arguments, the NDRange's sizes), directly or through
  /// local variables set once when declared: it grows with the global id.
  [[nodiscard]] bool growsWithGlobalId(const clang::Expr* e, int depth = 0) const {
    if (depth > 8) return false;
    e = e->IgnoreParenImpCasts();
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e)) {
      const auto* f = c->getDirectCallee();
      return f && (f->getName() == "get_global_id" || f->getName() == "get_global_linear_id");
    }
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      const auto* init = declaredValue(r);
      return init && growsWithGlobalId(init, depth + 1);
    }
    const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e);
    if (!b) return false;
    switch (b->getOpcode()) {
    case clang::BO_Add:
      return (growsWithGlobalId(b->getLHS(), depth + 1) && idFree(b->getRHS())) ||
             (growsWithGlobalId(b->getRHS(), depth + 1) && idFree(b->getLHS()));
    case clang::BO_Sub:
      return growsWithGlobalId(b->getLHS(), depth + 1) && idFree(b->getRHS());
    case clang::BO_Mul:
      return (growsWithGlobalId(b->getLHS(), depth + 1) && positiveConstant(b->getRHS())) ||
             (growsWithGlobalId(b->getRHS(), depth + 1) && positiveConstant(b->getLHS()));
    case clang::BO_Shl:
      return growsWithGlobalId(b->getLHS(), depth + 1) && b->getRHS()->isIntegerConstantExpr(*ast_);
    default:
      return false;
    }
  }

  /// The same in every work-item, as far as a reading of `e` alone shows:
  /// constants, the kernel's unchanged scalar arguments, the NDRange's
  /// sizes and counts, and sums, differences and products of them.
  [[nodiscard]] bool idFree(const clang::Expr* e) const {
    e = e->IgnoreParenImpCasts();
    if (!e->isValueDependent() && e->isIntegerConstantExpr(*ast_)) return true;
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e))
      return llvm::isa<clang::ParmVarDecl>(r->getDecl()) && !changed(r->getDecl()) &&
             !r->getDecl()->getType()->isPointerType();
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e))
      return c->getDirectCallee() && isWorkItemFunction(c->getDirectCallee()) && !isWorkItemId(c->getDirectCallee());
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e))
      return (b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub || b->getOpcode() == clang::BO_Mul) &&
             idFree(b->getLHS()) && idFree(b->getRHS());
    return false;
  }

  [[nodiscard]] bool positiveConstant(const clang::Expr* e) const {
    if (e->isValueDependent()) return false;
    const auto v = e->getIntegerConstantExpr(*ast_);
    return v && v->isStrictlyPositive();
  }

  /// A comparison of a work-item's local id with its group's size, or of a
  /// group's id with the number of groups, in one dimension: the id is
  /// always below (the global id is not judged: a launch's offset moves it).
  void idBelowSize(const clang::BinaryOperator* b) {
    const auto* l = workItemCall(b->getLHS());
    const auto* r = workItemCall(b->getRHS());
    if (!l || !r) return;
    auto op = b->getOpcode();
    if (l->getDirectCallee()->getName().endswith("_size") || l->getDirectCallee()->getName() == "get_num_groups") {
      std::swap(l, r);
      op = clang::BinaryOperator::reverseComparisonOp(op);
    }
    const auto id = l->getDirectCallee()->getName(), size = r->getDirectCallee()->getName();
    if (!((id == "get_local_id" && size == "get_local_size") || (id == "get_group_id" && size == "get_num_groups")))
      return;
    // The dimensions as numbers (`0` and `0u` alike; APSInt's == needs one width and sign).
    const auto ld = l->getArg(0)->getIntegerConstantExpr(*ast_), rd = r->getArg(0)->getIntegerConstantExpr(*ast_);
    if (!ld || !rd || !llvm::APSInt::isSameValue(*ld, *rd)) return;
    const bool holds = op == clang::BO_LT || op == clang::BO_LE || op == clang::BO_NE;
    report(b->getOperatorLoc(), kIdBelowSize,
           "'" + b->getOpcodeStr().str() + "' compares '" + id.str() + "' with '" + size.str() +
               "' of the same dimension: the id is always below, so the test is always " + (holds ? "true" : "false"));
  }

  /// Why `x * m`, `x + m` or `x - m` does no arithmetic when m is a local
  /// variable set to 0 or 1 when declared and never changed (`int m =
  /// (0);` then `r * m + m`): identityOf sees literals only. Else empty.
  [[nodiscard]] std::string heldIdentity(const clang::BinaryOperator* b) const {
    auto held = [this](const clang::Expr* e) {
      const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
      const auto* init = r ? declaredValue(r) : nullptr;
      return init ? zeroOrOne(init) : -1;
    };
    const int l = held(b->getLHS()), r = held(b->getRHS());
    if (l < 0 && r < 0) return {};
    // The side that decides, and what it does.
    const clang::Expr* side = nullptr;
    const char* why = nullptr;
    switch (b->getOpcode()) {
    case clang::BO_Mul:
      if (r == 0 || l == 0) side = r == 0 ? b->getRHS() : b->getLHS(), why = "the product is always 0";
      else if (r == 1 || l == 1) side = r == 1 ? b->getRHS() : b->getLHS(), why = "multiplies by nothing";
      break;
    case clang::BO_Add:
      if (r == 0 || l == 0) side = r == 0 ? b->getRHS() : b->getLHS(), why = "adds nothing";
      break;
    case clang::BO_Sub:
      if (r == 0) side = b->getRHS(), why = "takes away nothing";
      break;
    default:
      break;
    }
    if (!side) return {};
    return "'" + variableOf(side)->getNameAsString() + "' holds " + std::to_string(side == b->getRHS() ? r : l) +
           " (set when declared, never changed): " + why;
  }

  /// A size of the NDRange (`get_local_size`, `get_global_size`,
  /// `get_num_groups`: at least 1) compared with a constant it is always
  /// above: `m == 0` for `m = get_local_size(0)` never holds.
  void sizeAgainstZero(const clang::BinaryOperator* b) {
    auto isSize = [](const clang::CallExpr* c) {
      const auto n = c ? c->getDirectCallee()->getName() : llvm::StringRef();
      return n == "get_local_size" || n == "get_global_size" || n == "get_num_groups" ||
             n == "get_enqueued_local_size";
    };
    const clang::CallExpr* size = workItemCall(b->getLHS());
    const clang::Expr* other = b->getRHS();
    auto op = b->getOpcode();
    if (!isSize(size)) {
      size = workItemCall(b->getRHS());
      other = b->getLHS();
      op = clang::BinaryOperator::reverseComparisonOp(op);
    }
    if (!isSize(size) || other->isValueDependent()) return;
    const auto c = other->getIntegerConstantExpr(*ast_);
    if (!c) return;
    const bool below1 = c->isSigned() ? c->getExtValue() < 1 : c->getZExtValue() < 1;
    const bool atMost1 = c->isSigned() ? c->getExtValue() <= 1 : c->getZExtValue() <= 1;
    int known = -1; // 0: never holds, 1: always holds
    switch (op) {
    case clang::BO_EQ: known = below1 ? 0 : -1; break;
    case clang::BO_NE: known = below1 ? 1 : -1; break;
    case clang::BO_LT: known = atMost1 ? 0 : -1; break;
    case clang::BO_LE: known = below1 ? 0 : -1; break;
    case clang::BO_GT: known = below1 ? 1 : -1; break;
    case clang::BO_GE: known = atMost1 ? 1 : -1; break;
    default: break;
    }
    if (known < 0) return;
    report(b->getOperatorLoc(), kIdBelowSize,
           "'" + b->getOpcodeStr().str() + "' compares '" + size->getDirectCallee()->getName().str() +
               "', which is at least 1, with " + llvm::toString(*c, 10) + ": the test is always " +
               (known ? "true" : "false"));
  }

  void rewound(const clang::ParmVarDecl& buffer, clang::SourceLocation at) {
    report(at, kBufferRewind, "buffer '" + buffer.getNameAsString() + "' moved back before the start the host passed");
  }

  static clang::SourceLocation location(const clang::Stmt* s) {
    if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) return e->getExprLoc();
    return s->getBeginLoc();
  }

  void report(clang::SourceLocation at, const char* option, std::string message) {
    const auto loc = sm_.getExpansionLoc(at);
    if (loc.isInvalid() || !sm_.isInMainFile(loc)) return;
    const auto p = sm_.getPresumedLoc(loc);
    Diagnostic d;
    d.file = p.isValid() ? p.getFilename() : "";
    d.line = p.isValid() ? p.getLine() : 0;
    d.column = p.isValid() ? p.getColumn() : 0;
    d.severity = clangfe::Severity::Warning;
    d.message = std::move(message);
    d.option = option;
    out_.push_back(std::move(d));
  }

  clang::ASTContext* ast_;
  clang::SourceManager& sm_;
  AstRules on_;
  std::vector<Diagnostic>& out_;
  VariableChanges variables_; ///< of the function being walked (buffer-rewind)
};

} // namespace

CleanAstChecks::CleanAstChecks(const std::vector<std::string>& rules) {
  auto has = [&](const char* name) { return std::find(rules.begin(), rules.end(), name) != rules.end(); };
  on_.chained = has(kChainedComparison);
  on_.pointers = has(kPointerCondition);
  on_.loops = has("loop-analysis");
  on_.indices = has(kTruthIndex);
  on_.rewinds = has(kBufferRewind);
  on_.identities = has(kIdentityArithmetic);
  on_.numbers = has(kNumberCondition);
  on_.uniforms = has(kUniformStore);
  on_.dimensions = has(kWorkItemDimension);
  on_.barriers = has(kBarrierFlags);
  on_.reversed = has(kReversedSubscript);
  on_.vectors = has(kVectorSubscript);
  on_.statements = has("unused-value");
  on_.arrays = has("uninitialized");
  on_.overwrites = has(kOverwrittenValue);
  on_.overwrittenStores = has(kOverwrittenStore);
  on_.quadratics = has(kQuadraticIndex);
  on_.races = has(kCrossItemRace);
  on_.tautologies = has("tautology");
  on_.localIndices = has(kLocalGlobalIndex);
}

void CleanAstChecks::onTranslationUnit(clang::ASTContext& ast, bool hasErrors) {
  if (hasErrors || !active()) return;
  // The main file's declarations only: the whole translation unit would load
  // every declaration of the precompiled OpenCL header, for each candidate.
  Walk walk(ast, on_, findings_);
  const auto& sm = ast.getSourceManager();
  for (clang::Decl* d : ast.getTranslationUnitDecl()->noload_decls())
    if (sm.isInMainFile(sm.getExpansionLoc(d->getLocation()))) walk.TraverseDecl(d);
  std::stable_sort(findings_.begin(), findings_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::pair(a.line, a.column) < std::pair(b.line, b.column);
  });
}

} // namespace steerbench::steer

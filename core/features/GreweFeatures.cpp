#include "features/GreweFeatures.h"

#include "features/DeadDeclarations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace steerbench::features {

const std::vector<std::string>& greweDimensions() {
  static const std::vector<std::string> dims = {"comp",      "rational", "mem", "localmem",
                                                "coalesced", "atomic",   "F2",  "F4"};
  return dims;
}

std::vector<double> greweVector(const GreweCounts& c) {
  const double f2 = c.mem > 0 ? c.coalesced / c.mem : 0.0;
  const double f4 = c.mem > 0 ? c.comp / c.mem : 0.0;
  return {c.comp, c.rational, c.mem, c.localmem, c.coalesced, c.atomic, f2, f4};
}

GreweCounts greweCountsOf(const std::vector<double>& v) {
  if (v.size() < 6)
    throw std::invalid_argument("a Grewe vector starts with its 6 counts; this one has " + std::to_string(v.size()) +
                                " dimensions");
  return {v[0], v[1], v[2], v[3], v[4], v[5]};
}

double greweF1(const GreweCounts& c, double transferBytes) {
  const double den = c.comp + c.mem;
  return den > 0 ? transferBytes / den : 0.0;
}

double greweF3(const GreweCounts& c, double wgsize) {
  return c.mem > 0 ? c.localmem / c.mem * wgsize : 0.0;
}

namespace {

using namespace clang;

GreweCounts& operator+=(GreweCounts& a, const GreweCounts& b) {
  a.comp += b.comp;
  a.rational += b.rational;
  a.mem += b.mem;
  a.localmem += b.localmem;
  a.coalesced += b.coalesced;
  a.atomic += b.atomic;
  return a;
}

// The exact names the reference extractor counts (OpenCL 1.x and 2.0). The
// atom_* extension spellings do not count: DevMap's parboil bfs uses them and
// has atomic = 0.
bool isAtomicBuiltin(llvm::StringRef name) {
  static const std::set<std::string, std::less<>> names = {"atomic_add",
                                                           "atomic_sub",
                                                           "atomic_xchg",
                                                           "atomic_inc",
                                                           "atomic_dec",
                                                           "atomic_cmpxchg",
                                                           "atomic_min",
                                                           "atomic_max",
                                                           "atomic_and",
                                                           "atomic_or",
                                                           "atomic_xor",
                                                           "atomic_init",
                                                           "atomic_store",
                                                           "atomic_store_explicit",
                                                           "atomic_load",
                                                           "atomic_load_explicit",
                                                           "atomic_exchange",
                                                           "atomic_exchange_explicit",
                                                           "atomic_compare_exchange_strong",
                                                           "atomic_compare_exchange_strong_explicit",
                                                           "atomic_compare_exchange_weak",
                                                           "atomic_compare_exchange_weak_explicit",
                                                           "atomic_fetch_add",
                                                           "atomic_fetch_add_explicit",
                                                           "atomic_fetch_sub",
                                                           "atomic_fetch_sub_explicit",
                                                           "atomic_fetch_or",
                                                           "atomic_fetch_or_explicit",
                                                           "atomic_fetch_xor",
                                                           "atomic_fetch_xor_explicit",
                                                           "atomic_fetch_and",
                                                           "atomic_fetch_and_explicit",
                                                           "atomic_fetch_min",
                                                           "atomic_fetch_min_explicit",
                                                           "atomic_fetch_max",
                                                           "atomic_fetch_max_explicit",
                                                           "atomic_flag_test_and_set",
                                                           "atomic_flag_test_and_set_explicit",
                                                           "atomic_flag_clear",
                                                           "atomic_flag_clear_explicit",
                                                           "atomic_work_item_fence"};
  return names.count(name) != 0;
}

bool isExpensiveMath(llvm::StringRef name) {
  return name == "exp" || name == "log" || name == "sqrt";
}

/// The reference tests address spaces on the printed type, so a typedef'd
/// pointer hides its address space; `global` prints as `__global`.
bool typeMentions(QualType t, const char* space) {
  return !t.isNull() && t.getAsString().find(space) != std::string::npos;
}

bool isIntegerLiteralNode(const Stmt* e) {
  return e && llvm::isa<IntegerLiteral>(e);
}

bool isLiteralZeroOrOne(const Stmt* e) {
  const auto* lit = llvm::dyn_cast_or_null<IntegerLiteral>(e);
  return lit && (lit->getValue() == 0 || lit->getValue() == 1);
}

/// docs/features.md's "simple" index, judged on the raw AST node as the reference
/// extractor does: nothing is stripped, so `a[(i*4)]` is simple and
/// `a[g + 1]` with a size_t g is not (the 1 sits under an implicit cast).
bool isSimpleIndex(const Expr* idx) {
  if (const auto* bin = llvm::dyn_cast<BinaryOperator>(idx)) {
    switch (bin->getOpcode()) {
    case BO_Mul:
    case BO_Div:
    case BO_Rem:
    case BO_Add:
    case BO_Sub: break;
    default: return false;
    }
    const Expr* l = bin->getLHS();
    const Expr* r = bin->getRHS();
    if (isIntegerLiteralNode(l) && isIntegerLiteralNode(r)) return true;
    return isLiteralZeroOrOne(l) || isLiteralZeroOrOne(r);
  }
  if (llvm::isa<CallExpr>(idx)) return false;
  if (const auto* sub = llvm::dyn_cast<ArraySubscriptExpr>(idx)) return isSimpleIndex(sub->getRHS());
  return true;
}

/// One function's counts, with the counts of earlier helpers it calls merged in.
struct FunctionRecord {
  std::string name;
  GreweCounts counts;
  std::set<std::string> memNames; ///< __global and __local parameters, __local variables
};

class BodyCounter : public RecursiveASTVisitor<BodyCounter> {
public:
  BodyCounter(FunctionRecord& out, const std::vector<FunctionRecord>& earlier, std::set<const DeclStmt*> skipped)
      : out_(out), earlier_(earlier), skipped_(std::move(skipped)) {}

  /// A skipped declaration is not looked into.
  bool dataTraverseStmtPre(Stmt* s) {
    const auto* ds = llvm::dyn_cast<DeclStmt>(s);
    return !ds || !skipped_.count(ds);
  }

  bool VisitBinaryOperator(BinaryOperator* op) {
    switch (op->getOpcode()) {
    case BO_LT:
    case BO_GT:
    case BO_LE:
    case BO_GE:
    case BO_EQ:
    case BO_NE: out_.counts.rational += 1; break;
    case BO_Mul:
    case BO_Div:
    case BO_Rem:
    case BO_Add:
    case BO_Sub:
    case BO_Shl:
    case BO_Shr:
    case BO_And:
    case BO_Xor:
    case BO_Or:
    case BO_ShlAssign:
    case BO_ShrAssign: out_.counts.comp += 1; break;
    default: break;
    }
    return true;
  }

  bool VisitVarDecl(VarDecl* v) {
    if (typeMentions(v->getType(), "__local")) out_.memNames.insert(v->getNameAsString());
    return true;
  }

  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    if (!callee) return true;
    const std::string name = callee->getNameAsString();
    if (isAtomicBuiltin(name)) {
      out_.counts.atomic += 1;
    } else if (isExpensiveMath(name)) {
      out_.counts.comp += 15;
    } else if (name != "barrier") {
      // A helper defined earlier in the file: its counts as they stand, once per call site.
      for (const auto& f : earlier_)
        if (f.name == name) {
          out_.counts += f.counts;
          break;
        }
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (out_.memNames.count(ref->getDecl()->getNameAsString())) out_.counts.mem += 1;
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr* e) {
    const auto* cast = llvm::dyn_cast<ImplicitCastExpr>(e->getLHS());
    const auto* ref = cast ? llvm::dyn_cast<DeclRefExpr>(cast->getSubExpr()) : nullptr;
    if (!ref) return true;
    const QualType t = ref->getDecl()->getType();
    if (typeMentions(t, "__global")) {
      if (isSimpleIndex(e->getRHS())) out_.counts.coalesced += 1;
    } else if (typeMentions(t, "__local")) {
      out_.counts.localmem += 1;
    }
    return true;
  }

private:
  FunctionRecord& out_;
  const std::vector<FunctionRecord>& earlier_;
  std::set<const DeclStmt*> skipped_;
};

} // namespace

void GreweAstCounter::onTranslationUnit(clang::ASTContext& ast, bool hasErrors) {
  hasErrors_ = hasErrors;
  kernels_.clear();
  std::vector<FunctionRecord> functions; // in file order, as the reference visits them
  for (Decl* d : ast.getTranslationUnitDecl()->noload_decls()) {
    auto* fd = llvm::dyn_cast<FunctionDecl>(d);
    if (!fd || !fd->doesThisDeclarationHaveABody()) continue;
    FunctionRecord rec;
    rec.name = fd->getNameAsString();
    for (const ParmVarDecl* p : fd->parameters())
      if (typeMentions(p->getType(), "__global") || typeMentions(p->getType(), "__local"))
        rec.memNames.insert(p->getNameAsString());
    BodyCounter counter(rec, functions, liveOnly_ ? deadDeclarations(*fd, ast) : std::set<const DeclStmt*>{});
    counter.TraverseStmt(fd->getBody());
    if (fd->hasAttr<OpenCLKernelAttr>()) kernels_.emplace_back(rec.name, rec.counts);
    functions.push_back(std::move(rec));
  }
}

} // namespace steerbench::features

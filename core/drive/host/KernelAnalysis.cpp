#include "drive/host/KernelAnalysis.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

namespace steerbench::drive {

const char* roleName(ArgumentRole r) {
  switch (r) {
  case ArgumentRole::Buffer: return "buffer";
  case ArgumentRole::Size: return "size";
  case ArgumentRole::Stride: return "width";
  case ArgumentRole::Offset: return "offset";
  case ArgumentRole::Value: return "value";
  case ArgumentRole::Other: return "other";
  }
  return "?";
}

namespace {

/// The work-item functions whose argument names an NDRange dimension.
bool isDimensionCall(const clang::CallExpr* c, bool* id) {
  const auto* f = c->getDirectCallee();
  if (!f || c->getNumArgs() != 1) return false;
  const std::string n = f->getNameAsString();
  const bool isId = n == "get_global_id" || n == "get_local_id" || n == "get_group_id";
  if (id) *id = isId;
  return isId || n == "get_global_size" || n == "get_local_size" || n == "get_num_groups" ||
         n == "get_global_offset";
}

/// The helpers an instrumented source starts with: each records the byte
/// offset of an access from its argument's start, and gives back a pointer
/// that is always inside the probe's allocation.
const char* kProbeHelpers = R"(/* Steerbench probe: every buffer access records its byte offset. */
int __sb_off(long off) { return off < -2147483647L ? -2147483647 : off > 2147483647L ? 2147483647 : (int)off; }
/* An atomic only when the range grows: all work-items hit the same four ints. */
#define SB_PROBE_HELPER(NAME, AS)                                                                      \
  __attribute__((noinline)) AS char* NAME(AS char* p, AS char* base, int k, int bytes, __global int* stats) { \
    volatile __global int* s = stats + 4 * k;                                                           \
    const long off = p - base;                                                                          \
    const int lo = __sb_off(off), hi = __sb_off(off + bytes);                                           \
    if (lo < s[0]) atomic_min(&stats[4 * k], lo);                                                       \
    if (hi > s[1]) atomic_max(&stats[4 * k + 1], hi);                                                   \
    if (s[3] == 0) s[3] = 1;                                                                            \
    return off < 0 || off + bytes > s[2] ? base : p;                                                    \
  }
SB_PROBE_HELPER(__sb_g, __global)
SB_PROBE_HELPER(__sb_c, __constant)
SB_PROBE_HELPER(__sb_l, __local)
SB_PROBE_HELPER(__sb_p, __private)
#undef SB_PROBE_HELPER
/* vloadn/vstoren: the access starts `pre` bytes after p; out of room, p moves so that it lands on base. */
#define SB_PROBE_VECTOR(NAME, HELPER, AS)                                                              \
  AS char* NAME(AS char* p, long pre, AS char* base, int k, int bytes, __global int* stats) {         \
    AS char* at = HELPER(p + pre, base, k, bytes, stats);                                              \
    return at - pre;                                                                                    \
  }
SB_PROBE_VECTOR(__sb_vg, __sb_g, __global)
SB_PROBE_VECTOR(__sb_vc, __sb_c, __constant)
SB_PROBE_VECTOR(__sb_vl, __sb_l, __local)
SB_PROBE_VECTOR(__sb_vp, __sb_p, __private)
#undef SB_PROBE_VECTOR
)";

/// For vloadn, vstoren and their half variants: which argument is the
/// pointer, and how many elements an offset of one moves (vload3: 3,
/// vloada_half3: 4). False for other functions.
bool vectorMemoryCall(const std::string& name, unsigned& pointerArg, unsigned& lanes) {
  std::string rest;
  if (name.rfind("vload", 0) == 0) {
    pointerArg = 1;
    rest = name.substr(5);
  } else if (name.rfind("vstore", 0) == 0) {
    pointerArg = 2;
    rest = name.substr(6);
  } else {
    return false;
  }
  bool aligned = false;
  if (rest.rfind("a_half", 0) == 0) aligned = true, rest = rest.substr(6);
  else if (rest.rfind("_half", 0) == 0) rest = rest.substr(5);
  std::size_t digits = 0;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits])))
    ++digits;
  lanes = digits ? unsigned(std::stoul(rest.substr(0, digits))) : 1;
  if (lanes == 3 && aligned) lanes = 4;
  rest = rest.substr(digits);
  return rest.empty() || rest == "_rte" || rest == "_rtz" || rest == "_rtp" || rest == "_rtn";
}

const char* spaceKeyword(clang::LangAS as) {
  switch (as) {
  case clang::LangAS::opencl_global: return "__global";
  case clang::LangAS::opencl_constant: return "__constant";
  case clang::LangAS::opencl_local: return "__local";
  default: return nullptr;
  }
}

const char* helperFor(clang::LangAS as) {
  switch (as) {
  case clang::LangAS::opencl_global: return "__sb_g";
  case clang::LangAS::opencl_constant: return "__sb_c";
  case clang::LangAS::opencl_local: return "__sb_l";
  case clang::LangAS::opencl_private: return "__sb_p";
  default: return nullptr;
  }
}

/// The address space of a kernel's own array: automatic variables are private.
clang::LangAS arraySpace(const clang::VarDecl* v) {
  const clang::LangAS as = v->getType().getAddressSpace();
  return as == clang::LangAS::Default ? clang::LangAS::opencl_private : as;
}

const char* arraySpaceKeyword(clang::LangAS as) {
  return as == clang::LangAS::opencl_private ? "__private" : spaceKeyword(as);
}

class BodyVisitor : public clang::RecursiveASTVisitor<BodyVisitor> {
public:
  BodyVisitor(clang::ASTContext& ast, const clang::FunctionDecl* kernel, KernelAnalysis& out)
      : ast_(ast), out_(out) {
    for (unsigned i = 0; i < kernel->getNumParams(); ++i)
      params_[kernel->getParamDecl(i)] = int(i);
  }

  struct Access {
    const clang::Expr* expr; ///< the lvalue accessed; for a vector call, its pointer argument
    int argument;            ///< for an own array's access: n + j for KernelAnalysis::arrays[j]
    clang::LangAS space;
    const clang::Expr* offset = nullptr; ///< a vector call's offset argument (null: a plain access)
    unsigned lanes = 0;                  ///< elements an offset of one moves
  };
  std::vector<Access> accesses; ///< of buffer arguments, and (argument n + j) of the kernel's own arrays
  /// Declarations of local variables (OpenCL allows them only at the
  /// kernel's top level) and of private arrays without initializer.
  std::vector<const clang::DeclStmt*> localDecls, privateArrays;

  bool VisitCompoundStmt(clang::CompoundStmt* s) {
    for (const clang::Stmt* child : s->body()) {
      const auto* d = llvm::dyn_cast<clang::DeclStmt>(child);
      if (!d) continue;
      bool local = false, array = false;
      for (const clang::Decl* x : d->decls())
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(x)) {
          local |= v->getType().getAddressSpace() == clang::LangAS::opencl_local;
          array |= !v->hasInit() && v->hasLocalStorage() && ast_.getAsConstantArrayType(v->getType()) &&
                   (v->getType().getAddressSpace() == clang::LangAS::Default ||
                    v->getType().getAddressSpace() == clang::LangAS::opencl_private);
        }
      if (local) localDecls.push_back(d);
      else if (array) privateArrays.push_back(d);
    }
    return true;
  }
  std::vector<const clang::VarDecl*> arrays; ///< KernelAnalysis::arrays, in order
  std::set<int> guardSizes, loopSizes, strides, offsets;
  std::set<int> idWidths; ///< scalars multiplied in a subscript that mentions a work-item's id
  std::set<int> loopCounts; ///< buffers whose values bound loops
  std::map<int, std::string> why;       ///< evidence per argument
  std::map<int, std::string> offsetWhy; ///< evidence for offsets

  bool VisitCallExpr(clang::CallExpr* c) {
    vectorAccess(c);
    bool id = false;
    if (!isDimensionCall(c, &id)) return true;
    const std::string name = c->getDirectCallee()->getNameAsString();
    if (name == "get_local_id") readsLocalId = true;
    else if (name == "get_global_id" || name == "get_group_id" || name == "get_global_offset") readsGroup = true;
    clang::Expr::EvalResult r;
    if (c->getArg(0)->EvaluateAsInt(r, ast_)) {
      const auto d = r.Val.getInt().getExtValue();
      if (d >= 0 && d < 3) out_.rank = std::max(out_.rank, int(d) + 1);
    }
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* v) {
    if (const auto* init = v->getInit()) {
      if (mentionsId(init)) idVars_.insert(v);
      if (const int d = localIdCall(init); d >= 0) localIds_[v] = d;
      if (const int d = localSizeCall(init); d >= 0) localSizes_[v] = d;
      if (const int p = bufferValue(init); p >= 0) countVars_[v] = p;
      if (v->getType()->isPointerType()) alias(v, init);
    }
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->isAssignmentOp()) {
      if (const auto* lhs = llvm::dyn_cast<clang::DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()))
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(lhs->getDecl())) {
          if (mentionsId(b->getRHS())) idVars_.insert(v);
          if (v->getType()->isPointerType() && b->getOpcode() == clang::BO_Assign) alias(v, b->getRHS());
        }
      return true;
    }
    if (b->getOpcode() == clang::BO_Sub) constantLess(b);
    // A scalar added to an id, or subtracted from one, moves it: an offset
    // (gid + 1 + i, base - gid - j), which a small value keeps in range.
    if (b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub) {
      if (mentionsId(b->getLHS())) offsetIn(b->getRHS(), "added to or subtracted from a work-item id");
      if (b->getOpcode() == clang::BO_Add && mentionsId(b->getRHS())) offsetIn(b->getLHS(), "added to a work-item id");
      return true;
    }
    if (!b->isRelationalOp()) return true;
    // What each local variable is compared with: the scalars that bound it.
    for (const auto [side, other] : {std::pair{b->getLHS(), b->getRHS()}, std::pair{b->getRHS(), b->getLHS()}})
      if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(side->IgnoreParenImpCasts()))
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()); v && !llvm::isa<clang::ParmVarDecl>(v)) {
          const auto scalars = scalarsIn(other);
          comparedWith_[v].insert(scalars.begin(), scalars.end());
        }
    // A scalar kept below another (`k < n - 1`, `n > k`), where neither side
    // reads an id: a position inside a size (a plane a 3-D stencil works
    // on), which must be small; the other is a size.
    if (!mentionsId(b->getLHS()) && !mentionsId(b->getRHS())) {
      const auto op = b->getOpcode();
      const bool lhsBelow = (op == clang::BO_LT || op == clang::BO_LE) != (exitConditions_.count(b) > 0);
      const clang::Expr* below = lhsBelow ? b->getLHS() : b->getRHS();
      const clang::Expr* above = lhsBelow ? b->getRHS() : b->getLHS();
      const int p = scalarArgument(below);
      std::set<int> sizes = scalarsIn(above);
      sizes.erase(p);
      if (p >= 0 && !sizes.empty()) {
        offsetIn(p, "kept below another scalar (a position inside a size)");
        for (int q : sizes)
          if (guardSizes.insert(q).second) why[q] = "bounds another scalar (a position)";
      }
      return true;
    }
    // A scalar compared with an expression of work-item ids guards them: a
    // size; one subtracted on that side (id < n - 1 - k), or one the ids
    // must exceed (id > k, where the test does not lead to a return), is an
    // offset.
    const bool exits = exitConditions_.count(b) > 0;
    const auto op = b->getOpcode();
    const bool lhsBelow = (op == clang::BO_LT || op == clang::BO_LE) != exits;
    for (const auto [side, other, below] : {std::tuple{b->getLHS(), b->getRHS(), lhsBelow},
                                            std::tuple{b->getRHS(), b->getLHS(), !lhsBelow}}) {
      if (!mentionsId(other)) continue;
      std::set<int> small = subtractedIn(side);
      for (int p : small)
        offsetIn(p, "subtracted in a comparison with a work-item id");
      if (const int p = scalarArgument(side); p >= 0 && below) {
        offsetIn(p, "a work-item id must exceed it");
        small.insert(p);
      }
      for (int p : scalarsIn(side))
        if (!small.count(p) && guardSizes.insert(p).second) why[p] = "compared with a work-item id";
    }
    return true;
  }

  /// The comparisons in an `if` that only returns: there, `id >= n` bounds
  /// the ids from above.
  bool VisitIfStmt(clang::IfStmt* s) {
    const clang::Stmt* then = s->getThen();
    if (const auto* c = llvm::dyn_cast<clang::CompoundStmt>(then); c && c->size() == 1) then = c->body_front();
    if (llvm::isa<clang::ReturnStmt>(then))
      forEachComparison(s->getCond(), [this](const clang::BinaryOperator* b) { exitConditions_.insert(b); });
    return true;
  }

  bool VisitForStmt(clang::ForStmt* f) {
    if (f->getCond()) loopBounds(f->getCond());
    // A loop that starts at a scalar (for (j = first; j < last; ++j)): an offset.
    if (const auto* init = f->getInit()) {
      const clang::Expr* from = nullptr;
      if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(init); b && b->getOpcode() == clang::BO_Assign)
        from = b->getRHS();
      if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(init); d && d->isSingleDecl())
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getSingleDecl())) from = v->getInit();
      if (from) offsetIn(from, "starts a loop");
    }
    return true;
  }
  bool VisitWhileStmt(clang::WhileStmt* w) {
    if (w->getCond()) loopBounds(w->getCond());
    return true;
  }
  bool VisitDoStmt(clang::DoStmt* d) {
    if (d->getCond()) loopBounds(d->getCond());
    return true;
  }

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* e) {
    fixedDimension(e);
    if (e->getType().getAddressSpace() == clang::LangAS::opencl_local) tileIn(e);
    strideIn(e->getIdx(), mentionsId(e->getIdx()));
    indexBuffersIn(e->getIdx(), resolve(e->getBase()));
    if (!e->getType()->isArrayType()) access(e, e->getBase());
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->getOpcode() == clang::UO_Deref && !u->getType()->isArrayType()) access(u, u->getSubExpr());
    return true;
  }

  /// Per scalar argument: the largest value that keeps every subscript of a
  /// fixed-length array dimension it bounds inside that dimension.
  std::map<int, std::int64_t> caps;
  std::map<int, std::string> capWhy; ///< the evidence behind each cap

  /// The deepest nest of loops whose conditions compare each scalar
  /// argument: `for (i < n) for (j < n) for (k < n)` gives n a nest of 3.
  std::map<int, int> loopNests;

  /// After the traversal: walks `s` with the scalars the enclosing loops'
  /// conditions compare (openLoops_), counting how deep each nests.
  void measureLoopNests(const clang::Stmt* s) {
    if (!s) return;
    const clang::Expr* cond = nullptr;
    if (const auto* f = llvm::dyn_cast<clang::ForStmt>(s)) cond = f->getCond();
    else if (const auto* w = llvm::dyn_cast<clang::WhileStmt>(s)) cond = w->getCond();
    else if (const auto* d = llvm::dyn_cast<clang::DoStmt>(s)) cond = d->getCond();
    std::set<int> bounds;
    if (cond)
      forEachComparison(cond, [&](const clang::BinaryOperator* b) {
        const auto in = scalarsIn(b);
        bounds.insert(in.begin(), in.end());
      });
    for (int p : bounds) {
      auto& depth = loopNests[p];
      depth = std::max(depth, ++openLoops_[p]);
    }
    for (const auto* child : s->children())
      measureLoopNests(child);
    for (int p : bounds)
      --openLoops_[p];
  }

  /// After the traversal: the scalars in, or bounding the variables of,
  /// each fixed-dimension subscript (h < e, then v[i][h + 1][g] of a
  /// double[13][13][5] view: e is at most 13 - 2 - 1 = 10).
  void resolveCaps() {
    for (const auto& f : fixed_) {
      // Room for what the subscript adds, and for a bound compared with <=.
      const std::int64_t cap = std::max<std::int64_t>(1, f.length - 2 - f.plus);
      std::set<int> bounding = f.scalars;
      for (const auto* v : f.vars)
        if (auto it = comparedWith_.find(v); it != comparedWith_.end()) bounding.insert(it->second.begin(), it->second.end());
      for (int p : bounding)
        if (!caps.count(p) || caps[p] > cap) {
          caps[p] = cap;
          capWhy[p] = "it bounds a subscript of an array dimension of " + std::to_string(f.length);
        }
      // A local array's dimension subscripted by a local id alone bounds the
      // work-group's extent in that dimension.
      // With the group's size added (a halo past it: t[ly + ny + 16]), the
      // id and the size share what is left.
      if (f.local && f.localDim >= 0 && f.localDim < 3 && f.vars.size() == 1 && f.scalars.empty() &&
          (f.sizeDim < 0 || f.sizeDim == f.localDim)) {
        const std::int64_t room = (f.length - f.plus) / (1 + f.sizes);
        auto& limit = localLimit[f.localDim];
        limit = limit ? std::min(limit, room) : room;
      }
    }
  }

  /// Per NDRange dimension: the most work-items a work-group may have there
  /// (a local array's length less what a subscript adds to the local id).
  std::map<int, std::int64_t> localLimit;
  bool readsLocalId = false; ///< get_local_id is called
  bool readsGroup = false;   ///< get_global_id, get_group_id or get_global_offset is called

  /// Row lengths of local-memory tiles the work-group's second dimension
  /// steps through (`tile[ly * 16 + lx]`): the work-group's shape the kernel
  /// assumes.
  std::set<std::int64_t> tiles;

private:
  /// `C - s` or `C - s * k` with C a positive constant (hotspot's `64 - a *
  /// 2`, a tile less twice a pyramid's height): s is at most C / (4 k), so
  /// what remains stays positive and most of it is left.
  void constantLess(const clang::BinaryOperator* b) {
    clang::Expr::EvalResult c;
    if (!b->getLHS()->EvaluateAsInt(c, ast_) || c.Val.getInt().getExtValue() <= 0) return;
    const std::int64_t whole = c.Val.getInt().getExtValue();
    const clang::Expr* rhs = b->getRHS()->IgnoreParenImpCasts();
    std::int64_t k = 1;
    int p = scalarArgument(rhs);
    if (const auto* m = llvm::dyn_cast<clang::BinaryOperator>(rhs); p < 0 && m && m->getOpcode() == clang::BO_Mul)
      for (const auto [x, y] : {std::pair{m->getLHS(), m->getRHS()}, std::pair{m->getRHS(), m->getLHS()}}) {
        clang::Expr::EvalResult r;
        if (scalarArgument(x) >= 0 && y->EvaluateAsInt(r, ast_) && r.Val.getInt().getExtValue() > 0) {
          p = scalarArgument(x);
          k = r.Val.getInt().getExtValue();
          break;
        }
      }
    if (p < 0) return;
    const std::int64_t cap = std::max<std::int64_t>(1, whole / (4 * k));
    if (!caps.count(p) || caps[p] > cap) {
      caps[p] = cap;
      capWhy[p] = "it is subtracted" + (k > 1 ? " (times " + std::to_string(k) + ")" : std::string()) + " from " +
                  std::to_string(whole);
    }
  }

  /// A subscript of an array dimension of fixed length (a view
  /// `(__global double(*)[13][13][5])a`, a private or local array) whose
  /// index is variables and scalar arguments plus or minus constants:
  /// remembered with the length.
  void fixedDimension(const clang::ArraySubscriptExpr* e) {
    const auto* t = ast_.getAsConstantArrayType(e->getBase()->IgnoreParenImpCasts()->getType());
    if (!t || t->getSize().getZExtValue() < 2) return;
    Fixed f;
    f.length = std::int64_t(t->getSize().getZExtValue());
    f.local = e->getType().getAddressSpace() == clang::LangAS::opencl_local;
    bool simple = true;
    std::function<void(const clang::Expr*, bool)> walk = [&](const clang::Expr* x, bool added) {
      x = x->IgnoreParenImpCasts();
      if (const int d = localSizeCall(x); d >= 0 && added) { // a halo past the group: t[ly + ny + 16]
        f.sizeDim = f.sizeDim < 0 || f.sizeDim == d ? d : 3;
        ++f.sizes;
        return;
      }
      if (const int d = localIdCall(x); d >= 0 && added) {
        f.localDim = f.localDim < 0 || f.localDim == d ? d : 3; // 3: two dimensions' ids
        if (!llvm::isa<clang::DeclRefExpr>(x)) {
          f.vars.insert(nullptr); // a call: stands for itself
          return;
        }
      }
      if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(x)) {
        if (const int p = scalarArgument(x); p >= 0) f.scalars.insert(p);
        else if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()); v && !llvm::isa<clang::ParmVarDecl>(v))
          f.vars.insert(v);
        return;
      }
      if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(x); b && (b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub)) {
        walk(b->getLHS(), added);
        walk(b->getRHS(), added && b->getOpcode() == clang::BO_Add);
        return;
      }
      if (const auto* i = llvm::dyn_cast<clang::IntegerLiteral>(x)) {
        if (added) f.plus += std::int64_t(i->getValue().getZExtValue());
        return;
      }
      simple = false;
    };
    walk(e->getIdx(), true);
    if (simple && (!f.vars.empty() || !f.scalars.empty())) fixed_.push_back(f);
  }

  /// The NDRange dimension of a get_local_id(d) call, or of a variable
  /// holding one; -1 for anything else.
  int localIdCall(const clang::Expr* e) const { return workItemCall(e, "get_local_id", localIds_); }
  /// The same for get_local_size(d).
  int localSizeCall(const clang::Expr* e) const { return workItemCall(e, "get_local_size", localSizes_); }
  int workItemCall(const clang::Expr* e, const char* name, const std::map<const clang::VarDecl*, int>& vars) const {
    e = e->IgnoreParenImpCasts();
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()))
        if (auto it = vars.find(v); it != vars.end()) return it->second;
    const auto* c = llvm::dyn_cast<clang::CallExpr>(e);
    const auto* f = c ? c->getDirectCallee() : nullptr;
    if (!f || c->getNumArgs() != 1 || f->getNameAsString() != name) return -1;
    clang::Expr::EvalResult r;
    if (!c->getArg(0)->EvaluateAsInt(r, ast_)) return -1;
    const auto d = r.Val.getInt().getExtValue();
    return d >= 0 && d < 3 ? int(d) : -1;
  }

  /// A local access's tile: a product of the second local id and a
  /// constant in its subscript (`t[lx + ly * 16]`).
  void tileIn(const clang::ArraySubscriptExpr* e) {
    std::function<void(const clang::Stmt*)> products = [&](const clang::Stmt* x) {
      if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(x); b && b->getOpcode() == clang::BO_Mul)
        for (const auto [id, k] : {std::pair{b->getLHS(), b->getRHS()}, std::pair{b->getRHS(), b->getLHS()}}) {
          clang::Expr::EvalResult r;
          if (localIdCall(id) == 1 && k->EvaluateAsInt(r, ast_)) tiles.insert(r.Val.getInt().getExtValue());
        }
      for (const auto* child : x->children())
        if (child) products(child);
    };
    products(e->getIdx());
  }

  /// True when `e` reads a work-item function or a variable made from one.
  bool mentionsId(const clang::Stmt* e) const {
    if (!e) return false;
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e)) {
      bool id = false;
      if (isDimensionCall(c, &id) && id) return true;
    }
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()); v && idVars_.count(v)) return true;
    for (const auto* child : e->children())
      if (mentionsId(child)) return true;
    return false;
  }

  /// The integral scalar arguments `e` reads.
  std::set<int> scalarsIn(const clang::Stmt* e) const {
    std::set<int> out;
    if (!e) return out;
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e); r && scalarArgument(r) >= 0) out.insert(scalarArgument(r));
    for (const auto* child : e->children()) {
      const auto more = scalarsIn(child);
      out.insert(more.begin(), more.end());
    }
    return out;
  }

  /// The integral scalar argument `e` is, through casts and parentheses, or -1.
  int scalarArgument(const clang::Expr* e) const {
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(r->getDecl()))
        if (auto it = params_.find(p); it != params_.end() && p->getType()->isIntegerType()) return it->second;
    return -1;
  }

  /// Each comparison (<, <=, >, >=) of a condition, through && and ||.
  template <class F> static void forEachComparison(const clang::Expr* e, F&& f) {
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e->IgnoreParenImpCasts())) {
      if (b->isLogicalOp()) {
        forEachComparison(b->getLHS(), f);
        forEachComparison(b->getRHS(), f);
      } else if (b->isRelationalOp()) {
        f(b);
      }
    }
  }

  void offsetIn(const clang::Expr* e, const char* because) { offsetIn(scalarArgument(e), because); }
  void offsetIn(int p, const char* because) {
    if (p >= 0 && offsets.insert(p).second) offsetWhy[p] = because;
  }

  /// The scalars subtracted (the right of a minus) in `e`.
  std::set<int> subtractedIn(const clang::Stmt* e) const {
    std::set<int> out;
    if (!e) return out;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->getOpcode() == clang::BO_Sub)
      if (const int p = scalarArgument(b->getRHS()); p >= 0) out.insert(p);
    for (const auto* child : e->children()) {
      const auto more = subtractedIn(child);
      out.insert(more.begin(), more.end());
    }
    return out;
  }

  /// The buffer argument an integer expression reads an element of
  /// (n = rows[i]), or -1.
  int bufferValue(const clang::Expr* e) const {
    e = e->IgnoreParenImpCasts();
    if (!e->getType()->isIntegerType()) return -1;
    if (const auto* s = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) return resolve(s->getBase());
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_Deref)
      return resolve(u->getSubExpr());
    return -1;
  }

  /// Integer buffers whose elements `e` compares, directly or through a
  /// variable holding one: their values count a loop's iterations.
  void countBuffersIn(const clang::Stmt* e) {
    if (!e) return;
    if (const auto* x = llvm::dyn_cast<clang::Expr>(e)) {
      if (const int p = bufferValue(x); p >= 0) {
        loopCounts.insert(p);
        return;
      }
      if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(x->IgnoreParenImpCasts()))
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()))
          if (auto it = countVars_.find(v); it != countVars_.end()) loopCounts.insert(it->second);
    }
    for (const auto* child : e->children())
      countBuffersIn(child);
  }

  void loopBounds(const clang::Expr* cond) {
    // The scalars on either side of a loop condition's comparisons, and the
    // buffers whose values are compared there.
    forEachComparison(cond, [this](const clang::BinaryOperator* b) {
      for (int p : scalarsIn(b))
        if (loopSizes.insert(p).second && !why.count(p)) why[p] = "bounds a loop";
      countBuffersIn(b);
    });
  }

  /// `withId`: the whole subscript mentions a work-item's id, so a scalar
  /// multiplied in it is a row width that decides which element each
  /// work-item reaches (`out[y * w + x]`).
  void strideIn(const clang::Stmt* e, bool withId) {
    if (!e) return;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e); b && (b->getOpcode() == clang::BO_Mul || b->getOpcode() == clang::BO_Shl))
      for (const auto* side : {b->getLHS(), b->getRHS()})
        if (const int p = scalarArgument(side); p >= 0) {
          if (strides.insert(p).second && !why.count(p)) why[p] = "multiplies an index";
          if (withId) idWidths.insert(p);
        }
    for (const auto* child : e->children())
      strideIn(child, withId);
  }

  /// Integer buffers read inside a subscript of buffer `target`: their values index it.
  void indexBuffersIn(const clang::Stmt* e, int target) {
    if (!e || target < 0) return;
    if (const auto* x = llvm::dyn_cast<clang::Expr>(e))
      if (const int q = bufferValue(x); q >= 0 && q != target && out_.indexes[std::size_t(q)] < 0)
        out_.indexes[std::size_t(q)] = target;
    for (const auto* child : e->children())
      indexBuffersIn(child, target);
  }

  /// The argument a pointer expression points into (through casts, pointer
  /// arithmetic, array rows and local aliases), or -1.
  int resolve(const clang::Expr* e) const {
    e = e->IgnoreParenCasts();
    if (const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(r->getDecl()))
        if (auto it = params_.find(p); it != params_.end()) return it->second;
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(r->getDecl()))
        if (auto it = aliases_.find(v); it != aliases_.end()) return it->second;
      return -1;
    }
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      if (b->getOpcode() != clang::BO_Add && b->getOpcode() != clang::BO_Sub) return -1;
      if (b->getLHS()->getType()->isPointerType() || b->getLHS()->getType()->isArrayType()) return resolve(b->getLHS());
      if (b->getRHS()->getType()->isPointerType() || b->getRHS()->getType()->isArrayType()) return resolve(b->getRHS());
      return -1;
    }
    if (const auto* s = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) // a row of a multi-dimensional view
      return s->getType()->isArrayType() ? resolve(s->getBase()) : -1;
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (u->getOpcode() == clang::UO_AddrOf) {
        if (const auto* s = llvm::dyn_cast<clang::ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens()))
          return resolve(s->getBase());
      }
      if (u->getOpcode() == clang::UO_PostInc || u->getOpcode() == clang::UO_PreInc ||
          u->getOpcode() == clang::UO_PostDec || u->getOpcode() == clang::UO_PreDec)
        return resolve(u->getSubExpr());
      return -1;
    }
    if (const auto* c = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      const int a = resolve(c->getTrueExpr()), b = resolve(c->getFalseExpr());
      return a == b ? a : -1;
    }
    return -1;
  }

  static bool isLocalArray(const clang::Expr* e) {
    e = e->IgnoreParenCasts();
    while (const auto* s = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
      e = s->getBase()->IgnoreParenCasts();
    const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e);
    const auto* v = r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
    return v && !llvm::isa<clang::ParmVarDecl>(v) && v->getType()->isArrayType();
  }

  /// The stats slot (n + j) of the kernel's own fixed-size array that
  /// `pointer` is, or a row of (`t`, `t[i]` of a `float t[16][17]`), first
  /// seen making it arrays[j]; -1 for anything else (an element of an array
  /// of pointers is a pointer, not a row).
  int ownArray(const clang::Expr* pointer) {
    const clang::Expr* e = pointer->IgnoreParenImpCasts();
    while (const auto* s = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      if (!s->getType()->isArrayType()) return -1;
      e = s->getBase()->IgnoreParenImpCasts();
    }
    const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e);
    const auto* v = r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
    if (!v || llvm::isa<clang::ParmVarDecl>(v) || !ast_.getAsConstantArrayType(v->getType())) return -1;
    if (!arraySpaceKeyword(arraySpace(v)) || r->getBeginLoc().isMacroID()) return -1;
    const auto at = std::find(arrays.begin(), arrays.end(), v);
    if (at != arrays.end()) return int(params_.size()) + int(at - arrays.begin());
    const auto bytes = ast_.getTypeSizeInChars(v->getType()).getQuantity();
    if (bytes <= 0) return -1;
    const clang::QualType element = ast_.getBaseElementType(v->getType());
    KernelAnalysis::Array a;
    a.name = v->getNameAsString();
    const auto space = arraySpace(v);
    a.space = space == clang::LangAS::opencl_local ? "local" : space == clang::LangAS::opencl_constant ? "constant" : "private";
    a.element = element.getUnqualifiedType().getAsString(clang::PrintingPolicy(ast_.getLangOpts()));
    a.bytes = std::uint64_t(bytes);
    a.elementBytes = std::uint64_t(std::max<std::int64_t>(1, ast_.getTypeSizeInChars(element).getQuantity()));
    out_.arrays.push_back(a);
    arrays.push_back(v);
    return int(params_.size() + arrays.size() - 1);
  }

  void alias(const clang::VarDecl* v, const clang::Expr* from) {
    const int p = resolve(from);
    auto it = aliases_.find(v);
    if (it == aliases_.end()) {
      if (p >= 0 && !ambiguous_.count(v)) aliases_[v] = p;
      return;
    }
    if (it->second != p) { // pointed at another argument too: the offsets would mix
      aliases_.erase(it);
      ambiguous_.insert(v);
    }
  }

  /// vloadn(offset, p) and vstoren(data, offset, p) read or write `lanes`
  /// elements at p + offset * lanes.
  void vectorAccess(const clang::CallExpr* c) {
    const auto* f = c->getDirectCallee();
    unsigned pointerArg = 0, lanes = 0;
    if (!f || !vectorMemoryCall(f->getNameAsString(), pointerArg, lanes) || c->getNumArgs() <= pointerArg) return;
    const clang::Expr* pointer = c->getArg(pointerArg);
    if (const int j = ownArray(pointer); j >= 0) { // as the call takes it: a pointer, not the array
      accesses.push_back(
          {pointer, j, arraySpace(arrays[std::size_t(j - int(params_.size()))]), c->getArg(pointerArg - 1), lanes});
      return;
    }
    const auto pt = pointer->IgnoreParenImpCasts()->getType();
    if (!pt->isPointerType()) return;
    const clang::LangAS space = pt->getPointeeType().getAddressSpace();
    if (!spaceKeyword(space)) return;
    const int p = resolve(pointer);
    if (p < 0) {
      if (!isLocalArray(pointer)) ++out_.unattributed;
      return;
    }
    accesses.push_back({pointer->IgnoreParenImpCasts(), p, space, c->getArg(pointerArg - 1), lanes});
  }

  void access(const clang::Expr* e, const clang::Expr* pointer) {
    if (const int j = ownArray(pointer); j >= 0) {
      accesses.push_back({e, j, arraySpace(arrays[std::size_t(j - int(params_.size()))])});
      return;
    }
    const clang::LangAS space = e->getType().getAddressSpace();
    if (!spaceKeyword(space)) return; // private memory
    const int p = resolve(pointer);
    if (p < 0) {
      if (!isLocalArray(pointer)) ++out_.unattributed; // a kernel's own __local array is no argument
      return;
    }
    accesses.push_back({e, p, space});
  }

  clang::ASTContext& ast_;
  KernelAnalysis& out_;
  std::map<const clang::ParmVarDecl*, int> params_;
  std::set<const clang::VarDecl*> idVars_;
  std::map<int, int> openLoops_; ///< measureLoopNests: enclosing loops comparing each scalar
  std::map<const clang::VarDecl*, int> localIds_; ///< variables holding get_local_id(d)
  std::map<const clang::VarDecl*, int> localSizes_; ///< variables holding get_local_size(d)
  std::map<const clang::VarDecl*, std::set<int>> comparedWith_; ///< scalars each variable is compared with
  /// A subscript of a fixed-length dimension: the variables and scalar
  /// arguments its index reads, and the constants it adds.
  struct Fixed {
    std::set<const clang::VarDecl*> vars;
    std::set<int> scalars;
    std::int64_t length = 0, plus = 0;
    bool local = false; ///< an array in local memory
    int localDim = -1;  ///< the dimension of the local id the index reads (-1: none; 3: more than one)
    int sizeDim = -1;   ///< the same of get_local_size
    int sizes = 0;      ///< times the index adds a local size
  };
  std::vector<Fixed> fixed_;
  std::set<const clang::BinaryOperator*> exitConditions_;
  std::map<const clang::VarDecl*, int> countVars_; ///< variables that hold an element of a buffer
  std::map<const clang::VarDecl*, int> aliases_;
  std::set<const clang::VarDecl*> ambiguous_;
};

class Analyser : public clangfe::AstObserver {
public:
  Analyser(std::string kernel, KernelAnalysis& out) : kernel_(std::move(kernel)), out_(out) {}

  void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override {
    if (hasErrors) return;
    const clang::FunctionDecl* kernel = nullptr;
    for (const clang::Decl* d : ast.getTranslationUnitDecl()->noload_decls())
      if (const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d))
        if (fd->hasAttr<clang::OpenCLKernelAttr>() && fd->isThisDeclarationADefinition() &&
            fd->getNameAsString() == kernel_)
          kernel = fd;
    if (!kernel) {
      out_.error = "no kernel called " + kernel_;
      return;
    }
    out_.found = true;
    const unsigned n = kernel->getNumParams();
    out_.roles.assign(n, ArgumentRole::Other);
    out_.indexes.assign(n, -1);
    out_.loopBoundOnly.assign(n, false);
    out_.loopNest.assign(n, 0);
    out_.idWidth.assign(n, false);
    out_.counts.assign(n, false);
    out_.accessesOf.assign(n, 0);
    out_.evidence.assign(n, "");
    BodyVisitor v(ast, kernel, out_);
    v.TraverseStmt(kernel->getBody());
    v.resolveCaps();
    v.measureLoopNests(kernel->getBody());
    out_.caps.assign(n, 0);
    for (unsigned i = 0; i < n; ++i) {
      const auto* p = kernel->getParamDecl(i);
      const clang::QualType t = p->getType().getCanonicalType();
      auto& role = out_.roles[i];
      if (t->isPointerType()) role = ArgumentRole::Buffer;
      else if (t->isIntegerType() && !t->isBooleanType()) {
        const int k = int(i);
        // A guard's size first: it sets how far the ids reach. Then what
        // moves the ids or starts a loop (an offset, small: a loop from i to
        // n needs i small), a loop's bound, a width.
        role = v.guardSizes.count(k)                            ? ArgumentRole::Size
               : v.offsets.count(k)                            ? ArgumentRole::Offset
               : v.loopSizes.count(k)                          ? ArgumentRole::Size
               : v.strides.count(k)                            ? ArgumentRole::Stride
                                                               : ArgumentRole::Value;
        out_.loopBoundOnly[i] = role == ArgumentRole::Size && !v.guardSizes.count(k);
        if (auto it = v.loopNests.find(k); it != v.loopNests.end()) out_.loopNest[i] = it->second;
        out_.idWidth[i] = v.idWidths.count(k) > 0;
        out_.evidence[i] = role == ArgumentRole::Offset ? v.offsetWhy[k]
                           : v.why.count(k)             ? v.why[k]
                                                        : "no comparison with an id, no loop bound, no index product";
        if (out_.loopBoundOnly[i] && out_.loopNest[i] > 1)
          out_.evidence[i] += "; bounds a nest of " + std::to_string(out_.loopNest[i]) + " loops" +
                              (out_.idWidth[i] ? ", but multiplies a work-item's id in a subscript" : "");
        if (v.caps.count(k) && role != ArgumentRole::Offset) {
          out_.caps[i] = std::uint64_t(std::max<std::int64_t>(1, v.caps[k]));
          out_.evidence[i] += "; at most " + std::to_string(out_.caps[i]) + ": " + v.capWhy[k];
        }
      }
    }
    // A 2-D kernel's work-groups: one tile length gives tile x tile; local
    // arrays' dimensions subscripted by local ids limit each side (to a
    // power of two, at most 64).
    if (out_.rank == 2) {
      std::int64_t side[2] = {0, 0};
      if (v.tiles.size() == 1 && *v.tiles.begin() >= 2 && *v.tiles.begin() <= 64) side[0] = side[1] = *v.tiles.begin();
      for (int d = 0; d < 2; ++d)
        if (const auto it = v.localLimit.find(d); it != v.localLimit.end() && it->second >= 1)
          side[d] = side[d] ? std::min(side[d], it->second) : it->second;
      if (side[0] && side[1]) {
        for (auto& x : side) {
          std::int64_t p = 1;
          while (p * 2 <= std::min<std::int64_t>(x, 64)) p *= 2;
          x = p;
        }
        out_.workGroup = {std::uint64_t(side[0]), std::uint64_t(side[1])};
      }
    }
    out_.oneGroup = v.readsLocalId && !v.readsGroup;
    for (int p : v.loopCounts)
      out_.counts[std::size_t(p)] = kernel->getParamDecl(unsigned(p))->getType()->isPointerType();
    for (const auto& a : v.accesses)
      if (a.argument < int(n)) {
        ++out_.accessesOf[std::size_t(a.argument)];
        ++out_.accesses;
      } else {
        ++out_.arrays[std::size_t(a.argument) - n].accesses;
      }
    if (!v.accesses.empty()) instrument(ast, kernel, v.accesses);
    poison(ast, kernel, v.localDecls, v.privateArrays);
  }

private:
  void instrument(clang::ASTContext& ast, const clang::FunctionDecl* kernel,
                  const std::vector<BodyVisitor::Access>& accesses) {
    auto& sm = ast.getSourceManager();
    clang::Rewriter rw(sm, ast.getLangOpts());
    clang::PrintingPolicy policy(ast.getLangOpts());
    std::set<int> used;
    bool instrumented = false;
    const auto n = kernel->getNumParams();
    for (const auto& a : accesses) {
      const clang::SourceLocation begin = a.expr->getBeginLoc(), end = a.expr->getEndLoc();
      const bool own = a.argument >= int(n); // one of the kernel's own arrays
      auto skip = [&] {
        if (own) {
          --out_.arrays[std::size_t(a.argument) - n].accesses;
          return;
        }
        ++out_.unattributed;
        --out_.accesses;
        --out_.accessesOf[std::size_t(a.argument)];
      };
      if (begin.isMacroID() || end.isMacroID() || !sm.isInMainFile(begin)) {
        skip();
        continue;
      }
      const std::string space = arraySpaceKeyword(a.space), k = std::to_string(a.argument);
      // An argument's start is read once, at the kernel's start; an own array's where it is accessed.
      const std::string base =
          own ? "(" + space + " char*)(" + out_.arrays[std::size_t(a.argument) - n].name + ")" : "__sb_base" + k;
      if (a.offset) { // p becomes a recorded pointer; the offset is read twice (it rarely has side effects)
        const auto pointee = a.expr->getType()->getPointeeType();
        const auto element = ast.getTypeSizeInChars(pointee).getQuantity();
        const std::string type = a.expr->getType().getAsString(policy);
        const auto offsetRange = clang::CharSourceRange::getTokenRange(a.offset->getSourceRange());
        const std::string offset = clang::Lexer::getSourceText(offsetRange, sm, ast.getLangOpts()).str();
        if (offset.empty() || a.offset->getBeginLoc().isMacroID()) {
          skip();
          continue;
        }
        const std::string v = helperFor(a.space);
        const std::string vector = "__sb_v" + v.substr(5);
        const auto step = std::to_string(element * std::int64_t(a.lanes));
        rw.InsertTextBefore(begin, "((" + type + ")" + vector + "((" + space + " char*)(");
        rw.InsertTextAfterToken(end, "), (long)(" + offset + ") * " + step + ", " + base + ", " + k + ", " + step +
                                         ", __sb_stats))");
        if (!own) used.insert(a.argument);
        instrumented = true;
        continue;
      }
      const std::string pointer = ast.getPointerType(a.expr->getType()).getAsString(policy);
      const auto bytes = ast.getTypeSizeInChars(a.expr->getType()).getQuantity();
      rw.InsertTextBefore(begin, "(*(" + pointer + ")" + helperFor(a.space) + "((" + space + " char*)&(");
      rw.InsertTextAfterToken(end, "), " + base + ", " + k + ", " + std::to_string(bytes) + ", __sb_stats))");
      if (!own) used.insert(a.argument);
      instrumented = true;
    }
    if (!instrumented) return;
    // Each argument's start, as the kernel received it (the body may move the pointer).
    std::string bases;
    for (int k : used) {
      const auto* p = kernel->getParamDecl(unsigned(k));
      const char* space = spaceKeyword(p->getType()->getPointeeType().getAddressSpace());
      if (!space) continue;
      bases += "\n  " + std::string(space) + " char* __sb_base" + std::to_string(k) + " = (" + space + " char*)(" +
               p->getNameAsString() + ");";
    }
    rw.InsertTextAfterToken(llvm::cast<clang::CompoundStmt>(kernel->getBody())->getLBracLoc(), bases);
    // The stats argument, last.
    if (!appendParameters(rw, kernel, std::string("__global int* ") + kProbeStatsArgument)) return;
    const auto* buffer = rw.getRewriteBufferFor(sm.getMainFileID());
    if (!buffer) return;
    out_.instrumented = kProbeHelpers + std::string(buffer->begin(), buffer->end());
  }

  /// KernelAnalysis::poisoned.
  void poison(clang::ASTContext& ast, const clang::FunctionDecl* kernel,
              const std::vector<const clang::DeclStmt*>& localDecls,
              const std::vector<const clang::DeclStmt*>& privateArrays) {
    auto& sm = ast.getSourceManager();
    const auto& lang = ast.getLangOpts();
    clang::Rewriter rw(sm, lang);
    auto inFile = [&](clang::SourceRange r) {
      return !r.getBegin().isMacroID() && !r.getEnd().isMacroID() && sm.isInMainFile(r.getBegin());
    };
    const std::string byte = "(uchar)(__sb_poison >> (8 * (__sb_q & 3)))";
    // Local memory: each work-item fills its share of every local buffer.
    std::string fills, hoisted;
    std::string params = "uint __sb_poison";
    for (unsigned i = 0; i < kernel->getNumParams(); ++i) {
      const auto* p = kernel->getParamDecl(i);
      const auto t = p->getType();
      if (!t->isPointerType() || t->getPointeeType().getAddressSpace() != clang::LangAS::opencl_local) continue;
      const std::string bytes = "__sb_lbytes" + std::to_string(i);
      params += ", uint " + bytes;
      fills += "\n    for (uint __sb_q = __sb_i; __sb_q < " + bytes + "; __sb_q += __sb_n) ((__local uchar*)(" +
               p->getNameAsString() + "))[__sb_q] = " + byte + ";";
    }
    for (const auto* d : localDecls) {
      if (!inFile(d->getSourceRange())) return;
      const auto range = clang::CharSourceRange::getTokenRange(d->getSourceRange());
      hoisted += "\n  " + clang::Lexer::getSourceText(range, sm, lang).str();
      rw.RemoveText(range);
      for (const clang::Decl* x : d->decls())
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(x))
          fills += "\n    for (uint __sb_q = __sb_i; __sb_q < (uint)sizeof(" + v->getNameAsString() +
                   "); __sb_q += __sb_n) ((__local uchar*)&(" + v->getNameAsString() + "))[__sb_q] = " + byte + ";";
    }
    for (const auto* d : privateArrays) {
      if (!inFile(d->getSourceRange())) return;
      std::string fill;
      for (const clang::Decl* x : d->decls())
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(x))
          fill += " for (uint __sb_q = 0; __sb_q < (uint)sizeof(" + v->getNameAsString() + "); __sb_q++) ((uchar*)(" +
                  v->getNameAsString() + "))[__sb_q] = " + byte + ";";
      rw.InsertTextAfterToken(d->getEndLoc(), fill);
    }
    if (fills.empty() && privateArrays.empty()) return;
    std::string start = hoisted;
    if (!fills.empty())
      start += "\n  {\n    const uint __sb_n = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));"
               "\n    const uint __sb_i = (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + "
               "get_local_size(1) * get_local_id(2)));" +
               fills + "\n    barrier(CLK_LOCAL_MEM_FENCE);\n  }";
    rw.InsertTextAfterToken(llvm::cast<clang::CompoundStmt>(kernel->getBody())->getLBracLoc(), start);
    if (!appendParameters(rw, kernel, params)) return;
    const auto* buffer = rw.getRewriteBufferFor(sm.getMainFileID());
    if (!buffer) return;
    out_.poisoned.assign(buffer->begin(), buffer->end());
  }

  /// Adds `params` ("int a, int b") after the kernel's last parameter, or in
  /// place of `void`. False when the kernel's parentheses cannot be found.
  static bool appendParameters(clang::Rewriter& rw, const clang::FunctionDecl* kernel, const std::string& params) {
    if (kernel->getNumParams() > 0) {
      rw.InsertTextAfterToken(kernel->getParamDecl(kernel->getNumParams() - 1)->getEndLoc(), ", " + params);
      return true;
    }
    const auto tl = kernel->getFunctionTypeLoc();
    if (!tl) return false;
    const clang::SourceRange inside(tl.getLParenLoc().getLocWithOffset(1), tl.getRParenLoc().getLocWithOffset(-1));
    if (rw.getRewrittenText(inside).find("void") != std::string::npos) rw.ReplaceText(inside, params);
    else rw.InsertTextBefore(tl.getRParenLoc(), params);
    return true;
  }

  std::string kernel_;
  KernelAnalysis& out_;
};

} // namespace

KernelAnalysis analyseKernel(const std::string& source, const std::string& kernel,
                             const clangfe::CompileOptions& options, const std::string& fileName) {
  KernelAnalysis out;
  out.kernel = kernel;
  Analyser analyser(kernel, out);
  clangfe::CompileRequest req;
  req.source = source;
  req.fileName = fileName;
  req.options = options;
  req.emitIR = false;
  req.observer = &analyser;
  const auto result = clangfe::compile(req);
  if (!result.succeeded()) {
    out.found = false;
    out.error = result.firstError();
    return out;
  }
  if (!out.poisoned.empty()) { // hoisted declarations may not compile (a type declared in the body)
    req.source = out.poisoned;
    req.observer = nullptr;
    if (!clangfe::compile(req).succeeded()) out.poisoned.clear();
  }
  return out;
}

} // namespace steerbench::drive

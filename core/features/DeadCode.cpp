#include "features/DeadCode.h"

#include "features/GreweFeatures.h"
#include "features/IrFunctions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <vector>

namespace steerbench::features {

namespace {

constexpr unsigned kGlobal = 1, kLocal = 3; // SPIR address spaces

unsigned spaceOf(const llvm::Value* v) {
  if (const auto* t = llvm::dyn_cast<llvm::PointerType>(v->getType())) return t->getAddressSpace();
  return 0;
}

bool memorySpace(unsigned s) { return s == kGlobal || s == kLocal; }

/// Grewe counts exp, log and sqrt as 15 operations each; so does this.
double mathWeight(llvm::StringRef name) {
  for (const char* f : {"exp", "log", "sqrt"})
    if (name.contains(f)) return 15;
  return 0;
}

/// A branch's or switch's condition; nullptr for any other instruction.
const llvm::Value* branchCondition(const llvm::Instruction* t) {
  if (const auto* b = llvm::dyn_cast<llvm::BranchInst>(t); b && b->isConditional()) return b->getCondition();
  if (const auto* sw = llvm::dyn_cast<llvm::SwitchInst>(t)) return sw->getCondition();
  return nullptr;
}

/// The address spaces of the memory an instruction accesses: a load's, a
/// store's or an atomic's pointer, a call's pointer arguments.
std::vector<unsigned> accessedSpaces(const llvm::Instruction& i) {
  if (const auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) return {spaceOf(l->getPointerOperand())};
  if (const auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) return {spaceOf(st->getPointerOperand())};
  if (const auto* a = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) return {spaceOf(a->getPointerOperand())};
  if (const auto* x = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) return {spaceOf(x->getPointerOperand())};
  std::vector<unsigned> spaces;
  if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i))
    for (const auto& a : c->args())
      if (a->getType()->isPointerTy()) spaces.push_back(spaceOf(a.get()));
  return spaces;
}

/// Counts the binary operators Grewe counts as comp whose operands are
/// constants alone, in every function with a body (the kernel and its helpers).
class ConstantOps : public clangfe::AstObserver, public clang::RecursiveASTVisitor<ConstantOps> {
public:
  void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override {
    if (hasErrors) return;
    ast_ = &ast;
    TraverseDecl(ast.getTranslationUnitDecl());
  }
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    switch (b->getOpcode()) {
    case clang::BO_Mul:
    case clang::BO_Div:
    case clang::BO_Rem:
    case clang::BO_Add:
    case clang::BO_Sub:
    case clang::BO_Shl:
    case clang::BO_Shr:
    case clang::BO_And:
    case clang::BO_Xor:
    case clang::BO_Or: break;
    default: return true;
    }
    if (!b->isValueDependent() && b->isEvaluatable(*ast_)) ++count;
    return true;
  }
  double count = 0;

private:
  clang::ASTContext* ast_ = nullptr;
};

/// Both observers of one compile.
struct Both : clangfe::AstObserver {
  clangfe::AstObserver *a, *b;
  Both(clangfe::AstObserver* x, clangfe::AstObserver* y) : a(x), b(y) {}
  void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override {
    a->onTranslationUnit(ast, hasErrors);
    b->onTranslationUnit(ast, hasErrors);
  }
};

/// Whether some global write of `kernel` (at -O1, helpers inlined) depends
/// on its input (DeadCodeReport::inputDependent). A forward taint over SSA
/// values: loads and builtins given a pointer carry the buffers' data,
/// scalar arguments their values, work-item functions the ids. A write
/// depends when its value or address carries data or a scalar; the kernel
/// depends when a branch does. An integer comparison of an id with a scalar
/// (`i < n`) is a bound and does not carry the scalar (drive keeps sizes
/// fixed), in a branch or a select. Atomics read what
/// they change, and a builtin given a global and another pointer copies
/// memory (async_work_group_copy): both depend, as does a helper that was
/// not inlined. Loads from local or private memory count as data too, so
/// the test errs towards "depends".
bool writesDependOnInput(const llvm::Function& kernel) {
  enum : unsigned { kData = 1, kScalar = 2, kId = 4 };
  std::map<const llvm::Value*, unsigned> taint;
  for (const auto& a : kernel.args())
    if (!a.getType()->isPointerTy()) taint[&a] = kScalar;
  auto of = [&](const llvm::Value* v) {
    const auto it = taint.find(v);
    return it == taint.end() ? 0u : it->second;
  };
  for (const auto& block : kernel)
    for (const auto& i : block) {
      if (llvm::isa<llvm::AtomicRMWInst>(&i) || llvm::isa<llvm::AtomicCmpXchgInst>(&i)) return true;
      if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i)) {
        const auto* callee = c->getCalledFunction();
        if (!callee || !callee->isDeclaration()) return true; // a helper kept, or an indirect call
        const auto name = callee->getName();
        if (name.contains("atom") || name.contains("memcpy") || name.contains("memmove")) return true;
        unsigned pointers = 0;
        bool global = false;
        for (const auto& a : c->args())
          if (a->getType()->isPointerTy()) {
            ++pointers;
            global = global || spaceOf(a.get()) == kGlobal;
          }
        if (global && pointers >= 2) return true; // a copy between memories
        if (pointers) taint[&i] = kData;
        else if (name.contains("get_global_id") || name.contains("get_local_id") || name.contains("get_group_id"))
          taint[&i] = kId;
      }
      if (llvm::isa<llvm::LoadInst>(&i)) taint[&i] = kData;
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& block : kernel)
      for (const auto& i : block) {
        if (llvm::isa<llvm::StoreInst>(&i)) continue;
        unsigned t = of(&i);
        for (const auto& op : i.operands())
          t |= of(op.get());
        // An id compared with a scalar is a bound (`i < n`): drive keeps
        // sizes fixed, so what it decides does not carry the scalar.
        if (const auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(&i);
            cmp && ((of(cmp->getOperand(0)) | of(cmp->getOperand(1))) & kId))
          t &= ~unsigned(kScalar);
        if (t != of(&i)) {
          taint[&i] = t;
          changed = true;
        }
      }
  }
  for (const auto& block : kernel)
    for (const auto& i : block) {
      if (const auto* condition = branchCondition(&i); condition && (of(condition) & (kData | kScalar))) return true;
      if (const auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
        if (spaceOf(st->getPointerOperand()) == kGlobal &&
            ((of(st->getValueOperand()) | of(st->getPointerOperand())) & (kData | kScalar)))
          return true;
      } else if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i)) {
        bool global = false, tainted = false;
        for (const auto& a : c->args()) {
          global = global || spaceOf(a.get()) == kGlobal;
          tainted = tainted || (of(a.get()) & (kData | kScalar));
        }
        if (global && tainted) return true;
      }
    }
  return false;
}

using Deciders = std::map<const llvm::BasicBlock*, std::vector<const llvm::BasicBlock*>>;

/// Blocks by the blocks whose branch decides whether they run (control
/// dependence, Ferrante et al.): for each edge A -> S, S and its
/// post-dominators up to, not including, A's immediate post-dominator.
Deciders controlDependences(const llvm::Function& kernel) {
  auto& function = const_cast<llvm::Function&>(kernel); // the analysis takes it mutable; it reads only
  llvm::PostDominatorTree post(function);
  Deciders decidedBy;
  for (auto& a : function) {
    if (a.getTerminator() == nullptr || a.getTerminator()->getNumSuccessors() < 2) continue;
    const auto* stop = post.getNode(&a) ? post.getNode(&a)->getIDom() : nullptr;
    for (auto* successor : llvm::successors(&a))
      for (auto* n = post.getNode(successor); n && n != stop; n = n->getIDom())
        if (n->getBlock()) decidedBy[n->getBlock()].push_back(&a);
  }
  return decidedBy;
}

/// A barrier some work-items of a group may pass while others do not reach
/// it (DeadCodeReport::divergentBarrier): its block runs or not by a branch
/// (a test, a loop's exit, an early return) whose condition varies between
/// the work-items of a group. Varying: a local or global id, and what is
/// computed from one (a load varies with its address; a phi with its
/// values). A branch inside a block that runs by a varying branch varies
/// too. Returns the barrier's builtin name, or empty.
std::string divergentBarrier(const llvm::Function& kernel, const Deciders& decidedBy) {
  std::set<const llvm::Value*> varying;
  for (const auto& block : kernel)
    for (const auto& i : block)
      if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i))
        if (const auto* callee = c->getCalledFunction()) {
          const auto name = callee->getName();
          if (name.contains("get_global_id") || name.contains("get_local_id") || name.contains("linear_id"))
            varying.insert(&i);
        }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& block : kernel)
      for (const auto& i : block) {
        if (varying.count(&i) || i.getType()->isVoidTy()) continue;
        bool v = false;
        if (const auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) v = varying.count(l->getPointerOperand()) > 0;
        else
          for (const auto& op : i.operands())
            v = v || varying.count(op.get()) > 0;
        if (v) changed = varying.insert(&i).second || changed;
      }
  }
  // Blocks that run for some work-items of a group and not others: decided
  // by a varying branch, or by any branch of such a block (to a fixed point,
  // so loops, whose blocks decide each other, are followed whole).
  auto varyingBranch = [&](const llvm::BasicBlock* a) {
    const auto* condition = branchCondition(a->getTerminator());
    return condition && varying.count(condition) > 0;
  };
  std::set<const llvm::BasicBlock*> divergent;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [block, deciders] : decidedBy)
      if (!divergent.count(block) && std::any_of(deciders.begin(), deciders.end(), [&](const llvm::BasicBlock* a) {
            return varyingBranch(a) || divergent.count(a) > 0;
          }))
        changed = divergent.insert(block).second || changed;
  }
  for (const auto& block : kernel)
    for (const auto& i : block)
      if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i))
        if (const auto* callee = c->getCalledFunction(); callee && callee->getName().contains("barrier") &&
                                                         divergent.count(&block))
          return llvm::demangle(callee->getName().str());
  return {};
}

/// The backward slice of what `kernel` (at -O1) writes where it can be read
/// back (DeadCodeReport::liveMem). Live: a store to memory other than local
/// or private, an atomic, a call given such a pointer or to a helper kept, a
/// printf; whatever a live value uses; the branches a live instruction is
/// control dependent on (Ferrante et al., over the post-dominator tree) and,
/// for a live phi, the branches of the blocks it comes from. A live load of local
/// (or private) memory makes every store and every call given a pointer of
/// that memory live, as any of them may have written what it reads. The
/// counts: live loads and stores of global or local memory, atomics and
/// calls given such a pointer; and whether a live instruction touches local
/// memory (a live load of it keeps every store to it).
struct LiveSlice {
  double mem = 0;
  bool localStores = false, localLive = false;
};

LiveSlice liveSlice(const llvm::Function& kernel, const Deciders& decidedBy) {
  LiveSlice out;
  std::set<const llvm::Instruction*> live;
  std::vector<const llvm::Instruction*> work;
  auto mark = [&](const llvm::Value* v) {
    if (const auto* i = llvm::dyn_cast<llvm::Instruction>(v); i && live.insert(i).second) work.push_back(i);
  };
  auto scratch = [](unsigned space) { return space == kLocal || space == 0; };
  // Stores and pointer-taking calls of scratch memory (local, private), by space.
  std::map<unsigned, std::vector<const llvm::Instruction*>> writers;
  for (const auto& block : kernel)
    for (const auto& i : block) {
      if (llvm::isa<llvm::AtomicRMWInst>(&i) || llvm::isa<llvm::AtomicCmpXchgInst>(&i)) {
        mark(&i); // it may write global memory; on local memory it is read back (below)
        continue;
      }
      const auto* c = llvm::dyn_cast<llvm::CallBase>(&i);
      if (!c && !llvm::isa<llvm::StoreInst>(&i)) continue;
      const auto* callee = c ? c->getCalledFunction() : nullptr;
      const auto name = callee ? callee->getName() : llvm::StringRef();
      bool outside = c && (!callee || !callee->isDeclaration() || name.contains("printf") || name.contains("atom"));
      for (const unsigned space : accessedSpaces(i)) {
        out.localStores = out.localStores || space == kLocal;
        if (scratch(space)) writers[space].push_back(&i);
        else outside = true;
      }
      if (outside) mark(&i);
    }
  std::set<unsigned> readSpaces;
  while (!work.empty()) {
    const llvm::Instruction* i = work.back();
    work.pop_back();
    for (const auto& op : i->operands())
      mark(op.get());
    if (const auto it = decidedBy.find(i->getParent()); it != decidedBy.end())
      for (const auto* a : it->second)
        mark(a->getTerminator());
    if (const auto* phi = llvm::dyn_cast<llvm::PHINode>(i))
      for (const auto* from : phi->blocks())
        mark(from->getTerminator());
    // What it reads of scratch memory, any of its writers may have written
    // (an atomic reads what it changes: a live one on local memory keeps
    // the stores that set it, `cnt = 0` before every work-item adds to it).
    for (const unsigned space : accessedSpaces(*i))
      if (scratch(space) && readSpaces.insert(space).second)
        for (const auto* w : writers[space])
          mark(w);
  }
  for (const auto* i : live) {
    const auto spaces = accessedSpaces(*i);
    out.mem += std::any_of(spaces.begin(), spaces.end(), memorySpace);
    out.localLive = out.localLive || std::count(spaces.begin(), spaces.end(), kLocal) > 0;
  }
  return out;
}

} // namespace

DeadCodeReport checkDeadCode(const std::string& source, const std::string& kernel) {
  DeadCodeReport r;
  GreweAstCounter counter;
  ConstantOps constants;
  Both both(&counter, &constants);
  clangfe::CompileRequest req;
  req.source = source;
  req.fileName = "contender.cl";
  req.emitIR = true;
  req.observer = &both;
  const auto unit = clangfe::compile(req);
  if (!unit.succeeded() || !unit.module()) {
    r.error = "does not compile: " + unit.firstError();
    return r;
  }
  bool found = false;
  for (const auto& [name, counts] : counter.kernels())
    if (name == kernel) {
      r.astMem = counts.mem;
      r.astComp = counts.comp;
      found = true;
    }
  const auto functions = functionsOfKernel(*unit.module(), kernel);
  if (!found || functions.empty()) {
    r.error = "no kernel called " + kernel;
    return r;
  }
  r.measured = true;
  r.constantOps = constants.count;
  // Per function, its own counts; a call to a helper defined here adds the
  // helper's counts at each call site, as Grewe's counts do (a helper the
  // optimiser did not inline is otherwise counted once for many calls).
  struct Counts {
    double mem = 0, comp = 0;
    bool writes = false;
  };
  std::map<const llvm::Function*, Counts> own;
  std::map<const llvm::Function*, std::vector<const llvm::Function*>> calls;
  for (const llvm::Function* f : functions) {
    Counts& k = own[f];
    for (const auto& block : *f)
      for (const auto& i : block) {
        if (const auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
          k.mem += memorySpace(spaceOf(l->getPointerOperand()));
        } else if (const auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          const unsigned space = spaceOf(st->getPointerOperand());
          k.mem += memorySpace(space);
          k.writes = k.writes || space == kGlobal;
        } else if (const auto* a = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
          k.mem += 1;
          k.writes = k.writes || spaceOf(a->getPointerOperand()) == kGlobal;
        } else if (const auto* x = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
          k.mem += 1;
          k.writes = k.writes || spaceOf(x->getPointerOperand()) == kGlobal;
        } else if (const auto* c = llvm::dyn_cast<llvm::CallInst>(&i)) {
          const auto* callee = c->getCalledFunction();
          if (callee && !callee->isDeclaration()) { // a helper of this file: its counts, at this call
            calls[f].push_back(callee);
            continue;
          }
          // A builtin given a global or local pointer (an atomic, vstore)
          // may access it, and a global one may be written.
          bool memory = false;
          for (const auto& arg : c->args()) {
            const unsigned space = spaceOf(arg.get());
            memory = memory || memorySpace(space);
            k.writes = k.writes || space == kGlobal;
          }
          k.mem += memory;
          if (callee) k.comp += mathWeight(callee->getName());
        } else if (llvm::isa<llvm::BinaryOperator>(&i) || llvm::isa<llvm::GetElementPtrInst>(&i)) {
          k.comp += 1; // an address's arithmetic may live in a GEP
        }
      }
  }
  std::map<const llvm::Function*, Counts> total;
  std::function<Counts(const llvm::Function*, int)> sum = [&](const llvm::Function* f, int depth) {
    if (const auto it = total.find(f); it != total.end()) return it->second;
    Counts c = own.count(f) ? own[f] : Counts{};
    if (depth < 32) // recursion is not OpenCL C; a bound all the same
      for (const auto* g : calls[f]) {
        const Counts h = sum(g, depth + 1);
        c.mem += h.mem;
        c.comp += h.comp;
        c.writes = c.writes || h.writes;
      }
    return total[f] = c;
  };
  const Counts k = sum(unit.module()->getFunction(kernel), 0);
  r.irMem = k.mem;
  r.irComp = k.comp;
  r.writesGlobal = k.writes;
  const llvm::Function& kernelFunction = *unit.module()->getFunction(kernel);
  r.inputDependent = writesDependOnInput(kernelFunction);
  const Deciders decidedBy = controlDependences(kernelFunction);
  const LiveSlice slice = liveSlice(kernelFunction, decidedBy);
  r.liveMem = calls[&kernelFunction].empty() ? slice.mem : r.irMem; // a helper kept: its accesses are not in the slice
  r.localUnread = slice.localStores && !slice.localLive;
  r.divergentBarrier = divergentBarrier(kernelFunction, decidedBy);
  if (!r.writesGlobal)
    r.dead = "its -O1 IR writes no global memory: nothing it computes can be read back";
  else if (r.astMem > kDeadRatio * r.irMem + kDeadSlack)
    r.dead = "Grewe counts " + std::to_string(int(r.astMem)) + " memory accesses; " + std::to_string(int(r.irMem)) +
             " survive in its -O1 IR";
  else if (r.astComp - r.constantOps > kDeadRatio * r.irComp + kDeadSlack)
    r.dead = "Grewe counts " + std::to_string(int(r.astComp)) + " operations (" +
             std::to_string(int(r.astComp - r.constantOps)) + " not on constants alone); " +
             std::to_string(int(r.irComp)) + " survive in its -O1 IR";
  else if (!r.divergentBarrier.empty())
    r.dead = "a " + r.divergentBarrier + " that some work-items of a group may not reach: a test, loop or return "
             "decided by the work-item id comes before it (undefined behaviour: it may hang or run wrong on a GPU)";
  else if (r.localUnread)
    r.dead = "it writes local memory that nothing it writes to global memory reads (its -O1 IR)";
  else if (r.astMem > kDeadRatio * r.liveMem + kDeadSlack)
    r.dead = "Grewe counts " + std::to_string(int(r.astMem)) + " memory accesses; " + std::to_string(int(r.liveMem)) +
             " of its -O1 IR lead to what it writes to global memory";
  else if (!r.inputDependent)
    r.dead = "nothing it writes to global memory depends on its input (no load, read or scalar argument reaches "
             "a written value or address, nor a load a branch): its output is the same for any input";
  return r;
}

} // namespace steerbench::features

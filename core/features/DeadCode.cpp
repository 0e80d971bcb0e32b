#include "features/DeadCode.h"

#include "features/GreweFeatures.h"
#include "features/IrFunctions.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

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

} // namespace

DeadCodeReport checkDeadCode(const std::string& source, const std::string& kernel) {
  DeadCodeReport r;
  GreweAstCounter counter;
  clangfe::CompileRequest req;
  req.source = source;
  req.fileName = "contender.cl";
  req.emitIR = true;
  req.observer = &counter;
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
  for (const llvm::Function* f : functions)
    for (const auto& block : *f)
      for (const auto& i : block) {
        if (const auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
          r.irMem += memorySpace(spaceOf(l->getPointerOperand()));
        } else if (const auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          const unsigned space = spaceOf(s->getPointerOperand());
          r.irMem += memorySpace(space);
          r.writesGlobal = r.writesGlobal || space == kGlobal;
        } else if (const auto* a = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
          r.irMem += 1;
          r.writesGlobal = r.writesGlobal || spaceOf(a->getPointerOperand()) == kGlobal;
        } else if (const auto* x = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
          r.irMem += 1;
          r.writesGlobal = r.writesGlobal || spaceOf(x->getPointerOperand()) == kGlobal;
        } else if (const auto* c = llvm::dyn_cast<llvm::CallInst>(&i)) {
          // A call given a global or local pointer (an atomic, vstore, a
          // helper) may access it, and a global one may be written.
          bool memory = false;
          for (const auto& arg : c->args()) {
            const unsigned space = spaceOf(arg.get());
            memory = memory || memorySpace(space);
            r.writesGlobal = r.writesGlobal || space == kGlobal;
          }
          r.irMem += memory;
          if (const auto* callee = c->getCalledFunction()) r.irComp += mathWeight(callee->getName());
        } else if (llvm::isa<llvm::BinaryOperator>(&i) || llvm::isa<llvm::GetElementPtrInst>(&i)) {
          r.irComp += 1; // an address's arithmetic may live in a GEP
        }
      }
  if (!r.writesGlobal)
    r.dead = "its -O1 IR writes no global memory: nothing it computes can be read back";
  else if (r.astMem > kDeadRatio * r.irMem + kDeadSlack)
    r.dead = "Grewe counts " + std::to_string(int(r.astMem)) + " memory accesses; " + std::to_string(int(r.irMem)) +
             " survive in its -O1 IR";
  else if (r.astComp > kDeadRatio * r.irComp + kDeadSlack)
    r.dead = "Grewe counts " + std::to_string(int(r.astComp)) + " operations; " + std::to_string(int(r.irComp)) +
             " survive in its -O1 IR";
  return r;
}

} // namespace steerbench::features

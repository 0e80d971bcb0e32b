#include "features/AutophaseFeatures.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>

#include <iterator>

namespace steerbench::features {
namespace {

// Vector positions, in docs/features.md order.
enum Dim {
  BBNumArgsHi,
  BBNumArgsLo,
  onePred,
  onePredOneSuc,
  onePredTwoSuc,
  oneSuccessor,
  twoPred,
  twoPredOneSuc,
  twoEach,
  twoSuccessor,
  morePreds,
  BB03Phi,
  BBHiPhi,
  BBNoPhi,
  BeginPhi,
  BranchCount,
  returnInt,
  CriticalCount,
  NumEdges,
  const32Bit,
  const64Bit,
  numConstZeroes,
  numConstOnes,
  UncondBranches,
  binaryConstArg,
  AShr,
  Add,
  Alloca,
  And,
  BlockMid,
  BlockLow,
  BitCast,
  Br,
  Call,
  GetElementPtr,
  ICmp,
  LShr,
  Load,
  Mul,
  Or,
  PHI,
  Ret,
  SExt,
  Select,
  Shl,
  Store,
  Sub,
  Trunc,
  Xor,
  ZExt,
  TotalBlocks,
  TotalInsts,
  TotalMemInst,
  TotalFuncs,
  ArgsPhi,
  testUnary,
  kDimCount
};
static_assert(kDimCount == 56, "Autophase has 56 dimensions");

int opcodeDim(unsigned opcode) {
  switch (opcode) {
  case llvm::Instruction::AShr: return AShr;
  case llvm::Instruction::Add: return Add;
  case llvm::Instruction::Alloca: return Alloca;
  case llvm::Instruction::And: return And;
  case llvm::Instruction::BitCast: return BitCast;
  case llvm::Instruction::Br: return Br;
  case llvm::Instruction::Call: return Call;
  case llvm::Instruction::GetElementPtr: return GetElementPtr;
  case llvm::Instruction::ICmp: return ICmp;
  case llvm::Instruction::LShr: return LShr;
  case llvm::Instruction::Load: return Load;
  case llvm::Instruction::Mul: return Mul;
  case llvm::Instruction::Or: return Or;
  case llvm::Instruction::PHI: return PHI;
  case llvm::Instruction::Ret: return Ret;
  case llvm::Instruction::SExt: return SExt;
  case llvm::Instruction::Select: return Select;
  case llvm::Instruction::Shl: return Shl;
  case llvm::Instruction::Store: return Store;
  case llvm::Instruction::Sub: return Sub;
  case llvm::Instruction::Trunc: return Trunc;
  case llvm::Instruction::Xor: return Xor;
  case llvm::Instruction::ZExt: return ZExt;
  default: return -1;
  }
}

bool isMemoryInst(unsigned opcode) {
  switch (opcode) {
  case llvm::Instruction::GetElementPtr:
  case llvm::Instruction::Load:
  case llvm::Instruction::Store:
  case llvm::Instruction::Call:
  case llvm::Instruction::Invoke:
  case llvm::Instruction::Alloca: return true;
  default: return false;
  }
}

void countBlock(const llvm::BasicBlock& bb, std::vector<double>& v) {
  v[TotalBlocks] += 1;
  const llvm::Instruction* term = bb.getTerminator();
  const unsigned nSucc = term ? term->getNumSuccessors() : 0;
  for (unsigned i = 0; i < nSucc; ++i) {
    v[NumEdges] += 1;
    if (llvm::isCriticalEdge(term, i)) v[CriticalCount] += 1;
  }
  // Every terminator use counts, duplicates included (as CompilerGym's pred_begin walk).
  const auto nPred = static_cast<unsigned>(std::distance(llvm::pred_begin(&bb), llvm::pred_end(&bb)));
  if (nSucc == 1)
    v[oneSuccessor] += 1;
  else if (nSucc == 2)
    v[twoSuccessor] += 1;
  if (nPred == 1)
    v[onePred] += 1;
  else if (nPred == 2)
    v[twoPred] += 1;
  else if (nPred > 2)
    v[morePreds] += 1;
  if (nPred == 1 && nSucc == 1)
    v[onePredOneSuc] += 1;
  else if (nPred == 2 && nSucc == 1)
    v[twoPredOneSuc] += 1;
  else if (nPred == 1 && nSucc == 2)
    v[onePredTwoSuc] += 1;
  else if (nPred == 2 && nSucc == 2)
    v[twoEach] += 1;

  unsigned n = 0, phis = 0, phiArgs = 0;
  bool first = true;
  for (const llvm::Instruction& inst : bb) {
    const unsigned op = inst.getOpcode();
    v[TotalInsts] += 1;
    if (int d = opcodeDim(op); d >= 0) v[d] += 1;
    if (isMemoryInst(op)) v[TotalMemInst] += 1;
    if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(&inst)) {
      v[BranchCount] += 1;
      if (br->isUnconditional()) v[UncondBranches] += 1;
    }
    for (const llvm::Use& use : inst.operands()) {
      if (const auto* c = llvm::dyn_cast<llvm::ConstantInt>(use.get())) {
        const unsigned width = c->getBitWidth();
        if (width == 32)
          v[const32Bit] += 1;
        else if (width == 64)
          v[const64Bit] += 1;
        if (c->isOne())
          v[numConstOnes] += 1;
        else if (c->isZero())
          v[numConstZeroes] += 1;
      }
    }
    if (const auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
      const llvm::Function* callee = call->getCalledFunction();
      if (callee && callee->getReturnType()->isIntegerTy()) v[returnInt] += 1;
    }
    if (llvm::isa<llvm::UnaryInstruction>(inst)) v[testUnary] += 1;
    if (const auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(&inst)) {
      if (llvm::isa<llvm::Constant>(bin->getOperand(0)) || llvm::isa<llvm::Constant>(bin->getOperand(1)))
        v[binaryConstArg] += 1;
    }
    if (const auto* phi = llvm::dyn_cast<llvm::PHINode>(&inst)) {
      if (first) v[BeginPhi] += 1;
      ++phis;
      phiArgs += phi->getNumIncomingValues();
      v[ArgsPhi] += phi->getNumIncomingValues();
    }
    first = false;
    ++n;
  }
  if (phis == 0)
    v[BBNoPhi] += 1;
  else if (phis <= 3)
    v[BB03Phi] += 1;
  else
    v[BBHiPhi] += 1;
  if (phiArgs > 5)
    v[BBNumArgsHi] += 1;
  else if (phiArgs >= 1)
    v[BBNumArgsLo] += 1;
  if (n < 15)
    v[BlockLow] += 1;
  else if (n <= 500)
    v[BlockMid] += 1;
}

} // namespace

const std::vector<std::string>& autophaseDimensions() {
  static const std::vector<std::string> dims = {"BBNumArgsHi",
                                                "BBNumArgsLo",
                                                "onePred",
                                                "onePredOneSuc",
                                                "onePredTwoSuc",
                                                "oneSuccessor",
                                                "twoPred",
                                                "twoPredOneSuc",
                                                "twoEach",
                                                "twoSuccessor",
                                                "morePreds",
                                                "BB03Phi",
                                                "BBHiPhi",
                                                "BBNoPhi",
                                                "BeginPhi",
                                                "BranchCount",
                                                "returnInt",
                                                "CriticalCount",
                                                "NumEdges",
                                                "const32Bit",
                                                "const64Bit",
                                                "numConstZeroes",
                                                "numConstOnes",
                                                "UncondBranches",
                                                "binaryConstArg",
                                                "AShr",
                                                "Add",
                                                "Alloca",
                                                "And",
                                                "BlockMid",
                                                "BlockLow",
                                                "BitCast",
                                                "Br",
                                                "Call",
                                                "GetElementPtr",
                                                "ICmp",
                                                "LShr",
                                                "Load",
                                                "Mul",
                                                "Or",
                                                "PHI",
                                                "Ret",
                                                "SExt",
                                                "Select",
                                                "Shl",
                                                "Store",
                                                "Sub",
                                                "Trunc",
                                                "Xor",
                                                "ZExt",
                                                "TotalBlocks",
                                                "TotalInsts",
                                                "TotalMemInst",
                                                "TotalFuncs",
                                                "ArgsPhi",
                                                "testUnary"};
  return dims;
}

std::vector<double> autophaseCounts(const std::vector<const llvm::Function*>& functions) {
  std::vector<double> v(kDimCount, 0.0);
  for (const llvm::Function* f : functions) {
    v[TotalFuncs] += 1; // declarations too, as CompilerGym does
    for (const llvm::BasicBlock& bb : *f)
      countBlock(bb, v);
  }
  return v;
}

} // namespace steerbench::features

#include "features/InstCountFeatures.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>

#include <unordered_map>

namespace steerbench::features {
namespace {

struct OpcodeDim {
  unsigned opcode;
  const char* name;
};

// Pinned in docs/features.md (LLVM 15 opcode order). Never regenerated from the
// installed LLVM: a new LLVM must not silently reorder the vector.
const OpcodeDim kOpcodes[] = {
    {llvm::Instruction::Ret, "Ret"},
    {llvm::Instruction::Br, "Br"},
    {llvm::Instruction::Switch, "Switch"},
    {llvm::Instruction::IndirectBr, "IndirectBr"},
    {llvm::Instruction::Invoke, "Invoke"},
    {llvm::Instruction::Resume, "Resume"},
    {llvm::Instruction::Unreachable, "Unreachable"},
    {llvm::Instruction::CleanupRet, "CleanupRet"},
    {llvm::Instruction::CatchRet, "CatchRet"},
    {llvm::Instruction::CatchSwitch, "CatchSwitch"},
    {llvm::Instruction::CallBr, "CallBr"},
    {llvm::Instruction::FNeg, "FNeg"},
    {llvm::Instruction::Add, "Add"},
    {llvm::Instruction::FAdd, "FAdd"},
    {llvm::Instruction::Sub, "Sub"},
    {llvm::Instruction::FSub, "FSub"},
    {llvm::Instruction::Mul, "Mul"},
    {llvm::Instruction::FMul, "FMul"},
    {llvm::Instruction::UDiv, "UDiv"},
    {llvm::Instruction::SDiv, "SDiv"},
    {llvm::Instruction::FDiv, "FDiv"},
    {llvm::Instruction::URem, "URem"},
    {llvm::Instruction::SRem, "SRem"},
    {llvm::Instruction::FRem, "FRem"},
    {llvm::Instruction::Shl, "Shl"},
    {llvm::Instruction::LShr, "LShr"},
    {llvm::Instruction::AShr, "AShr"},
    {llvm::Instruction::And, "And"},
    {llvm::Instruction::Or, "Or"},
    {llvm::Instruction::Xor, "Xor"},
    {llvm::Instruction::Alloca, "Alloca"},
    {llvm::Instruction::Load, "Load"},
    {llvm::Instruction::Store, "Store"},
    {llvm::Instruction::GetElementPtr, "GetElementPtr"},
    {llvm::Instruction::Fence, "Fence"},
    {llvm::Instruction::AtomicCmpXchg, "AtomicCmpXchg"},
    {llvm::Instruction::AtomicRMW, "AtomicRMW"},
    {llvm::Instruction::Trunc, "Trunc"},
    {llvm::Instruction::ZExt, "ZExt"},
    {llvm::Instruction::SExt, "SExt"},
    {llvm::Instruction::FPToUI, "FPToUI"},
    {llvm::Instruction::FPToSI, "FPToSI"},
    {llvm::Instruction::UIToFP, "UIToFP"},
    {llvm::Instruction::SIToFP, "SIToFP"},
    {llvm::Instruction::FPTrunc, "FPTrunc"},
    {llvm::Instruction::FPExt, "FPExt"},
    {llvm::Instruction::PtrToInt, "PtrToInt"},
    {llvm::Instruction::IntToPtr, "IntToPtr"},
    {llvm::Instruction::BitCast, "BitCast"},
    {llvm::Instruction::AddrSpaceCast, "AddrSpaceCast"},
    {llvm::Instruction::CleanupPad, "CleanupPad"},
    {llvm::Instruction::CatchPad, "CatchPad"},
    {llvm::Instruction::ICmp, "ICmp"},
    {llvm::Instruction::FCmp, "FCmp"},
    {llvm::Instruction::PHI, "PHI"},
    {llvm::Instruction::Call, "Call"},
    {llvm::Instruction::Select, "Select"},
    {llvm::Instruction::UserOp1, "UserOp1"},
    {llvm::Instruction::UserOp2, "UserOp2"},
    {llvm::Instruction::VAArg, "VAArg"},
    {llvm::Instruction::ExtractElement, "ExtractElement"},
    {llvm::Instruction::InsertElement, "InsertElement"},
    {llvm::Instruction::ShuffleVector, "ShuffleVector"},
    {llvm::Instruction::ExtractValue, "ExtractValue"},
    {llvm::Instruction::InsertValue, "InsertValue"},
    {llvm::Instruction::LandingPad, "LandingPad"},
    {llvm::Instruction::Freeze, "Freeze"},
};
constexpr unsigned kFixed = 3; // TotalInsts, TotalBlocks, TotalFuncs
constexpr unsigned kDims = kFixed + sizeof(kOpcodes) / sizeof(kOpcodes[0]);
static_assert(kDims == 70, "InstCount has 70 dimensions");

// Opcode enum value -> vector index, built once.
const std::unordered_map<unsigned, int>& opcodeIndex() {
  static const auto map = [] {
    std::unordered_map<unsigned, int> m;
    for (unsigned i = 0; i < kDims - kFixed; ++i)
      m.emplace(kOpcodes[i].opcode, int(kFixed + i));
    return m;
  }();
  return map;
}

} // namespace

const std::vector<std::string>& instCountDimensions() {
  static const auto dims = [] {
    std::vector<std::string> d = {"TotalInsts", "TotalBlocks", "TotalFuncs"};
    for (const auto& o : kOpcodes)
      d.emplace_back(o.name);
    return d;
  }();
  return dims;
}

std::vector<double> countInstructions(const std::vector<const llvm::Function*>& functions) {
  std::vector<double> v(kDims, 0.0);
  const auto& index = opcodeIndex();
  for (const llvm::Function* f : functions) {
    if (f->isDeclaration()) continue;
    v[2] += 1;
    for (const llvm::BasicBlock& bb : *f) {
      v[1] += 1;
      for (const llvm::Instruction& inst : bb) {
        v[0] += 1;
        auto it = index.find(inst.getOpcode());
        if (it != index.end()) v[it->second] += 1;
      }
    }
  }
  return v;
}

int instCountIndexOfIrOpcode(const std::string& irOpcode) {
  static const auto byText = [] {
    std::unordered_map<std::string, int> m;
    for (unsigned i = 0; i < kDims - kFixed; ++i)
      m.emplace(llvm::Instruction::getOpcodeName(kOpcodes[i].opcode), int(kFixed + i));
    return m;
  }();
  auto it = byText.find(irOpcode);
  return it == byText.end() ? -1 : it->second;
}

} // namespace steerbench::features

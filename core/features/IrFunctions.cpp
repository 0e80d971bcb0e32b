#include "features/IrFunctions.h"

#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

namespace steerbench::features {

std::vector<const llvm::Function*> functionsOfKernel(const llvm::Module& m, const std::string& kernel) {
  std::vector<const llvm::Function*> out;
  const llvm::Function* k = m.getFunction(kernel);
  if (!k || k->isDeclaration()) return out;
  for (const llvm::Function& f : m) {
    const bool isKernel = f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL;
    if (&f == k || !isKernel) out.push_back(&f);
  }
  return out;
}

} // namespace steerbench::features

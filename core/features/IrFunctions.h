// Which IR functions make up one kernel's measurement.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace steerbench::features {

/// The functions measured for `kernel`: the kernel itself plus every function
/// of the module that is not a kernel (helpers and declarations; InstCount
/// skips declarations, Autophase counts them). For a module with one kernel
/// this is the whole module, as docs/features.md says; other kernels of a
/// multi-kernel file are left out. Empty if the kernel is not defined here.
[[nodiscard]] std::vector<const llvm::Function*> functionsOfKernel(const llvm::Module& m, const std::string& kernel);

} // namespace steerbench::features

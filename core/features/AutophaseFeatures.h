// Autophase (Huang et al. 2019, CompilerGym's variant): 56 dimensions over the -O1 IR.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Function;
}

namespace steerbench::features {

[[nodiscard]] const std::vector<std::string>& autophaseDimensions();

/// Counts over `functions`, declarations included (CompilerGym counts them in
/// TotalFuncs). Thread-safe.
[[nodiscard]] std::vector<double> autophaseCounts(const std::vector<const llvm::Function*>& functions);

} // namespace steerbench::features

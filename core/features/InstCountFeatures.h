// LLVM InstCount (70 dimensions) over the -O1 spir64 IR, as docs/features.md pins it.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Function;
}

namespace steerbench::features {

/// TotalInsts, TotalBlocks, TotalFuncs, then 67 opcode names in LLVM 15 order.
[[nodiscard]] const std::vector<std::string>& instCountDimensions();

/// Counts over `functions` (definitions). Thread-safe.
[[nodiscard]] std::vector<double> countInstructions(const std::vector<const llvm::Function*>& functions);

/// Index of an opcode name as LLVM spells it in .ll text ("add", "getelementptr",
/// "cmpxchg", ...) within instCountDimensions(), or -1. Used by the text cross-check.
[[nodiscard]] int instCountIndexOfIrOpcode(const std::string& irOpcode);

} // namespace steerbench::features

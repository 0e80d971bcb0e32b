// Reads kernel signatures from OpenCL C with the in-process Clang (parse only).
#pragma once

#include "clang/OpenCLFrontend.h"
#include "drive/KernelArguments.h"

#include <string>
#include <vector>

namespace steerbench::drive {

struct SignatureScan {
  bool compiled = false; ///< Clang reported no error
  std::string error;     ///< the first error when not compiled
  std::vector<KernelSignature> kernels;
};

/// Every kernel defined in `source`, with its arguments' kinds, types and
/// qualifiers. Thread-safe.
[[nodiscard]] SignatureScan kernelSignatures(const std::string& source, const clangfe::CompileOptions& options = {},
                                             const std::string& fileName = "input.cl");

} // namespace steerbench::drive

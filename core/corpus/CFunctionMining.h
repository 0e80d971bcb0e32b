// Kernels from plain C, in AnghaBench's manner: numeric C functions from
// source packages whose parameters and bodies OpenCL C can express become
// kernels (pointer parameters in global memory, the body kept), and a
// function whose work is one loop over an index also becomes a kernel with
// that index mapped to work-items. The text is scanned, not compiled: the
// corpus pipeline compiles what comes out and rejects what does not.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace steerbench::corpus {

/// Scalar typedefs of a C code base (`typedef unsigned short word_t;`),
/// resolved to OpenCL C types ("ushort"). The first definition of a name
/// wins (an #ifdef's other branch redefines it).
using ScalarTypedefs = std::map<std::string, std::string>;

/// Adds the scalar typedefs of `text` (a .c or .h file) to `into`.
void collectScalarTypedefs(const std::string& text, ScalarTypedefs& into);

/// One kernel made from one C function.
struct MinedKernel {
  std::string function;       ///< the C function's name
  std::string name;           ///< the kernel's: function, function_result or function_items
  std::string transformation; ///< "body kept", "result to memory" or "loop to work-items"
  std::string text;           ///< the kernel's OpenCL C
};

/// The functions of a C file that OpenCL C can express, as helpers (with
/// their pointer parameters in global memory) for the kernels to call.
struct MinedFile {
  std::vector<std::string> helpers; ///< non-void functions, definitions in file order
  std::vector<MinedKernel> kernels;
  bool usesDouble = false;          ///< the unit needs cl_khr_fp64
  std::size_t functions = 0;        ///< function definitions seen
};

/// Mines one C file. A function is taken when its return type and parameters
/// are scalars (after `typedefs`) or pointers to scalars, and its body has no
/// strings, structs, member access, goto, inline assembly, local statics or
/// calls other than C math functions OpenCL has and functions of this file.
[[nodiscard]] MinedFile mineCFunctions(const std::string& text, const ScalarTypedefs& typedefs);

/// The OpenCL C unit of a mined file: a comment with the provenance and the
/// transformation of every kernel, the helpers, then the kernels.
[[nodiscard]] std::string minedUnit(const MinedFile& file, const std::string& package, const std::string& sourcePath,
                                    const std::string& license);

} // namespace steerbench::corpus

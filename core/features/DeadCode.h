// Dead code a kernel's counts stand on (docs/steering.md, "Dead code"):
// what the kernel's Grewe counts claim next to what survives in its -O1 IR.
// A steering search optimises counts, so it finds them in code that does
// nothing: accesses whose values no one uses, arithmetic folded away, a
// kernel that writes no global memory at all, local memory whose contents
// never reach the output. Clang's warnings catch the code that can never
// run; this catches the code that runs for nothing, and, from the same
// control dependences, a barrier some work-items of a group may skip.
#pragma once

#include <string>

namespace steerbench::features {

struct DeadCodeReport {
  bool measured = false;  ///< the kernel compiled and was found
  std::string error;      ///< why it was not measured
  double astMem = 0, astComp = 0; ///< Grewe's mem and comp of the kernel (helpers' counts included)
  /// Of Grewe's comp, operations on constants alone (`16 * 4`, a macro's
  /// arithmetic): Clang folds them before any IR exists, so they are not
  /// dead; they are left out of the comparison.
  double constantOps = 0;
  /// In the -O1 IR of the kernel and its helpers: instructions that access
  /// global or local memory (loads, stores, atomics, calls given such a
  /// pointer), and arithmetic instructions (binary operators, compares,
  /// selects, calls of math functions).
  double irMem = 0, irComp = 0;
  /// Of irMem, the accesses in the backward slice of the global writes:
  /// those whose values, addresses or stores lead to a store to global
  /// memory or an atomic, with the branches those depend on (control
  /// dependence); a load of local memory, or an atomic on it, keeps every
  /// store to it. irMem when a helper was not inlined.
  double liveMem = 0;
  /// The kernel stores to local memory, and no load in that slice reads it:
  /// what it computes there never reaches its output.
  bool localUnread = false;
  /// A barrier that some work-items of a group may pass while others do
  /// not reach it (a test, loop or return decided by the work-item id comes
  /// before it): undefined in OpenCL, it hangs or reads stale local memory
  /// on a GPU where PoCL runs it. The barrier, demangled ("barrier(unsigned
  /// int)"); empty: none.
  std::string divergentBarrier;
  bool writesGlobal = false; ///< a store, an atomic or a call given a global pointer survives
  /// Some global write depends on the kernel's input: its value or address
  /// derives from a load, from a builtin given a pointer (a read), or from a
  /// scalar argument; or a branch depends on a load or on a scalar (other
  /// than a work-item id compared with it, a bound); or the kernel has an
  /// atomic, a copy between memories, or a helper that was not inlined.
  /// When false, the kernel writes the same output for any input buffers
  /// and value scalars (only its NDRange and sizes shape it): the drive
  /// worker would find it INPUT_INSENSITIVE, without running it.
  bool inputDependent = false;
  /// Why the counts stand on dead code (empty: they do not): no global
  /// write, no write depending on the input, Grewe's mem or comp above
  /// kDeadRatio times what survives plus kDeadSlack (comp without
  /// constantOps), a divergent barrier, local memory nothing reads into
  /// the output, or Grewe's mem above kDeadRatio times liveMem plus kDeadSlack.
  std::string dead;
};

/// Counts may exceed the IR's by this factor (and kDeadSlack more) before they
/// are taken as dead: -O1 legitimately merges repeated loads of one address
/// and repeated index arithmetic (bench/results/bench-steer.md has how many
/// corpus kernels each bound flags).
inline constexpr double kDeadRatio = 3.0;
inline constexpr double kDeadSlack = 4.0;

/// Compiles `source` at -O1 in process and compares kernel `kernel`'s counts
/// with its IR. Never throws for bad source. Thread-safe.
[[nodiscard]] DeadCodeReport checkDeadCode(const std::string& source, const std::string& kernel);

} // namespace steerbench::features

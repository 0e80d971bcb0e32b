// Private arrays read before anything was written to them: Clang's
// -Wuninitialized follows scalars only, so `int c[16]; ... e = c[0] + a[32];`
// before any `c[...] = ...` passes it, and the kernel computes with whatever
// the stack held (the dynamic checks then see NONDETERMINISTIC, or outputs
// that ignore the input). Steering found exact matches so, in a stencil's
// lineage, over and over (docs/steering.md, "uninitialized").
//
// The test follows the body in the order it runs, loops once (a read in a
// loop's first pass comes before a write later in its body): an array with
// no initialiser whose first access is a read is reported, unless the read
// is under a condition (an if, ?:, the right side of && or ||, a switch's
// case) inside a loop, where an earlier pass may have written the element
// (`if (k > 0) s += c[k - 1];`). Such a read, an access to a whole
// element's member, or the array's name used other than subscripted
// (passed on, its address taken) ends the array's test with no finding:
// its writes may happen elsewhere.
// A kernel's local memory (its local arrays and local buffer arguments)
// starts undefined at each launch too: the same test finds a read of it
// before any work-item could have written it (`float l = a[h];` as the
// kernel's first statement, a local buffer argument `a`). A write by any
// work-item comes first in the order the body runs, so real kernels, which
// fill local memory, then wait at a barrier, then read it, pass.
#pragma once

#include <string>
#include <vector>

namespace clang {
class ArraySubscriptExpr;
class FunctionDecl;
} // namespace clang

namespace steerbench::steer {

struct EarlyRead {
  const clang::ArraySubscriptExpr* at = nullptr; ///< the read
  std::string array;                             ///< the array's name
  bool local = false;                            ///< in local memory
};

/// The reads of `f`'s body that read a private array, or a kernel's local
/// memory, before anything was written to it, one per array, in the order the body runs them.
[[nodiscard]] std::vector<EarlyRead> readsBeforeWrites(const clang::FunctionDecl& f);

} // namespace steerbench::steer

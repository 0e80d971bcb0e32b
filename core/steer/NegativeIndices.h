// Subscripts of a kernel's buffer that work-item 0 takes below the start the
// host passed: `a[d - 2]`, `b[2 * i + j - 1]` with d, i and j ids, where no
// branch, loop or earlier return can keep work-item 0 from them (a stencil's
// `if (i > 0)` does; `if (k == 0)` of a local id k does not), and the first
// pass of a loop that runs: `a[f - 3]` in `for (int f = 0; f < n; f += 8)`.
// The index, read as steer/SubscriptForms reads it, holds ids with positive
// coefficients (0 for work-item 0), loop counters the subscript names itself
// (their first values), a constant and nothing else, and comes to less than
// 0. Steering wrote them by adding `- 2` to a subscript, and the driver found
// them reading an element or two before the buffer; reported under
// buffer-rewind (steer/CleanAst.h).
#pragma once

#include <string>
#include <vector>

namespace clang {
class Expr;
} // namespace clang

namespace steerbench::steer {

class SubscriptForms;

struct NegativeIndex {
  const clang::Expr* at = nullptr; ///< the subscript
  std::string buffer;              ///< the kernel's buffer, by its parameter's name
  long long lowest = 0;            ///< the element work-item 0 takes
};

/// The subscripts of `kernel`'s body below its buffer's start for work-item 0, in the order they are written.
[[nodiscard]] std::vector<NegativeIndex> negativeIndices(const SubscriptForms& kernel);

} // namespace steerbench::steer

// Subscripts of global, constant or local memory that multiply two values
// computed from the work-item's id: `a[d * d]`, `b[e * f + 3]` with e and f
// from get_global_id, `h[h[e] * b[d]]`, a local `t[l * g]`. Such an index grows with the square of
// the work-items while the host sizes buffers by them, and at a few thousand
// work-items it overflows `int`: steering wrote them to add
// multiplications, and the driver found them reading from -2^31 to 2^31.
// Real kernels multiply an id by a size or a width (`y * get_global_size(0)
// + x`, `group * local_size + lid`), and a few by another id (a packed
// triangle's `i * (i + 1) / 2`), so the rule is judged against the parent
// (docs/steering.md, "quadratic-index").
//
// The test is flow-insensitive. Each expression has a degree in the ids: 0
// for constants, arguments and sizes; 1 for an id, and for a value read from
// memory at an index of degree 1 or more (it differs between work-items);
// a product adds its factors' degrees, a quotient or shift keeps its left
// side's, anything else takes the largest of its parts. A variable has the
// largest degree of what is ever assigned to it (`x *= i` adds), settled
// until nothing changes, at most 2.
#pragma once

#include <string>
#include <vector>

namespace clang {
class ArraySubscriptExpr;
class FunctionDecl;
} // namespace clang

namespace steerbench::steer {

struct QuadraticIndex {
  const clang::ArraySubscriptExpr* at = nullptr; ///< the subscript
  std::string buffer;                            ///< the pointer's name as written, or "" when it is not a plain name
};

/// The subscripts of global, constant or local memory in `f`'s body whose index has
/// a degree of 2 or more in the work-item's ids, in the order they are written.
[[nodiscard]] std::vector<QuadraticIndex> quadraticIndices(const clang::FunctionDecl& f);

} // namespace steerbench::steer

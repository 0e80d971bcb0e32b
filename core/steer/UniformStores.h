// Stores every work-item makes to the same element of global memory, or every
// work-item of a group to the same element of its local memory: the index
// and the pointer do not depend on the work-item (for local memory: on the
// work-item within its group), and no test of the work-item's identity
// singles the storing work-items out. Work-items then race on that element
// (`a[m] = d[j];` in every work-item of a reduction), or all write one value,
// which the dynamic checks cannot tell from real work. Steering found counts
// so (docs/steering.md, "uniform-store"). A test of whether a value varies
// between work-items, flow-insensitive: a value varies when it is computed
// from get_global_id, get_local_id or get_group_id, from a variable that
// varies, or is assigned under a condition that varies. A test singles
// work-items out unless it only compares ranges of values that do not come
// from the data (`i >= n`, `c >= 0 || d >= c`): those leave whole ranges of
// work-items storing; `i == 0`, `if (k)` and `if (a[i] > m)` do not.
//
// An index that depends on the work-item only through a product with a
// loop's counter that starts at 0 (`s[ac * (j + 1) * ae + ae]`) is the
// same for every work-item in the loop's first turn: all of them store
// element 0 then (3D convolution's near misses ended NONDETERMINISTIC so).
// Only a for loop whose init sets the counter to 0 and whose body never
// assigns it counts, and not below a test that reads the counter.
#pragma once

#include <string>
#include <vector>

namespace clang {
class Expr;
class FunctionDecl;
} // namespace clang

namespace steerbench::steer {

struct UniformStore {
  const clang::Expr* at = nullptr; ///< the store (an assignment, ++ or --)
  std::string buffer;              ///< the buffer's name as written, or "" when it is not a plain name
  bool local = false;              ///< a local buffer (the same element for every work-item of a group)
  /// The counter of a loop around the store, from 0, that makes the index
  /// the same for every work-item in the loop's first turn (`s[ac * ae]`
  /// at `ae = 0`), or "" when the index never depends on the work-item.
  std::string firstTurn;
};

/// The uniform stores of `kernel`'s body, in the order they are written.
/// Atomics are calls, not stores, and are never uniform stores.
[[nodiscard]] std::vector<UniformStore> uniformStores(const clang::FunctionDecl& kernel);

} // namespace steerbench::steer

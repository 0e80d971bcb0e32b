// Accesses to a global buffer that meet another work-item's store: a
// work-item stores `a[d + 1]` and reads `a[d]`, which the next work-item
// stores; it stores `f[e + 1]` and reads `f[e * 4 + 7]`. No barrier orders
// work-items of different groups, so what such a read sees depends on the
// order the device runs them in: the driver's two runs on the same input
// disagree, or, at a small size, agree by luck. Steering wrote such kernels
// by adding subscripts near the ones a kernel had (docs/steering.md,
// "cross-item-race"). Real kernels that pair elements on purpose (a bitonic
// sort's `a[i]` and `a[i + j]`, a reduction's `a[i + s]` between barriers)
// shift by an argument or a loop's counter, which this test leaves alone;
// the rule is judged against the parent all the same.
//
// The test reads each subscript as steer/SubscriptForms does. A store S
// and another access A of the same buffer, S's index varying, race when
// S - A is not zero and holds only varying terms and a constant: with ids
// and variables alone, when the greatest common divisor of their
// coefficients divides the constant (`a[2 * i]` and `a[2 * i + 1]` never
// meet) and some work-item reaches the element (ids are never negative);
// with another varying term, always.
#pragma once

#include <string>
#include <vector>

namespace clang {
class Expr;
} // namespace clang

namespace steerbench::steer {

class SubscriptForms;

struct CrossItemRace {
  const clang::Expr* at = nullptr; ///< the access (a subscript or `*p`) that meets another work-item's store
  std::string buffer;              ///< the kernel's buffer, by its parameter's name
  bool store = false;              ///< the access is itself a store
};

/// The accesses of `kernel`'s body that race with a store of another
/// work-item, each once, in the order they are written.
[[nodiscard]] std::vector<CrossItemRace> crossItemRaces(const SubscriptForms& kernel);

} // namespace steerbench::steer

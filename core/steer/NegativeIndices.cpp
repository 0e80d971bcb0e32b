#include "steer/NegativeIndices.h"

#include "steer/SubscriptForms.h"

#include <clang/AST/Decl.h>

namespace steerbench::steer {

std::vector<NegativeIndex> negativeIndices(const SubscriptForms& forms) {
  std::vector<NegativeIndex> out;
  for (const auto& a : forms.accesses()) {
    if (a.itemZeroMayMiss) continue;
    // Some id or loop counter, and nothing else but ids with positive
    // coefficients (0 for work-item 0) and counters on their first pass.
    bool terms = false, known = true;
    long long lowest = a.index.constant;
    for (const auto& [t, c] : a.index.terms) {
      if (c == 0) continue;
      terms = true;
      long long part = 0;
      if (const auto first = a.firstPass.find(t); first != a.firstPass.end())
        known = known && !__builtin_mul_overflow(c, first->second, &part) &&
                !__builtin_add_overflow(lowest, part, &lowest);
      else known = known && c > 0 && forms.kind(t) == TermKind::Id;
    }
    if (terms && known && lowest < 0) out.push_back({a.at, a.buffer->getNameAsString(), lowest});
  }
  return out;
}

} // namespace steerbench::steer

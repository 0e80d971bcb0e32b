#include "steer/NegativeIndices.h"

#include "steer/SubscriptForms.h"

#include <clang/AST/Decl.h>

namespace steerbench::steer {

std::vector<NegativeIndex> negativeIndices(const SubscriptForms& forms) {
  std::vector<NegativeIndex> out;
  for (const auto& a : forms.accesses()) {
    if (a.itemZeroMayMiss || a.index.constant >= 0) continue;
    bool ids = false, only = true; // some id, and ids with positive coefficients alone
    for (const auto& [t, c] : a.index.terms) {
      if (c == 0) continue;
      ids = true;
      only = only && c > 0 && forms.kind(t) == TermKind::Id;
    }
    if (ids && only) out.push_back({a.at, a.buffer->getNameAsString(), a.index.constant});
  }
  return out;
}

} // namespace steerbench::steer

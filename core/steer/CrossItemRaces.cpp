#include "steer/CrossItemRaces.h"

#include "steer/SubscriptForms.h"

#include <clang/AST/Decl.h>

#include <numeric>

namespace steerbench::steer {

namespace {

/// `s - a`, its terms with coefficients other than 0 only: one walk over
/// both sorted maps (a kernel's pairs of accesses are many).
SubscriptForm difference(const SubscriptForm& s, const SubscriptForm& a) {
  SubscriptForm d;
  d.constant = s.constant - a.constant;
  auto i = s.terms.begin(), j = a.terms.begin();
  while (i != s.terms.end() || j != a.terms.end()) {
    if (j == a.terms.end() || (i != s.terms.end() && i->first < j->first)) {
      if (i->second != 0) d.terms.emplace_hint(d.terms.end(), i->first, i->second);
      ++i;
    } else if (i == s.terms.end() || j->first < i->first) {
      if (j->second != 0) d.terms.emplace_hint(d.terms.end(), j->first, -j->second);
      ++j;
    } else {
      if (i->second != j->second) d.terms.emplace_hint(d.terms.end(), i->first, i->second - j->second);
      ++i;
      ++j;
    }
  }
  return d;
}

} // namespace

std::vector<CrossItemRace> crossItemRaces(const SubscriptForms& forms) {
  const auto& all = forms.accesses();
  std::vector<bool> racing(all.size(), false);
  for (std::size_t s = 0; s < all.size(); ++s) {
    if (!all[s].store || !forms.varies(all[s].index)) continue; // a store every work-item makes is a uniform-store
    for (std::size_t a = 0; a < all.size(); ++a) {
      if (a == s || racing[a] || all[a].buffer != all[s].buffer) continue;
      const SubscriptForm d = difference(all[s].index, all[a].index);
      bool zero = d.constant == 0, symbolic = false, opaque = false;
      for (const auto& [t, c] : d.terms) {
        zero = false;
        const auto k = forms.kind(t);
        symbolic = symbolic || k == TermKind::Uniform;
        opaque = opaque || k == TermKind::Expression;
      }
      if (zero || symbolic) continue; // its own element; or a shift by an argument or a counter
      bool meets = opaque;
      if (!meets) { // ids and varying variables: a * i - c * j = k has a solution when gcd(a, c) divides k
        long long g = 0;
        for (const auto* f : {&all[s].index, &all[a].index})
          for (const auto& [t, c] : f->terms)
            if (const auto k = forms.kind(t); k == TermKind::Id || k == TermKind::Variable) g = std::gcd(g, c < 0 ? -c : c);
        meets = g != 0 && d.constant % g == 0;
        // An element no work-item reaches: ids are never negative, so a
        // store at `2 * c + 3` never meets a read of `a[1]`.
        bool above = !forms.varies(all[a].index) && d.constant > 0;
        for (const auto& [t, c] : d.terms)
          above = above && c > 0 && forms.kind(t) == TermKind::Id;
        meets = meets && !above;
      }
      racing[a] = meets;
    }
  }
  std::vector<CrossItemRace> out;
  for (std::size_t a = 0; a < all.size(); ++a)
    if (racing[a]) out.push_back({all[a].at, all[a].buffer->getNameAsString(), all[a].store});
  return out;
}

} // namespace steerbench::steer

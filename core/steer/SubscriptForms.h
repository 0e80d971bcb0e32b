// A kernel's accesses to its global buffers, each index read as a sum of
// terms with integer coefficients and a constant: `a[2 * d + e - 1]` is
// 2 d + e - 1, `a[(d << 2) - 1]` is 4 d - 1. Terms are work-item ids, variables, and whatever the reading
// cannot take further (`d * w`, `b[i]`, `d >> 1`), each a term of its own by
// its text. A variable assigned once, by its declaration or one `=`, is read
// through its value; a pointer set once to a kernel's buffer (`global float
// *q = a + 1;`) is read as that buffer and an offset. A term varies between
// work-items when it is an id or is computed from one (flow-insensitive,
// settled until nothing changes). Shared by steer/CrossItemRaces (accesses
// that meet another work-item's store) and steer/NegativeIndices (indices
// below a buffer's start).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace steerbench::steer {

/// An index: coefficients by term, and a constant.
struct SubscriptForm {
  std::map<std::string, long long> terms;
  long long constant = 0; ///< coefficients and the constant stay below 2^40 in magnitude
};

/// What a term is: the same in every work-item, an id (get_global_id,
/// get_local_id, get_group_id, ...), a variable that varies, or another
/// expression that varies.
enum class TermKind { Uniform, Id, Variable, Expression };

struct BufferAccess {
  const clang::Expr* at = nullptr;            ///< the subscript, or `*p`
  const clang::ParmVarDecl* buffer = nullptr; ///< the kernel's global buffer
  SubscriptForm index;                        ///< the element, from the buffer's start as the host passed it
  bool store = false;                         ///< a store (`=`, `+=`, `++`): the element is written
  /// Work-item 0 may not reach it: under a branch, a loop, `&&`, `||` or
  /// `?:`, or past a return that may be taken, but for branches whose
  /// condition surely holds for work-item 0 (`if (k == 0)` of a local id k)
  /// and the first pass of a loop with a counter (firstPass), if it runs.
  bool itemZeroMayMiss = false;
  /// The counters of the for loops around it that its subscript names
  /// itself, by name (as its index's terms), and the value each holds on
  /// work-item 0's first pass (`f` of `for (int f = 0; f < n; f += 8)`: 0).
  /// Empty where a name is ambiguous or the index cannot be read so.
  std::map<std::string, long long> firstPass;
};

class SubscriptForms {
public:
  SubscriptForms(const clang::FunctionDecl& kernel, clang::ASTContext& ast);
  ~SubscriptForms();
  SubscriptForms(const SubscriptForms&) = delete;
  SubscriptForms& operator=(const SubscriptForms&) = delete;

  /// The accesses of the body to global buffers it can read so, in the order they are written.
  [[nodiscard]] const std::vector<BufferAccess>& accesses() const;
  [[nodiscard]] TermKind kind(const std::string& term) const;
  /// Some term with a coefficient other than 0 varies between work-items.
  [[nodiscard]] bool varies(const SubscriptForm& f) const;

private:
  struct Reading;
  std::unique_ptr<Reading> reading_;
};

} // namespace steerbench::steer

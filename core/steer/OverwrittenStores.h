// Stores to an element of a buffer that the next store to the same element
// replaces before anything can read it: `b[e] = c[i] * 2.0f; b[e] = c[i + 1];`.
// The first store's value counts in Grewe's comp and mem and does nothing.
// -O1 keeps such a store when the kernel's buffers may alias, so the
// dead-code check (features/DeadCode) lets it through; steering found bests
// that stored one element four times in a row (docs/steering.md,
// "overwritten-store").
//
// The test is straight-line and conservative: within one block, a store
// `p[i] = e1` (or `*p = e1`) whose value has no side effects, then only
// expression and declaration statements that neither mention p nor any
// pointer made from p, call nothing (a barrier lets other work-items read
// the element; a helper may read it) and change no variable the index
// reads, then `p[i] = e2` with the same index, written the same way, and e2
// not mentioning p. A branch, loop or nested block ends the search.
#pragma once

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class BinaryOperator;
class FunctionDecl;
} // namespace clang

namespace steerbench::steer {

struct OverwrittenStore {
  const clang::BinaryOperator* at = nullptr; ///< the store replaced unread (the first of its pair)
  std::string buffer;                        ///< the buffer's name
};

/// The stores of `f`'s body that a later store replaces unread, in the
/// order they are written. Two buffers the kernel is given are taken to be
/// distinct (the driver passes each its own).
[[nodiscard]] std::vector<OverwrittenStore> overwrittenStores(const clang::FunctionDecl& f,
                                                              const clang::ASTContext& ast);

} // namespace steerbench::steer

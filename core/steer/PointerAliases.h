// Pointer aliases (SteerSpec::aliases): an edit that changes what Grewe et
// al.'s features count and nothing the kernel does. Their mem count is one
// for every use of a kernel's __global or __local parameter by name; their
// coalesced count is one for every simple subscript of any __global pointer,
// a parameter or a pointer declared in the body. Real kernels reach their
// buffers through such pointers (NPB's `rhs = (__global double (*)[..])g_rhs`),
// so 77 of DevMap's 256 kernels count more coalesced accesses than memory
// accesses. A corpus kernel seldom does, and the model seldom writes one, so
// steering toward such vectors stalled with mem too high.
//
// The move: `__global float *q = a;` first in the body, and q written for the
// last k uses of a (or, when the body already begins with such an alias, the
// alias written for more of a's uses). mem falls by k - 1 (k with an alias
// already there); coalesced, every other Grewe count and the IR at -O1 (the
// same loads and stores once the alias is promoted to a register) stay. A
// buffer the body moves or takes the address of (`a += n`, `&a`) is not
// aliased: the alias would keep its first value.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace steerbench::steer {

/// The origin recorded for a candidate of SteerSpec::aliases.
constexpr const char* kAliasOrigin = "a buffer's uses through an alias";

/// A __global pointer parameter of a kernel whose uses an alias can take.
struct AliasableBuffer {
  std::string name;              ///< the parameter
  std::string aliasType;         ///< the alias's type as declared ("__global float *")
  std::string alias;             ///< an alias the body already begins with (`__global float *q = a;`), or ""
  std::vector<std::size_t> uses; ///< byte offsets of the uses an alias may take, in source order
};

/// Where a kernel's buffers can be aliased.
struct AliasSites {
  bool parsed = false;      ///< the text compiled and holds the kernel
  std::size_t bodyStart = 0; ///< the byte offset just after the body's `{`
  std::string freshName;    ///< a name no identifier of the text has, for a new alias
  std::vector<AliasableBuffer> buffers;
};

/// The sites of `kernel` (a kernel function's name; empty: the text's
/// first kernel) in `text`; one Clang parse, no code generation. Thread-safe.
[[nodiscard]] AliasSites aliasSites(const std::string& text, const std::string& kernel);

/// `text` with the last `count` uses of buffer `buffer` written as its alias:
/// the body's alias if it has one, else a new one (freshName) declared first
/// in the body. Unchanged when count is 0, or 1 with no alias yet.
[[nodiscard]] std::string withAlias(const std::string& text, const AliasSites& sites, std::size_t buffer,
                                    std::size_t count);

/// How much an alias of buffer `b` lowers mem when it takes `count` uses.
[[nodiscard]] std::size_t memSaved(const AliasableBuffer& b, std::size_t count);

/// One alias that could be written: buffer `buffer` takes its last `count` uses, and mem falls by `saved`.
struct AliasOption {
  std::size_t buffer = 0, count = 0, saved = 0;
};

/// The most an alias of every buffer can lower mem: each buffer's uses all
/// through its alias (less the new alias's own use of the buffer).
[[nodiscard]] std::size_t maxMemSaved(const AliasSites& sites);

/// The saving of mem, 0 to `maxSaving`, that brings the Grewe vector
/// `values` (counts and the ratios F2, F4) nearest `target` (unscaled, as
/// seeds are ranked); the smallest such saving on ties, 0 when none helps.
[[nodiscard]] std::size_t bestMemSaving(const std::vector<double>& values, const std::vector<double>& target,
                                        std::size_t maxSaving);

/// `text` with aliases that lower mem by `saving` (at most maxMemSaved):
/// the buffer with the most uses first, parsed again after each alias.
/// Unchanged when `saving` is 0 or the text does not parse.
[[nodiscard]] std::string withAliasesSaving(const std::string& text, const std::string& kernel, std::size_t saving);

/// The aliases that lower mem by at most `excess` (the kernel's mem above
/// the target's) and by at least 1, one a buffer, the largest saving first.
[[nodiscard]] std::vector<AliasOption> aliasOptions(const AliasSites& sites, std::size_t excess);

} // namespace steerbench::steer

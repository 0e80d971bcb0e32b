// Clean-compile rules, or parts of them, Clang has no warning for (docs/steering.md, "Clean
// compiles"): written as a walk over the candidate's AST, reported as
// warnings of their own option name so the rules judge them as they judge
// Clang's. Steering found counts in both: `j < 2 >= c >= d` adds comparisons
// that compare a comparison's 0 or 1, and `if (p || ...) return;` on a
// buffer argument p exits before any work, since the driver passes every
// buffer (a host may pass none, but a benchmark kernel seldom asks).
// Later runs found exact matches that read out of bounds through `b[x < g]`
// (a comparison as the subscript) and `b -= 2 * e` (a buffer moved back
// before its start), hung in `while (e < c)` with e never written, divided
// by a comparison's 0 or 1, wrote `2 * +0` for the counts, and turned
// `if (l >= e)` into `if (l)`; and out of bounds again through `j[-4]` of a
// buffer and `c = 0;` before `c[e] = 0;`.
#pragma once
#include "clang/OpenCLFrontend.h"

#include <string>
#include <vector>

namespace steerbench::steer {

/// The rules this walk judges, by name (CleanRule::reported holds the same).
inline constexpr const char* kChainedComparison = "chained-comparison";
inline constexpr const char* kPointerCondition = "pointer-condition";
/// A comparison's 0 or 1 used as a subscript or a work-item dimension.
inline constexpr const char* kTruthIndex = "truth-index";
/// A work-item function's dimension that is not a constant: `get_global_id(2 * c)`.
inline constexpr const char* kWorkItemDimension = "work-item-dimension";
/// A barrier or fence whose flags are not a constant: `barrier(l)`.
inline constexpr const char* kBarrierFlags = "barrier-flags";
/// A subscript written index first: `e[d]` for `d[e]`.
inline constexpr const char* kReversedSubscript = "reversed-subscript";
/// A vector's element chosen by a subscript that is not a constant within
/// its length (`w[v]` for a float4 w): Clang's extension, not OpenCL C, and
/// outside the vector for most work-items.
inline constexpr const char* kVectorSubscript = "vector-subscript";
/// Reported for the unused-value rule (beside Clang's): a statement whose
/// value nothing uses and that does nothing, where Clang is silent because a
/// macro wrote it (`(CLK_LOCAL_MEM_FENCE);`).
inline constexpr const char* kUnusedStatement = "unused-statement";
/// A kernel's buffer argument moved backwards (`b -= 2 * e`) before it is
/// read, read at a negative constant subscript while nothing moves it
/// (`b[-2]`, also through a pointer set to it), or replaced by a null pointer
/// (`b = 0;`); or a subscript work-item 0 takes below the start and nothing
/// keeps it from (`b[d - 2]`, steer/NegativeIndices.h).
inline constexpr const char* kBufferRewind = "buffer-rewind";
/// An arithmetic operation that changes nothing or gives a constant (`x + 0`,
/// `x * 1`, `x * 0`, `x - x`, `12 + 6`). Preprocessed real kernels hold some (`a[i + 0]`
/// from a macro), so steering refuses a candidate only when it has more of
/// them than its parent: an edit added counts that compute nothing.
inline constexpr const char* kIdentityArithmetic = "identity-arithmetic";
/// A number tested as a truth value (`if (o >= f || l)`, `if (k)`): an edit
/// that turns a comparison into its bare operand drops a comparison's count
/// and changes what the test means. Real kernels hold some (`if (flag)`,
/// `while (n--)`), so, like identity-arithmetic, it is judged against the parent.
inline constexpr const char* kNumberCondition = "number-condition";
/// A store every work-item makes to the same element of a global buffer
/// (steer/UniformStores.h): a race, or the same value written by all.
/// Judged against the parent: some real kernels run as one work-item.
inline constexpr const char* kUniformStore = "uniform-store";
/// A value assigned to a variable and assigned again before anything reads
/// it (`g = g < 4 ? 4 : f; g = +d;`), or never read before the block that
/// declares the variable ends: the computation counts and does nothing.
/// Within one block. Judged against the parent.
inline constexpr const char* kOverwrittenValue = "overwritten-value";
/// A store to a buffer's element that a store to the same element replaces
/// before anything can read it (`b[e] = c[i] * 2.0f; b[e] = c[i + 1];`,
/// steer/OverwrittenStores.h). Judged against the parent.
inline constexpr const char* kOverwrittenStore = "overwritten-store";
/// A subscript of global, constant or local memory that multiplies two values
/// computed from the work-item's id (`a[d * d]`, steer/QuadraticIndices.h):
/// it grows with the square of the work-items and overflows. Judged against
/// the parent: a few real kernels index packed triangles so.
inline constexpr const char* kQuadraticIndex = "quadratic-index";
/// An access to a global buffer's element that another work-item stores
/// (`a[d + 1] = x; y = a[d];`, steer/CrossItemRaces.h): no barrier orders
/// work-items of different groups, so the output depends on their order.
/// Judged alone: no kernel of a 500-kernel sample of the corpus holds one.
inline constexpr const char* kCrossItemRace = "cross-item-race";
/// A subscript of local memory that grows with the global id
/// (`t[get_global_id(0)]`, `t[2 * g + 1]` for g set to it): local memory
/// holds one work-group's share, so the work-items of every group but the
/// first reach past it. Judged against the parent: a kernel launched as one
/// group may index so.
inline constexpr const char* kLocalGlobalIndex = "local-global-index";
/// Reported for the uninitialized rule (beside Clang's, which follows
/// scalars only): a private array read before anything was written to it
/// (steer/UninitializedArrays.h).
inline constexpr const char* kUninitializedArray = "uninitialized-array";
/// Reported for the loop-analysis rule (beside Clang's for-loop-analysis):
/// a while or do loop whose condition nothing in it can change, a for loop
/// whose step changes none of the variables its condition reads, and a loop
/// whose counter only moves away from the end its condition asks for.
inline constexpr const char* kWhileLoopAnalysis = "while-loop-analysis";
/// Reported for the tautology rule (beside Clang's -Wself-assign, which
/// sees variables only): an element of memory stored with its own value
/// (`a[e + g + 1] = a[e + g + 1];`, `*p = *p;`), a load and a store that
/// do nothing; or stored twice in one expression (`a[e] = a[e] = x`), or
/// stored back through another store (`a[j] = d[k] = a[j]`).
inline constexpr const char* kSelfStore = "self-store";
/// Reported for the tautology rule (beside Clang's overlap check, which
/// compares with numbers only): two tests of one chain of `&&` or `||` that
/// are each other's negation (`f < d && f >= d`, `i == n || n != i`), so
/// the chain's answer is known.
inline constexpr const char* kOpposedTests = "opposed-tests";
/// Reported for the tautology rule: a work-item's local id compared with
/// its group's size (or a group's id with the number of groups) in one
/// dimension (`k == n` for k = get_local_id(1), n = get_local_size(1)): the
/// id is always below, so the test's answer is known. Also a size of the
/// NDRange compared with a constant it is always above (`m == 0` for m =
/// get_local_size(0)).
inline constexpr const char* kIdBelowSize = "id-below-size";

/// Which rules of the walk below are judged.
struct AstRules {
  bool chained = false, pointers = false, loops = false, indices = false, rewinds = false, identities = false,
       numbers = false, uniforms = false, dimensions = false, barriers = false, reversed = false, statements = false,
       arrays = false, overwrites = false, vectors = false, overwrittenStores = false, quadratics = false,
       races = false, tautologies = false, localIndices = false;
  [[nodiscard]] bool any() const {
    return chained || pointers || loops || indices || rewinds || identities || numbers || uniforms || dimensions ||
           barriers || reversed || statements || arrays || overwrites || vectors || overwrittenStores || quadratics ||
           races || tautologies || localIndices;
  }
};

/// Observes one compile (clangfe::CompileRequest::observer, through
/// features::MeasureOptions::observers) and collects what breaks the AST
/// rules among `rules`, in the main file only.
class CleanAstChecks : public clangfe::AstObserver {
public:
  explicit CleanAstChecks(const std::vector<std::string>& rules);
  /// True when `rules` holds a rule of this walk (else it need not observe).
  [[nodiscard]] bool active() const { return on_.any(); }
  void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override;
  /// Warnings with the option of one of the rules above, in source order.
  [[nodiscard]] const std::vector<clangfe::Diagnostic>& findings() const { return findings_; }

private:
  AstRules on_;
  std::vector<clangfe::Diagnostic> findings_;
};

} // namespace steerbench::steer

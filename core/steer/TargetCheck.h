// Sampling toward counts (model::SampleOptions::targetCheck): a statement
// check that also reads, from the same compile, the Grewe counts of the
// kernel written so far and judges them against the counts the row was
// asked for. A statement that takes the kernel past where it can still come
// near is taken back; a kernel short of near may not end yet. The model's
// conditions say where to go; this check keeps it there (docs/model.md,
// "Sampling toward counts").
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace steerbench::model {
struct SampleOptions;
class Tokenizer;
}

namespace steerbench::steer {

/// The verdict on counts `x` (comp, rational, mem, localmem, coalesced,
/// atomic) written toward `target` (the same six; more are ignored):
/// std::string::npos when x's proximity to the target is at least `near`;
/// model::SampleOptions::kShortOfTarget when it is not yet; 0 when x is past
/// the target by so much that no kernel grown from it can come within
/// `near`. Counts only grow as statements are added, so the excess over the
/// target, max(x - target, 0), is a floor on any later distance.
[[nodiscard]] std::size_t judgeCounts(const std::vector<double>& x, const std::vector<double>& target, double near);

/// The check: the text's first error under `warnings`
/// (clangfe::firstErrorOffsetWith); else judgeCounts on its first kernel's
/// counts, where "past" is reported as text.size(), an offset after every
/// token, so that the sampler takes the whole statement back. With
/// `liveOnly`, the counts leave out the declarations that do no work
/// (features::deadDeclarations): a row of declarations nothing reads does
/// not bring a kernel near its target. Thread-safe.
[[nodiscard]] std::function<std::size_t(const std::string&, const std::vector<double>&)>
targetCheck(double near, std::vector<std::string> warnings = {}, bool liveOnly = true);

/// A held row's lean (model::SampleOptions::heldLean): steering's guide
/// (guideBias, `strength`) from the six counts of the kernel a statement
/// check passed toward the row's target, so that the row leans toward the
/// operators, comparisons, atomics and buffer names its kernel still lacks,
/// and away from those it has too many of. `tok` must outlive the function.
/// Thread-safe.
[[nodiscard]] std::function<std::vector<std::pair<int, float>>(const std::string&, const std::vector<double>&)>
heldLean(const model::Tokenizer& tok, double strength, bool liveOnly = true);

/// Restarts of a held sample, at least: one given up ends at a clean kernel
/// of one of its tries, and with 10 tries about twice as many end and pass
/// the dynamic checks as with 3 (docs/model.md, "Held to the counts asked for").
constexpr int kHeldRestarts = 10;

/// Holds `o`'s rows with a target to it at proximity `near`: its
/// targetCheck (with the clean statement warnings when `clean`), and with
/// `liveOnly` the tidy that takes the declarations doing no work out of a
/// finished kernel (features::pruneDeadDeclarations), so that what is
/// returned has the counts the hold read.
void holdToTarget(model::SampleOptions& o, double near, bool clean, bool liveOnly = true);

} // namespace steerbench::steer

// A sampler's check of a whole kernel by steering's clean-compile rules
// (model::SampleOptions::wholeCheck): as a sample's last hole closes, a kernel
// that compiles but breaks a rule no statement can break alone (a variable
// nothing uses, unreachable code, a store every work-item makes to one
// element), or whose counts stand on dead code (no global write, none that
// depends on the input), is not finished yet, so the sampler takes its last
// statement back and lets the model write on (docs/model.md, "Clean samples").
#pragma once
#include "steer/BeamSelection.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace steerbench::model {
struct SampleOptions;
}

namespace steerbench::steer {

/// A sampler's statement check (model::SampleOptions::check) with every
/// warning an error and those of cleanStatementWarnings() turned on.
[[nodiscard]] std::function<std::size_t(const std::string&)> cleanStatementCheck();
/// The same for several texts at once (clangfe::firstErrorOffsets), as
/// model::SampleOptions::checkMany.
[[nodiscard]] std::function<std::vector<std::size_t>(const std::vector<std::string>&)> cleanStatementChecks();

/// The check: the byte offset of the kernel's first error under
/// cleanStatementWarnings(); else, when cleanKernelViolation finds
/// something, its last byte, which lies after any hole; else
/// std::string::npos. Thread-safe.
[[nodiscard]] std::function<std::size_t(const std::string&)> cleanKernelCheck(std::vector<std::string> rules);

/// What the kernels edited from a parent are judged against: how many
/// findings the parent holds of each rule judged against a parent, or why
/// it could not be measured (it does not compile).
struct ParentFindings {
  RelativeCounts counts;
  std::string error;
};
/// Measures `parent` once, for any number of cleanKernelViolation calls.
[[nodiscard]] ParentFindings parentFindings(const std::string& parent, const std::vector<std::string>& rules);

/// The rule a whole kernel breaks, as "rule: line L: message", or empty:
/// one of `rules` (judged as a kernel without a parent: any finding of a
/// relative rule counts; with `parent`, the findings of the kernel it was
/// edited from, only findings beyond the parent's count, as steering judges
/// a candidate), else "dead-code" when the -O1 IR shows its counts on dead
/// code (features::checkDeadCode, as steering's contenders).
[[nodiscard]] std::string cleanKernelViolation(const std::string& text, const std::vector<std::string>& rules,
                                               const ParentFindings* parent = nullptr);

/// Sets a sampler's checks to sample clean: statements by
/// cleanStatementCheck(), whole kernels by cleanKernelCheck(rules).
void sampleClean(model::SampleOptions& o, std::vector<std::string> rules);

/// Sets a sampler's checks to Clang's errors alone: each text by
/// clangfe::firstErrorOffset, a step's texts together by firstErrorOffsets.
void sampleChecked(model::SampleOptions& o);

} // namespace steerbench::steer

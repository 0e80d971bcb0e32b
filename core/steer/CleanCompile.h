// Clean-compile rules (docs/steering.md, "Clean compiles"): a steering
// candidate is kept only when Clang finds no code in it that has no effect or
// cannot run as written. The search optimises feature counts and nothing
// else, so without these rules it finds counts in dead branches, comma
// operands, unused values, loops that never end and implicit conversions of
// floats to indices. Each rule is a set of Clang warnings; measuring turns
// them on (they change no IR) and judges the candidate by what they report.
#pragma once
#include "clang/OpenCLFrontend.h"
#include "steer/BeamSelection.h"

#include <string>
#include <vector>

namespace steerbench::steer {

struct CleanRule {
  const char* name;                  ///< as SteerSpec::cleanRules names it ("unused-value")
  std::vector<const char*> flags;    ///< warnings to turn on, without -W
  std::vector<const char*> reported; ///< the warning options that break the rule
  const char* what;                  ///< one line for people
  /// Parts of the messages of warnings Clang gives no option for (always
  /// on) that break it too ("comparison between pointer and integer").
  std::vector<const char*> messages;
  /// Judged against the candidate's parent (relativeRuleAdded), not by
  /// cleanCompileViolation: real kernels hold some, so only an edit that
  /// adds one is refused. Its findings come from the AST walk.
  bool relative = false;
};

/// Every rule, in the order docs/steering.md lists them.
[[nodiscard]] const std::vector<CleanRule>& cleanRules();
/// The names of every rule (SteerSpec's default).
[[nodiscard]] std::vector<std::string> cleanRuleNames();
/// Every rule's name, comma-separated, for messages.
[[nodiscard]] std::string cleanRuleList();
/// The rule named `name`, or nullptr.
[[nodiscard]] const CleanRule* cleanRule(const std::string& name);

/// The warnings a compile must turn on to judge `rules`.
[[nodiscard]] std::vector<std::string> cleanCompileWarnings(const std::vector<std::string>& rules);

/// Warnings for checking statements as a sampler writes them
/// (model::SampleOptions::check with clangfe::firstErrorOffsetWith): every
/// warning an error, with those of the rules a statement can break on its
/// own turned on (not unused-variable or unreachable-code, which later text
/// decides, nor the rules of the AST walk). A sample written under them
/// breaks fewer rules; they are for feeds without text of their own that
/// could break them (the undirected "kernel void [HOLE]").
[[nodiscard]] std::vector<std::string> cleanStatementWarnings();

/// The first of `rules` a compile's diagnostics break, as "rule: message [-Wflag]"
/// (empty: clean). Warnings outside the rules are ignored.
[[nodiscard]] std::string cleanCompileViolation(const std::vector<clangfe::Diagnostic>& diagnostics,
                                                const std::vector<std::string>& rules);

/// The findings of the rules judged against the parent (CleanRule::relative)
/// among `findings` (steer/CleanAst.h), by rule: "line L: message", in
/// source order. A rule with no findings has no entry.
[[nodiscard]] RelativeSites relativeSites(const std::vector<clangfe::Diagnostic>& findings);
/// How many findings each rule of `sites` has.
[[nodiscard]] RelativeCounts siteCounts(const RelativeSites& sites);
/// The rules judged against the parent: a candidate with more findings of
/// one of them (`sites`) than its parent had (`parent`) gained counts that
/// compute nothing or a test that means something else. Returns "rule: line
/// L: message (N such sites, the parent M)" for the first such rule in the
/// order of cleanRules, or empty. Seeds are what people wrote and are not judged.
[[nodiscard]] std::string relativeRuleAdded(const RelativeSites& sites, const RelativeCounts& parent);

} // namespace steerbench::steer

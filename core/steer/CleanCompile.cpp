#include "steer/CleanCompile.h"

#include "steer/CleanAst.h"

#include <algorithm>

namespace steerbench::steer {

const std::vector<CleanRule>& cleanRules() {
  static const std::vector<CleanRule> rules = {
      {"unused-value",
       {"unused-value"},
       {"unused-value", "unused-comparison", "unused-result", kUnusedStatement},
       "an expression whose value nothing uses: a statement `a[i] + b;`, a comma's left operand, a loop step `s`, "
       "`(CLK_LOCAL_MEM_FENCE);` (a macro's, which Clang lets pass, found by the AST walk)"},
      {"comma", {"comma"}, {"comma"}, "the comma operator outside a for loop's header: `q = (a, b[j]);`"},
      {"unused-variable",
       {"unused-variable", "unused-but-set-variable"},
       {"unused-variable", "unused-but-set-variable"},
       "a variable never read: `int t = a[i] * 2;` and nothing more of t"},
      {"implicit-int", {"implicit-int"}, {"implicit-int"}, "a declaration without a type: `const int g, h`"},
      {"unreachable-code",
       {"unreachable-code-aggressive"},
       {"unreachable-code", "unreachable-code-break", "unreachable-code-return", "unreachable-code-loop-increment"},
       "code that can never run: the body of `if (0)` or `while (0)`, statements after a return"},
      {"loop-analysis",
       {"loop-analysis"},
       {"for-loop-analysis", "range-loop-analysis", kWhileLoopAnalysis},
       "a loop whose condition's variables the loop never changes: `for (s = n; s > 0; s)`, `while (e < c)` "
       "with e never written and no break (the while part is a walk of the AST, steer/CleanAst.h)"},
      {"tautology",
       {"tautological-compare", "tautological-constant-in-range-compare", "self-assign", "constant-logical-operand"},
       {"tautological-compare", "tautological-constant-compare", "tautological-constant-out-of-range-compare",
        "tautological-overlap-compare", "tautological-pointer-compare", "tautological-bitwise-compare",
        "tautological-undefined-compare", "tautological-constant-in-range-compare", "tautological-unsigned-zero-compare",
        "tautological-unsigned-enum-zero-compare", "tautological-value-range-compare", "self-assign",
        "self-assign-field", "constant-logical-operand", kSelfStore, kOpposedTests, kIdBelowSize},
       "a test whose answer is known, or a value assigned to itself: `e == e`, `u >= 0` for an unsigned u, `x && 3`, "
       "`a = a`, `b[i] = b[i]`, `f < d && f >= d`, `get_local_id(1) == get_local_size(1)`, `get_local_size(0) == 0` (elements, opposed tests and ids against sizes are a walk of the AST, steer/CleanAst.h)"},
      {"float-to-integer",
       {"float-conversion", "literal-conversion"},
       {"float-conversion", "literal-conversion"},
       "a floating value silently made an integer: `get_global_size(a[1])` for a float a"},
      {"uninitialized",
       {"uninitialized", "sometimes-uninitialized", "conditional-uninitialized"},
       {"uninitialized", "sometimes-uninitialized", "conditional-uninitialized", kUninitializedArray},
       "a variable read before it is written: `float x; b[i] = x;`, `int c[16]; e = c[0];` (its value is undefined; "
       "arrays are the AST walk's, steer/UninitializedArrays.h)"},
      {"undefined-arithmetic",
       {"division-by-zero", "shift-count-overflow", "shift-count-negative", "shift-negative-value", "array-bounds",
        "integer-overflow"},
       {"division-by-zero", "shift-count-overflow", "shift-count-negative", "shift-negative-value", "array-bounds",
        "integer-overflow"},
       "arithmetic Clang can see is undefined: `x / 0`, `1 << 40`, `p[4]` of a `float p[4]`"},
      {"empty-body", {"empty-body"}, {"empty-body"}, "a loop or if with an empty statement for a body: `if (x < n);`"},
      {"unsequenced",
       {"unsequenced"},
       {"unsequenced"},
       "a variable changed twice, or changed and read, with no order between: `d = d++;`, `a[i] = i++;` (undefined)"},
      {"pointer-integer",
       {"int-conversion", "pointer-integer-compare", "incompatible-pointer-types"},
       {"int-conversion", "pointer-integer-compare", "incompatible-pointer-types"},
       "a pointer used as an integer or the other way round: `b < n` for a pointer b",
       {"comparison between pointer and integer"}},
      {"assignment-condition",
       {"parentheses"},
       {"parentheses"},
       "an assignment used as a condition: `if (k = n)`"},
      {"empty-declaration",
       {"missing-declarations"},
       {"missing-declarations"},
       "a declaration that declares nothing: `for (int; d < c; d++)`, `int;`"},
      {"duplicate-qualifier",
       {"duplicate-decl-specifier"},
       {"duplicate-decl-specifier"},
       "a qualifier written twice, which says nothing more: `const const int f`, `global global float *a`",
       {"multiple identical address spaces specified for type"}},
      {"c2x-extension",
       {"c2x-extensions"},
       {"c2x-extensions"},
       "C that only C2x allows, which Clang takes from OpenCL C with a warning: a parameter without a name "
       "in the kernel's definition, `global float *,` (an edit that took its name out)"},
      // The rules below are found by walking the AST (steer/CleanAst.h): Clang 15 has no warning for them.
      {kChainedComparison,
       {},
       {kChainedComparison},
       "a comparison of a comparison's 0 or 1: `j < 2 >= c`, `(f >= e) < d`"},
      {kPointerCondition,
       {},
       {kPointerCondition},
       "a pointer tested as a truth value, constant when the kernel runs: `if (b || i >= n) return;`; where "
       "the host put buffers compared: `f < g`, `g > f - 1`, `a >= 0`, a buffer with itself"},
      {kTruthIndex,
       {},
       {kTruthIndex},
       "a comparison's 0 or 1 as a subscript, a work-item dimension, a divisor or a dividend: `b[x < g]`, "
       "`get_global_size(j >= g)`, `x / (i < n)`, `(c < b) / 2`"},
      {kWorkItemDimension,
       {},
       {kWorkItemDimension},
       "a work-item function's dimension that is not a constant: `get_global_id(2 * c)`, `get_local_size(n)`"},
      {kBarrierFlags,
       {},
       {kBarrierFlags},
       "a barrier or fence whose flags are not a constant: `barrier(l)`, `mem_fence(k < n)`"},
      {kReversedSubscript, {}, {kReversedSubscript}, "a subscript written index first: `e[d]` for `d[e]`"},
      {kVectorSubscript,
       {},
       {kVectorSubscript},
       "a vector's element chosen by a subscript that is not a constant within its length: `w[v]` for a float4 w"},
      {kBufferRewind,
       {},
       {kBufferRewind},
       "a kernel's buffer argument moved back before its start (`b -= 2 * e;`, `b = b - e;`, `b--`), read "
       "before it (`b[-2]`, also through `global float *j = b;`, where nothing moves either), or replaced by a "
       "null pointer (`b = 0;`)"},
      {kCrossItemRace,
       {},
       {kCrossItemRace},
       "an access to a global buffer's element that another work-item stores, with nothing to order the two: "
       "`a[d + 1] = x; y = a[d];`, `f[e + 1] = x; y = f[e * 4 + 7];` with d and e from get_global_id "
       "(steer/CrossItemRaces.h)"},
      // Judged against the candidate's parent, not by cleanCompileViolation (relativeRuleAdded).
      {kIdentityArithmetic,
       {},
       {},
       "more arithmetic that changes nothing than the parent had: `x + 0`, `2 * +0`, `x * 1`, `x - x`, "
       "`12 + 6` (literals a literal would write)",
       {},
       true},
      {kNumberCondition,
       {},
       {},
       "more numbers tested as truth values than the parent had: `if (o >= f || l)` for `if (o >= f || l >= e)`",
       {},
       true},
      {kUniformStore,
       {},
       {},
       "more stores every work-item makes to the same global element than the parent had: `a[m] = d[j];`",
       {},
       true},
      {kOverwrittenValue,
       {},
       {},
       "more values assigned and assigned again before anything reads them than the parent had: "
       "`g = g < 4 ? 4 : f; g = +d;`",
       {},
       true},
      {kOverwrittenStore,
       {},
       {},
       "more stores replaced by a store to the same element before anything reads them than the parent had: "
       "`b[e] = c[i] * 2.0f; b[e] = c[i + 1];`",
       {},
       true},
      {kQuadraticIndex,
       {},
       {},
       "more subscripts of global memory that multiply two values computed from the work-item's id than the "
       "parent had: `a[d * d]`, `b[e * f + 3]` with e and f from get_global_id",
       {},
       true},
      {kLocalGlobalIndex,
       {},
       {},
       "more subscripts of local memory that grow with the global id than the parent had: `t[get_global_id(0)]`, "
       "`t[2 * g + 1]` for `g = get_global_id(0)`",
       {},
       true},
  };
  return rules;
}

std::vector<std::string> cleanRuleNames() {
  std::vector<std::string> out;
  for (const auto& r : cleanRules())
    out.emplace_back(r.name);
  return out;
}

std::string cleanRuleList() {
  std::string out;
  for (const auto& r : cleanRules())
    out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

const CleanRule* cleanRule(const std::string& name) {
  for (const auto& r : cleanRules())
    if (name == r.name) return &r;
  return nullptr;
}

std::vector<std::string> cleanCompileWarnings(const std::vector<std::string>& rules) {
  std::vector<std::string> out;
  for (const auto& name : rules)
    if (const auto* r = cleanRule(name))
      for (const char* f : r->flags)
        if (std::find(out.begin(), out.end(), f) == out.end()) out.emplace_back(f);
  return out;
}

RelativeSites relativeSites(const std::vector<clangfe::Diagnostic>& findings) {
  RelativeSites out;
  for (const auto& d : findings)
    if (const auto* r = cleanRule(d.option); r && r->relative)
      out[d.option].push_back("line " + std::to_string(d.line) + ": " + d.message);
  return out;
}

RelativeCounts siteCounts(const RelativeSites& sites) {
  RelativeCounts out;
  for (const auto& [rule, s] : sites)
    out[rule] = s.size();
  return out;
}

std::string relativeRuleAdded(const RelativeSites& sites, const RelativeCounts& parent) {
  for (const auto& r : cleanRules()) {
    if (!r.relative) continue;
    const auto it = sites.find(r.name);
    if (it == sites.end()) continue;
    const auto p = parent.find(r.name);
    const std::size_t before = p == parent.end() ? 0 : p->second;
    if (it->second.size() > before)
      return std::string(r.name) + ": " + it->second.front() + " (" + std::to_string(it->second.size()) +
             " such sites, the parent " + std::to_string(before) + ")";
  }
  return {};
}

std::vector<std::string> cleanStatementWarnings() {
  std::vector<std::string> out = {"error"};
  for (const char* name : {"unused-value", "comma", "implicit-int", "tautology", "float-to-integer", "uninitialized",
                           "undefined-arithmetic", "empty-body", "unsequenced", "pointer-integer",
                           "assignment-condition", "empty-declaration", "duplicate-qualifier"})
    for (const char* flag : cleanRule(name)->flags)
      out.emplace_back(flag);
  return out;
}

std::string cleanCompileViolation(const std::vector<clangfe::Diagnostic>& diagnostics,
                                  const std::vector<std::string>& rules) {
  for (const auto& d : diagnostics) {
    if (d.severity != clangfe::Severity::Warning) continue;
    for (const auto& name : rules) {
      const auto* r = cleanRule(name);
      if (!r) continue;
      for (const char* option : r->reported)
        if (d.option == option)
          return name + ": " + d.message + (d.option == kWhileLoopAnalysis || d.option == kUninitializedArray || r->flags.empty() ? "" : " [-W" + d.option + "]");
      if (d.option.empty())
        for (const char* m : r->messages)
          if (d.message.find(m) != std::string::npos) return name + ": " + d.message;
    }
  }
  return {};
}

} // namespace steerbench::steer

#include "steer/CleanKernelCheck.h"

#include "clang/CheckBatch.h"
#include "clang/OpenCLFrontend.h"
#include "features/DeadCode.h"
#include "features/FeatureSpace.h"
#include "model/Sampler.h"
#include "steer/CleanCompile.h"
#include "steer/MeasurePool.h"

namespace steerbench::steer {

namespace {

Measured measuredAlone(const std::string& text, const std::vector<std::string>& rules) {
  const auto& space = features::featureSpace("grewe");
  return measureCandidate(text, space, std::vector<double>(space.dimensions.size(), 0.0), {}, rules);
}

} // namespace

ParentFindings parentFindings(const std::string& parent, const std::vector<std::string>& rules) {
  const Measured p = measuredAlone(parent, rules);
  if (!p.compiled) return {{}, p.error.empty() ? std::string("no kernel") : p.error};
  return {siteCounts(p.relative), {}};
}

std::string cleanKernelViolation(const std::string& text, const std::vector<std::string>& rules,
                                 const ParentFindings* parent) {
  if (parent && !parent->error.empty()) return "the parent does not compile: " + parent->error;
  const Measured m = measuredAlone(text, rules);
  if (!m.compiled) return "does not compile: " + m.error;
  if (!m.unclean.empty()) return m.unclean;
  if (auto relative = relativeRuleAdded(m.relative, parent ? parent->counts : RelativeCounts{}); !relative.empty())
    return relative;
  // What steering's contenders are checked for first: counts on code the
  // -O1 IR drops, no global write, or no write that depends on the input.
  const auto dead = features::checkDeadCode(text, m.kernel);
  if (!dead.measured) return "dead-code: " + dead.error;
  return dead.dead.empty() ? std::string() : "dead-code: " + dead.dead;
}

std::function<std::size_t(const std::string&)> cleanStatementCheck() {
  return [warnings = cleanStatementWarnings()](const std::string& text) {
    return clangfe::firstErrorOffsetWith(text, warnings);
  };
}

std::function<std::size_t(const std::string&)> cleanKernelCheck(std::vector<std::string> rules) {
  return [rules = std::move(rules), statement = cleanStatementCheck()](const std::string& text) {
    if (const std::size_t at = statement(text); at != std::string::npos) return at;
    if (text.empty() || cleanKernelViolation(text, rules).empty()) return std::string::npos;
    return text.size() - 1;
  };
}

std::function<std::vector<std::size_t>(const std::vector<std::string>&)> cleanStatementChecks() {
  return [warnings = cleanStatementWarnings()](const std::vector<std::string>& texts) {
    return clangfe::firstErrorOffsets(texts, warnings);
  };
}

void sampleChecked(model::SampleOptions& o) {
  o.check = clangfe::firstErrorOffset;
  o.checkMany = [](const std::vector<std::string>& texts) { return clangfe::firstErrorOffsets(texts); };
}

void sampleClean(model::SampleOptions& o, std::vector<std::string> rules) {
  o.check = cleanStatementCheck();
  o.checkMany = cleanStatementChecks();
  o.wholeCheck = cleanKernelCheck(std::move(rules));
}

} // namespace steerbench::steer

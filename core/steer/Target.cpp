#include "steer/Target.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "dataset/DevMap.h"
#include "engine/FeatureJob.h"
#include "engine/FeatureTable.h"
#include "features/GreweFeatures.h"
#include "features/Measurement.h"

#include <llvm/Support/JSON.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace steerbench::steer {

namespace {

std::size_t dimensionIndex(const features::FeatureSpace& space, const std::string& name) {
  const auto& d = space.dimensions;
  const auto it = std::find(d.begin(), d.end(), name);
  if (it == d.end()) {
    std::string known;
    for (std::size_t i = 0; i < d.size() && i < 12; ++i)
      known += (i ? ", " : "") + d[i];
    if (d.size() > 12) known += ", ...";
    throw InputError("the " + space.name + " space has no dimension \"" + name + "\" (it has " + known + ")");
  }
  return std::size_t(it - d.begin());
}

double parseNumber(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw InputError(what + ": \"" + text + "\" is not a number");
  return v;
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\n\r");
  if (a == std::string::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\n\r") - a + 1);
}

bool isGrewe(const std::string& space) { return space == "grewe"; }

} // namespace

void recomputeGreweRatios(std::vector<double>& g) {
  if (g.size() != 8) return;
  const double comp = g[0], mem = g[2], coalesced = g[4];
  g[6] = mem > 0 ? coalesced / mem : 0.0;
  g[7] = mem > 0 ? comp / mem : 0.0;
}

std::string Target::toJson() const {
  return "{\"space\":" + jsonString(space) + ",\"values\":" + jsonNumbers(values) + ",\"origin\":" +
         jsonString(origin) + "}";
}

Target Target::fromJson(const std::string& json, const std::string& name) {
  auto parsed = llvm::json::parse(json);
  if (!parsed) {
    const std::string why = llvm::toString(parsed.takeError());
    throw InputError(name + " is not a target: not JSON (" + why + ")");
  }
  const auto* o = parsed->getAsObject();
  if (!o) throw InputError(name + " is not a target: expected an object {\"space\": ..., \"values\": ...}");
  Target t;
  if (auto s = o->getString("space")) t.space = s->str();
  else throw InputError(name + " is not a target: it names no \"space\"");
  const auto& space = features::featureSpace(t.space);
  if (auto s = o->getString("origin")) t.origin = s->str();
  if (const auto* a = o->getArray("values")) {
    for (const auto& v : *a) {
      auto d = v.getAsNumber();
      if (!d) throw InputError(name + ": every value must be a number");
      t.values.push_back(*d);
    }
    if (t.values.size() != space.dimensions.size())
      throw InputError(name + ": " + std::to_string(t.values.size()) + " values for the " + t.space + " space's " +
                       std::to_string(space.dimensions.size()) + " dimensions");
  } else if (const auto* m = o->getObject("values")) {
    std::string text;
    for (const auto& kv : *m) {
      auto d = kv.second.getAsNumber();
      if (!d) throw InputError(name + ": the value of " + kv.first.str() + " must be a number");
      text += (text.empty() ? "" : ",") + kv.first.str() + "=" + formatNumber(*d);
    }
    const std::string origin = t.origin;
    t = targetFromAssignments(t.space, text);
    if (!origin.empty()) t.origin = origin;
  } else {
    throw InputError(name + " is not a target: it has no \"values\"");
  }
  if (t.origin.empty()) t.origin = name;
  return t;
}

Target targetFromAssignments(const std::string& spaceName, const std::string& text) {
  const auto& space = features::featureSpace(spaceName);
  Target t{space.name, std::vector<double>(space.dimensions.size(), 0.0), text};
  std::vector<bool> given(space.dimensions.size(), false);
  std::stringstream in(text);
  std::string item;
  bool any = false;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw InputError("target \"" + text + "\": expected NAME=VALUE pairs separated by commas, got \"" + item + "\"");
    const auto i = dimensionIndex(space, trim(item.substr(0, eq)));
    const double v = parseNumber(trim(item.substr(eq + 1)), "target dimension " + space.dimensions[i]);
    if (v < 0) throw InputError("target dimension " + space.dimensions[i] + ": features are never negative");
    t.values[i] = v;
    given[i] = true;
    any = true;
  }
  if (!any) throw InputError("target \"" + text + "\" sets no dimension (expected e.g. comp=40,mem=12)");
  if (isGrewe(space.name) && t.values.size() == 8) {
    auto derived = t.values;
    recomputeGreweRatios(derived);
    if (!given[6]) t.values[6] = derived[6];
    if (!given[7]) t.values[7] = derived[7];
  }
  return t;
}

Target targetFromKernelFile(const std::string& spaceName, const std::string& path, const std::string& kernel) {
  const auto& space = features::featureSpace(spaceName);
  features::MeasureOptions mo;
  mo.spaces = {&space};
  const auto m = features::measureFile(path, mo);
  if (!m.ok()) throw InputError(path + ": cannot be used as a target: " + m.error);
  const auto& sr = m.spaces.at(0);
  if (!sr.error.empty()) throw InputError(path + ": cannot be measured in the " + space.name + " space: " + sr.error);
  for (const auto& k : sr.kernels)
    if (kernel.empty() || k.kernel == kernel)
      return Target{space.name, k.values, "kernel " + k.kernel + " in " + path};
  std::string names;
  for (const auto& k : sr.kernels)
    names += (names.empty() ? "" : ", ") + k.kernel;
  throw InputError(path + " has no kernel \"" + kernel + "\" (it has " + names + ")");
}

Target targetFromDevMap(const std::string& csvPath, const std::string& row) {
  const auto rows = dataset::readDevMap(csvPath);
  const bool index = !row.empty() && std::all_of(row.begin(), row.end(), [](char c) { return c >= '0' && c <= '9'; });
  const dataset::DevMapRow* found = nullptr;
  std::size_t at = 0;
  if (index) {
    at = row.size() > 9 ? rows.size() : std::stoul(row);
    if (at >= rows.size())
      throw InputError(csvPath + " has " + std::to_string(rows.size()) + " rows; there is no row " + row);
    found = &rows[at];
  } else {
    for (std::size_t i = 0; i < rows.size() && !found; ++i)
      if (rows[i].benchmark == row) {
        found = &rows[i];
        at = i;
      }
    if (!found) throw InputError(csvPath + " has no benchmark called \"" + row + "\"");
  }
  std::vector<double> v = {found->comp, found->rational, found->mem, found->localmem, found->coalesced, found->atomic,
                           0, 0};
  recomputeGreweRatios(v);
  return Target{"grewe", v, found->benchmark + " (row " + std::to_string(at) + " of " + csvPath + ")"};
}

} // namespace steerbench::steer

#include "model/Conditioning.h"

#include "common/Error.h"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace steerbench::model {

namespace {
// The floors of the bins: exact up to 4, then two bins an octave.
constexpr std::array<int, kConditionBins> kFloors{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192};
} // namespace

int conditionBin(double count) {
  const double c = std::round(count);
  int bin = 0;
  for (int b = 0; b < kConditionBins; ++b)
    if (c >= double(kFloors[std::size_t(b)])) bin = b;
  return bin;
}

int conditionBinFloor(int bin) {
  if (bin < 0 || bin >= kConditionBins) throw std::out_of_range("conditionBinFloor: no such bin");
  return kFloors[std::size_t(bin)];
}

std::vector<int> conditionTokens(const std::vector<double>& grewe, int vocab) {
  if (grewe.size() < kConditionNames.size())
    throw std::invalid_argument("conditionTokens: a Grewe vector has at least six counts");
  std::vector<int> ids;
  for (std::size_t n = 0; n < kConditionNames.size(); ++n)
    ids.push_back(vocab + int(n) * kConditionBins + conditionBin(grewe[n]));
  return ids;
}

std::vector<double> parseConditionTarget(const std::string& text) {
  std::vector<double> v(kConditionNames.size(), 0.0);
  std::vector<bool> seen(kConditionNames.size(), false);
  std::stringstream in(text);
  std::string item;
  bool any = false;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw InputError("target \"" + item + "\": write NAME=COUNT, e.g. comp=60,mem=12");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    std::size_t n = 0;
    while (n < kConditionNames.size() && name != kConditionNames[n])
      ++n;
    if (n == kConditionNames.size())
      throw InputError("target: no count named \"" + name +
                       "\" (comp, rational, mem, localmem, coalesced or atomic)");
    if (seen[n]) throw InputError("target: " + name + " is given twice");
    char* end = nullptr;
    const double c = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(c >= 0) || !std::isfinite(c))
      throw InputError("target: " + name + " must be a count of 0 or more, not \"" + value + "\"");
    v[n] = c;
    seen[n] = true;
    any = true;
  }
  if (!any) throw InputError("target: empty; write NAME=COUNT, e.g. comp=60,mem=12");
  return v;
}

std::string describeConditionTarget(const std::vector<double>& grewe) {
  std::string s;
  for (std::size_t n = 0; n < kConditionNames.size() && n < grewe.size(); ++n) {
    if (grewe[n] == 0) continue;
    std::ostringstream c;
    c << grewe[n];
    s += (s.empty() ? "" : ",") + std::string(kConditionNames[n]) + "=" + c.str();
  }
  return s.empty() ? "0" : s;
}

} // namespace steerbench::model

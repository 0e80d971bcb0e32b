#include "drive/host/Payloads.h"

#include <algorithm>
#include <cmath>

namespace steerbench::drive {

const std::vector<std::string>& constraintSets() {
  static const std::vector<std::string> sets = {"roles", "cldrive", "big", "scalars"};
  return sets;
}

const char* scalarChoiceName(ScalarChoice c) {
  switch (c) {
  case ScalarChoice::Zero: return "0";
  case ScalarChoice::One: return "1";
  case ScalarChoice::Half: return "half";
  case ScalarChoice::Role: break;
  }
  return "role";
}

std::uint64_t gridSide(std::uint64_t items, int rank, std::uint64_t localSide) {
  items = std::max<std::uint64_t>(1, items);
  if (rank <= 1) return localSide ? std::max(localSide, (items + localSide - 1) / localSide * localSide) : items;
  const auto side = std::uint64_t(std::llround(std::pow(double(items), 1.0 / rank)));
  if (!localSide) return std::max<std::uint64_t>(1, side);
  return std::max<std::uint64_t>(localSide, std::uint64_t(std::llround(double(side) / double(localSide))) * localSide);
}

void planPayload(const PayloadModel& model, const KernelSignature& kernel, const KernelAnalysis& analysis,
                 std::uint64_t items, std::uint64_t local, RunRequest& r) {
  const std::size_t n = kernel.arguments.size();
  r.counts.assign(n, 0);
  r.values.assign(n, RunRequest::kDefaultValue);
  r.ranges.assign(n, 0);
  r.varied.assign(n, 0);
  if (model.set == "cldrive" || !analysis.found || analysis.roles.size() != n) {
    const auto total = gridSide(items, 1, local);
    r.global = {total};
    r.local = local ? std::vector<std::uint64_t>{local} : std::vector<std::uint64_t>{};
    r.globalSize = total;
    r.localSize = local;
    return;
  }
  const int rank = std::clamp(model.rank, 1, 3);
  // The work-group: the shape a 2-D kernel's local tiles assume, or the
  // requested size spread over the dimensions; the grid: about `items`
  // work-items, square, each side a multiple of the group's.
  std::vector<std::uint64_t> l;
  if (rank == 2 && analysis.workGroup.size() == 2) l = analysis.workGroup;
  else if (local) l.assign(std::size_t(rank), rank == 1 ? local : std::uint64_t(std::llround(std::pow(double(local), 1.0 / rank))));
  r.global.clear();
  for (int d = 0; d < rank; ++d)
    r.global.push_back(gridSide(items, rank, l.empty() ? 0 : l[std::size_t(d)]));
  const std::uint64_t side = r.global.front();
  std::uint64_t total = 1;
  for (auto g : r.global)
    total *= g;
  r.local = l;
  r.localSize = 0;
  if (!l.empty()) {
    r.localSize = 1;
    for (auto x : l)
      r.localSize *= x;
  }
  // Every work-group of a kernel without global or group ids does the same
  // work on the same memory: one runs, and the scalars stay those of the
  // requested size (how much each work-item does).
  if (analysis.oneGroup && !l.empty()) r.global = l;
  r.globalSize = 1;
  for (auto g : r.global)
    r.globalSize *= g;
  // Scalars: sizes and widths get the grid's side (a 1-D kernel's guard, all
  // of it); offsets get 1; what only bounds a loop, multiplies an index of a 1-D kernel, or
  // shows no use the analysis knows (a step count, an offset) gets the square
  // root, so that a kernel does about items^1.5 work, not items^2.
  const auto root = std::max<std::uint64_t>(1, std::uint64_t(std::llround(std::sqrt(double(total)))));
  for (std::size_t i = 0; i < n; ++i) {
    const auto& a = kernel.arguments[i];
    if (a.kind != KernelArgument::Kind::Scalar || !a.isIntegral() || a.isStruct()) continue;
    if (a.width > 1) { // an integer vector is usually dimensions (a uint2 width and height): the grid's side
      r.values[i] = std::int64_t(rank > 1 ? side : root);
      continue;
    }
    std::uint64_t v = 0;
    switch (analysis.roles[i]) {
    case ArgumentRole::Size: v = rank > 1 ? side : analysis.loopBoundOnly[i] ? root : total; break;
    case ArgumentRole::Stride: v = rank > 1 ? side : root; break;
    case ArgumentRole::Offset: v = 1; break; // a halo or a first row: small, never zero (a divisor)
    default: v = rank > 1 ? side : root; break;
    }
    // A bound of a nest of k loops (a filter's `for (i < w) for (j < w)`):
    // the k-th root of a single loop's bound, so each work-item does about
    // as much work as under one loop (a triple nest at the side 256 of a
    // 2-D grid did 16.7 million turns a work-item and never ended).
    // A row width of the ids keeps its value: it decides which element each
    // work-item reaches.
    if (const int k = analysis.nestRoot(i); k > 1)
      v = std::max<std::uint64_t>(2, std::uint64_t(std::llround(std::pow(double(v), 1.0 / k))));
    if (i < analysis.caps.size() && analysis.caps[i]) v = std::min(v, analysis.caps[i]);
    r.varied[i] = analysis.roles[i] == ArgumentRole::Value;
    switch (i < model.scalars.size() ? model.scalars[i] : ScalarChoice::Role) {
    case ScalarChoice::Zero: v = 0, r.varied[i] = 0; break;
    case ScalarChoice::One: v = 1; break;
    case ScalarChoice::Half: v = std::max<std::uint64_t>(1, v / 2); break;
    case ScalarChoice::Role: break;
    }
    r.values[i] = std::int64_t(v);
  }
  // Buffers: as measured, or 16 times the work-items (big), at most 64 MB
  // in all (a kernel with twenty buffers of 260-byte structs would otherwise
  // spend its time limit on making random payloads).
  std::size_t buffers = 0;
  for (const auto& a : kernel.arguments)
    buffers += a.isBuffer();
  const std::uint64_t bigBudget = (std::uint64_t(64) << 20) / std::max<std::size_t>(1, buffers);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& a = kernel.arguments[i];
    if (!a.isBuffer()) continue;
    const auto bytes = a.valueBytes();
    std::uint64_t count = total;
    if (model.set == "big") {
      count = std::max<std::uint64_t>(1, std::min<std::uint64_t>(16 * total, bigBudget / bytes));
    } else if (i < model.extents.size() && model.extents[i].probed) {
      const auto& e = model.extents[i];
      const double need = e.perItem * double(total) + e.fixed;
      count = e.accessed ? std::max<std::uint64_t>(1, std::uint64_t(std::ceil(need / double(bytes)))) : 1;
      // A reach far beyond the work (a write at id + 500000000) is not given
      // memory: the bounds check reports it.
      const std::uint64_t cap = std::max<std::uint64_t>(64 * total, 1u << 16);
      count = std::min({count, cap, kMaxBufferBytes / bytes});
      // Accesses the probe could not see (through pointers it could not
      // trace) may need more than it measured: never less than CLgen's rule.
      if (analysis.unattributed > 0) count = std::max(count, total);
    }
    r.counts[i] = count;
  }
  // Integer buffers whose values index another buffer hold indices into it.
  for (std::size_t i = 0; i < n; ++i) {
    const int target = i < analysis.indexes.size() ? analysis.indexes[i] : -1;
    if (target >= 0 && kernel.arguments[i].isIntegral()) r.ranges[i] = std::max<std::uint64_t>(1, r.counts[std::size_t(target)]);
    // Values that bound loops are counts: small ones, as struct fields get.
    else if (i < analysis.counts.size() && analysis.counts[i] && kernel.arguments[i].isIntegral()) r.ranges[i] = kCountRange;
  }
}

std::string describePayload(const RunRequest& r, const KernelAnalysis& analysis) {
  auto dims = [](const std::vector<std::uint64_t>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i ? "x" : "") + std::to_string(v[i]);
    return s;
  };
  std::string out = "NDRange " + dims(r.globalRange());
  if (!r.localRange().empty()) out += " (local " + dims(r.localRange()) + ")";
  for (std::size_t i = 0; i < r.arguments.size(); ++i) {
    const auto& a = r.arguments[i];
    const std::string role = i < analysis.roles.size() ? roleName(analysis.roles[i]) : "";
    if (a.kind == KernelArgument::Kind::Scalar) {
      if (i < r.values.size() && r.values[i] != RunRequest::kDefaultValue)
        out += "; " + a.name + " = " + std::to_string(r.values[i]) + " (" + role +
               (i < analysis.loopBoundOnly.size() && analysis.loopBoundOnly[i] ? ", loop bound" : "") +
               (analysis.nestRoot(i) > 1 ? " of a nest of " + std::to_string(analysis.nestRoot(i)) : "") +
               ")";
      continue;
    }
    if (a.isImage()) {
      out += "; " + a.name + ": " + (a.isConst ? "read-only " : "write-only ") + "image" + std::to_string(a.imageDims) +
             "d " + imageShape(r, a).describe() + " RGBA " + a.element;
      continue;
    }
    if (a.kind == KernelArgument::Kind::Sampler) {
      out += "; " + a.name + ": sampler (clamp to edge, nearest)";
      continue;
    }
    out += "; " + a.name + ": " + std::to_string(r.elements(i)) + " " + (a.isStruct() ? "structs of " + std::to_string(a.structBytes) + " B" : a.element + (a.width > 1 ? std::to_string(a.width) : ""));
    if (i < r.ranges.size() && r.ranges[i])
      out += (i < analysis.counts.size() && analysis.counts[i] && r.ranges[i] == kCountRange ? " (counts < " : " (indices < ") +
             std::to_string(r.ranges[i]) + ")";
  }
  return out;
}

BufferExtent fitExtent(std::uint64_t itemsA, std::int64_t minA, std::int64_t maxA, std::int64_t accessesA,
                       std::uint64_t itemsB, std::int64_t minB, std::int64_t maxB, std::int64_t accessesB) {
  BufferExtent e;
  e.probed = true;
  e.accessed = accessesA > 0 || accessesB > 0;
  if (!e.accessed) return e;
  // Only a probe that saw the buffer says how far it reaches.
  if (accessesA <= 0) maxA = 0, minA = minB;
  if (accessesB <= 0) maxB = maxA, minB = minA;
  e.lowest = std::min(minA, minB);
  // The line through both measurements; a reach that shrinks with more
  // work-items is taken as fixed, at its larger value.
  if (itemsB != itemsA) e.perItem = double(maxB - maxA) / (double(itemsB) - double(itemsA));
  if (e.perItem <= 0) {
    e.perItem = 0;
    e.fixed = double(std::max(maxA, maxB));
  } else {
    e.fixed = double(maxB) - e.perItem * double(itemsB);
  }
  return e;
}

} // namespace steerbench::drive

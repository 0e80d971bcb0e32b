#include "drive/host/DevMapExport.h"

#include "common/AtomicFile.h"
#include "common/Error.h"
#include "common/TextFormat.h"
#include "features/GreweFeatures.h"
#include "store/Workspace.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

namespace steerbench::drive {
namespace {

features::GreweCounts greweOf(const store::KernelRecord& k) {
  features::GreweAstCounter counter;
  clangfe::CompileRequest req;
  req.source = k.source;
  req.fileName = k.originFile.empty() ? "kernel.cl" : k.originFile;
  req.emitIR = false;
  req.observer = &counter;
  (void)clangfe::compile(req);
  for (const auto& [name, counts] : counter.kernels())
    if (name == k.name) return counts;
  return {};
}

} // namespace

std::vector<LabelledRow> labelledRows(const store::Workspace& ws, const ExportOptions& options, ExportSummary* out) {
  ExportSummary summary;
  std::vector<LabelledRow> rows;
  std::map<std::int64_t, std::pair<store::KernelRecord, features::GreweCounts>> kernels;
  for (const auto& c : ws.driveCases()) {
    std::vector<const store::Workspace::DriveMeasurementRecord*> measured;
    for (const auto& d : c.devices)
      if (d.outcome == "PASS" && d.total.n > 0) measured.push_back(&d);
    if (c.outcome != "PASS" || measured.size() < 2) {
      ++summary.skipped;
      continue;
    }
    // Roles: a GPU and a CPU when both types are present; else the run's order.
    const store::Workspace::DriveMeasurementRecord *cpu = nullptr, *gpu = nullptr;
    for (const auto* d : measured) {
      if (!gpu && d->deviceType == "GPU") gpu = d;
      if (!cpu && d->deviceType != "GPU") cpu = d;
    }
    if (!gpu || !cpu) {
      cpu = measured[0];
      gpu = measured[1];
    }
    // The oracle and its status are the exported pair's own: with a third
    // device the case's label may name neither of them.
    const bool cpuFaster = cpu->total.mean <= gpu->total.mean;
    const auto* best = cpuFaster ? cpu : gpu;
    const auto* other = cpuFaster ? gpu : cpu;
    const bool separate = best->total.n > 1 && other->total.n > 1 && best->total.ciHigh < other->total.ciLow;
    if (options.significantOnly && !separate) {
      ++summary.skipped;
      continue;
    }
    auto it = kernels.find(c.kernelId);
    if (it == kernels.end()) {
      auto k = ws.kernel(c.kernelId);
      if (!k) {
        ++summary.skipped;
        continue;
      }
      it = kernels.emplace(c.kernelId, std::make_pair(*k, greweOf(*k))).first;
    }
    const auto& [k, g] = it->second;
    LabelledRow r;
    r.row.benchmark = "steerbench-" + std::to_string(c.kernelId) + "-" + c.kernelName;
    r.row.dataset = "g" + std::to_string(c.globalSize) + "-l" + std::to_string(c.localSize);
    r.row.comp = g.comp;
    r.row.rational = g.rational;
    r.row.mem = g.mem;
    r.row.localmem = g.localmem;
    r.row.coalesced = g.coalesced;
    r.row.atomic = g.atomic;
    r.row.transfer = double(c.transferBytes);
    r.row.wgsize = double(c.localSize);
    r.row.oracle = cpuFaster ? "CPU" : "GPU";
    r.row.runtimeCpu = cpu->total.mean / 1e6;
    r.row.runtimeGpu = gpu->total.mean / 1e6;
    r.row.src = k.source;
    r.row.deviceCpu = cpu->device;
    r.row.deviceGpu = gpu->device;
    r.runtimeCpuCiLow = cpu->total.ciLow / 1e6;
    r.runtimeCpuCiHigh = cpu->total.ciHigh / 1e6;
    r.runtimeGpuCiLow = gpu->total.ciLow / 1e6;
    r.runtimeGpuCiHigh = gpu->total.ciHigh / 1e6;
    r.outcome = c.outcome;
    r.labelStatus = separate ? "significant" : "AMBIGUOUS";
    r.spec = c.specHash;
    rows.push_back(std::move(r));
    ++summary.rows;
  }
  if (out) *out = summary;
  return rows;
}

std::vector<dataset::DevMapRow> devMapRows(const std::vector<LabelledRow>& rows) {
  std::vector<dataset::DevMapRow> plain;
  plain.reserve(rows.size());
  for (const auto& r : rows)
    plain.push_back(r.row);
  return plain;
}

std::string devMapCsv(const std::vector<LabelledRow>& rows) {
  std::string csv = "benchmark,dataset,comp,rational,mem,localmem,coalesced,atomic,transfer,wgsize,oracle,"
                    "runtime_cpu,runtime_gpu,src,device_cpu,device_gpu,runtime_cpu_ci_low,runtime_cpu_ci_high,"
                    "runtime_gpu_ci_low,runtime_gpu_ci_high,outcome,label_status,spec\n";
  for (const auto& l : rows) {
    const auto& r = l.row;
    csv += csvField(r.benchmark) + "," + csvField(r.dataset) + "," + formatNumber(r.comp) + "," +
           formatNumber(r.rational) + "," + formatNumber(r.mem) + "," + formatNumber(r.localmem) + "," +
           formatNumber(r.coalesced) + "," + formatNumber(r.atomic) + "," + formatNumber(r.transfer) + "," +
           formatNumber(r.wgsize) + "," + r.oracle + "," + formatNumber(r.runtimeCpu) + "," +
           formatNumber(r.runtimeGpu) + "," + csvField(r.src) + "," + csvField(r.deviceCpu) + "," +
           csvField(r.deviceGpu) + "," + formatNumber(l.runtimeCpuCiLow) + "," + formatNumber(l.runtimeCpuCiHigh) +
           "," + formatNumber(l.runtimeGpuCiLow) + "," + formatNumber(l.runtimeGpuCiHigh) + "," + l.outcome + "," +
           l.labelStatus + "," + csvField(l.spec) + "\n";
  }
  return csv;
}

ExportSummary exportDevMapCsv(const store::Workspace& ws, const std::string& path, const ExportOptions& options) {
  ExportSummary summary;
  const std::string csv = devMapCsv(labelledRows(ws, options, &summary));
  writeFileAtomically(path, csv);
  return summary;
}

} // namespace steerbench::drive

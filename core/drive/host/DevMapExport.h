// Writes a workspace's labelled drive results as a CSV in the DevMap layout
// (cgo17-{amd,nvidia}.csv), so datasets made here load wherever DevMap does.
#pragma once

#include "dataset/DevMap.h"

#include <cstddef>
#include <string>
#include <vector>

namespace steerbench::store {
class Workspace;
}

namespace steerbench::drive {

struct ExportOptions {
  bool significantOnly = false; ///< leave out AMBIGUOUS labels
};

struct ExportSummary {
  std::size_t rows = 0;
  std::size_t skipped = 0; ///< cases not PASS, or with fewer than two measured devices
};

/// A labelled drive case as a DevMap-layout row, with what the export adds.
struct LabelledRow {
  dataset::DevMapRow row; ///< benchmark "steerbench-ID-NAME", dataset "gGLOBAL-lLOCAL"
  double runtimeCpuCiLow = 0, runtimeCpuCiHigh = 0, runtimeGpuCiLow = 0, runtimeGpuCiHigh = 0; ///< ms
  std::string outcome, labelStatus, spec;
};

/// The rows exportDevMapCsv writes, in memory (for evaluating on a
/// workspace's labels without a file). `summary` (optional) gets the counts.
[[nodiscard]] std::vector<LabelledRow> labelledRows(const store::Workspace& workspace, const ExportOptions& options = {},
                                                    ExportSummary* summary = nullptr);

/// The DevMap-layout rows alone (what a reader of the exported CSV gets).
[[nodiscard]] std::vector<dataset::DevMapRow> devMapRows(const std::vector<LabelledRow>& rows);

/// `rows` as the CSV text exportDevMapCsv writes (header included).
[[nodiscard]] std::string devMapCsv(const std::vector<LabelledRow>& rows);

/// One row per PASS case with two or more measured devices. Columns:
///   benchmark, dataset, comp, rational, mem, localmem, coalesced, atomic,
///   transfer, wgsize, oracle, runtime_cpu, runtime_gpu, src,
/// then device_cpu, device_gpu, runtime_cpu_ci_low, runtime_cpu_ci_high,
/// runtime_gpu_ci_low, runtime_gpu_ci_high, outcome, label_status, spec.
/// Device roles: a GPU-type device is "gpu" and a CPU-type one "cpu"; when
/// the devices are all of one type (PoCL's basic and pthread here), the
/// first device of the run is "cpu" and the second "gpu" (the ICD loader's
/// order, or the order of --devices). Runtimes are mean total
/// (kernel + transfer) times in milliseconds; oracle and label_status compare
/// the two exported devices (significant when their 95% intervals separate).
/// Written atomically; throws
/// InputError (with the reason, such as a full disk) and leaves no partial file.
ExportSummary exportDevMapCsv(const store::Workspace& workspace, const std::string& path,
                              const ExportOptions& options = {});

} // namespace steerbench::drive

#include "drive/host/DriveJob.h"

#include "common/TextFormat.h"

#include "drive/host/KernelSignatures.h"
#include "engine/ParallelFor.h"
#include "store/Workspace.h"

#include <cmath>
#include <filesystem>
#include <utility>

namespace steerbench::drive {
namespace {

std::string numbersJson(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(std::llround(v[i]));
  return s + "]";
}

store::Workspace::DriveStats stats(const Summary& s) { return {std::int64_t(s.n), s.median, s.mean, s.ciLow, s.ciHigh}; }

/// The drive spec with what this case's payload was: its constraint set and what each argument got.
std::string caseSpec(const std::string& driveSpec, const CaseResult& c) {
  if (c.payloadSet.empty() || driveSpec.empty() || driveSpec.back() != '}') return driveSpec;
  return driveSpec.substr(0, driveSpec.size() - 1) + ",\"payload_set\":" + jsonString(c.payloadSet) +
         ",\"payload\":" + jsonString(c.payload) + "}";
}

void storeCase(store::Workspace& ws, const DrivenKernel& k, const CaseResult& c, const std::string& specHash) {
  store::Workspace::DriveCaseRecord r;
  r.kernelId = k.kernelId;
  r.kernelName = k.kernel;
  r.globalSize = std::int64_t(c.globalSize);
  r.localSize = std::int64_t(c.localSize);
  r.transferBytes = std::int64_t(c.transferBytes);
  r.outcome = c.outcome;
  r.detail = c.detail;
  r.label = c.labelDevice();
  r.labelStatus = c.label.status();
  r.specHash = specHash;
  for (const auto& d : c.devices) {
    store::Workspace::DriveMeasurementRecord m;
    m.deviceId = d.device.id;
    m.device = d.device.name;
    m.deviceType = d.device.type;
    m.outcome = d.reply.outcome;
    m.detail = d.reply.detail;
    m.kernel = stats(d.kernel);
    m.transfer = stats(d.transfer);
    m.total = stats(d.total);
    m.kernelNs = numbersJson(d.reply.kernelNs);
    m.transferNs = numbersJson(d.reply.transferNs);
    r.devices.push_back(std::move(m));
  }
  ws.transaction([&] { ws.addDriveCase(r); });
}

} // namespace

std::string poclCacheFor(const std::string& workspace) {
  const std::filesystem::path p(workspace);
  return (p.parent_path() / (p.stem().string() + ".pocl-cache")).string();
}

std::vector<DrivenKernel> runDriveJob(const std::vector<DriveUnit>& units, const DriveJobOptions& options,
                                      store::Workspace* workspace) {
  DriveOptions driveOptions = options.drive;
  if (driveOptions.cacheDir.empty() && workspace) driveOptions.cacheDir = poclCacheFor(workspace->path());
  Driver driver(driveOptions);

  struct Planned {
    const DriveUnit* unit;
    KernelSignature signature;
  };
  std::vector<Planned> plan;
  std::vector<DrivenKernel> out;
  for (const auto& u : units) {
    const auto scan = kernelSignatures(u.source, options.compile, u.name);
    if (!scan.compiled || scan.kernels.empty()) {
      DrivenKernel k;
      k.unit = u.name;
      k.error = scan.compiled ? "no kernel function in this file" : scan.error;
      out.push_back(std::move(k));
      continue;
    }
    for (const auto& s : scan.kernels)
      if (u.onlyKernel.empty() || s.name == u.onlyKernel) plan.push_back({&u, s});
  }
  const std::string driveSpec = specJson(driver.options());
  // The cases of an earlier drive with these settings: each case's spec is
  // the drive spec with its payload's fields added (caseSpec).
  const store::Workspace::CaseSpecMatch earlier{driveSpec, driveSpec.substr(0, driveSpec.size() - 1) + ","};
  const bool resume = options.resume && workspace && !driveSpec.empty() && driveSpec.back() == '}';
  const auto unfinished = resume ? workspace->lastDriven(earlier) : std::pair<std::int64_t, std::string>{0, ""};
  std::size_t done = 0;
  if (options.progress) options.progress(0, plan.size());
  for (const auto& p : plan) {
    if (options.cancel && options.cancel->cancelled()) break;
    DrivenKernel k;
    k.unit = p.unit->name;
    k.kernel = p.signature.name;
    if (workspace) {
      store::KernelRecord rec;
      rec.name = k.kernel;
      rec.source = p.unit->source;
      rec.originFile = p.unit->name;
      workspace->transaction([&] { k.kernelId = workspace->addKernel(rec); });
    }
    if (resume) {
      const auto stored = workspace->driveOutcomes(k.kernelId, k.kernel, earlier);
      if (!stored.empty() && std::make_pair(k.kernelId, k.kernel) == unfinished) {
        std::vector<std::int64_t> ids;
        for (const auto& s : stored)
          ids.push_back(s.caseId);
        workspace->transaction([&] { workspace->removeDriveCases(ids); });
      } else if (!stored.empty()) {
        k.skipped = true;
        for (const auto& s : stored)
          k.storedOutcomes.push_back(s.outcome);
        out.push_back(std::move(k));
        if (options.progress) options.progress(++done, plan.size());
        continue;
      }
    }
    k.cases = driver.drive(
        p.unit->source, p.signature,
        [&](const CaseResult& c) {
          k.evidence = driver.evidence();
          if (workspace) storeCase(*workspace, k, c, workspace->putSpec(caseSpec(driveSpec, c)));
          if (options.onCase) options.onCase(k, c);
        },
        options.cancel);
    out.push_back(std::move(k));
    if (options.progress) options.progress(++done, plan.size());
  }
  return out;
}

} // namespace steerbench::drive

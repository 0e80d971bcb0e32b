#include "cli/DriveCommands.h"

#include "cli/Interrupt.h"

#include "common/Error.h"
#include "common/Paths.h"
#include "common/TextFormat.h"
#include "drive/host/DevMapExport.h"
#include "drive/host/DriveJob.h"
#include "drive/host/Payloads.h"
#include "drive/host/WorkerProcess.h"
#include "source/SourceFile.h"
#include "store/Workspace.h"

#include <algorithm>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace steerbench::cli {

std::vector<std::uint64_t> sizeList(const CommandLine& cl, const std::string& name, bool allowZero) {
  std::vector<std::uint64_t> out;
  std::stringstream ss(cl.value(name));
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || (!allowZero && v == 0) || v > (1ull << 28))
      throw UsageError("--" + name + " takes a comma list of sizes from " + (allowZero ? "0" : "1") +
                       " to 268435456, not '" + cl.value(name) + "'");
    out.push_back(v);
  }
  if (out.empty()) throw UsageError("--" + name + " needs at least one size");
  return out;
}

namespace {

double secondsValue(const CommandLine& cl, const std::string& name) {
  try {
    std::size_t used = 0;
    const double v = std::stod(cl.value(name), &used);
    if (used == cl.value(name).size() && v > 0 && v <= 86400) return v;
  } catch (const std::exception&) {
  }
  throw UsageError("--" + name + " takes seconds (more than 0, at most 86400), not '" + cl.value(name) + "'");
}

std::string micros(double ns) {
  char b[64];
  std::snprintf(b, sizeof b, "%.1f", ns / 1000.0);
  return b;
}

} // namespace

CommandLine devicesCommandLine() {
  CommandLine cl("devices", "List every OpenCL platform and device, as the drive worker sees them.", "",
                 "Devices come through the ICD loader, listed by the steerbench-drive worker (the\n"
                 "process that runs kernels). Ids are PLATFORM:DEVICE; `drive --devices` takes an id or\n"
                 "part of a name. When POCL_DEVICES is unset, the worker asks PoCL for its pthread\n"
                 "(all cores) and basic (one core) devices: a real pair to label with on a CPU-only\n"
                 "machine. A GPU's vendor ICD adds the GPU with no change.");
  cl.option({"format", 'f', "FORMAT", "text or json", false, "text"});
  cl.option({"workspace", 'w', "FILE", "PoCL's cache goes beside this workspace", false, defaultWorkspacePath()});
  return cl;
}

int runDevices(const CommandLine& cl) {
  const std::string format = cl.value("format");
  if (format != "text" && format != "json") throw UsageError("--format must be text or json");
  drive::WorkerOptions w;
  w.executable = drive::driveWorkerPath();
  w.cacheDir = drive::poclCacheFor(cl.value("workspace"));
  drive::WorkerProcess worker(w);
  const auto& devices = worker.devices();
  if (format == "json") {
    std::cout << drive::encodeHello(devices) << "\n";
    return 0;
  }
  if (devices.empty()) {
    std::cout << "no OpenCL device found; install an OpenCL driver (on Debian: pocl-opencl-icd) and check with "
                 "clinfo -l\n";
    return 1;
  }
  std::string platform;
  for (const auto& d : devices) {
    if (d.platform != platform) {
      platform = d.platform;
      std::cout << "platform " << d.id.substr(0, d.id.find(':')) << ": " << platform << "\n";
    }
    std::cout << "  " << d.id << "  " << d.name << "\n"
              << "        type " << d.type << ", vendor " << d.vendor << ", driver " << d.driver << "\n"
              << "        " << d.computeUnits << " compute units, " << (d.globalMemBytes >> 20) << " MiB global, "
              << (d.localMemBytes >> 10) << " KiB local, max work-group " << d.maxWorkGroupSize << "\n";
  }
  return 0;
}

CommandLine driveCommandLine() {
  CommandLine cl("drive", "Run kernels on every OpenCL device: check them, time them, label them.", "FILE...",
                 "Each kernel runs in the steerbench-drive worker, at every global and local size,\n"
                 "on each device. Its payload fits it: the driver reads its NDRange rank and what each\n"
                 "integer argument is (a size, a width, a value) from its code, measures how much of\n"
                 "each buffer it touches with an instrumented probe, and tries the constraint sets of\n"
                 "--payloads in order until one runs clean. Every read and write of a buffer is then\n"
                 "checked at the real size (and writes past a buffer's end by guard bytes): outside a\n"
                 "buffer is OUT_OF_BOUNDS, with the argument and the range (docs/driving.md).\n"
                 "The dynamic checker runs it four times (inputs A, A, B, B) and\n"
                 "rejects NO_OUTPUT, INPUT_INSENSITIVE and NONDETERMINISTIC kernels; then warm-up\n"
                 "runs are discarded and the timed runs kept (kernel and transfer times from\n"
                 "profiling events). The label is the device with the lowest mean total time; it\n"
                 "is 'significant' only when the 95% intervals separate, else AMBIGUOUS.\n"
                 "Outcomes: PASS, NO_OUTPUT, INPUT_INSENSITIVE, NONDETERMINISTIC, OUT_OF_BOUNDS,\n"
                 "BUILD_FAILURE, TIMEOUT, CRASH, CL_ERROR, UNSUPPORTED_ARGUMENTS. A hang or crash kills only the\n"
                 "worker; driving goes on with a new one. Every case is stored in the workspace\n"
                 "with the spec that made it. Exits 1 if any kernel did not PASS.");
  cl.option({"devices", 'd', "D,...", "device ids (0:1) or parts of names; default: every device"});
  cl.option({"global-sizes", 'g', "N,...", "global sizes to sweep", false, "4096,65536"});
  cl.option({"local-sizes", 'l', "N,...", "local sizes to sweep (0: the runtime chooses)", false, "64"});
  cl.option({"runs", 0, "N", "timed runs per case", false, "10"});
  cl.option({"warmup", 0, "N", "warm-up runs per case, discarded", false, "2"});
  cl.option({"timeout", 0, "S", "seconds one request may take: a kernel's build and checks on one device, its warm-up runs, or one timed run",
             false, "20"});
  cl.option({"memory-limit", 0, "MB", "the worker's writable-memory limit (RLIMIT_DATA)", false, "8192"});
  cl.option({"seed", 0, "N", "seed of the payloads", false, "1"});
  cl.option({"no-check", 0, "", "skip the dynamic checker (not recommended: it is what makes labels trustworthy)"});
  cl.option({"reuse-worker", 0, "",
             "keep one worker across kernels that pass (default: a new worker per kernel; see docs/driving.md)"});
  cl.option({"workspace", 'w', "FILE", "store kernels and results here", false, defaultWorkspacePath()});
  cl.option({"resume", 0, "",
             "go on where an interrupted drive into this workspace stopped: kernels it stored cases of, with the same "
             "settings, are not driven again (their earlier outcomes count for the exit status); the last one it was "
             "driving is, its cases replaced"});
  cl.option({"format", 'f', "FORMAT", "text or csv", false, "text"});
  cl.option({"payloads", 0, "SET,...",
             "constraint sets for payloads, tried in order until one runs clean: roles (the kernel's own reading, "
             "sized by a probe), cldrive (CLgen's rule), big (16 elements a work-item), scalars (the roles' payload with "
             "the integer scalars searched until the kernel reaches its writable buffers; tried only after a set "
             "ended NO_OUTPUT)",
             false, "roles,cldrive,big,scalars"});
  cl.option({"explain", 0, "", "also print how each payload was chosen: the roles read, the probes, the sets tried"});
  cl.option({"oclgrind", 0, "",
             "run the worker inside Oclgrind's simulator (Debian's oclgrind; its only device): every memory access "
             "of the checked runs is checked, and one outside its allocation is OUT_OF_BOUNDS; two work-items touching "
             "one address between barriers, one writing, without atomics, is NONDETERMINISTIC (a data race). Slow: "
             "for checking"});
  return cl;
}

int runDrive(const CommandLine& cl) {
  if (cl.positionals().empty()) throw UsageError("no input files; give one or more .cl files");
  const std::string format = cl.value("format");
  if (format != "text" && format != "csv") throw UsageError("--format must be text or csv");
  drive::DriveJobOptions job;
  auto& o = job.drive;
  for (const auto& d : cl.values("devices")) {
    std::stringstream ss(d);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) o.devices.push_back(item);
  }
  o.globalSizes = sizeList(cl, "global-sizes", false);
  o.localSizes = sizeList(cl, "local-sizes", true);
  o.timedRuns = cl.unsignedValue("runs", 2, 100000);
  o.warmupRuns = cl.unsignedValue("warmup", 0, 100000);
  o.timeoutSeconds = secondsValue(cl, "timeout");
  o.memoryLimitMB = cl.unsignedValue("memory-limit", 256, 1u << 30);
  o.seed = cl.unsignedValue("seed", 0, 4294967295u);
  o.check = !cl.has("no-check");
  o.freshWorkerPerKernel = !cl.has("reuse-worker");
  o.oclgrind = cl.has("oclgrind");
  job.resume = cl.has("resume");
  o.payloadSets.clear();
  for (const auto& v : cl.values("payloads")) {
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) {
        const auto& known = drive::constraintSets();
        if (std::find(known.begin(), known.end(), item) == known.end()) {
          std::string sets;
          for (std::size_t i = 0; i < known.size(); ++i)
            sets += (i == 0 ? "" : i + 1 == known.size() ? " and " : ", ") + known[i];
          throw UsageError("--payloads: unknown constraint set '" + item + "'; the sets are " + sets);
        }
        o.payloadSets.push_back(item);
      }
  }
  if (o.payloadSets.empty()) o.payloadSets = drive::constraintSets();
  const bool explain = cl.has("explain");
  std::string shownPayloadOf; // the kernel whose payload was printed

  std::vector<drive::DriveUnit> units;
  int failed = 0;
  for (const auto& path : cl.positionals()) {
    try {
      units.push_back({path, source::readSourceFile(path), {}});
    } catch (const InputError& e) {
      std::cerr << e.what() << "\n";
      ++failed;
    }
  }
  store::Workspace ws = store::Workspace::open(cl.value("workspace"));
  InterruptGuard interrupt;
  job.cancel = &interrupt.token();
  if (format == "csv")
    std::cout << "file,kernel,global,local,device,outcome,kernel_median_us,kernel_mean_us,transfer_mean_us,"
                 "total_mean_us,total_ci_low_us,total_ci_high_us,label,label_status,detail\n";
  job.onCase = [&](const drive::DrivenKernel& k, const drive::CaseResult& c) {
    if (format == "csv") {
      for (const auto& d : c.devices)
        std::cout << csvField(k.unit) << "," << csvField(k.kernel) << "," << c.globalSize << "," << c.localSize
                  << "," << csvField(d.device.name) << "," << d.reply.outcome << "," << micros(d.kernel.median) << ","
                  << micros(d.kernel.mean) << "," << micros(d.transfer.mean) << "," << micros(d.total.mean) << ","
                  << micros(d.total.ciLow) << "," << micros(d.total.ciHigh) << "," << csvField(c.labelDevice())
                  << "," << c.label.status() << "," << csvField(d.reply.detail) << "\n";
      std::cout.flush();
      return;
    }
    if (shownPayloadOf != k.unit + '\0' + k.kernel) { // once a kernel: how its payload was made
      shownPayloadOf = k.unit + '\0' + k.kernel;
      std::cout << k.unit << ": " << k.kernel << ": payload by " << c.payloadSet << "\n";
      if (explain)
        for (const auto& e : k.evidence)
          std::cout << "    " << e << "\n";
    }
    std::cout << k.unit << ": " << k.kernel << " global " << c.globalSize << " local "
              << (c.localSize ? std::to_string(c.localSize) : "auto") << ": " << c.outcome;
    if (!c.payload.empty()) std::cout << "\n    " << c.payload;
    if (c.outcome == "PASS" && c.label.best >= 0)
      std::cout << ", fastest " << drive::shortDeviceName(c.labelDevice()) << " (" << c.label.status() << ")";
    std::cout << "\n";
    if (c.outcome != "PASS") std::cout << "    " << c.detail.substr(0, 400) << "\n";
    for (const auto& d : c.devices) {
      if (d.reply.outcome != "PASS") continue;
      std::cout << "    " << drive::shortDeviceName(d.device.name) << ": total " << micros(d.total.mean) << " us [95% "
                << micros(d.total.ciLow) << ", " << micros(d.total.ciHigh) << "], kernel median "
                << micros(d.kernel.median) << " us, transfer median " << micros(d.transfer.median) << " us, "
                << d.total.n << " runs\n";
    }
    std::cout.flush();
  };
  const auto results = drive::runDriveJob(units, job, &ws);
  for (const auto& k : results) {
    if (k.skipped) {
      if (format == "text")
        std::cout << k.unit << ": " << k.kernel << ": driven before with these settings (" << k.storedOutcomes.size()
                  << (k.storedOutcomes.size() == 1 ? " case" : " cases") << "), not again\n";
      if (std::any_of(k.storedOutcomes.begin(), k.storedOutcomes.end(), [](const std::string& o) { return o != "PASS"; }))
        ++failed;
      continue;
    }
    if (!k.error.empty()) {
      std::cerr << k.unit << ": BUILD_FAILURE: " << k.error << "\n";
      ++failed;
      continue;
    }
    for (const auto& c : k.cases)
      if (c.outcome != "PASS") {
        ++failed;
        break;
      }
  }
  if (interrupt.token().cancelled()) {
    std::cerr << "stopped; the cases driven so far are stored in " << ws.path()
              << " (the same command with --resume goes on from there)\n";
    return 1;
  }
  if (format == "text") std::cout << "stored in " << ws.path() << "\n";
  return failed ? 1 : 0;
}

CommandLine exportCsvCommandLine() {
  CommandLine cl("export csv", "Write the workspace's labelled drive results as a DevMap-layout CSV.", "",
                 "Columns: benchmark, dataset, comp, rational, mem, localmem, coalesced, atomic,\n"
                 "transfer, wgsize, oracle, runtime_cpu, runtime_gpu, src (as cgo17-*.csv), then\n"
                 "device_cpu, device_gpu, the 95% intervals of both runtimes, outcome, label_status\n"
                 "and spec (the hash of the drive spec in the workspace's specs table).\n"
                 "One row per PASS case measured on two or more devices. Device roles: a GPU is\n"
                 "'gpu' and a CPU 'cpu'; when all devices are of one type (PoCL's basic and\n"
                 "pthread), the run's first device is 'cpu' and its second 'gpu'. Runtimes are\n"
                 "mean kernel + transfer times in milliseconds; dataset is gGLOBAL-lLOCAL.");
  cl.option({"workspace", 'w', "FILE", "the workspace", false, defaultWorkspacePath()});
  cl.option({"output", 'o', "FILE", "the CSV to write", false, "steerbench-devmap.csv"});
  cl.option({"significant-only", 0, "", "leave out AMBIGUOUS labels"});
  return cl;
}

int runExportCsv(const CommandLine& cl) {
  store::Workspace ws = store::Workspace::open(cl.value("workspace"), store::Workspace::Mode::OpenExisting);
  drive::ExportOptions o;
  o.significantOnly = cl.has("significant-only");
  const auto s = drive::exportDevMapCsv(ws, cl.value("output"), o);
  std::cout << "wrote " << s.rows << (s.rows == 1 ? " row" : " rows") << " to " << cl.value("output") << " ("
            << s.skipped << " cases left out: not PASS, fewer than two devices"
            << (o.significantOnly ? ", or AMBIGUOUS" : "") << ")\n";
  return 0;
}

} // namespace steerbench::cli

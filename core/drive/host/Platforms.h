// The OpenCL platforms and devices the ICD loader offers, for display (About,
// device panels). Driving kernels happens only in the steerbench-drive worker.
#pragma once

#include <string>
#include <vector>

namespace steerbench::drive {

struct DeviceInfo {
  std::string name, type, vendor, driverVersion;
  unsigned computeUnits = 0;
  unsigned long long globalMemBytes = 0;
  std::size_t maxWorkGroupSize = 0;
};

struct PlatformInfo {
  std::string name, vendor, version; ///< version is the platform's "OpenCL x.y ..." string
  std::vector<DeviceInfo> devices;
};

/// Every platform and device found through the ICD loader. An empty list
/// (no ICD, or a platform without devices) is not an error. Thread-safe.
[[nodiscard]] std::vector<PlatformInfo> openclPlatforms();

} // namespace steerbench::drive

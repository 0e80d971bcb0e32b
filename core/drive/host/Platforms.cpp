#include "drive/host/Platforms.h"

#include "drive/ClInfo.h"

namespace steerbench::drive {
using namespace clinfo;

std::vector<PlatformInfo> openclPlatforms() {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::vector<cl_platform_id> ids(n);
  clGetPlatformIDs(n, ids.data(), nullptr);
  std::vector<PlatformInfo> out;
  for (auto p : ids) {
    PlatformInfo info{platformText(p, CL_PLATFORM_NAME), platformText(p, CL_PLATFORM_VENDOR),
                      platformText(p, CL_PLATFORM_VERSION), {}};
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) == CL_SUCCESS && nd > 0) {
      std::vector<cl_device_id> devs(nd);
      clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr);
      for (auto d : devs)
        info.devices.push_back({deviceText(d, CL_DEVICE_NAME), typeName(deviceValue<cl_device_type>(d, CL_DEVICE_TYPE)),
                                deviceText(d, CL_DEVICE_VENDOR), deviceText(d, CL_DRIVER_VERSION),
                                deviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS),
                                deviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE),
                                deviceValue<std::size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE)});
    }
    out.push_back(std::move(info));
  }
  return out;
}

} // namespace steerbench::drive

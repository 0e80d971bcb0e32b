#include "drive/Platforms.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

namespace steerbench::drive {
namespace {

std::string platformText(cl_platform_id p, cl_platform_info what) {
  std::size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0')
    s.pop_back();
  return s;
}

std::string deviceText(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0')
    s.pop_back();
  return s;
}

template <class T> T deviceValue(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

std::string typeName(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

} // namespace

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

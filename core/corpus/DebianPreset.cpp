#include "corpus/DebianPreset.h"

#include "common/Paths.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace steerbench::corpus {

const std::vector<DebianPackage>& debianPackages() {
  // hashcat compiles each kernel with its own -D set (host code: build_opts);
  // these are the values for a generic OpenCL device.
  static const std::vector<std::string> hashcatDefines = {
      "KERNEL_STATIC", "XM2S(x)=#x",     "M2S(x)=XM2S(x)", "LOCAL_MEM_TYPE=2", "VENDOR_ID=8",   "CUDA_ARCH=0",
      "HAS_ADD=0",     "HAS_ADDC=0",     "HAS_SUB=0",      "HAS_SUBC=0",       "HAS_VADD=0",    "HAS_VADDC=0",
      "HAS_VADD_CO=0", "HAS_VADDC_CO=0", "HAS_VSUB=0",     "HAS_VSUBB=0",      "HAS_VSUB_CO=0", "HAS_VSUBB_CO=0",
      "HAS_VPERM=0",   "HAS_VADD3=0",    "HAS_VBFE=0",     "HAS_BFE=0",        "HAS_LOP3=0",    "HAS_MOV64=0",
      "HAS_PRMT=0",    "VECT_SIZE=1",    "DEVICE_TYPE=2",  "DGST_R0=0",        "DGST_R1=3",     "DGST_R2=2",
      "DGST_R3=1",     "DGST_ELEM=4",    "KERN_TYPE=0",    "ATTACK_EXEC=11",   "ATTACK_KERN=0", "ATTACK_MODE=0"};
  static const std::vector<DebianPackage> packages = {
      {"piglit",
       "MIT",
       {"usr/lib/x86_64-linux-gnu/piglit/tests/cl", "usr/lib/x86_64-linux-gnu/piglit/generated_tests/cl"},
       {},
       {}},
      {"hashcat-data", "Expat", {"usr/share/hashcat/OpenCL"}, hashcatDefines, {"usr/share/hashcat/OpenCL"}},
      {"darktable", "GPL-3+", {"usr/share/darktable/kernels"}, {}, {}},
      {"ufo-filters-data", "LGPL-3+", {"usr/share/ufo"}, {}, {}},
      {"pocl-tests", "Expat", {"usr/share/pocl-tests"}, {}, {}},
      {"python3-silx", "Expat", {"usr/lib/python3/dist-packages/silx/resources/opencl"}, {}, {}},
      {"starpu-examples", "LGPL-2.1", {"usr/share/starpu/opencl"}, {}, {}},
      {"python3-xrt", "Expat", {"usr/lib/python3/dist-packages/xrt"}, {}, {}},
      {"wings3d", "Tcl", {"usr/lib/erlang/lib"}, {}, {}},
      {"qgis-common", "GPL-2+", {"usr/share/qgis/resources/opencl_programs"}, {}, {}},
      {"mandelbulber2-data", "GPL-3+", {"usr/share/mandelbulber2/opencl"}, {}, {"usr/share/mandelbulber2/opencl"}},
  };
  return packages;
}

std::string debianPackageRoot(const DebianPackage& p, const std::string& unpackedRoot) {
  std::error_code ec;
  for (const auto& d : p.dirs)
    if (fs::is_directory("/" + d, ec)) return "/";
  const std::string base = (unpackedRoot.empty() ? cacheDir() + "/debian" : unpackedRoot) + "/" + p.name;
  for (const auto& d : p.dirs)
    if (fs::is_directory(base + "/" + d, ec)) return base;
  return "";
}

std::vector<SourceInput> debianPresetSources(std::vector<std::string>* missing, const std::string& unpackedRoot) {
  std::vector<SourceInput> out;
  for (const auto& p : debianPackages()) {
    const std::string root = debianPackageRoot(p, unpackedRoot);
    if (root.empty()) {
      if (missing) missing->push_back(p.name);
      continue;
    }
    const std::string prefix = root == "/" ? "/" : root + "/";
    for (const auto& d : p.dirs) {
      std::error_code ec;
      if (!fs::is_directory(prefix + d, ec)) continue;
      for (SourceInput in : collectSources(prefix + d)) {
        in.package = p.name;
        in.license = p.license;
        in.defines = p.defines;
        for (const auto& inc : p.includeDirs)
          in.includeDirs.push_back(prefix + inc);
        if (p.name == "hashcat-data") in.defines.push_back("INCLUDE_PATH=" + prefix + p.includeDirs[0]);
        out.push_back(std::move(in));
      }
    }
  }
  return out;
}

} // namespace steerbench::corpus

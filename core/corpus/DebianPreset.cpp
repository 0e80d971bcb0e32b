#include "corpus/DebianPreset.h"

#include "common/Paths.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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
      // Assembled: see assembleMandelbulber.
      {"mandelbulber2-data", "GPL-3+", {"usr/share/mandelbulber2/opencl"}, {"OPENCL_KERNEL_CODE"},
       {"usr/share/mandelbulber2/opencl"}},
  };
  return packages;
}

namespace {

/// mandelbulber2's kernels do not exist as files: its host program builds
/// each one from the OpenCL headers, the formula the user picked, and an
/// engine. We build the same unit for every formula with the fast engine: a
/// small file of #include lines (written under cacheDir()), compiled with
/// -DOPENCL_KERNEL_CODE -DFORMULA_ITER_0=<the formula's function>.
std::vector<SourceInput> assembleMandelbulber(const std::string& prefix, const DebianPackage& p) {
  std::vector<SourceInput> out;
  const std::string opencl = prefix + "usr/share/mandelbulber2/opencl";
  const std::string formulas = prefix + "usr/share/mandelbulber2/formula/opencl";
  std::error_code ec;
  if (!fs::is_directory(formulas, ec) || !fs::is_regular_file(opencl + "/engines/fast_engine.cl", ec)) return out;
  const std::string dir = cacheDir() + "/assembled/mandelbulber2-data";
  fs::create_directories(dir, ec);
  static const std::regex iteration(R"((?:^|\n)\s*(?:REAL4|float4|double4)\s+(\w+Iteration)\s*\()");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(formulas, ec))
    if (e.path().extension() == ".cl") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    std::smatch m;
    const std::string body = text.str();
    if (!std::regex_search(body, m, iteration)) continue;
    std::string unit = "// Assembled by Steerbench as mandelbulber2 assembles its kernels: headers, one formula, the "
                       "fast engine.\n#include \"cl_kernel_include_headers.h\"\n";
    for (const char* h : {"object_type_cl.h", "object_data_cl.h", "primitives_cl.h", "render_data_cl.h"})
      unit += std::string("#include \"") + h + "\"\n";
    unit += "#include \"" + f.string() + "\"\n";
    for (const char* e : {"basic_foldings", "orbit_trap_shape", "primitives", "compute_fractal", "calculate_distance",
                          "normal_vector", "stereo", "projection_3d", "fast_engine"})
      unit += "#include \"" + opencl + "/engines/" + e + ".cl\"\n";
    const std::string path = dir + "/" + f.stem().string() + ".cl";
    std::string existing;
    {
      std::ifstream old(path);
      std::stringstream ss;
      ss << old.rdbuf();
      existing = ss.str();
    }
    if (existing != unit) std::ofstream(path) << unit;
    SourceInput input{path, opencl, p.name, p.license, p.defines, {opencl}};
    input.defines.push_back("FORMULA_ITER_0=" + m[1].str());
    input.defines.push_back("ANALYTIC_DE"); // the host picks the distance estimator per formula
    out.push_back(std::move(input));
  }
  return out;
}

} // namespace

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
    if (p.name == "mandelbulber2-data") {
      auto assembled = assembleMandelbulber(prefix, p);
      out.insert(out.end(), assembled.begin(), assembled.end());
      continue;
    }
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

std::vector<std::string> defaultReferenceCsvs() {
  std::vector<std::string> out;
  const std::string dir = devmapDir();
  std::error_code ec;
  if (!dir.empty() && std::filesystem::exists(dir + "/cgo17-amd.csv", ec)) out.push_back(dir + "/cgo17-amd.csv");
  return out;
}

} // namespace steerbench::corpus

#include "corpus/DebianPreset.h"

#include "corpus/CFunctionMining.h"

#include "common/Paths.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
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
      // Assembled: see assemblePyfai. pyFAI's host sets these per integration;
      // these are the values of a 1,000-bin integration of a 1-megapixel image.
      {"python3-pyfai", "Expat", {"usr/lib/python3/dist-packages/pyFAI/resources/openCL"},
       {"NBINS=1000", "NIMAGE=1048576", "WORKGROUP_SIZE=64"}, {}},
  };
  return packages;
}

const std::vector<DebianSourcePackage>& debianSourcePackages() {
  static const std::vector<DebianSourcePackage> packages = {
      {"gsl", "GPL-3+"},         {"flac", "BSD-3-clause"},    {"speex", "BSD-3-clause"},
      {"opus", "BSD-3-clause"},  {"libvorbis", "BSD-3-clause"}, {"lame", "LGPL-2+"},
      {"libsamplerate", "BSD-2-clause"}, {"kissfft", "BSD-3-clause"}, {"x264", "GPL-2+"},
      {"fftw3", "GPL-2+"},       {"libsndfile", "LGPL-2.1+"}, {"libvpx", "BSD-3-clause"},
      {"libwebp", "BSD-3-clause"}, {"openjpeg2", "BSD-2-clause"}, {"libtheora", "BSD-3-clause"},
      {"libsoxr", "LGPL-2.1+"},  {"ffmpeg", "LGPL-2.1+ (parts GPL-2+)"}, {"dav1d", "BSD-2-clause"},
      {"netpbm-free", "several free licenses (its debian/copyright)"},
  };
  return packages;
}

namespace {

/// Writes `text` to `path` unless the file already holds it (an unchanged unit
/// keeps its time stamp, and ingest's skip-if-done check sees the same file).
void writeIfChanged(const std::string& path, const std::string& text) {
  std::string existing;
  {
    std::ifstream old(path);
    std::stringstream ss;
    ss << old.rdbuf();
    existing = ss.str();
  }
  if (existing != text) std::ofstream(path) << text;
}

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
    writeIfChanged(path, unit);
    SourceInput input{path, opencl, p.name, p.license, p.defines, {opencl}};
    input.defines.push_back("FORMULA_ITER_0=" + m[1].str());
    input.defines.push_back("ANALYTIC_DE"); // the host picks the distance estimator per formula
    out.push_back(std::move(input));
  }
  return out;
}

/// pyFAI (like silx) builds each OpenCL program by concatenating a list of
/// files with their #include lines removed (silx.opencl.utils.read_cl_file),
/// some of them from silx. We build the programs its host code lists, and
/// every other file of the folder after silx's doubleword.cl, the same way.
std::vector<SourceInput> assemblePyfai(const std::string& prefix, const DebianPackage& p, const std::string& unpackedRoot) {
  std::vector<SourceInput> out;
  const std::string pyfai = prefix + p.dirs[0];
  std::string silx;
  for (const auto& q : debianPackages())
    if (q.name == "python3-silx")
      if (const std::string root = debianPackageRoot(q, unpackedRoot); !root.empty())
        silx = (root == "/" ? "/" : root + "/") + q.dirs[0];
  std::error_code ec;
  if (silx.empty() || !fs::is_regular_file(silx + "/doubleword.cl", ec)) return out; // needs silx's helpers
  const std::string doubleword = "silx:doubleword";
  // pyFAI's programs (pyFAI/opencl/*.py: kernel_files), in the host's order.
  static const std::vector<std::pair<std::string, std::vector<std::string>>> programs = {
      {"azim_csr", {doubleword, "preprocess", "memset", "ocl_azim_CSR"}},
      {"azim_hist", {doubleword, "preprocess", "ocl_histo"}},
      {"azim_lut", {doubleword, "preprocess", "memset", "ocl_azim_LUT"}},
      {"peak_finder", {doubleword, "preprocess", "memset", "ocl_azim_CSR", "peak_finder", "peakfinder8"}},
      {"simple_peak_picker", {"simple_peak_picker"}},
      {"sort", {doubleword, "bitonic", "separate", "sigma_clip"}},
  };
  std::set<std::string> listed = {"kahan", "for_eclipse", "deactivate_atomic64"}; // helpers, no kernels
  auto units = programs;
  for (const auto& [name, files] : programs)
    listed.insert(files.begin(), files.end());
  std::vector<std::string> others;
  for (const auto& e : fs::directory_iterator(pyfai, ec))
    if (e.path().extension() == ".cl" && !listed.count(e.path().stem().string())) others.push_back(e.path().stem());
  std::sort(others.begin(), others.end());
  for (const auto& o : others)
    units.push_back({o, {doubleword, o}});

  const std::string dir = cacheDir() + "/assembled/python3-pyfai";
  fs::create_directories(dir, ec);
  for (const auto& [name, files] : units) {
    std::string unit = "// Assembled by Steerbench as pyFAI assembles its programs: the files below, without their "
                       "include directives.\n";
    bool complete = true;
    for (const auto& f : files) {
      const std::string path = f == doubleword ? silx + "/doubleword.cl" : pyfai + "/" + f + ".cl";
      std::ifstream in(path);
      if (!in) {
        complete = false;
        break;
      }
      unit += "// " + fs::path(path).filename().string() + "\n";
      for (std::string line; std::getline(in, line);)
        if (line.rfind("#include ", 0) != 0) unit += line + "\n";
    }
    if (!complete) continue;
    const std::string path = dir + "/" + name + ".cl";
    writeIfChanged(path, unit);
    out.push_back(SourceInput{path, dir, p.name, p.license, p.defines, {}});
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

std::vector<SourceInput> minedSourcePackage(const std::string& dir, const DebianSourcePackage& p) {
  std::vector<SourceInput> out;
  std::error_code ec;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const auto name = it->path().filename().string();
    if (it->is_directory(ec) && (name == "debian" || name == ".pc" || name.front() == '.')) { // packaging, patches
      it.disable_recursion_pending();
      continue;
    }
    const auto ext = it->path().extension();
    if ((ext == ".c" || ext == ".h") && it->is_regular_file(ec) && it->file_size(ec) < (1u << 20))
      files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  auto slurp = [](const fs::path& f) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  std::vector<std::string> texts; // each file read once: typedefs from all, then kernels from the .c files
  ScalarTypedefs typedefs;
  for (const auto& f : files) {
    texts.push_back(slurp(f));
    collectScalarTypedefs(texts.back(), typedefs);
  }
  const std::string outDir = cacheDir() + "/assembled/mined-c/" + p.name;
  fs::create_directories(outDir, ec);
  for (std::size_t n = 0; n < files.size(); ++n) {
    const fs::path& f = files[n];
    if (f.extension() != ".c") continue;
    const MinedFile mined = mineCFunctions(texts[n], typedefs);
    if (mined.kernels.empty()) continue;
    const std::string relative = fs::relative(f, dir, ec).string();
    std::string flat = relative;
    std::replace(flat.begin(), flat.end(), '/', '_');
    const std::string path = outDir + "/" + flat.substr(0, flat.size() - 2) + ".cl";
    writeIfChanged(path, minedUnit(mined, p.name, relative, p.license));
    out.push_back(SourceInput{path, outDir, "src:" + p.name, p.license, {}, {}});
  }
  return out;
}

std::vector<SourceInput> debianPresetSources(std::vector<std::string>* missing, const std::string& unpackedRoot,
                                             const std::string& sourcesRoot) {
  std::vector<SourceInput> out;
  for (const auto& p : debianPackages()) {
    const std::string root = debianPackageRoot(p, unpackedRoot);
    if (root.empty()) {
      if (missing) missing->push_back(p.name);
      continue;
    }
    const std::string prefix = root == "/" ? "/" : root + "/";
    if (p.name == "mandelbulber2-data" || p.name == "python3-pyfai") {
      auto assembled = p.name == "python3-pyfai" ? assemblePyfai(prefix, p, unpackedRoot)
                                                : assembleMandelbulber(prefix, p);
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
  const std::string sources = sourcesRoot.empty() ? cacheDir() + "/debian-src" : sourcesRoot;
  for (const auto& p : debianSourcePackages()) {
    std::error_code ec;
    if (!fs::is_directory(sources + "/" + p.name, ec)) {
      if (missing) missing->push_back("src:" + p.name);
      continue;
    }
    auto mined = minedSourcePackage(sources + "/" + p.name, p);
    out.insert(out.end(), mined.begin(), mined.end());
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

#include "drive/worker/DeviceRunner.h"

#include "drive/ClInfo.h"
#include "drive/worker/OclgrindLog.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>

namespace steerbench::drive {
using namespace clinfo;
namespace {

/// A failed OpenCL call: the outcome CL_ERROR names the call and the code.
struct ClFailure : std::runtime_error {
  ClFailure(const std::string& call, cl_int code) : std::runtime_error(call + ": " + clErrorName(code)) {}
};

void check(cl_int rc, const char* call) {
  if (rc != CL_SUCCESS) throw ClFailure(call, rc);
}

std::uint16_t toHalf(float f) {
  // Rounded toward zero; what is too small for a normal half is a signed
  // zero, what is too large infinity; NaN stays NaN.
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  const std::uint16_t sign = std::uint16_t((bits >> 16) & 0x8000);
  if (std::isnan(f)) return std::uint16_t(sign | 0x7e00);
  const int exp = int((bits >> 23) & 0xff) - 127 + 15;
  if (exp <= 0) return sign;
  if (exp >= 31) return std::uint16_t(sign | 0x7c00);
  return std::uint16_t(sign | (exp << 10) | ((bits >> 13) & 0x3ff));
}

float fromHalf(std::uint16_t h) {
  const int exp = (h >> 10) & 0x1f;
  const float mant = float(h & 0x3ff) / 1024.0f;
  if (exp == 0) return std::ldexp(mant, -14);
  if (exp == 31) return mant == 0 ? INFINITY : NAN;
  return std::ldexp(1.0f + mant, exp - 15);
}

std::uint64_t integralMax(const std::string& e) {
  if (e == "char") return 127;
  if (e == "uchar") return 255;
  if (e == "short") return 32767;
  if (e == "ushort") return 65535;
  if (e == "int") return 2147483647ull;
  if (e == "uint") return 4294967295ull;
  return 9223372036854775807ull;
}

/// How the lanes of an argument's type are stored, read once from its type
/// name. The loops that fill, compare and scan buffers run over millions of
/// values; comparing the type's name at each of them took most of a drive.
struct LaneFormat {
  enum class Kind { Integral, Half, Float, Double };
  Kind kind;
  std::size_t laneBytes;  ///< one lane (a struct: all of it)
  std::size_t valueBytes; ///< one value, all its lanes
  explicit LaneFormat(const KernelArgument& a)
      : kind(a.isIntegral()            ? Kind::Integral
             : a.element == "half"  ? Kind::Half
             : a.element == "float" ? Kind::Float
                                    : Kind::Double),
        laneBytes(a.elementBytes()), valueBytes(a.valueBytes()) {}

  void store(unsigned char* at, std::uint64_t integral, double floating) const {
    switch (kind) {
    case Kind::Integral: std::memcpy(at, &integral, laneBytes); return; // little-endian: the low bytes
    case Kind::Half: {
      const std::uint16_t h = toHalf(float(floating));
      std::memcpy(at, &h, 2);
      return;
    }
    case Kind::Float: {
      const float f = float(floating);
      std::memcpy(at, &f, 4);
      return;
    }
    case Kind::Double: std::memcpy(at, &floating, 8); return;
    }
  }

  /// A floating lane's value (Half, Float or Double).
  double load(const unsigned char* at) const {
    if (kind == Kind::Half) {
      std::uint16_t h;
      std::memcpy(&h, at, 2);
      return fromHalf(h);
    }
    if (kind == Kind::Float) {
      float f;
      std::memcpy(&f, at, 4);
      return f;
    }
    double d;
    std::memcpy(&d, at, 8);
    return d;
  }
};

void storeValue(const KernelArgument& a, unsigned char* at, std::uint64_t integral, double floating) {
  LaneFormat(a).store(at, integral, floating);
}

struct Buffers {
  std::vector<cl_mem> mems;
  std::vector<cl_sampler> samplers;
  ~Buffers() {
    for (auto m : mems)
      if (m) clReleaseMemObject(m);
    for (auto s : samplers)
      clReleaseSampler(s);
  }
};

/// The pixels of an image argument as a buffer of 4-lane values of its channel type.
KernelArgument pixelsOf(const KernelArgument& image) {
  KernelArgument p = image;
  p.kind = KernelArgument::Kind::Global;
  p.width = 4;
  return p;
}

struct Event {
  cl_event e = nullptr;
  ~Event() {
    if (e) clReleaseEvent(e);
  }
  double ns() const {
    cl_ulong start = 0, end = 0;
    check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
          "clGetEventProfilingInfo");
    check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr), "clGetEventProfilingInfo");
    return double(end - start);
  }
};

/// One input set: the host bytes of every argument (empty for local ones).
using Inputs = std::vector<std::vector<unsigned char>>;
/// What one run left in the output buffers, by argument index (empty for others).
using Outputs = std::vector<std::vector<unsigned char>>;

} // namespace

std::string clErrorName(int code) {
  switch (code) {
#define SB_CL_ERROR(name)                                                                                              \
  case name: return #name;
    SB_CL_ERROR(CL_DEVICE_NOT_FOUND)
    SB_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    SB_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    SB_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    SB_CL_ERROR(CL_OUT_OF_RESOURCES)
    SB_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    SB_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    SB_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    SB_CL_ERROR(CL_INVALID_VALUE)
    SB_CL_ERROR(CL_INVALID_DEVICE)
    SB_CL_ERROR(CL_INVALID_CONTEXT)
    SB_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    SB_CL_ERROR(CL_INVALID_MEM_OBJECT)
    SB_CL_ERROR(CL_INVALID_BINARY)
    SB_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    SB_CL_ERROR(CL_INVALID_PROGRAM)
    SB_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    SB_CL_ERROR(CL_INVALID_KERNEL_NAME)
    SB_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
    SB_CL_ERROR(CL_INVALID_KERNEL)
    SB_CL_ERROR(CL_INVALID_ARG_INDEX)
    SB_CL_ERROR(CL_INVALID_ARG_VALUE)
    SB_CL_ERROR(CL_INVALID_ARG_SIZE)
    SB_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    SB_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    SB_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    SB_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    SB_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    SB_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    SB_CL_ERROR(CL_INVALID_EVENT)
    SB_CL_ERROR(CL_INVALID_OPERATION)
    SB_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    SB_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    SB_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef SB_CL_ERROR
  default: return "OpenCL error " + std::to_string(code);
  }
}

namespace {
/// `count` values of `a`'s type, every lane drawn by `draw(rng)` as an
/// (integral, floating) pair from a generator seeded with `seed`.
template <class Draw>
std::vector<unsigned char> drawValues(const KernelArgument& a, std::size_t count, std::uint64_t seed, Draw&& draw) {
  std::mt19937_64 rng(seed);
  const LaneFormat format(a);
  const std::size_t lanes = a.width == 3 ? 4 : a.width;
  std::vector<unsigned char> bytes(count * format.valueBytes);
  for (std::size_t i = 0; i < count * lanes; ++i) {
    const auto [integral, floating] = draw(rng);
    format.store(bytes.data() + i * format.laneBytes, integral, floating);
  }
  return bytes;
}

/// Integers uniform in [low, top), floats uniform in [0, 1).
std::vector<unsigned char> uniformValues(const KernelArgument& a, std::size_t count, std::uint64_t seed,
                                         std::uint64_t low, std::uint64_t top) {
  std::uniform_int_distribution<std::uint64_t> integral(low, std::max(low + 1, top) - 1);
  std::uniform_real_distribution<double> floating(0.0, 1.0);
  const bool isIntegral = a.isIntegral();
  return drawValues(a, count, seed, [&](std::mt19937_64& rng) {
    return isIntegral ? std::pair{integral(rng), 0.0} : std::pair{std::uint64_t(0), floating(rng)};
  });
}

/// The checker's wide input for one argument (structs as payloadBytes makes them).
std::vector<unsigned char> wideBytes(const KernelArgument& a, std::size_t count, std::uint64_t seed) {
  if (a.isStruct()) return payloadBytes(a, count, seed, 0);
  // Floats: either sign, magnitudes from 1e-3 to 1e3, and one value in
  // sixteen special (zeros, a subnormal, infinities, NaN, the largest).
  const double specials[] = {0.0, -0.0, 1e-40, INFINITY, -INFINITY, NAN, 3.0e38, -1.0};
  std::uniform_real_distribution<double> exponent(-3.0, 3.0);
  return drawValues(a, count, seed, [&](std::mt19937_64& rng) {
    const std::uint64_t bits = rng();
    double f = std::pow(10.0, exponent(rng)) * ((bits & 1) ? -1.0 : 1.0);
    if (((bits >> 1) & 15) == 0) f = specials[(bits >> 5) % 8];
    return std::pair{bits >> 8 | bits << 56, f};
  });
}
} // namespace

std::vector<unsigned char> payloadBytes(const KernelArgument& a, std::size_t count, std::uint64_t seed,
                                        std::uint64_t range) {
  if (a.isStruct() && a.fields.empty()) { // a union, or nothing the layout names: random bytes
    KernelArgument bytes;
    bytes.element = "uchar";
    return payloadBytes(bytes, count * a.structBytes, seed, 0);
  }
  if (a.isStruct()) { // each field as its own type would be filled; what has no type the driver fills stays zero
    std::vector<unsigned char> bytes(count * a.structBytes, 0);
    std::uint64_t fieldSeed = seed;
    for (const auto& f : a.fields) {
      KernelArgument field;
      field.element = f.element;
      field.width = f.width;
      // Integer fields are small, 1 to 16: in real programs they are counts
      // (iterations, items, digests), offsets and flags, and a count drawn
      // up to the buffer's length makes a loop run for minutes.
      const auto values = range ? payloadBytes(field, count, fieldSeed * 0x9E3779B97F4A7C15ull + 1, range)
                                : uniformValues(field, count, fieldSeed * 0x9E3779B97F4A7C15ull + 1, 1, 17);
      ++fieldSeed;
      const std::size_t fieldBytes = field.valueBytes();
      const std::size_t copied = std::min(fieldBytes, a.structBytes - std::min(a.structBytes, f.offset));
      for (std::size_t i = 0; i < count; ++i)
        std::memcpy(bytes.data() + i * a.structBytes + f.offset, values.data() + i * fieldBytes, copied);
    }
    return bytes;
  }
  const std::uint64_t top = std::max<std::uint64_t>(1, std::min<std::uint64_t>(range ? range : count, integralMax(a.element)));
  return uniformValues(a, count, seed, 0, top);
}

namespace {
/// Two floating values the same output: equal, both NaN, or finite and
/// within a relative 1e-5. An infinity equals only itself: with the relative
/// tolerance alone, |inf - x| <= 1e-5 * inf held for every x, so a kernel
/// whose values overflowed looked as if it had left its buffers alone.
bool sameFloating(double p, double q) {
  if (p == q || (std::isnan(p) && std::isnan(q))) return true;
  if (!std::isfinite(p) || !std::isfinite(q)) return false;
  return std::fabs(p - q) <= 1e-5 * std::max(std::fabs(p), std::fabs(q)) + 1e-30;
}

/// The lanes of `bytes` bytes at x and at y: integers bit for bit, floating
/// values within sameFloating.
bool sameLanes(const LaneFormat& f, const unsigned char* x, const unsigned char* y, std::size_t bytes) {
  if (f.kind == LaneFormat::Kind::Integral) return bytes == 0 || std::memcmp(x, y, bytes) == 0;
  for (std::size_t i = 0; i + f.laneBytes <= bytes; i += f.laneBytes)
    if (!sameFloating(f.load(x + i), f.load(y + i))) return false;
  return true;
}

/// One value (all its lanes) of a type at x and at y, compared as sameOutput does.
bool sameValue(const LaneFormat& f, const unsigned char* x, const unsigned char* y) {
  return sameLanes(f, x, y, f.valueBytes);
}
} // namespace

bool sameOutput(const KernelArgument& a, const std::vector<unsigned char>& x, const std::vector<unsigned char>& y) {
  return x.size() == y.size() && sameLanes(LaneFormat(a), x.data(), y.data(), x.size());
}

struct DeviceRunner::Impl {
  struct Device {
    WorkerDevice info;
    cl_device_id id = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
  };
  std::vector<Device> devices;
  std::vector<WorkerDevice> infos;
  std::map<std::string, cl_program> programs; // device id + options + source -> built program
  std::vector<std::string> recentSources; ///< the last two sources built, oldest first
  OclgrindLog oclgrind; ///< active when the worker runs inside Oclgrind's simulator

  ~Impl() {
    for (auto& [key, p] : programs)
      clReleaseProgram(p);
    for (auto& d : devices) {
      if (d.queue) clReleaseCommandQueue(d.queue);
      if (d.context) clReleaseContext(d.context);
    }
  }

  Device& device(const std::string& id) {
    for (auto& d : devices)
      if (d.info.id == id) return d;
    throw ClFailure("no device '" + id + "'", CL_DEVICE_NOT_FOUND);
  }

  void open(Device& d) {
    if (d.queue) return;
    cl_int rc = CL_SUCCESS;
    d.context = clCreateContext(nullptr, 1, &d.id, nullptr, nullptr, &rc);
    check(rc, "clCreateContext");
    d.queue = clCreateCommandQueue(d.context, d.id, CL_QUEUE_PROFILING_ENABLE, &rc);
    check(rc, "clCreateCommandQueue");
  }

  /// The built program, or the build log (thrown as BuildFailure).
  cl_program program(Device& d, const RunRequest& r, std::string& buildLog) {
    const std::string key = d.info.id + '\0' + r.buildOptions + '\0' + r.source;
    if (auto it = programs.find(key); it != programs.end()) return it->second;
    // Keep only the programs of the kernel being driven, its instrumented
    // copy and its poisoned copy (the driver alternates between them): a
    // long-lived worker must not grow with every kernel it has seen.
    if (std::find(recentSources.begin(), recentSources.end(), r.source) == recentSources.end()) {
      recentSources.push_back(r.source);
      if (recentSources.size() > 3) {
        const std::string gone = recentSources.front();
        recentSources.erase(recentSources.begin());
        for (auto it = programs.begin(); it != programs.end();)
          if (it->first.size() >= gone.size() && it->first.compare(it->first.size() - gone.size(), gone.size(), gone) == 0 &&
              it->first[it->first.size() - gone.size() - 1] == '\0') {
            clReleaseProgram(it->second);
            it = programs.erase(it);
          } else {
            ++it;
          }
      }
    }
    cl_int rc = CL_SUCCESS;
    const char* text = r.source.c_str();
    const std::size_t length = r.source.size();
    cl_program p = clCreateProgramWithSource(d.context, 1, &text, &length, &rc);
    check(rc, "clCreateProgramWithSource");
    rc = clBuildProgram(p, 1, &d.id, r.buildOptions.c_str(), nullptr, nullptr);
    if (rc != CL_SUCCESS) {
      std::size_t n = 0;
      clGetProgramBuildInfo(p, d.id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      buildLog.assign(n, '\0');
      if (n) clGetProgramBuildInfo(p, d.id, CL_PROGRAM_BUILD_LOG, n, buildLog.data(), nullptr);
      while (!buildLog.empty() && (buildLog.back() == '\0' || buildLog.back() == '\n'))
        buildLog.pop_back();
      if (buildLog.empty()) buildLog = clErrorName(rc);
      clReleaseProgram(p);
      return nullptr;
    }
    programs.emplace(key, p);
    return p;
  }

  /// One input: payloads from `seed`; `wide`: the checker's last try, with
  /// values over the types' range and the value scalars changed.
  Inputs makeInputs(const RunRequest& r, std::uint64_t seed, bool wide = false) {
    Inputs in(r.arguments.size());
    std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
    for (std::size_t i = 0; i < r.arguments.size(); ++i) {
      const auto& a = r.arguments[i];
      const std::uint64_t range = i < r.ranges.size() ? r.ranges[i] : 0;
      if (a.kind == KernelArgument::Kind::Global || a.kind == KernelArgument::Kind::Constant) {
        in[i] = wide && !range ? wideBytes(a, r.elements(i), seed * 1000003 + i)
                               : payloadBytes(a, r.elements(i), seed * 1000003 + i, range);
      } else if (a.isImage()) {
        // Random pixels in a read-only image; a write-only one starts as random too, and is read back.
        in[i] = payloadBytes(pixelsOf(a), imageShape(r, a).pixels(), seed * 1000003 + i, 256);
      } else if (a.kind == KernelArgument::Kind::Scalar && a.isStruct()) {
        in[i] = payloadBytes(a, 1, rng(), 0);
      } else if (a.kind == KernelArgument::Kind::Scalar) {
        // Integral scalars get the plan's value, or the global size (they are
        // usually a count); other scalars get random values.
        const std::uint64_t draw = rng();
        in[i] = a.isIntegral() && a.width == 1 ? std::vector<unsigned char>(a.valueBytes())
                : wide                          ? wideBytes(a, 1, draw)
                                                : payloadBytes(a, 1, draw, 0);
        const bool planned = i < r.values.size() && r.values[i] != RunRequest::kDefaultValue;
        if (a.isIntegral() && a.width == 1) {
          std::uint64_t v = planned ? std::uint64_t(r.values[i]) : std::min<std::uint64_t>(r.globalSize, integralMax(a.element));
          // A value (no size, width or offset) may change, within what the plan gave it.
          if (wide && planned && i < r.varied.size() && r.varied[i] && v > 1) v = 1 + draw % v;
          storeValue(a, in[i].data(), v, 0);
        } else if (a.isIntegral() && planned) { // an integer vector: every lane gets the plan's value (dimensions)
          for (unsigned lane = 0; lane < a.width; ++lane)
            storeValue(a, in[i].data() + lane * a.elementBytes(), std::uint64_t(r.values[i]), 0);
        }
      }
    }
    return in;
  }

  /// The pattern guard bytes hold, and where the first changed one is (npos: none).
  static unsigned char guardByte(std::size_t i) { return static_cast<unsigned char>(0xA5 ^ (i * 0x3B)); }
  static std::size_t changedGuard(const std::vector<unsigned char>& g) {
    for (std::size_t i = 0; i < g.size(); ++i)
      if (g[i] != guardByte(i)) return i;
    return std::string::npos;
  }

  struct RunTimes {
    double kernelNs = 0, transferNs = 0;
  };

  /// What a run found beyond the outputs: guard bytes that changed, a probe's stats.
  struct Findings {
    std::string outOfBounds;        ///< which buffer's guard changed, and where
    std::vector<cl_int> probeStats; ///< 4 per argument (min, max, cap, accesses)
  };

  /// What a poisoned copy fills memory it declares with (RunRequest::poisoned).
  cl_uint poison_ = kPoisons[0];
  static constexpr cl_uint kPoisons[2] = {0x3f3f3f3fu, 0x42c2a2e2u}; // as floats about 0.75 and 97.3; every byte differs

  Outputs runOnce(Device& d, cl_kernel k, const RunRequest& r, const Inputs& in, RunTimes* times,
                  Findings* found = nullptr) {
    // A failing call leaves commands queued that read or write host memory
    // about to be freed: wait for them before unwinding.
    struct Drain {
      cl_command_queue q;
      bool armed = true;
      ~Drain() {
        if (armed) clFinish(q);
      }
    } drain{d.queue};
    Buffers buffers;
    buffers.mems.assign(r.arguments.size() + 1, nullptr);
    std::vector<Event> writes(r.arguments.size()), reads(r.arguments.size());
    std::vector<std::vector<unsigned char>> guards(r.arguments.size());
    std::vector<cl_int> stats;
    std::vector<cl_uint> localBytes; ///< per local argument, for a poisoned copy
    std::size_t locals = 0;
    for (const auto& a : r.arguments)
      locals += a.kind == KernelArgument::Kind::Local;
    cl_int rc = CL_SUCCESS;
    for (std::size_t i = 0; i < r.arguments.size(); ++i) {
      const auto& a = r.arguments[i];
      const cl_uint index = cl_uint(i);
      if (a.kind == KernelArgument::Kind::Global || a.kind == KernelArgument::Kind::Constant) {
        // A writable buffer is followed by guard bytes: a write past its end changes them.
        const std::size_t guard = a.isOutput() ? std::size_t(r.guardBytes) : 0;
        buffers.mems[i] = clCreateBuffer(d.context, a.isConst ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE,
                                         std::max<std::size_t>(1, in[i].size() + guard), nullptr, &rc);
        check(rc, "clCreateBuffer");
        check(clEnqueueWriteBuffer(d.queue, buffers.mems[i], CL_FALSE, 0, in[i].size(), in[i].data(), 0, nullptr,
                                   &writes[i].e),
              "clEnqueueWriteBuffer");
        if (guard) {
          guards[i].resize(guard);
          for (std::size_t g = 0; g < guard; ++g)
            guards[i][g] = guardByte(g);
          check(clEnqueueWriteBuffer(d.queue, buffers.mems[i], CL_TRUE, in[i].size(), guard, guards[i].data(), 0,
                                     nullptr, nullptr),
                "clEnqueueWriteBuffer");
        }
        check(clSetKernelArg(k, index, sizeof(cl_mem), &buffers.mems[i]), "clSetKernelArg");
        if (r.probe) stats.insert(stats.end(), {INT_MAX, INT_MIN, cl_int(std::min<std::size_t>(in[i].size(), INT_MAX)), 0});
      } else if (a.kind == KernelArgument::Kind::Local) {
        // The plan's elements, or the global size, within the device's local memory.
        const std::uint64_t room = std::max<std::uint64_t>(a.valueBytes(), d.info.localMemBytes / (2 * locals));
        const std::size_t bytes = std::size_t(std::min<std::uint64_t>(r.elements(i) * a.valueBytes(), room));
        check(clSetKernelArg(k, index, bytes, nullptr), "clSetKernelArg");
        localBytes.push_back(cl_uint(bytes));
        if (r.probe) stats.insert(stats.end(), {INT_MAX, INT_MIN, cl_int(bytes), 0});
      } else if (a.isImage()) {
        const ImageShape shape = imageShape(r, a);
        cl_image_format format{CL_RGBA, a.element == "int" ? cl_channel_type(CL_SIGNED_INT32)
                                        : a.element == "uint" ? cl_channel_type(CL_UNSIGNED_INT32)
                                                              : cl_channel_type(CL_FLOAT)};
        cl_image_desc desc{};
        desc.image_type = a.imageDims == 3 ? CL_MEM_OBJECT_IMAGE3D : CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = shape.width;
        desc.image_height = shape.height;
        desc.image_depth = a.imageDims == 3 ? shape.depth : 1;
        buffers.mems[i] = clCreateImage(d.context, a.isConst ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY, &format, &desc,
                                        nullptr, &rc);
        check(rc, "clCreateImage");
        const std::size_t origin[3] = {0, 0, 0}, region[3] = {shape.width, shape.height, shape.depth};
        check(clEnqueueWriteImage(d.queue, buffers.mems[i], CL_FALSE, origin, region, 0, 0, in[i].data(), 0, nullptr,
                                  &writes[i].e),
              "clEnqueueWriteImage");
        check(clSetKernelArg(k, index, sizeof(cl_mem), &buffers.mems[i]), "clSetKernelArg");
        if (r.probe) stats.insert(stats.end(), {INT_MAX, INT_MIN, 0, 0});
      } else if (a.kind == KernelArgument::Kind::Sampler) {
        // Unnormalized coordinates, clamped to the edge, the nearest pixel.
        cl_sampler sampler = clCreateSampler(d.context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &rc);
        check(rc, "clCreateSampler");
        buffers.samplers.push_back(sampler);
        check(clSetKernelArg(k, index, sizeof(cl_sampler), &sampler), "clSetKernelArg");
        if (r.probe) stats.insert(stats.end(), {INT_MAX, INT_MIN, 0, 0});
      } else {
        check(clSetKernelArg(k, index, in[i].size(), in[i].data()), "clSetKernelArg");
        if (r.probe) stats.insert(stats.end(), {INT_MAX, INT_MIN, 0, 0});
      }
    }
    if (r.poisoned) { // after the kernel's own arguments: the poison, then each local argument's bytes
      check(clSetKernelArg(k, cl_uint(r.arguments.size()), sizeof(cl_uint), &poison_), "clSetKernelArg");
      for (std::size_t j = 0; j < localBytes.size(); ++j)
        check(clSetKernelArg(k, cl_uint(r.arguments.size() + 1 + j), sizeof(cl_uint), &localBytes[j]), "clSetKernelArg");
    }
    if (r.probe) { // the instrumented kernel's last argument: 4 ints per argument, then per own array
      for (const auto bytes : r.probeArrays)
        stats.insert(stats.end(), {INT_MAX, INT_MIN, cl_int(std::min<std::uint64_t>(bytes, INT_MAX)), 0});
      buffers.mems.back() = clCreateBuffer(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                           stats.size() * sizeof(cl_int), stats.data(), &rc);
      check(rc, "clCreateBuffer");
      check(clSetKernelArg(k, cl_uint(r.arguments.size()), sizeof(cl_mem), &buffers.mems.back()), "clSetKernelArg");
    }
    Event run;
    std::size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    const auto g = r.globalRange(), l = r.localRange();
    for (std::size_t i = 0; i < g.size(); ++i) {
      global[i] = g[i];
      if (!l.empty()) local[i] = l[i];
    }
    check(clEnqueueNDRangeKernel(d.queue, k, cl_uint(g.size()), nullptr, global, l.empty() ? nullptr : local, 0,
                                 nullptr, &run.e),
          "clEnqueueNDRangeKernel");
    Outputs out(r.arguments.size());
    for (std::size_t i = 0; i < r.arguments.size() && !r.probe; ++i) // a probe's outputs are not looked at
      if (r.arguments[i].isOutput() && r.arguments[i].isImage()) {
        const ImageShape shape = imageShape(r, r.arguments[i]);
        const std::size_t origin[3] = {0, 0, 0}, region[3] = {shape.width, shape.height, shape.depth};
        out[i].resize(in[i].size());
        check(clEnqueueReadImage(d.queue, buffers.mems[i], CL_FALSE, origin, region, 0, 0, out[i].data(), 0, nullptr,
                                 &reads[i].e),
              "clEnqueueReadImage");
      } else if (r.arguments[i].isOutput()) {
        out[i].resize(in[i].size());
        check(clEnqueueReadBuffer(d.queue, buffers.mems[i], CL_FALSE, 0, out[i].size(), out[i].data(), 0, nullptr,
                                  &reads[i].e),
              "clEnqueueReadBuffer");
      }
    std::vector<std::vector<unsigned char>> after(r.arguments.size());
    if (found)
      for (std::size_t i = 0; i < r.arguments.size(); ++i)
        if (!guards[i].empty()) {
          after[i].resize(guards[i].size());
          check(clEnqueueReadBuffer(d.queue, buffers.mems[i], CL_FALSE, in[i].size(), after[i].size(), after[i].data(),
                                    0, nullptr, nullptr),
                "clEnqueueReadBuffer");
        }
    if (found && r.probe)
      check(clEnqueueReadBuffer(d.queue, buffers.mems.back(), CL_FALSE, 0, stats.size() * sizeof(cl_int), stats.data(),
                                0, nullptr, nullptr),
            "clEnqueueReadBuffer");
    drain.armed = false;
    check(clFinish(d.queue), "clFinish");
    if (found) {
      found->probeStats = stats;
      for (std::size_t i = 0; i < r.arguments.size() && found->outOfBounds.empty(); ++i)
        if (const auto at = after[i].empty() ? std::string::npos : changedGuard(after[i]); at != std::string::npos)
          found->outOfBounds = "the kernel wrote past the end of argument " + std::to_string(i + 1) + " '" +
                               r.arguments[i].name + "' (" + std::to_string(r.elements(i)) + " elements): byte " +
                               std::to_string(at) + " after its end changed";
    }
    if (times) {
      times->kernelNs = run.ns();
      times->transferNs = 0;
      for (std::size_t i = 0; i < r.arguments.size(); ++i) {
        if (writes[i].e) times->transferNs += writes[i].ns();
        if (reads[i].e) times->transferNs += reads[i].ns();
      }
    }
    return out;
  }

  bool same(const RunRequest& r, const Outputs& x, const Outputs& y) {
    for (std::size_t i = 0; i < r.arguments.size(); ++i)
      if (r.arguments[i].isOutput() && !sameOutput(r.arguments[i], x[i], y[i])) return false;
    return true;
  }

  /// Whether runs on inputs A and B wrote the same: the values the kernel
  /// wrote (what differs from its input in either run) are equal, whatever
  /// the elements it left alone hold (a buffer larger than the kernel's
  /// reach passes its input through, and inputs differ).
  bool sameWritten(const RunRequest& r, const Inputs& inA, const Outputs& a, const Inputs& inB, const Outputs& b) {
    for (std::size_t i = 0; i < r.arguments.size(); ++i) {
      const auto& arg = r.arguments[i];
      if (!arg.isOutput()) continue;
      const LaneFormat format(arg);
      const std::size_t step = format.valueBytes;
      for (std::size_t at = 0; at + step <= a[i].size() && at + step <= b[i].size(); at += step) {
        const unsigned char *outA = a[i].data() + at, *outB = b[i].data() + at;
        const bool wroteA = !sameValue(format, outA, inA[i].data() + at),
                   wroteB = !sameValue(format, outB, inB[i].data() + at);
        if ((wroteA || wroteB) && !sameValue(format, outA, outB)) return false;
      }
    }
    return true;
  }

  /// Whether an input of values over the types' whole range (signs,
  /// magnitudes, NaN and infinities; integers of every bit; value scalars
  /// changed) gives outputs other than input `a`'s: mul_hi, isnormal or
  /// `x % y` of two scalars read their inputs, yet give the same outputs for
  /// any two inputs of the first kind. Run twice, and the two runs must agree;
  /// a run that leaves its buffers proves nothing.
  bool wideInputMatters(Device& d, cl_kernel k, const RunRequest& r, const Inputs& a, const Outputs& a1) {
    const Inputs w = makeInputs(r, r.seed + 2, true);
    Findings f1, f2;
    const Outputs w1 = runOnce(d, k, r, w, nullptr, &f1), w2 = runOnce(d, k, r, w, nullptr, &f2);
    if (!f1.outOfBounds.empty() || !f2.outOfBounds.empty() || !same(r, w1, w2)) return false;
    return !sameWritten(r, a, a1, w, w1);
  }

  RunReply run(const RunRequest& r) {
    RunReply reply;
    reply.localSize = r.localSize;
    for (std::size_t i = 0; i < r.arguments.size(); ++i)
      if (!r.arguments[i].unsupported.empty()) {
        reply.outcome = "UNSUPPORTED_ARGUMENTS";
        reply.detail = "argument " + std::to_string(i + 1) + " '" + r.arguments[i].name + "' is " +
                       r.arguments[i].unsupported;
        return reply;
      }
    for (std::size_t i = 0; i < r.arguments.size(); ++i) {
      const auto& a = r.arguments[i];
      if (a.isBuffer() && a.kind != KernelArgument::Kind::Local)
        reply.transferBytes += r.elements(i) * a.valueBytes() * (a.isOutput() ? 2 : 1);
    }
    try {
      Device& d = device(r.device);
      open(d);
      std::string log;
      cl_program p = program(d, r, log);
      if (!p) {
        reply.outcome = "BUILD_FAILURE";
        reply.detail = log.substr(0, 4000);
        return reply;
      }
      cl_int rc = CL_SUCCESS;
      cl_kernel k = clCreateKernel(p, r.kernel.c_str(), &rc);
      check(rc, "clCreateKernel");
      struct KernelGuard {
        cl_kernel k;
        ~KernelGuard() { clReleaseKernel(k); }
      } guard{k};
      cl_uint argc = 0;
      check(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof argc, &argc, nullptr), "clGetKernelInfo");
      std::size_t locals = 0;
      for (const auto& x : r.arguments)
        locals += x.kind == KernelArgument::Kind::Local;
      if (argc != r.arguments.size() + (r.probe ? 1 : 0) + (r.poisoned ? 1 + locals : 0))
        throw ClFailure("the kernel takes " + std::to_string(argc) + " arguments, the request gives " +
                            std::to_string(r.arguments.size()),
                        CL_INVALID_KERNEL_ARGS);
      const Inputs a = makeInputs(r, r.seed), b = r.probe ? Inputs{} : makeInputs(r, r.seed + 1);
      if (r.probe) { // one run: where each argument was accessed
        Findings found;
        (void)runOnce(d, k, r, a, nullptr, &found);
        for (std::size_t i = 0; 4 * i + 3 < found.probeStats.size(); ++i) {
          reply.probeMin.push_back(found.probeStats[4 * i]);
          reply.probeMax.push_back(found.probeStats[4 * i + 1]);
          reply.probeAccesses.push_back(std::uint32_t(found.probeStats[4 * i + 3]));
          reply.probeBytes.push_back(found.probeStats[4 * i + 2]);
        }
        reply.outcome = "PROBED";
        return reply;
      }
      if (r.check) {
        // Each checked run also looks at the guard bytes after the writable buffers.
        Findings f1, f2, f3, f4;
        const std::uint64_t logged = oclgrind.end();
        // A poisoned copy's second run on each input finds other bytes in
        // the memory the kernel declares: reading it before writing it shows.
        auto poisoned = [&](int which, const Inputs& in, Findings* f) {
          poison_ = kPoisons[which];
          return runOnce(d, k, r, in, nullptr, f);
        };
        const Outputs a1 = poisoned(0, a, &f1), a2 = poisoned(1, a, &f2);
        const Outputs b1 = poisoned(0, b, &f3), b2 = poisoned(1, b, &f4);
        poison_ = kPoisons[0];
        for (const auto* f : {&f1, &f2, &f3, &f4})
          if (!f->outOfBounds.empty()) {
            reply.outcome = "OUT_OF_BOUNDS";
            reply.detail = f->outOfBounds;
            return reply;
          }
        const auto simulated = oclgrind.findingsSince(logged);
        if (!simulated.memoryError.empty()) {
          reply.outcome = "OUT_OF_BOUNDS";
          reply.detail = "Oclgrind's memory checker: " + simulated.memoryError;
          return reply;
        }
        const bool anyOutput =
            std::any_of(r.arguments.begin(), r.arguments.end(), [](const KernelArgument& x) { return x.isOutput(); });
        if (!anyOutput) {
          reply.outcome = "NO_OUTPUT";
          reply.detail = "the kernel has no writable global buffer, so nothing it does can be read back";
          return reply;
        }
        if (same(r, a1, a) && same(r, b1, b)) {
          reply.outcome = "NO_OUTPUT";
          reply.detail = "every writable buffer still holds its input after the run";
          return reply;
        }
        if (!simulated.dataRace.empty()) {
          reply.outcome = "NONDETERMINISTIC";
          reply.detail = "Oclgrind's race checker: " + simulated.dataRace;
          return reply;
        }
        if (!same(r, a1, a2) || !same(r, b1, b2)) {
          reply.outcome = "NONDETERMINISTIC";
          reply.detail = r.poisoned ? "two runs on the same input gave different outputs (its local memory and private "
                                      "arrays were filled with other bytes before each: it may read elements it never "
                                      "wrote)"
                                    : "two runs on the same input gave different outputs";
          return reply;
        }
        if (sameWritten(r, a, a1, b, b1) && !wideInputMatters(d, k, r, a, a1)) {
          reply.outcome = "INPUT_INSENSITIVE";
          reply.detail = "different inputs gave the same outputs (two of the same kind, and one of values over the "
                         "types' range with the value scalars changed)";
          return reply;
        }
      }
      for (unsigned i = 0; i < r.warmupRuns + r.timedRuns; ++i) {
        RunTimes t;
        (void)runOnce(d, k, r, a, &t);
        if (i < r.warmupRuns) continue;
        reply.kernelNs.push_back(t.kernelNs);
        reply.transferNs.push_back(t.transferNs);
      }
      reply.outcome = "PASS";
    } catch (const ClFailure& e) {
      reply.outcome = "CL_ERROR";
      reply.detail = e.what();
      reply.kernelNs.clear();
      reply.transferNs.clear();
    }
    return reply;
  }
};

DeviceRunner::DeviceRunner() : impl_(std::make_unique<Impl>()) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return;
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  for (cl_uint p = 0; p < np; ++p) {
    const std::string platformName = platformText(platforms[p], CL_PLATFORM_NAME);
    cl_uint nd = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> ids(nd);
    clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, ids.data(), nullptr);
    for (cl_uint i = 0; i < nd; ++i) {
      Impl::Device d;
      d.id = ids[i];
      const auto type = deviceValue<cl_device_type>(ids[i], CL_DEVICE_TYPE);
      d.info.id = std::to_string(p) + ":" + std::to_string(i);
      d.info.name = deviceText(ids[i], CL_DEVICE_NAME);
      d.info.type = typeName(type);
      d.info.platform = platformName;
      d.info.vendor = deviceText(ids[i], CL_DEVICE_VENDOR);
      d.info.driver = deviceText(ids[i], CL_DRIVER_VERSION);
      d.info.localMemBytes = deviceValue<cl_ulong>(ids[i], CL_DEVICE_LOCAL_MEM_SIZE);
      d.info.globalMemBytes = deviceValue<cl_ulong>(ids[i], CL_DEVICE_GLOBAL_MEM_SIZE);
      d.info.maxWorkGroupSize = deviceValue<std::size_t>(ids[i], CL_DEVICE_MAX_WORK_GROUP_SIZE);
      d.info.computeUnits = deviceValue<cl_uint>(ids[i], CL_DEVICE_MAX_COMPUTE_UNITS);
      impl_->infos.push_back(d.info);
      impl_->devices.push_back(std::move(d));
    }
  }
}

DeviceRunner::~DeviceRunner() = default;

const std::vector<WorkerDevice>& DeviceRunner::devices() const { return impl_->infos; }

RunReply DeviceRunner::run(const RunRequest& request) { return impl_->run(request); }

} // namespace steerbench::drive

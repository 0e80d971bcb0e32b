#include "drive/Protocol.h"

#include "common/Error.h"

#include <algorithm>
#include <cmath>

#include "common/Json.h"

namespace steerbench::drive {
namespace {

// llvm::json is not used here: the worker links this file and must not load
// libLLVM (see common/Json.h).
using json::Array;
using json::Object;
using json::Value;

std::string print(const Value& v) { return v.print(); }

Object parseObject(const std::string& line, const char* what) {
  Value v;
  try {
    v = json::parse(line);
  } catch (const InputError& e) {
    throw InputError(std::string("drive protocol: a ") + what + " that is not JSON (" + e.what() + "): " +
                     line.substr(0, 120));
  }
  if (!v.getAsObject())
    throw InputError(std::string("drive protocol: a ") + what + " that is not a JSON object: " + line.substr(0, 120));
  return *v.getAsObject();
}

std::string text(const Object& o, const char* key, const char* what) {
  if (auto s = o.getString(key)) return *s;
  throw InputError(std::string("drive protocol: the ") + what + " lacks the text field \"" + key + "\"");
}

std::uint64_t number(const Object& o, const char* key, std::uint64_t fallback) {
  if (auto i = o.getInteger(key)) return std::uint64_t(*i);
  return fallback;
}

Array numbers(const std::vector<double>& v) {
  Array a;
  for (double x : v)
    a.push_back(x);
  return a;
}

std::vector<double> readNumbers(const Object& o, const char* key) {
  std::vector<double> out;
  if (const auto* a = o.getArray(key))
    for (const auto& x : *a)
      if (auto d = x.getAsNumber()) out.push_back(*d);
  return out;
}

template <class T> Array integers(const std::vector<T>& v) {
  Array a;
  for (T x : v)
    a.push_back(std::int64_t(x));
  return a;
}

template <class T> std::vector<T> readIntegers(const Object& o, const char* key) {
  std::vector<T> out;
  if (const auto* a = o.getArray(key))
    for (const auto& x : *a) {
      const auto i = x.getAsInteger();
      if (!i) throw InputError(std::string("drive protocol: \"") + key + "\" holds something other than whole numbers");
      out.push_back(T(*i));
    }
  return out;
}

KernelArgument::Kind kindFrom(const std::string& s) {
  if (s == "global") return KernelArgument::Kind::Global;
  if (s == "constant") return KernelArgument::Kind::Constant;
  if (s == "local") return KernelArgument::Kind::Local;
  if (s == "scalar") return KernelArgument::Kind::Scalar;
  if (s == "image") return KernelArgument::Kind::Image;
  if (s == "sampler") return KernelArgument::Kind::Sampler;
  throw InputError("drive protocol: unknown argument kind \"" + s + "\"");
}

} // namespace

bool KernelArgument::isIntegral() const {
  return element != "half" && element != "float" && element != "double";
}

std::size_t KernelArgument::elementBytes() const {
  if (element == "struct") return structBytes;
  if (element == "char" || element == "uchar") return 1;
  if (element == "short" || element == "ushort" || element == "half") return 2;
  if (element == "long" || element == "ulong" || element == "double") return 8;
  return 4;
}

const char* kindName(KernelArgument::Kind k) {
  switch (k) {
  case KernelArgument::Kind::Global: return "global";
  case KernelArgument::Kind::Constant: return "constant";
  case KernelArgument::Kind::Local: return "local";
  case KernelArgument::Kind::Scalar: return "scalar";
  case KernelArgument::Kind::Image: return "image";
  case KernelArgument::Kind::Sampler: return "sampler";
  }
  return "scalar";
}

std::string KernelArgument::describe() const {
  std::string t = element + (width > 1 ? std::to_string(width) : "");
  if (isStruct()) t = "struct (" + std::to_string(structBytes) + " bytes)";
  if (kind == Kind::Image) return std::string(isConst ? "read-only " : "write-only ") + "image" + std::to_string(imageDims) + "d (" + element + ")";
  if (kind == Kind::Sampler) return "sampler";
  if (kind == Kind::Scalar) return t;
  return std::string(kindName(kind)) + (isConst && kind != Kind::Constant ? " const " : " ") + t + "*";
}

ImageShape imageShape(const RunRequest& r, const KernelArgument& a) {
  const auto g = r.globalRange();
  ImageShape s;
  if (g.size() >= 2) {
    s.width = g[0];
    s.height = g[1];
    s.depth = a.imageDims == 3 ? (g.size() > 2 ? g[2] : g[1]) : 1;
  } else {
    const auto side = std::size_t(std::ceil(a.imageDims == 3 ? std::cbrt(double(g[0])) : std::sqrt(double(g[0]))));
    s.width = s.height = std::max<std::size_t>(1, side);
    s.depth = a.imageDims == 3 ? s.width : 1;
  }
  return s;
}

std::string ImageShape::describe() const {
  return std::to_string(width) + "x" + std::to_string(height) + (depth > 1 ? "x" + std::to_string(depth) : "");
}

std::string KernelSignature::unsupportedReason() const {
  for (std::size_t i = 0; i < arguments.size(); ++i)
    if (!arguments[i].unsupported.empty())
      return "argument " + std::to_string(i + 1) + " '" + arguments[i].name + "' is " + arguments[i].unsupported +
             "; the driver fills global, constant and local pointers to scalars, vectors, structs, unions, "
             "arrays and void (bytes), scalar, vector, struct and union values, 2-D and 3-D images (read-only "
             "or write-only) and samplers";
  return {};
}

std::string shortDeviceName(const std::string& name) {
  std::size_t dashes = 0;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (name[i] == '-' && ++dashes == 2) return name.substr(0, i);
  return name;
}

std::string encodeHello(const std::vector<WorkerDevice>& devices) {
  Array ds;
  for (const auto& d : devices)
    ds.push_back(Object{{"id", d.id},
                        {"name", d.name},
                        {"type", d.type},
                        {"platform", d.platform},
                        {"vendor", d.vendor},
                        {"driver", d.driver},
                        {"local_mem", std::int64_t(d.localMemBytes)},
                        {"global_mem", std::int64_t(d.globalMemBytes)},
                        {"max_work_group", std::int64_t(d.maxWorkGroupSize)},
                        {"compute_units", std::int64_t(d.computeUnits)}});
  return print(Object{{"worker", "steerbench-drive"}, {"protocol", kProtocolVersion}, {"devices", std::move(ds)}});
}

std::vector<WorkerDevice> decodeHello(const std::string& line) {
  const Object o = parseObject(line, "worker greeting");
  if (o.getString("worker").value_or("") != "steerbench-drive")
    throw InputError("drive protocol: the worker did not greet as steerbench-drive: " + line.substr(0, 120));
  if (o.getInteger("protocol").value_or(0) != kProtocolVersion)
    throw InputError("drive protocol: the worker speaks protocol " + std::to_string(o.getInteger("protocol").value_or(0)) +
                     ", this program " + std::to_string(kProtocolVersion) +
                     "; install steerbench-drive from the same build as steerbench-cli");
  std::vector<WorkerDevice> out;
  if (const auto* ds = o.getArray("devices"))
    for (const auto& v : *ds)
      if (const auto* d = v.getAsObject())
        out.push_back({text(*d, "id", "device"), d->getString("name").value_or(""),
                       d->getString("type").value_or(""), d->getString("platform").value_or(""),
                       d->getString("vendor").value_or(""), d->getString("driver").value_or(""),
                       number(*d, "local_mem", 0), number(*d, "global_mem", 0), number(*d, "max_work_group", 0),
                       unsigned(number(*d, "compute_units", 0))});
  return out;
}

std::string encodeRequest(const RunRequest& r) {
  Array args;
  for (const auto& a : r.arguments)
  {
    Array fields;
    for (const auto& f : a.fields)
      fields.push_back(Object{{"offset", std::int64_t(f.offset)}, {"element", f.element}, {"width", std::int64_t(f.width)}});
    args.push_back(Object{{"name", a.name},
                          {"kind", kindName(a.kind)},
                          {"element", a.element},
                          {"width", std::int64_t(a.width)},
                          {"const", a.isConst},
                          {"image_dims", std::int64_t(a.imageDims)},
                          {"struct_bytes", std::int64_t(a.structBytes)},
                          {"fields", std::move(fields)},
                          {"unsupported", a.unsupported}});
  }
  return print(Object{{"op", "run"},
                      {"source", r.source},
                      {"kernel", r.kernel},
                      {"device", r.device},
                      {"build_options", r.buildOptions},
                      {"arguments", std::move(args)},
                      {"global", std::int64_t(r.globalSize)},
                      {"local", std::int64_t(r.localSize)},
                      {"warmup", std::int64_t(r.warmupRuns)},
                      {"runs", std::int64_t(r.timedRuns)},
                      {"seed", std::int64_t(r.seed)},
                      {"check", r.check},
                      {"global_range", integers(r.global)},
                      {"local_range", integers(r.local)},
                      {"counts", integers(r.counts)},
                      {"values", integers(r.values)},
                      {"ranges", integers(r.ranges)},
                      {"varied", integers(r.varied)},
                      {"guard_bytes", std::int64_t(r.guardBytes)},
                      {"probe", r.probe},
                      {"probe_arrays", integers(r.probeArrays)},
                      {"poisoned", r.poisoned}});
}

std::optional<RunRequest> decodeRequest(const std::string& line) {
  const Object o = parseObject(line, "request");
  const std::string op = text(o, "op", "request");
  if (op == "quit") return std::nullopt;
  if (op != "run") throw InputError("drive protocol: unknown request \"" + op + "\"; expected run or quit");
  RunRequest r;
  r.source = text(o, "source", "request");
  r.kernel = text(o, "kernel", "request");
  r.device = text(o, "device", "request");
  r.buildOptions = o.getString("build_options").value_or("");
  if (const auto* args = o.getArray("arguments"))
    for (const auto& v : *args) {
      const auto* a = v.getAsObject();
      if (!a) throw InputError("drive protocol: an argument that is not an object");
      KernelArgument k;
      k.name = a->getString("name").value_or("");
      k.kind = kindFrom(text(*a, "kind", "argument"));
      k.element = text(*a, "element", "argument");
      k.width = unsigned(number(*a, "width", 1));
      k.isConst = a->getBoolean("const").value_or(false);
      k.imageDims = unsigned(number(*a, "image_dims", 0));
      k.structBytes = number(*a, "struct_bytes", 0);
      if (const auto* fs = a->getArray("fields"))
        for (const auto& fv : *fs)
          if (const auto* f = fv.getAsObject())
            k.fields.push_back({std::size_t(number(*f, "offset", 0)), text(*f, "element", "field"),
                                unsigned(number(*f, "width", 1))});
      if (k.isStruct() && (k.structBytes == 0 || k.structBytes > (1u << 20)))
        throw InputError("drive protocol: a struct argument of " + std::to_string(k.structBytes) + " bytes");
      k.unsupported = a->getString("unsupported").value_or("");
      r.arguments.push_back(std::move(k));
    }
  r.globalSize = number(o, "global", r.globalSize);
  r.localSize = number(o, "local", 0);
  r.warmupRuns = unsigned(number(o, "warmup", r.warmupRuns));
  r.timedRuns = unsigned(number(o, "runs", r.timedRuns));
  r.seed = number(o, "seed", r.seed);
  r.check = o.getBoolean("check").value_or(true);
  r.global = readIntegers<std::uint64_t>(o, "global_range");
  r.local = readIntegers<std::uint64_t>(o, "local_range");
  r.counts = readIntegers<std::uint64_t>(o, "counts");
  r.values = readIntegers<std::int64_t>(o, "values");
  r.ranges = readIntegers<std::uint64_t>(o, "ranges");
  r.varied = readIntegers<std::uint64_t>(o, "varied");
  r.guardBytes = number(o, "guard_bytes", 0);
  r.probe = o.getBoolean("probe").value_or(false);
  r.probeArrays = readIntegers<std::uint64_t>(o, "probe_arrays");
  r.poisoned = o.getBoolean("poisoned").value_or(false);
  if (r.global.size() > 3 || (!r.local.empty() && r.local.size() != std::max<std::size_t>(1, r.global.size())))
    throw InputError("drive protocol: an NDRange of 1 to 3 dimensions, with a local size for each or none");
  return r;
}

std::vector<std::uint64_t> RunRequest::localRange() const {
  if (!local.empty()) return local;
  if (localSize == 0) return {};
  return {localSize};
}

std::string encodeReply(const RunReply& r) {
  return print(Object{{"outcome", r.outcome},
                      {"detail", r.detail},
                      {"kernel_ns", numbers(r.kernelNs)},
                      {"transfer_ns", numbers(r.transferNs)},
                      {"transfer_bytes", std::int64_t(r.transferBytes)},
                      {"local", std::int64_t(r.localSize)},
                      {"probe_min", integers(r.probeMin)},
                      {"probe_max", integers(r.probeMax)},
                      {"probe_accesses", integers(r.probeAccesses)},
                      {"probe_bytes", integers(r.probeBytes)}});
}

RunReply decodeReply(const std::string& line) {
  const Object o = parseObject(line, "reply");
  RunReply r;
  r.outcome = text(o, "outcome", "reply");
  r.detail = o.getString("detail").value_or("");
  r.kernelNs = readNumbers(o, "kernel_ns");
  r.transferNs = readNumbers(o, "transfer_ns");
  r.transferBytes = number(o, "transfer_bytes", 0);
  r.localSize = number(o, "local", 0);
  r.probeMin = readIntegers<std::int64_t>(o, "probe_min");
  r.probeMax = readIntegers<std::int64_t>(o, "probe_max");
  r.probeAccesses = readIntegers<std::int64_t>(o, "probe_accesses");
  r.probeBytes = readIntegers<std::int64_t>(o, "probe_bytes");
  return r;
}

} // namespace steerbench::drive

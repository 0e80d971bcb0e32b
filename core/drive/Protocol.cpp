#include "drive/Protocol.h"

#include "common/Error.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

namespace steerbench::drive {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

std::string print(Value v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << v;
  os.flush();
  return s;
}

Object parseObject(const std::string& line, const char* what) {
  auto v = llvm::json::parse(line);
  if (!v) {
    const std::string err = llvm::toString(v.takeError());
    throw InputError(std::string("drive protocol: a ") + what + " that is not JSON (" + err + "): " +
                     line.substr(0, 120));
  }
  if (!v->getAsObject())
    throw InputError(std::string("drive protocol: a ") + what + " that is not a JSON object: " + line.substr(0, 120));
  return std::move(*v->getAsObject());
}

std::string text(const Object& o, const char* key, const char* what) {
  if (auto s = o.getString(key)) return s->str();
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

KernelArgument::Kind kindFrom(const std::string& s) {
  if (s == "global") return KernelArgument::Kind::Global;
  if (s == "constant") return KernelArgument::Kind::Constant;
  if (s == "local") return KernelArgument::Kind::Local;
  if (s == "scalar") return KernelArgument::Kind::Scalar;
  throw InputError("drive protocol: unknown argument kind \"" + s + "\"");
}

} // namespace

bool KernelArgument::isIntegral() const {
  return element != "half" && element != "float" && element != "double";
}

std::size_t KernelArgument::elementBytes() const {
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
  }
  return "scalar";
}

std::string KernelArgument::describe() const {
  std::string t = element + (width > 1 ? std::to_string(width) : "");
  if (kind == Kind::Scalar) return t;
  return std::string(kindName(kind)) + (isConst && kind != Kind::Constant ? " const " : " ") + t + "*";
}

std::string KernelSignature::unsupportedReason() const {
  for (std::size_t i = 0; i < arguments.size(); ++i)
    if (!arguments[i].unsupported.empty())
      return "argument " + std::to_string(i + 1) + " '" + arguments[i].name + "' is " + arguments[i].unsupported +
             "; the driver fills only global, constant and local pointers to scalars or vectors, and scalar or "
             "vector values";
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
        out.push_back({text(*d, "id", "device"), d->getString("name").value_or("").str(),
                       d->getString("type").value_or("").str(), d->getString("platform").value_or("").str(),
                       d->getString("vendor").value_or("").str(), d->getString("driver").value_or("").str(),
                       number(*d, "local_mem", 0), number(*d, "global_mem", 0), number(*d, "max_work_group", 0),
                       unsigned(number(*d, "compute_units", 0))});
  return out;
}

std::string encodeRequest(const RunRequest& r) {
  Array args;
  for (const auto& a : r.arguments)
    args.push_back(Object{{"name", a.name},
                          {"kind", kindName(a.kind)},
                          {"element", a.element},
                          {"width", std::int64_t(a.width)},
                          {"const", a.isConst},
                          {"unsupported", a.unsupported}});
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
                      {"check", r.check}});
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
  r.buildOptions = o.getString("build_options").value_or("").str();
  if (const auto* args = o.getArray("arguments"))
    for (const auto& v : *args) {
      const auto* a = v.getAsObject();
      if (!a) throw InputError("drive protocol: an argument that is not an object");
      KernelArgument k;
      k.name = a->getString("name").value_or("").str();
      k.kind = kindFrom(text(*a, "kind", "argument"));
      k.element = text(*a, "element", "argument");
      k.width = unsigned(number(*a, "width", 1));
      k.isConst = a->getBoolean("const").value_or(false);
      k.unsupported = a->getString("unsupported").value_or("").str();
      r.arguments.push_back(std::move(k));
    }
  r.globalSize = number(o, "global", r.globalSize);
  r.localSize = number(o, "local", 0);
  r.warmupRuns = unsigned(number(o, "warmup", r.warmupRuns));
  r.timedRuns = unsigned(number(o, "runs", r.timedRuns));
  r.seed = number(o, "seed", r.seed);
  r.check = o.getBoolean("check").value_or(true);
  return r;
}

std::string encodeReply(const RunReply& r) {
  return print(Object{{"outcome", r.outcome},
                      {"detail", r.detail},
                      {"kernel_ns", numbers(r.kernelNs)},
                      {"transfer_ns", numbers(r.transferNs)},
                      {"transfer_bytes", std::int64_t(r.transferBytes)},
                      {"local", std::int64_t(r.localSize)}});
}

RunReply decodeReply(const std::string& line) {
  const Object o = parseObject(line, "reply");
  RunReply r;
  r.outcome = text(o, "outcome", "reply");
  r.detail = o.getString("detail").value_or("").str();
  r.kernelNs = readNumbers(o, "kernel_ns");
  r.transferNs = readNumbers(o, "transfer_ns");
  r.transferBytes = number(o, "transfer_bytes", 0);
  r.localSize = number(o, "local", 0);
  return r;
}

} // namespace steerbench::drive

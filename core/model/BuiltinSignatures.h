// The OpenCL builtins' overloads as overload resolution sees them: for each
// function, the shape of every parameter of every overload. Read once per
// process from Clang's own declarations (opencl-c.h, compiled in process).
// The grammar guard uses them to keep a builtin call's arguments to counts
// and shapes some overload takes (docs/model.md, "Builtin calls").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace steerbench::model {

/// What an argument can be for overload resolution to pick an overload.
struct ArgShape {
  enum Kind : std::uint8_t {
    Other,   ///< anything: images, samplers, events, structs; an argument of unknown shape
    Scalar,  ///< an arithmetic scalar (int, float, size_t, bool, ...)
    Vector,  ///< a vector of `width` lanes (float4: 4)
    Pointer, ///< a pointer (or an array, which decays to one)
  };
  Kind kind = Other;
  std::uint8_t width = 1;
  [[nodiscard]] bool operator==(const ArgShape& o) const { return kind == o.kind && width == o.width; }
  [[nodiscard]] bool operator<(const ArgShape& o) const { return kind != o.kind ? kind < o.kind : width < o.width; }
};

/// True when an argument of shape `arg` may be passed for a parameter of
/// shape `param` as far as shapes go: Other matches anything; a scalar may
/// go where a scalar or a vector is taken (Clang splats a scalar to an
/// OpenCL vector); a vector only where a vector of as many lanes is; a
/// pointer only where a pointer is. Never false for a call Clang accepts.
[[nodiscard]] bool fits(const ArgShape& arg, const ArgShape& param);

/// One overload as shapes: its parameters' and its result's.
struct Overload {
  std::vector<ArgShape> params;
  ArgShape result; ///< Other for void and for what is no scalar, vector or pointer
  [[nodiscard]] bool operator<(const Overload& o) const {
    if (params < o.params) return true;
    if (o.params < params) return false;
    return result < o.result;
  }
};

/// True when `o` takes exactly these arguments, as far as shapes go.
[[nodiscard]] bool takes(const Overload& o, const std::vector<ArgShape>& args);

struct BuiltinSignatures {
  /// By function name: its overloads as shapes (distinct ones only).
  std::map<std::string, std::vector<Overload>> overloads;
  /// The builtins of OpenCL C 1.2 for spir64 (the options samples are
  /// checked with), read from Clang's opencl-c.h on first use; variadic
  /// functions (printf) are left out. Thread-safe.
  [[nodiscard]] static const BuiltinSignatures& opencl();
};

} // namespace steerbench::model

// A kernel's parameters as the driver needs them: what buffer or value each
// one gets. Read from the Clang AST in the parent (KernelSignatures.cpp) and
// sent to the steerbench-drive worker (Protocol.cpp), which has no Clang.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace steerbench::drive {

struct KernelArgument {
  enum class Kind { Global, Constant, Local, Scalar };
  std::string name;
  Kind kind = Kind::Scalar;
  std::string element = "int"; ///< char, uchar, short, ushort, int, uint, long, ulong, half, float, double
  unsigned width = 1;          ///< vector width: 1, 2, 3, 4, 8 or 16
  bool isConst = false;        ///< a const pointee: copied in, never read back
  std::string unsupported;     ///< why the driver cannot make a payload for it (empty: supported)

  [[nodiscard]] bool isBuffer() const { return kind != Kind::Scalar; }
  /// A buffer the kernel may write, read back after each run.
  [[nodiscard]] bool isOutput() const { return kind == Kind::Global && !isConst; }
  [[nodiscard]] bool isIntegral() const;
  [[nodiscard]] bool isFloating() const { return !isIntegral(); }
  /// Bytes of one element of the scalar type (a vector's component).
  [[nodiscard]] std::size_t elementBytes() const;
  /// Bytes one value takes in memory (3-vectors take the room of 4).
  [[nodiscard]] std::size_t valueBytes() const { return elementBytes() * (width == 3 ? 4 : width); }
  /// "global const float4*", for messages and tables.
  [[nodiscard]] std::string describe() const;
};

[[nodiscard]] const char* kindName(KernelArgument::Kind k);

struct KernelSignature {
  std::string name;
  std::vector<KernelArgument> arguments;
  /// The first argument the driver cannot fill, as a sentence; empty when all can be.
  [[nodiscard]] std::string unsupportedReason() const;
};

} // namespace steerbench::drive

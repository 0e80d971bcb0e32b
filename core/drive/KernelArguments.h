// A kernel's parameters as the driver needs them: what buffer or value each
// one gets. Read from the Clang AST in the parent (KernelSignatures.cpp) and
// sent to the steerbench-drive worker (Protocol.cpp), which has no Clang.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace steerbench::drive {

/// A field of a struct argument, as Clang lays it out: its byte offset and type.
struct StructField {
  std::size_t offset = 0;
  std::string element = "int"; ///< as KernelArgument::element (never "struct")
  unsigned width = 1;
};

struct KernelArgument {
  /// Image: an image2d_t or image3d_t (read_only: isConst). Sampler: a sampler_t.
  enum class Kind { Global, Constant, Local, Scalar, Image, Sampler };
  std::string name;
  Kind kind = Kind::Scalar;
  /// char, uchar, short, ushort, int, uint, long, ulong, half, float, double;
  /// "struct" for a struct (by value, or what a buffer holds); for an image
  /// the channel type its reads and writes use: float, int or uint.
  std::string element = "int";
  unsigned width = 1;          ///< vector width: 1, 2, 3, 4, 8 or 16
  bool isConst = false;        ///< a const pointee (or a read-only image): copied in, never read back
  unsigned imageDims = 0;      ///< an image's dimensions: 2 or 3
  std::size_t structBytes = 0; ///< a struct's size, as Clang lays it out
  std::vector<StructField> fields; ///< a struct's scalar fields (nested structs and arrays flattened)
  std::string unsupported;     ///< why the driver cannot make a payload for it (empty: supported)

  [[nodiscard]] bool isBuffer() const { return kind == Kind::Global || kind == Kind::Constant || kind == Kind::Local; }
  [[nodiscard]] bool isImage() const { return kind == Kind::Image; }
  [[nodiscard]] bool isStruct() const { return element == "struct"; }
  /// A buffer or image the kernel may write, read back after each run.
  [[nodiscard]] bool isOutput() const { return (kind == Kind::Global || kind == Kind::Image) && !isConst; }
  [[nodiscard]] bool isIntegral() const;
  [[nodiscard]] bool isFloating() const { return !isIntegral(); }
  /// Bytes of one element of the scalar type (a vector's component; a struct: all of it).
  [[nodiscard]] std::size_t elementBytes() const;
  /// Bytes one value takes in memory (3-vectors take the room of 4; a struct its size).
  [[nodiscard]] std::size_t valueBytes() const { return isStruct() ? structBytes : elementBytes() * (width == 3 ? 4 : width); }
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

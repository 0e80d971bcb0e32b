// What the driver reads from a kernel's own code to make a payload that fits
// it (docs/driving.md, "Payloads"): the NDRange rank the kernel reads ids of,
// each integer scalar's role (a size compared with a work-item's id or
// bounding a loop, a width or stride that multiplies an index, an offset
// added to an id or starting a loop, or a plain value), the integer buffers used as indices into other buffers, and an
// instrumented copy of the source in which every access to a buffer argument
// records its byte offset, so a probe run can measure how much of each
// buffer the kernel touches. Read in the parent, which has Clang.
#pragma once

#include "clang/OpenCLFrontend.h"

#include <string>
#include <vector>

namespace steerbench::drive {

enum class ArgumentRole {
  Buffer, ///< a pointer argument
  Size,   ///< compared with a work-item id, or bounds a loop
  Stride, ///< multiplies an index inside a subscript (a row width)
  Offset, ///< added to or subtracted from a work-item id, or starts a loop (a halo, a first row)
  Value,  ///< any other scalar
  Other,  ///< not an integral scalar (floats, vectors, images, ...)
};

[[nodiscard]] const char* roleName(ArgumentRole r);

struct KernelAnalysis {
  std::string kernel;
  bool found = false;     ///< the kernel was in the source and compiled
  int rank = 1;           ///< NDRange dimensions the kernel reads ids or sizes of (1 to 3)
  std::vector<ArgumentRole> roles; ///< one per argument
  /// Per argument: the buffer argument whose subscripts this integer buffer's
  /// values index (-1: none).
  std::vector<int> indexes;
  /// Per argument: true for an integer buffer whose values bound a loop (a
  /// row's length in a sparse matrix): they get small values.
  std::vector<bool> counts;
  /// Per argument: true for a Size that only bounds loops (never guards an
  /// id): its value sets how much work each item does.
  std::vector<bool> loopBoundOnly;
  /// Per argument: the deepest nest of loops whose conditions compare it
  /// (0: it bounds none). A bound of a nest of k loops gets a value whose
  /// k-th power is what a bound of one loop gets: each work-item then does
  /// about as much work (a filter's `for (i < w) for (j < w)`).
  std::vector<int> loopNest;
  /// Per argument: true for an integer scalar multiplied in a subscript
  /// that mentions a work-item's id (`out[y * w + x]`): a row width, which
  /// decides which element each work-item reaches. It keeps a loop bound's
  /// value even when it bounds a nest (a root would make work-items of
  /// different rows write the same elements).
  std::vector<bool> idWidth;
  /// The root a payload takes of argument i's loop-bound value: its nest
  /// when it only bounds loops, bounds a nest of several and is no row
  /// width of the ids; else 1.
  [[nodiscard]] int nestRoot(std::size_t i) const {
    return i < loopNest.size() && loopBoundOnly[i] && !idWidth[i] && loopNest[i] > 1 ? loopNest[i] : 1;
  }
  /// The work-group shape (x, y) a 2-D kernel's local-memory tiles assume;
  /// empty when they show none. A row length times the second local id
  /// (`tile[ly * 16 + lx]`: 16 x 16), or a local array's fixed dimensions
  /// subscripted by local ids (`t[lx][ly + 12]` of a `local float[16][17]`:
  /// x <= 16, y <= 5, so 16 x 4). Such a kernel reads tile elements other
  /// work-items write, so another shape leaves some unwritten or reaches
  /// past a dimension.
  std::vector<std::uint64_t> workGroup;
  /// True for a kernel that reads local ids but no global or group id: every
  /// work-group would do the same work on the same memory (a race between
  /// groups), so it runs as one work-group.
  bool oneGroup = false;
  /// Per argument: the largest value an integer scalar may take (0: no
  /// limit): it subscripts an array dimension of fixed length, or bounds a
  /// variable that does (`h < e` and `v[i][h][g]` of a `double
  /// (*)[13][13][5]` view: e <= 11, room left for a bound compared with <=,
  /// less what the subscript adds; NPB's kernels are written for one
  /// problem size), or it is subtracted from a constant (`64 - a * 2`: at
  /// most 64 / (4 * 2), so most of what remains is still there).
  std::vector<std::uint64_t> caps;
  /// The source with a last kernel parameter `__global int* __sb_stats` added
  /// and every attributed access (and every access of `arrays`) recording [min, max) of its byte offsets
  /// into stats[4k], stats[4k+1] for argument k, clamped to stats[4k+2]
  /// bytes so that a probe never reads or writes out of bounds. Empty when
  /// nothing could be instrumented.
  std::string instrumented;
  /// The kernel's own fixed-size arrays (local, private or constant, declared
  /// in its body or at program scope) that it subscripts: the instrumented
  /// source records their accesses too, array j in the stats of argument
  /// n + j (n arguments), clamped to its bytes, so a probe sees a subscript
  /// that leaves its array.
  struct Array {
    std::string name;
    std::string space;   ///< local, private or constant
    std::string element; ///< the element type, as written
    std::uint64_t bytes = 0, elementBytes = 1;
    int accesses = 0;    ///< accesses instrumented
  };
  std::vector<Array> arrays;
  /// The source for checked runs when the kernel has local memory or private
  /// arrays (empty: none, or the copy did not compile): it takes `uint
  /// __sb_poison` and then, per local pointer argument, `uint __sb_lbytesK`
  /// (its bytes) after its own arguments; its local variables are declared
  /// first, and every work-group fills its local memory with the poison's
  /// bytes before a barrier; each private array without initializer is
  /// filled where it is declared. Runs with different poisons then give
  /// different outputs when the kernel reads memory it never wrote, which
  /// otherwise holds what the last run left there, alike in both runs.
  std::string poisoned;
  int accesses = 0;   ///< buffer accesses instrumented
  int unattributed = 0; ///< accesses through pointers the analysis could not trace to an argument
  /// Per argument: accesses instrumented.
  std::vector<int> accessesOf;
  std::string error;  ///< why the kernel could not be read
  /// The evidence for each role, a line per argument, for `drive --explain`.
  std::vector<std::string> evidence;
};

/// Reads kernel `kernel` of `source` (parse only, in process). Thread-safe.
[[nodiscard]] KernelAnalysis analyseKernel(const std::string& source, const std::string& kernel,
                                           const clangfe::CompileOptions& options = {},
                                           const std::string& fileName = "input.cl");

/// The name of the stats argument the instrumented source adds.
inline constexpr const char* kProbeStatsArgument = "__sb_stats";

} // namespace steerbench::drive

// Payloads that fit the kernel (docs/driving.md, "Payloads"): the NDRange
// shape, each integer scalar's value and each buffer's size, made by one of
// four constraint sets, tried in order until one runs clean:
//
//   roles    the kernel's own reading (KernelAnalysis): a 2-D or 3-D kernel
//            gets a square or cubic grid, sizes and widths get its side, and
//            each buffer as many elements as a probe run measured it needs
//            (fitted over two small sizes: extent = a * work-items + b);
//   cldrive  CLgen's rule: 1-D, one element per work-item, every integral
//            scalar the global size;
//   big      the roles' shape and values, with every buffer 16 times the
//            work-items;
//   scalars  the roles' payload with integer scalars searched (0, 1, half
//            the role's value) until the kernel reaches its writable
//            buffers: for a kernel whose writes sit under conditions on its
//            scalars (`if (e < d || f >= c) return;`) that the roles'
//            values never meet.
#pragma once

#include "drive/KernelArguments.h"
#include "drive/Protocol.h"
#include "drive/host/KernelAnalysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::drive {

/// How many bytes of a buffer a kernel touches at a number of work-items:
/// from [lowest, a * items + b), as two probe runs measured.
struct BufferExtent {
  bool probed = false;   ///< measured (else: one element per work-item)
  bool accessed = false; ///< the probes saw an access
  double perItem = 0, fixed = 0; ///< bytes = perItem * items + fixed
  std::int64_t lowest = 0;       ///< the lowest byte offset seen (< 0: before the buffer's start)
};

/// What the `scalars` set gives an integer scalar instead of its role's value.
enum class ScalarChoice : std::uint8_t { Role, Zero, One, Half };

struct PayloadModel {
  std::string set = "cldrive"; ///< roles, cldrive, big or scalars
  int rank = 1;
  std::vector<BufferExtent> extents; ///< per argument
  /// Per argument, the `scalars` set's choice for an integer scalar (empty:
  /// every scalar its role's value); ignored by cldrive.
  std::vector<ScalarChoice> scalars;
};

/// "0", "1", "half" or "role".
[[nodiscard]] const char* scalarChoiceName(ScalarChoice c);

/// The most bytes one buffer is given (a measured reach beyond it is out of bounds).
inline constexpr std::uint64_t kMaxBufferBytes = std::uint64_t(256) << 20;

/// Integer buffers whose values bound loops hold values in [0, kCountRange).
inline constexpr std::uint64_t kCountRange = 16;

/// The constraint sets, in the order they are tried.
[[nodiscard]] const std::vector<std::string>& constraintSets();

/// One side of a grid of `rank` dimensions with about `items` work-items,
/// a multiple of the work-group's side in that dimension when there is one.
[[nodiscard]] std::uint64_t gridSide(std::uint64_t items, int rank, std::uint64_t localSide);

/// Fills `r`'s NDRange, scalar values, buffer counts and index ranges for
/// about `items` work-items (and r.globalSize with the work-items it gets).
void planPayload(const PayloadModel& model, const KernelSignature& kernel, const KernelAnalysis& analysis,
                 std::uint64_t items, std::uint64_t local, RunRequest& r);

/// "NDRange 128x128 (local 8x8); n = 128 (size), a: 16384 float, ..." for a planned request.
[[nodiscard]] std::string describePayload(const RunRequest& r, const KernelAnalysis& analysis);

/// A buffer's extent from two probes at `itemsA` and `itemsB` work-items
/// (byte ranges [min, max) and access counts as the worker reported them).
[[nodiscard]] BufferExtent fitExtent(std::uint64_t itemsA, std::int64_t minA, std::int64_t maxA, std::int64_t accessesA,
                                     std::uint64_t itemsB, std::int64_t minB, std::int64_t maxB, std::int64_t accessesB);

} // namespace steerbench::drive

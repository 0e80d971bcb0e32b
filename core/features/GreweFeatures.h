// Grewe et al. (CGO 2013) static kernel features, measured on the Clang AST.
#pragma once

#include "clang/OpenCLFrontend.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace steerbench::features {

/// Raw per-kernel counts, with the counts of called helper functions added.
struct GreweCounts {
  double comp = 0, rational = 0, mem = 0, localmem = 0, coalesced = 0, atomic = 0;
};

/// The 8-dimension static vector steering targets:
/// comp, rational, mem, localmem, coalesced, atomic, F2, F4.
[[nodiscard]] const std::vector<std::string>& greweDimensions();
[[nodiscard]] std::vector<double> greweVector(const GreweCounts& c);
/// The counts a vector of greweVector holds (its first six dimensions).
[[nodiscard]] GreweCounts greweCountsOf(const std::vector<double>& vector);

/// F1 = transfer / (comp + mem), F3 = localmem / mem * wgsize. 0 when the
/// denominator is 0. Both need measurements from a drive.
[[nodiscard]] double greweF1(const GreweCounts& c, double transferBytes);
[[nodiscard]] double greweF3(const GreweCounts& c, double wgsize);

/// Watches a compile's AST and counts, per kernel function, as docs/features.md defines.
/// Not thread-safe: one per compile.
class GreweAstCounter : public clangfe::AstObserver {
public:
  /// `liveOnly`: leave out the declarations that do no work
  /// (features::deadDeclarations), so the counts say what the kernel does.
  explicit GreweAstCounter(bool liveOnly = false) : liveOnly_(liveOnly) {}
  void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override;
  /// Kernel name -> counts, in source order.
  [[nodiscard]] const std::vector<std::pair<std::string, GreweCounts>>& kernels() const { return kernels_; }
  [[nodiscard]] bool sawErrors() const { return hasErrors_; }

private:
  std::vector<std::pair<std::string, GreweCounts>> kernels_;
  bool hasErrors_ = false;
  bool liveOnly_ = false;
};

} // namespace steerbench::features

// Printing measured feature vectors as CSV or JSON.
#pragma once

#include "features/Measurement.h"

#include <optional>
#include <ostream>
#include <vector>

namespace steerbench::cli {

struct OutputOptions {
  bool allowErrors = false;       ///< print vectors measured on recovered ASTs, flagged
  std::optional<double> transfer; ///< with wgsize: add Grewe F1 and F3
  std::optional<double> wgsize;
};

void writeFeatureCsv(std::ostream& out, const std::vector<features::FileMeasurement>& results,
                     const std::vector<const features::FeatureSpace*>& spaces, const OutputOptions& options);
void writeFeatureJson(std::ostream& out, const std::vector<features::FileMeasurement>& results,
                      const std::vector<const features::FeatureSpace*>& spaces, const OutputOptions& options);

} // namespace steerbench::cli

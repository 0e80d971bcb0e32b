// The default corpus: OpenCL code that Debian packages ship, with the flags
// each package builds it with. The code is read where it is installed (or
// where scripts/fetch-debian-corpus unpacked it), never copied into the repo.
#pragma once

#include "corpus/CorpusIngest.h"

#include <string>
#include <vector>

namespace steerbench::corpus {

struct DebianPackage {
  std::string name;
  std::string license;
  std::vector<std::string> dirs;        ///< folders under the package root holding its .cl files
  std::vector<std::string> defines;     ///< the package's own build flags
  std::vector<std::string> includeDirs; ///< relative to the package root
};

/// The packages of docs/corpus.md, "The default corpus".
[[nodiscard]] const std::vector<DebianPackage>& debianPackages();

/// A Debian source package of numeric C whose functions become kernels
/// (CFunctionMining): docs/corpus.md, "Kernels mined from C".
struct DebianSourcePackage {
  std::string name;
  std::string license; ///< of the code mined (the package's main license)
};
[[nodiscard]] const std::vector<DebianSourcePackage>& debianSourcePackages();

/// The mined units of one unpacked source package (scripts/fetch-debian-sources
/// leaves it at DIR/<name>): every .c file with at least one kernel becomes a
/// unit under cacheDir()/assembled/mined-c/<name>, ingested as package
/// "src:<name>". The package's scalar typedefs come from all its .c and .h files.
[[nodiscard]] std::vector<SourceInput> minedSourcePackage(const std::string& dir, const DebianSourcePackage& p);

/// Where a package's files are: "/" when it is installed, else its unpacked
/// copy under `unpackedRoot`/<name> (default: cacheDir()/debian). Empty when neither.
[[nodiscard]] std::string debianPackageRoot(const DebianPackage& p, const std::string& unpackedRoot = "");

/// Every .cl file of every package found (mandelbulber2's kernels are
/// assembled from its fragments, one per formula; pyFAI's programs as its
/// host builds them), then the mined units of every source package found
/// under `sourcesRoot` (default: cacheDir()/debian-src); `missing` lists
/// packages not found, source packages as "src:<name>".
[[nodiscard]] std::vector<SourceInput> debianPresetSources(std::vector<std::string>* missing,
                                                           const std::string& unpackedRoot = "",
                                                           const std::string& sourcesRoot = "");

/// The reference CSVs whose kernels the default corpus holds out of training:
/// DevMap's cgo17-amd.csv when devmapDir() finds it, else none.
[[nodiscard]] std::vector<std::string> defaultReferenceCsvs();

} // namespace steerbench::corpus

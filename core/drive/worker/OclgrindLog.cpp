#include "drive/worker/OclgrindLog.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace steerbench::drive {

OclgrindLog::OclgrindLog() {
  if (const char* p = std::getenv("OCLGRIND_LOG"); p && *p) path_ = p;
}

OclgrindLog::OclgrindLog(std::string path) : path_(std::move(path)) {}

std::uint64_t OclgrindLog::end() const {
  struct stat st {};
  if (!active() || ::stat(path_.c_str(), &st) != 0) return 0;
  return std::uint64_t(st.st_size);
}

std::string OclgrindLog::memoryErrorSince(std::uint64_t from) const {
  if (!active()) return {};
  std::ifstream in(path_, std::ios::binary);
  if (!in) return {};
  in.seekg(std::streamoff(from));
  std::string line, error;
  // An entry is a headline ("Invalid write of size 4 at global memory address
  // 0x...", "Index (64) exceeds static array size (64)") followed by indented
  // lines naming the kernel, the work-item and the source line.
  while (std::getline(in, line)) {
    if (error.empty()) {
      if (line.rfind("Invalid read", 0) == 0 || line.rfind("Invalid write", 0) == 0 ||
          (line.rfind("Index (", 0) == 0 && line.find("exceeds") != std::string::npos))
        error = line;
      continue;
    }
    if (line.empty() || (line[0] != '\t' && line[0] != ' ')) break;
    const auto at = line.find("Entity: ");
    if (at != std::string::npos) {
      std::istringstream entity(line.substr(at + 8));
      std::string global;
      entity >> global;
      error += " by work-item " + global;
    }
    const auto src = line.find("At line ");
    if (src != std::string::npos) {
      const auto stop = line.find(" (", src);
      error += ", at " + line.substr(src + 3, stop == std::string::npos ? std::string::npos : stop - src - 3) +
               " of the checked source";
    }
  }
  return error;
}

} // namespace steerbench::drive

#include "drive/worker/OclgrindLog.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <vector>

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

namespace {

/// The first entry after `from` whose headline `is` takes, with the
/// work-items ("Entity:", "First entity:", "Second entity:") and source
/// lines ("At line N") of its indented lines.
template <typename Headline>
std::string firstEntry(const std::string& path, std::uint64_t from, Headline is) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(std::streamoff(from));
  std::string line, headline;
  std::vector<std::string> items, lines;
  // An entry is a headline ("Invalid write of size 4 at global memory address
  // 0x...", "Index (64) exceeds static array size (64)", "Read-write data
  // race at local memory address 0x...") followed by indented lines naming
  // the kernel, the work-item(s) and the source line(s), up to an empty line
  // (the lines that look blank inside an entry hold a tab).
  while (std::getline(in, line)) {
    if (headline.empty()) {
      if (is(line)) headline = line;
      continue;
    }
    if (line.empty() || (line[0] != '\t' && line[0] != ' ')) break;
    if (const auto at = line.find("ntity: "); at != std::string::npos) {
      std::istringstream entity(line.substr(at + 7));
      std::string global;
      entity >> global;
      items.push_back(global);
    }
    if (const auto src = line.find("At line "); src != std::string::npos) {
      std::istringstream number(line.substr(src + 8));
      std::string n;
      number >> n;
      lines.push_back(n);
    }
  }
  if (headline.empty()) return {};
  if (lines.size() == 2 && lines[0] == lines[1]) lines.pop_back(); // a race of a line with itself
  auto joined = [](const std::vector<std::string>& v) {
    return v.size() == 1 ? v[0] : v[0] + " and " + v[1];
  };
  if (!items.empty()) headline += (items.size() == 1 ? " by work-item " : " between work-items ") + joined(items);
  if (!lines.empty())
    headline += std::string(lines.size() == 1 ? ", at line " : ", at lines ") + joined(lines) + " of the checked source";
  return headline;
}

} // namespace

std::string OclgrindLog::memoryErrorSince(std::uint64_t from) const {
  if (!active()) return {};
  return firstEntry(
      path_, from,
      [](const std::string& line) {
        return line.rfind("Invalid read", 0) == 0 || line.rfind("Invalid write", 0) == 0 ||
               (line.rfind("Index (", 0) == 0 && line.find("exceeds") != std::string::npos);
      });
}

std::string OclgrindLog::dataRaceSince(std::uint64_t from) const {
  if (!active()) return {};
  return firstEntry(
      path_, from, [](const std::string& line) { return line.find(" data race at ") != std::string::npos; });
}

} // namespace steerbench::drive

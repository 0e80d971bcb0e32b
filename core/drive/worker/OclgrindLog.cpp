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

bool isMemoryError(const std::string& headline) {
  return headline.rfind("Invalid read", 0) == 0 || headline.rfind("Invalid write", 0) == 0 ||
         (headline.rfind("Index (", 0) == 0 && headline.find("exceeds") != std::string::npos);
}

bool isDataRace(const std::string& headline) { return headline.find(" data race at ") != std::string::npos; }

/// An entry in one line: its headline, then the work-items ("Entity:",
/// "First entity:", "Second entity:") and source lines ("At line N") its
/// indented lines name.
std::string oneLine(std::string headline, const std::vector<std::string>& items, std::vector<std::string> lines) {
  if (lines.size() == 2 && lines[0] == lines[1]) lines.pop_back(); // a race of a line with itself
  auto joined = [](const std::vector<std::string>& v) { return v.size() == 1 ? v[0] : v[0] + " and " + v[1]; };
  if (!items.empty()) headline += (items.size() == 1 ? " by work-item " : " between work-items ") + joined(items);
  if (!lines.empty())
    headline += std::string(lines.size() == 1 ? ", at line " : ", at lines ") + joined(lines) + " of the checked source";
  return headline;
}

} // namespace

OclgrindLog::Findings OclgrindLog::findingsSince(std::uint64_t from) const {
  Findings found;
  if (!active()) return found;
  std::ifstream in(path_, std::ios::binary);
  if (!in) return found;
  in.seekg(std::streamoff(from));
  // An entry is a headline ("Invalid write of size 4 at global memory address
  // 0x...", "Index (64) exceeds static array size (64)", "Read-write data
  // race at local memory address 0x...") followed by indented lines naming
  // the kernel, the work-item(s) and the source line(s), up to an empty line
  // (the lines that look blank inside an entry hold a tab).
  std::string line, headline;
  std::string* into = nullptr; ///< the finding the entry being read fills
  std::vector<std::string> items, lines;
  auto close = [&] {
    if (into) *into = oneLine(headline, items, lines);
    into = nullptr;
    items.clear();
    lines.clear();
  };
  while (std::getline(in, line) && (found.memoryError.empty() || found.dataRace.empty())) {
    if (into && (line.empty() || (line[0] != '\t' && line[0] != ' '))) close();
    if (!into) {
      if (found.memoryError.empty() && isMemoryError(line)) into = &found.memoryError;
      else if (found.dataRace.empty() && isDataRace(line)) into = &found.dataRace;
      headline = line;
      continue;
    }
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
  close();
  return found;
}

std::string OclgrindLog::memoryErrorSince(std::uint64_t from) const { return findingsSince(from).memoryError; }

std::string OclgrindLog::dataRaceSince(std::uint64_t from) const { return findingsSince(from).dataRace; }

} // namespace steerbench::drive

#include "common/Paths.h"

#include "common/Version.h"

#include <filesystem>

#include <cstdlib>

namespace steerbench {
namespace {
std::string xdg(const char* var, const char* fallback) {
  if (const char* v = std::getenv(var); v && *v) return std::string(v) + "/steerbench";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/" + fallback + "/steerbench";
}
} // namespace

std::string dataDir() {
  return xdg("XDG_DATA_HOME", ".local/share");
}
std::string cacheDir() {
  return xdg("XDG_CACHE_HOME", ".cache");
}
std::string defaultWorkspacePath() {
  return dataDir() + "/default.sbw";
}
std::string devmapDir() {
  std::error_code ec;
  if (const char* env = std::getenv("STEERBENCH_DEVMAP_DIR"); env && *env)
    return std::filesystem::is_directory(env, ec) ? std::string(env) : std::string();
  return std::filesystem::is_directory(kDevMapDir, ec) ? std::string(kDevMapDir) : std::string();
}

} // namespace steerbench

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
std::string defaultModelPath() {
  std::error_code ec;
  if (const char* env = std::getenv("STEERBENCH_MODEL"); env && *env)
    return std::filesystem::is_regular_file(env, ec) ? std::string(env) : std::string();
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share/steerbench/models/default.ckpt";
    if (std::filesystem::is_regular_file(installed, ec)) return installed.string();
  }
  const auto source = std::filesystem::path(kSourceModelDir) / "default.ckpt";
  return std::filesystem::is_regular_file(source, ec) ? source.string() : std::string();
}

std::string workspaceModelPath(const std::string& workspace) {
  const std::filesystem::path p(workspace);
  return (p.parent_path() / (p.stem().string() + ".model.ckpt")).string();
}

std::string modelForWorkspace(const std::string& workspace) {
  std::error_code ec;
  const std::string own = workspaceModelPath(workspace);
  return std::filesystem::is_regular_file(own, ec) ? own : defaultModelPath();
}

std::string devmapDir() {
  std::error_code ec;
  if (const char* env = std::getenv("STEERBENCH_DEVMAP_DIR"); env && *env)
    return std::filesystem::is_directory(env, ec) ? std::string(env) : std::string();
  return std::filesystem::is_directory(kDevMapDir, ec) ? std::string(kDevMapDir) : std::string();
}

} // namespace steerbench

#include "drive/host/WorkerProcess.h"

#include "common/Error.h"
#include "common/Version.h"
#include "engine/ParallelFor.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace steerbench::drive {
namespace {

bool executable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

} // namespace

std::string driveWorkerPath() {
  if (const char* env = std::getenv("STEERBENCH_DRIVE"); env && *env) return executable(env) ? env : "";
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && executable(self.parent_path() / "steerbench-drive")) return (self.parent_path() / "steerbench-drive").string();
  const auto built = std::filesystem::path(kBuildAppDir) / "steerbench-drive";
  return executable(built) ? built.string() : "";
}

std::string oclgrindPath() {
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t from = 0;
  while (from <= dirs.size()) {
    const std::size_t colon = std::min(dirs.find(':', from), dirs.size());
    const auto candidate = std::filesystem::path(dirs.substr(from, colon - from)) / "oclgrind";
    if (colon > from && executable(candidate)) return candidate.string();
    from = colon + 1;
  }
  return {};
}

WorkerProcess::WorkerProcess(WorkerOptions options) : options_(std::move(options)) {
  if (options_.executable.empty() || !executable(options_.executable))
    throw InputError("the drive worker steerbench-drive was not found" +
                     (options_.executable.empty() ? std::string() : " at " + options_.executable) +
                     "; build it (ninja -C build) or set STEERBENCH_DRIVE to its path");
  std::error_code ec;
  if (!options_.cacheDir.empty()) std::filesystem::create_directories(options_.cacheDir, ec);

  // Everything the child needs is made before fork: after it, only
  // async-signal-safe calls.
  std::vector<std::string> env;
  bool hasDevices = false;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    if (kv.rfind("POCL_CACHE_DIR=", 0) == 0) continue;
    hasDevices = hasDevices || kv.rfind("POCL_DEVICES=", 0) == 0;
    env.push_back(kv);
  }
  if (!options_.cacheDir.empty()) env.push_back("POCL_CACHE_DIR=" + options_.cacheDir);
  // On a CPU-only machine PoCL's pthread (all cores) and basic (one core)
  // devices are a real pair to label with; other vendors' ICDs are unaffected.
  if (!hasDevices) env.push_back("POCL_DEVICES=pthread basic");
  std::vector<char*> envp;
  for (auto& kv : env)
    envp.push_back(kv.data());
  envp.push_back(nullptr);
  std::string exe = options_.executable;
  std::vector<std::string> args{exe};
  if (!options_.oclgrind.empty()) {
    // oclgrind --log FILE steerbench-drive: its launcher preloads the
    // simulator (the only OpenCL platform the worker then sees) and sets
    // OCLGRIND_LOG, where the worker looks for memory errors.
    std::string log = options_.oclgrindLog;
    if (log.empty()) log = (options_.cacheDir.empty() ? std::string("/tmp") : options_.cacheDir) + "/worker-oclgrind.log";
    // Work-groups and local memory as large as PoCL's CPU devices allow
    // (Oclgrind's defaults: 1024 work-items, 32 KiB), so that the launches
    // it checks are the ones timed. --data-races: its race checker too.
    args = {options_.oclgrind, "--log", log, "--max-errors", "1000", "--data-races", "--max-wgsize", "4096",
            "--local-mem-size", "524288", exe};
    exe = options_.oclgrind;
  }
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string logPath = options_.cacheDir.empty() ? "/dev/null" : options_.cacheDir + "/worker-stderr.log";

  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw InputError(std::string("cannot start the drive worker: socketpair: ") + std::strerror(errno));
  const int log = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const pid_t parent = ::getpid();
  // vfork, not fork: fork runs the libraries' atfork handlers, and
  // OpenBLAS's joins its threads there; one that missed the wake-up sleeps
  // on and the fork never returns (a steering run's checks hung so while
  // the sampler's BLAS threads idled). The child borrows this thread's
  // memory until execve, so it only makes system calls on values made
  // above, with signals blocked until just before execve and the parent's
  // handlers reset first (the child has its own table), as posix_spawn does.
  sigset_t all, before;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &before);
  const pid_t pid = ::vfork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL); // never outlive the parent
    if (::getppid() != parent) ::_exit(127);
    ::setpgid(0, 0); // its own group, so a kill reaches PoCL's threads and any child
    rlimit core{0, 0};
    ::setrlimit(RLIMIT_CORE, &core);
    if (options_.memoryLimitBytes) {
      // RLIMIT_DATA (writable private memory), not RLIMIT_AS: GPU runtimes
      // reserve large address ranges they never write.
      rlimit data{options_.memoryLimitBytes, options_.memoryLimitBytes};
      ::setrlimit(RLIMIT_DATA, &data);
    }
    ::dup2(sv[1], 0);
    ::dup2(sv[1], 1);
    if (log >= 0) ::dup2(log, 2);
    for (int sig = 1; sig < NSIG; ++sig) {
      struct sigaction now {};
      if (::sigaction(sig, nullptr, &now) == 0 && now.sa_handler != SIG_IGN && now.sa_handler != SIG_DFL) {
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        (void)::sigaction(sig, &dfl, nullptr);
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    ::execve(exe.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  const int forkError = errno;
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    if (log >= 0) ::close(log);
    throw InputError(std::string("cannot start the drive worker: vfork: ") + std::strerror(forkError));
  }
  pid_ = pid;
  ::close(sv[1]);
  if (log >= 0) ::close(log);
  fd_ = sv[0];
  std::string hello;
  const Read r = readLine(hello, options_.startTimeoutSeconds, nullptr);
  if (r != Read::Line) {
    if (r == Read::Timeout) kill();
    const std::string how = r == Read::Timeout ? "sent no greeting within " +
                                                     std::to_string(int(options_.startTimeoutSeconds)) + " s"
                                               : reap();
    ::close(fd_);
    fd_ = -1;
    pid_ = -1;
    throw InputError("the drive worker " + options_.executable + " failed to start: " + how + " (its messages: " +
                     logPath + ")");
  }
  try {
    devices_ = decodeHello(hello);
  } catch (...) {
    kill();
    (void)reap();
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

WorkerProcess::~WorkerProcess() {
  if (pid_ > 0) {
    const char quit[] = "{\"op\":\"quit\"}\n";
    (void)!::send(fd_, quit, sizeof quit - 1, MSG_NOSIGNAL);
    // Give it a moment to exit on its own, then kill it.
    for (int i = 0; i < 50; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      ::usleep(10000);
    }
    if (pid_ > 0) {
      kill();
      (void)reap();
    }
  }
  if (fd_ >= 0) ::close(fd_);
}

void WorkerProcess::kill() {
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
  }
}

std::string WorkerProcess::reap() {
  if (pid_ <= 0) return "it had already ended";
  int status = 0;
  pid_t r;
  do
    r = ::waitpid(pid_, &status, 0);
  while (r < 0 && errno == EINTR);
  pid_ = -1;
  if (r < 0) return "it ended (status unknown)";
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

namespace {

/// The CPU seconds (user and system, all threads) process `pid` has used;
/// negative when /proc cannot tell.
double cpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) { // fields 14 and 15 of proc(5): utime, stime
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return double(utime + stime) / double(::sysconf(_SC_CLK_TCK));
}

} // namespace

WorkerProcess::Read WorkerProcess::readLine(std::string& line, double timeoutSeconds,
                                            const CancelToken* cancel) {
  using Clock = std::chrono::steady_clock;
  const bool cpu = options_.cpuTimeouts && pid_ > 0;
  const double cpuStart = cpu ? cpuSeconds(pid_) : 0;
  const auto deadline =
      Clock::now() + std::chrono::duration<double>(timeoutSeconds * (cpu ? kCpuTimeoutWallFactor : 1));
  for (;;) {
    if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return Read::Line;
    }
    if (cancel && cancel->cancelled()) return Read::Cancelled;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Read::Timeout;
    if (cpu && cpuStart >= 0 && cpuSeconds(pid_) - cpuStart >= timeoutSeconds) return Read::Timeout;
    pollfd p{fd_, POLLIN, 0};
    const int rc = ::poll(&p, 1, int(std::min<long long>(left, 100)));
    if (rc < 0 && errno != EINTR) return Read::Closed;
    if (rc <= 0) continue;
    char chunk[65536];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return Read::Closed;
    buffer_.append(chunk, std::size_t(n));
  }
}

WorkerProcess::Exchange WorkerProcess::exchange(const std::string& requestLine, double timeoutSeconds,
                                                const CancelToken* cancel) {
  Exchange x;
  if (pid_ <= 0) {
    x.status = Exchange::Status::Died;
    x.death = "the worker is not running";
    return x;
  }
  std::string out = requestLine + "\n";
  std::size_t sent = 0;
  while (sent < out.size()) {
    const ssize_t n = ::send(fd_, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      x.status = Exchange::Status::Died;
      kill();
      x.death = reap();
      return x;
    }
    sent += std::size_t(n);
  }
  switch (readLine(x.line, timeoutSeconds, cancel)) {
  case Read::Line: return x;
  case Read::Timeout:
    x.status = Exchange::Status::Timeout;
    kill();
    (void)reap();
    return x;
  case Read::Cancelled:
    x.status = Exchange::Status::Cancelled;
    kill();
    (void)reap();
    return x;
  case Read::Closed:
    x.status = Exchange::Status::Died;
    x.death = reap();
    return x;
  }
  return x;
}

} // namespace steerbench::drive

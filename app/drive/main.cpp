// steerbench-drive: the device worker. It runs kernels on OpenCL devices for
// the parent (steerbench-cli, steerbench), which starts it with pipes for
// stdin and stdout, enforces a wall-clock timeout and a memory limit, and
// kills and replaces it when a kernel hangs or crashes it. It speaks the line
// protocol of core/drive/Protocol.h (documented in docs/drive-protocol.md).
#include "common/Version.h"
#include "drive/worker/DeviceRunner.h"

#include "common/Error.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <unistd.h>

int main(int argc, char** argv) {
  using namespace steerbench::drive;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--version")) {
      std::cout << "steerbench-drive " << steerbench::kAppVersion << " (protocol " << kProtocolVersion << ")\n";
      return 0;
    }
    std::cout << "Usage: steerbench-drive\n\n"
                 "The device worker of Steerbench: reads run requests as JSON lines on stdin and\n"
                 "writes one reply line each on stdout. Started by steerbench-cli and steerbench;\n"
                 "see docs/drive-protocol.md. Not meant to be run by hand.\n";
    return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
  }
  // The protocol gets its own descriptor; fd 1 then points at the log (fd 2),
  // so a kernel's printf or a driver's chatter cannot corrupt the replies.
  const int protocolFd = ::dup(1);
  ::dup2(2, 1);
  std::FILE* protocol = ::fdopen(protocolFd, "w");
  if (!protocol) return 1;
  auto send = [protocol](const std::string& line) {
    std::fputs(line.c_str(), protocol);
    std::fputc('\n', protocol);
    std::fflush(protocol);
  };
  DeviceRunner runner;
  send(encodeHello(runner.devices()));
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    RunReply reply;
    try {
      const auto request = decodeRequest(line);
      if (!request) return 0;
      reply = runner.run(*request);
    } catch (const steerbench::InputError& e) {
      reply.outcome = "PROTOCOL_ERROR";
      reply.detail = e.what();
    } catch (const std::bad_alloc&) {
      reply.outcome = "CL_ERROR";
      reply.detail = "the worker ran out of host memory for the payloads (raise --memory-limit or lower the global size)";
    } catch (const std::exception& e) {
      reply.outcome = "CL_ERROR";
      reply.detail = std::string("the worker failed: ") + e.what();
    }
    send(encodeReply(reply));
  }
  return 0;
}

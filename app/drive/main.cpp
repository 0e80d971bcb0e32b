// steerbench-drive: the device worker. It runs kernels on OpenCL devices for
// the parent (steerbench-cli, steerbench), which starts it with pipes for
// stdin and stdout, enforces a wall-clock timeout and a memory limit, and
// kills and replaces it when a kernel hangs or crashes it. It speaks the line
// protocol of core/drive/Protocol.h (documented in docs/drive-protocol.md).
#include "common/Version.h"
#include "drive/DeviceRunner.h"

#include <cstring>
#include <exception>
#include <iostream>
#include <string>

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
  std::ios::sync_with_stdio(false);
  DeviceRunner runner;
  std::cout << encodeHello(runner.devices()) << std::endl;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    RunReply reply;
    try {
      const auto request = decodeRequest(line);
      if (!request) return 0;
      reply = runner.run(*request);
    } catch (const std::exception& e) {
      reply.outcome = "PROTOCOL_ERROR";
      reply.detail = e.what();
    }
    std::cout << encodeReply(reply) << std::endl;
  }
  return 0;
}

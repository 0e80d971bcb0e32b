#include "model/TrainingRanks.h"

#include "common/Error.h"

#include <cstdlib>
#include <string>

namespace steerbench::model {

namespace {

long number(const char* name, long min, long max) {
  const char* v = std::getenv(name);
  char* end = nullptr;
  const long n = v ? std::strtol(v, &end, 10) : -1;
  if (!v || !*v || *end || n < min || n > max)
    throw InputError(std::string(name) + " is \"" + (v ? v : "") + "\"; expected a whole number from " +
                     std::to_string(min) + " to " + std::to_string(max));
  return n;
}

} // namespace

TrainingRanks trainingRanksFromEnvironment() {
  TrainingRanks r;
  static const char* pairs[][2] = {
      {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"SLURM_PROCID", "SLURM_STEP_NUM_TASKS"}, {"RANK", "WORLD_SIZE"}};
  for (const auto& p : pairs) {
    if (!std::getenv(p[0]) || !std::getenv(p[1])) continue;
    r.world = int(number(p[1], 1, 65536));
    r.rank = int(number(p[0], 0, r.world - 1));
    r.from = std::string(p[0]) + "/" + p[1];
    break;
  }
  if (const char* a = std::getenv("MASTER_ADDR"); a && *a) r.masterAddr = a;
  if (std::getenv("MASTER_PORT")) r.masterPort = int(number("MASTER_PORT", 1, 65535));
  return r;
}

} // namespace steerbench::model

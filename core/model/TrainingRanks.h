// The processes that train one model together (data parallel, docs/model.md):
// this process's rank, their number, and where they meet. Read from the
// environment mpirun or srun gives each process; torch-free.
#pragma once

#include <string>

namespace steerbench::model {

struct TrainingRanks {
  int rank = 0, world = 1;
  std::string masterAddr = "127.0.0.1"; ///< where rank 0 listens (MASTER_ADDR)
  int masterPort = 29500;               ///< MASTER_PORT
  std::string from;                     ///< which variables gave the ranks ("" when alone)
  [[nodiscard]] bool lead() const { return rank == 0; }
};

/// Ranks from OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE (mpirun),
/// SLURM_PROCID/SLURM_STEP_NUM_TASKS (srun: a batch script itself, which has
/// SLURM_NTASKS but runs once, is one rank) or RANK/WORLD_SIZE, the first that is
/// set, with MASTER_ADDR and MASTER_PORT; one rank of one when none is.
/// Throws InputError naming a variable that is not a number or out of range.
[[nodiscard]] TrainingRanks trainingRanksFromEnvironment();

} // namespace steerbench::model

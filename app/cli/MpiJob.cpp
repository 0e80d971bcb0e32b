#include "cli/MpiJob.h"

#include "common/Error.h"

// The C API only (Open MPI would bring its deprecated C++ bindings along).
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace steerbench::cli {

MpiJob::MpiJob() {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw InputError("MPI did not start: run under mpirun (or srun) with Open MPI");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiJob::~MpiJob() { MPI_Finalize(); }

void MpiJob::barrier(const std::function<void()>& whileWaiting, double periodSeconds) {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  auto last = std::chrono::steady_clock::now();
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto now = std::chrono::steady_clock::now();
    if (whileWaiting && std::chrono::duration<double>(now - last).count() >= periodSeconds) {
      whileWaiting();
      last = now;
    }
  }
}

void MpiJob::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

} // namespace steerbench::cli

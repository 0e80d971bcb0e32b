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

void MpiJob::barrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

std::string MpiJob::broadcast(const std::string& text) {
  long long n = rank_ == 0 ? (long long)text.size() : 0;
  MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  std::string out = rank_ == 0 ? text : std::string(std::size_t(n), '\0');
  if (n > 0) MPI_Bcast(out.data(), int(n), MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

std::vector<std::string> MpiJob::gather(const std::string& text) {
  int n = int(text.size());
  std::vector<int> sizes(rank_ == 0 ? std::size_t(size_) : 0);
  MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(sizes.size());
  int total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = total;
    total += sizes[r];
  }
  std::string all(std::size_t(total), '\0');
  MPI_Gatherv(text.data(), n, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < sizes.size(); ++r)
    out.push_back(all.substr(std::size_t(offsets[r]), std::size_t(sizes[r])));
  return out;
}

void MpiJob::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

} // namespace steerbench::cli

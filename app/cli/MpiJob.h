// The MPI job a campaign runs in (mpirun, or srun with MPI support): this
// process's rank and their number, a barrier that does not spin, texts sent
// between ranks, and ending every rank when one fails. The only translation unit
// that includes mpi.h.
#pragma once

#include <string>
#include <vector>

namespace steerbench::cli {

class MpiJob {
public:
  /// Joins the job. Throws InputError when MPI cannot start.
  MpiJob();
  ~MpiJob();
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  /// Waits until every rank has arrived, sleeping between polls (MPI's own
  /// barrier spins on a core a waiting rank should leave to the others).
  void barrier();
  /// Every rank gets rank 0's `text` (the others' argument is ignored).
  [[nodiscard]] std::string broadcast(const std::string& text);
  /// Rank 0 gets every rank's `text`, in rank order; the others get nothing.
  [[nodiscard]] std::vector<std::string> gather(const std::string& text);
  /// Ends every rank of the job with `code`.
  [[noreturn]] void abort(int code);

private:
  int rank_ = 0, size_ = 1;
};

} // namespace steerbench::cli

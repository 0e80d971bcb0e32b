// Oclgrind's error log, read by the worker when it runs inside Oclgrind's
// simulator (`oclgrind --log FILE steerbench-drive`; the launcher sets
// OCLGRIND_LOG). Oclgrind checks every load and store of global, constant,
// local and private memory against its allocation and logs what falls
// outside; the worker turns such an entry, logged during a kernel's checked
// runs, into the outcome OUT_OF_BOUNDS. Its race checker (--data-races)
// logs two work-items that touch the same address between barriers, one of
// them writing, without atomics: the worker's NONDETERMINISTIC.
#pragma once

#include <cstdint>
#include <string>

namespace steerbench::drive {

class OclgrindLog {
public:
  /// The log named by OCLGRIND_LOG; inactive when it is unset.
  OclgrindLog();
  explicit OclgrindLog(std::string path);

  [[nodiscard]] bool active() const { return !path_.empty(); }
  /// The log's current end: what is logged after it is what a run caused.
  [[nodiscard]] std::uint64_t end() const;
  /// The first memory error and the first data race logged after `from`,
  /// each in one line (empty when there is none), in one reading of the log.
  struct Findings {
    std::string memoryError, dataRace;
  };
  [[nodiscard]] Findings findingsSince(std::uint64_t from) const;
  /// The first memory error logged after `from`, in one line ("Invalid read
  /// of size 4 at local memory address 0x1000000000100 by work-item
  /// Global(63,0,0)"); empty when there is none.
  [[nodiscard]] std::string memoryErrorSince(std::uint64_t from) const;
  /// The first data race logged after `from`, in one line ("Read-write data
  /// race at local memory address 0x1000000000020 between work-items
  /// Global(1,0,0) and Global(0,0,0), at lines 26 and 29 of the checked
  /// source"); empty when there is none.
  [[nodiscard]] std::string dataRaceSince(std::uint64_t from) const;

private:
  std::string path_;
};

} // namespace steerbench::drive

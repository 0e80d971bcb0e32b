// Workspace: drive cases and their measurements.
#include "store/Workspace.h"

#include "store/Statement.h"

namespace steerbench::store {

std::int64_t Workspace::addDriveCase(const DriveCaseRecord& c) {
  Statement st(db_, "INSERT INTO drive_cases(kernel_id, kernel_name, global_size, local_size, transfer_bytes, outcome, "
                    "detail, label, label_status, spec_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, c.kernelId).bind(2, c.kernelName).bind(3, c.globalSize).bind(4, c.localSize).bind(5, c.transferBytes);
  st.bind(6, c.outcome).bind(7, c.detail).bind(8, c.label).bind(9, c.labelStatus).bind(10, c.specHash);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store the drive result of " + c.kernelName, st.lastRc);
  const std::int64_t id = sqlite3_last_insert_rowid(db_);
  for (std::size_t i = 0; i < c.devices.size(); ++i) {
    const auto& m = c.devices[i];
    Statement ms(db_, "INSERT INTO drive_measurements(case_id, position, device_id, device, device_type, outcome, "
                      "detail, runs, kernel_median_ns, kernel_mean_ns, kernel_ci_low_ns, kernel_ci_high_ns, "
                      "transfer_median_ns, transfer_mean_ns, transfer_ci_low_ns, transfer_ci_high_ns, "
                      "total_median_ns, total_mean_ns, total_ci_low_ns, total_ci_high_ns, kernel_ns, transfer_ns) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    ms.bind(1, id).bind(2, std::int64_t(i)).bind(3, m.deviceId).bind(4, m.device).bind(5, m.deviceType);
    ms.bind(6, m.outcome).bind(7, m.detail).bind(8, m.total.n);
    int col = 9;
    for (const DriveStats* s : {&m.kernel, &m.transfer, &m.total}) {
      if (s->n == 0) { // not measured: NULL, never a zero time
        col += 4;
        continue;
      }
      ms.bindDouble(col++, s->median).bindDouble(col++, s->mean).bindDouble(col++, s->ciLow);
      ms.bindDouble(col++, s->ciHigh);
    }
    ms.bind(21, m.kernelNs).bind(22, m.transferNs);
    ms.step();
    if (ms.lastRc != SQLITE_OK) fail("cannot store the drive result of " + c.kernelName, ms.lastRc);
  }
  return id;
}

std::vector<Workspace::StoredOutcome> Workspace::driveOutcomes(std::int64_t kernelId, const std::string& kernelName,
                                                               const CaseSpecMatch& match) const {
  Statement st(db_, "SELECT c.id, c.outcome FROM drive_cases c JOIN specs s ON s.hash = c.spec_hash "
                    "WHERE c.kernel_id = ?1 AND c.kernel_name = ?2 AND (s.json = ?3 OR substr(s.json, 1, length(?4)) = ?4) "
                    "ORDER BY c.id");
  st.bind(1, kernelId).bind(2, kernelName).bind(3, match.spec).bind(4, match.prefix);
  std::vector<StoredOutcome> out;
  while (st.step())
    out.push_back({st.integer(0), st.text(1)});
  if (st.lastRc != SQLITE_OK) fail("cannot read the drive results", st.lastRc);
  return out;
}

std::pair<std::int64_t, std::string> Workspace::lastDriven(const CaseSpecMatch& match) const {
  Statement st(db_, "SELECT c.kernel_id, c.kernel_name FROM drive_cases c JOIN specs s ON s.hash = c.spec_hash "
                    "WHERE s.json = ?1 OR substr(s.json, 1, length(?2)) = ?2 ORDER BY c.id DESC LIMIT 1");
  st.bind(1, match.spec).bind(2, match.prefix);
  std::pair<std::int64_t, std::string> last{0, ""};
  if (st.step()) last = {st.integer(0), st.text(1)};
  if (st.lastRc != SQLITE_OK) fail("cannot read the drive results", st.lastRc);
  return last;
}

void Workspace::removeDriveCases(const std::vector<std::int64_t>& caseIds) {
  for (const auto id : caseIds) {
    Statement st(db_, "DELETE FROM drive_cases WHERE id = ?"); // measurements go with it (ON DELETE CASCADE)
    st.bind(1, id);
    st.step();
    if (st.lastRc != SQLITE_OK) fail("cannot remove a drive case", st.lastRc);
  }
}

std::vector<std::string> Workspace::drivenSources() const {
  Statement st(db_, "SELECT source FROM kernels WHERE id IN (SELECT kernel_id FROM drive_cases) ORDER BY id");
  std::vector<std::string> out;
  while (st.step())
    out.push_back(st.text(0));
  if (st.lastRc != SQLITE_OK) fail("cannot read the drive results", st.lastRc);
  return out;
}

std::vector<Workspace::DriveCaseRecord> Workspace::driveCases() const {
  std::vector<DriveCaseRecord> out;
  {
    Statement st(db_, "SELECT id, kernel_id, kernel_name, global_size, local_size, transfer_bytes, outcome, detail, "
                      "label, label_status, spec_hash, created_at FROM drive_cases ORDER BY id");
    while (st.step()) {
      DriveCaseRecord c;
      c.id = st.integer(0);
      c.kernelId = st.integer(1);
      c.kernelName = st.text(2);
      c.globalSize = st.integer(3);
      c.localSize = st.integer(4);
      c.transferBytes = st.integer(5);
      c.outcome = st.text(6);
      c.detail = st.text(7);
      c.label = st.text(8);
      c.labelStatus = st.text(9);
      c.specHash = st.text(10);
      c.createdAt = st.text(11);
      out.push_back(std::move(c));
    }
    if (st.lastRc != SQLITE_OK) fail("cannot read the drive results", st.lastRc);
  }
  Statement st(db_, "SELECT case_id, device_id, device, device_type, outcome, detail, runs, kernel_median_ns, "
                    "kernel_mean_ns, kernel_ci_low_ns, kernel_ci_high_ns, transfer_median_ns, transfer_mean_ns, "
                    "transfer_ci_low_ns, transfer_ci_high_ns, total_median_ns, total_mean_ns, total_ci_low_ns, "
                    "total_ci_high_ns, kernel_ns, transfer_ns FROM drive_measurements ORDER BY case_id, position");
  std::size_t at = 0;
  while (st.step()) {
    const std::int64_t caseId = st.integer(0);
    while (at < out.size() && out[at].id < caseId)
      ++at;
    if (at == out.size()) break;
    if (out[at].id != caseId) continue;
    DriveMeasurementRecord m;
    m.deviceId = st.text(1);
    m.device = st.text(2);
    m.deviceType = st.text(3);
    m.outcome = st.text(4);
    m.detail = st.text(5);
    int col = 7;
    for (DriveStats* s : {&m.kernel, &m.transfer, &m.total}) {
      s->n = st.integer(6);
      s->median = st.real(col++);
      s->mean = st.real(col++);
      s->ciLow = st.real(col++);
      s->ciHigh = st.real(col++);
    }
    m.kernelNs = st.text(19);
    m.transferNs = st.text(20);
    out[at].devices.push_back(std::move(m));
  }
  if (st.lastRc != SQLITE_OK) fail("cannot read the drive results", st.lastRc);
  return out;
}

} // namespace steerbench::store

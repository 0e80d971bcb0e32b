// corpusReport: what the corpus holds, stage by stage, from the workspace alone.
#include "corpus/CorpusIngest.h"

#include "common/TextFormat.h"
#include "corpus/CorpusPipeline.h"
#include "store/HexDoubles.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <map>
#include <sstream>

namespace steerbench::corpus {
namespace {

std::size_t num(const std::string& s) {
  return s.empty() ? 0 : std::size_t(std::stoll(s));
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

std::string pct(std::size_t a, std::size_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", b ? 100.0 * double(a) / double(b) : 0.0);
  return buf;
}

/// Rejections of one kind: a stage and a reason with its numbers taken out.
struct RejectionKind {
  std::string stage, kind, example;
  std::size_t count = 0;
};

/// A reason with each run of digits as N: "the isolated kernel has 14263
/// tokens" and "... 14295 tokens" are one kind of rejection.
std::string kindOf(const std::string& reason) {
  std::string out;
  for (std::size_t i = 0; i < reason.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(reason[i]))) {
      out += 'N';
      while (i + 1 < reason.size() && std::isdigit(static_cast<unsigned char>(reason[i + 1])))
        ++i;
    } else {
      out += reason[i];
    }
  }
  return out;
}

/// A reason as the report prints it: at most 110 characters.
std::string cut(const std::string& s) { return s.size() > 110 ? s.substr(0, 107) + "..." : s; }

/// The `top` most common kinds of rejection of files and kernels, each with its first example.
std::vector<RejectionKind> rejectionKinds(const store::Workspace& ws, std::size_t top) {
  std::map<std::pair<std::string, std::string>, RejectionKind> kinds;
  for (const auto& r : ws.rows("SELECT stage, substr(reason, 1, 400), count(*) FROM (SELECT stage, reason FROM "
                               "corpus_files WHERE reason != '' UNION ALL SELECT stage, reason FROM corpus_kernels "
                               "WHERE stage NOT IN ('stored', 'dedupe')) GROUP BY 1, 2 ORDER BY 3 DESC, 2")) {
    const std::string kind = cut(kindOf(r[1]));
    auto& k = kinds[{r[0], kind}];
    if (k.count == 0) k = {r[0], kind, cut(r[1]), 0};
    k.count += num(r[2]);
  }
  std::vector<RejectionKind> out;
  for (auto& [key, k] : kinds)
    out.push_back(std::move(k));
  std::stable_sort(out.begin(), out.end(), [](const RejectionKind& a, const RejectionKind& b) { return a.count > b.count; });
  if (out.size() > top) out.resize(top);
  return out;
}

} // namespace

std::string corpusReport(const store::Workspace& ws, bool json) {
  // Files by the stage they stopped at ("isolate" = kernels found).
  std::map<std::string, std::size_t> fileStages;
  std::size_t files = 0;
  for (const auto& r : ws.rows("SELECT stage, count(*) FROM corpus_files GROUP BY stage")) {
    fileStages[r[0]] = num(r[1]);
    files += num(r[1]);
  }
  std::map<std::string, std::size_t> kernelStages;
  std::size_t found = 0, asIs = 0, rescued = 0, tooLong = 0;
  for (const auto& r : ws.rows("SELECT stage, count(*), sum(compiled_as_is), sum(reconstructed) FROM corpus_kernels "
                               "GROUP BY stage")) {
    kernelStages[r[0]] = num(r[1]);
    found += num(r[1]);
    asIs += num(r[2]);
    rescued += num(r[3]);
  }
  // Kernels rejected for their length never reach a compiler: leave them out of compile rates.
  tooLong = num(ws.rows("SELECT count(*) FROM corpus_kernels WHERE stage = 'isolate'").at(0).at(0));
  const std::size_t compiled = found - tooLong;
  std::map<std::string, std::size_t> roles;
  for (const auto& r : ws.rows("SELECT role, count(*) FROM kernels WHERE role != 'user' GROUP BY role"))
    roles[r[0]] = num(r[1]);
  std::size_t unique = 0;
  for (const auto& [role, n] : roles)
    unique += n;
  struct Pkg {
    std::size_t files = 0, filesOk = 0, found = 0, stored = 0, train = 0;
  };
  std::map<std::string, Pkg> pkgs;
  for (const auto& r : ws.rows("SELECT package, count(*), sum(stage = 'done') FROM corpus_files GROUP BY package")) {
    pkgs[r[0]].files = num(r[1]);
    pkgs[r[0]].filesOk = num(r[2]);
  }
  for (const auto& r : ws.rows("SELECT f.package, count(*), sum(k.stage = 'stored') FROM corpus_kernels k "
                               "JOIN corpus_files f ON f.id = k.file_id GROUP BY f.package")) {
    pkgs[r[0]].found = num(r[1]);
    pkgs[r[0]].stored = num(r[2]);
  }
  std::size_t train = 0;
  for (const auto& r : ws.rows("SELECT package, count(*) FROM kernels WHERE role = 'train' GROUP BY package")) {
    pkgs[r[0]].train = num(r[1]);
    train += num(r[1]);
  }
  std::vector<double> tokens;
  for (const auto& r : ws.rows("SELECT tokens FROM kernels WHERE role != 'user'"))
    tokens.push_back(double(num(r[0])));
  // Grewe distributions over the stored corpus.
  const char* dims[] = {"comp", "rational", "mem", "localmem", "coalesced", "atomic"};
  std::vector<std::vector<double>> grewe(6);
  for (const auto& r : ws.rows("SELECT hex(f.vals) FROM feature_vectors f JOIN kernels k ON k.id = f.kernel_id "
                               "WHERE f.space = 'grewe' AND k.role != 'user'")) {
    const auto v = store::doublesFromHex(r[0]);
    for (std::size_t d = 0; d < 6 && d < v.size(); ++d)
      grewe[d].push_back(v[d]);
  }
  std::size_t families = 0, familiesShared = 0, largestFamily = 0;
  for (const auto& r : ws.rows("SELECT count(*) FROM kernels WHERE role != 'user' GROUP BY package, family")) {
    ++families;
    familiesShared += num(r[0]) > 1;
    largestFamily = std::max(largestFamily, num(r[0]));
  }
  const auto topReasons = rejectionKinds(ws, 12);

  std::ostringstream out;
  if (json) {
    out << "{\"files\": " << files << ", \"file_stages\": {";
    bool first = true;
    for (const auto& [s, n] : fileStages)
      out << (first ? "" : ", ") << jsonString(s) << ": " << n, first = false;
    out << "}, \"kernels_found\": " << found << ", \"kernel_stages\": {";
    first = true;
    for (const auto& [s, n] : kernelStages)
      out << (first ? "" : ", ") << jsonString(s) << ": " << n, first = false;
    out << "}, \"kernels_compiled\": " << compiled << ", \"compiled_without_reconstruction\": " << asIs
        << ", \"rescued_by_reconstruction\": " << rescued << ", \"unique_kernels\": " << unique << ", \"roles\": {";
    first = true;
    for (const auto& [s, n] : roles)
      out << (first ? "" : ", ") << jsonString(s) << ": " << n, first = false;
    out << "}, \"packages\": {";
    first = true;
    for (const auto& [p, v] : pkgs) {
      out << (first ? "" : ", ") << jsonString(p.empty() ? "(none)" : p) << ": {\"files\": " << v.files
          << ", \"kernels_found\": " << v.found << ", \"stored\": " << v.stored << ", \"train\": " << v.train << "}";
      first = false;
    }
    out << "}, \"tokens\": {\"min\": " << formatNumber(quantile(tokens, 0))
        << ", \"median\": " << formatNumber(quantile(tokens, 0.5))
        << ", \"p90\": " << formatNumber(quantile(tokens, 0.9)) << ", \"max\": " << formatNumber(quantile(tokens, 1))
        << "}, \"grewe\": {";
    for (int d = 0; d < 6; ++d)
      out << (d ? ", " : "") << jsonString(dims[d]) << ": {\"median\": " << formatNumber(quantile(grewe[d], 0.5))
          << ", \"p90\": " << formatNumber(quantile(grewe[d], 0.9))
          << ", \"max\": " << formatNumber(quantile(grewe[d], 1)) << "}";
    out << "}, \"families\": " << families << ", \"families_with_near_duplicates\": " << familiesShared
        << ", \"largest_family\": " << largestFamily << "}\n";
    return out.str();
  }
  out << "Files: " << files << "\n";
  if (fileStages.count("done")) out << "  with kernels: " << fileStages["done"] << "\n";
  for (Stage s : allStages())
    if (fileStages.count(stageName(s)))
      out << "  rejected at " << stageName(s) << ": " << fileStages[stageName(s)] << "\n";
  out << "Kernels found: " << found << "\n";
  for (Stage s : allStages())
    if (kernelStages.count(stageName(s)))
      out << "  "
          << (s == Stage::Stored   ? "stored"
              : s == Stage::Dedupe ? "duplicates"
                                   : std::string("rejected at ") + stageName(s))
          << ": " << kernelStages[stageName(s)] << "\n";
  out << "Compile rate: " << pct(asIs, compiled) << " without reconstruction, " << pct(asIs + rescued, compiled)
      << " with it (" << rescued << " kernels rescued), of the " << compiled << " kernels short enough to compile\n";
  out << "Unique kernels: " << unique << " (train " << roles["train"] << ", held out as evaluation kernels "
      << roles["held_out"] << ", capped for balance " << roles["capped"] << ")\n";
  out << "\nPer package:            files  kernels   stored    train   share of train\n";
  for (const auto& [p, v] : pkgs) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-20s %7zu %8zu %8zu %8zu   %s\n", p.empty() ? "(none)" : p.c_str(), v.files,
                  v.found, v.stored, v.train, pct(v.train, train).c_str());
    out << line;
  }
  out << "\nTokens per kernel: min " << formatNumber(quantile(tokens, 0)) << ", median "
      << formatNumber(quantile(tokens, 0.5)) << ", p90 " << formatNumber(quantile(tokens, 0.9)) << ", max "
      << formatNumber(quantile(tokens, 1)) << "\n";
  // A small text histogram of token lengths, log2 buckets.
  std::map<int, std::size_t> hist;
  for (double t : tokens)
    ++hist[t < 1 ? 0 : int(std::log2(t))];
  std::size_t peak = 1;
  for (const auto& [b, n] : hist)
    peak = std::max(peak, n);
  for (const auto& [b, n] : hist) {
    char label[40];
    std::snprintf(label, sizeof label, "  %6d-%-6d ", 1 << b, (2 << b) - 1);
    out << label << std::string(std::size_t(40.0 * double(n) / double(peak)), '#') << " " << n << "\n";
  }
  out << "\nGrewe features over the corpus (median / p90 / max):\n";
  for (int d = 0; d < 6; ++d)
    out << "  " << dims[d] << ": " << formatNumber(quantile(grewe[d], 0.5)) << " / "
        << formatNumber(quantile(grewe[d], 0.9)) << " / " << formatNumber(quantile(grewe[d], 1)) << "\n";
  out << "\nTemplate families: " << families << ", of which " << familiesShared
      << " have near-duplicates; the largest has " << largestFamily << " kernels\n";
  if (!topReasons.empty()) {
    out << "\nMost common rejections (numbers in a reason shown as N; an example of each):\n";
    for (const auto& k : topReasons) {
      out << "  " << k.count << " x [" << k.stage << "] " << k.kind << "\n";
      if (k.example != k.kind) out << "      e.g. " << k.example << "\n";
    }
  }
  return out.str();
}

} // namespace steerbench::corpus

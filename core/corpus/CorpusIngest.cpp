#include "corpus/CorpusIngest.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "common/TextFormat.h"
#include "common/Version.h"
#include "dataset/DevMap.h"
#include "store/Workspace.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace steerbench::corpus {
namespace {

std::string rawHash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream ss;
  ss << in.rdbuf();
  return sha256Hex(ss.str());
}

std::string specJson(const SourceInput& in, const IngestOptions& o) {
  std::string s = "{\"kind\":\"corpus-ingest\",\"app\":" + jsonString(kAppVersion) +
                  ",\"llvm\":" + jsonString(kLlvmVersion) + ",\"cl_std\":" + jsonString(o.compile.clStd) +
                  ",\"reconstruct\":" + (o.reconstruct ? "true" : "false") +
                  ",\"max_bytes\":" + std::to_string(o.limits.maxBytes) +
                  ",\"max_tokens\":" + std::to_string(o.maxTokens) + ",\"defines\":[";
  std::vector<std::string> defines = o.compile.defines;
  defines.insert(defines.end(), in.defines.begin(), in.defines.end());
  for (std::size_t i = 0; i < defines.size(); ++i)
    s += (i ? "," : "") + jsonString(defines[i]);
  s += "],\"include_dirs\":[";
  std::vector<std::string> dirs = o.compile.includeDirs;
  dirs.insert(dirs.end(), in.includeDirs.begin(), in.includeDirs.end());
  for (std::size_t i = 0; i < dirs.size(); ++i)
    s += (i ? "," : "") + jsonString(dirs[i]);
  s += "]}";
  return s;
}

std::string flagsText(const IngestOptions& o, const SourceInput& in) {
  std::string s = "-cl-std=" + o.compile.clStd;
  for (const auto& d : o.compile.defines)
    s += " -D" + d;
  for (const auto& d : in.defines)
    s += " -D" + d;
  return s;
}

/// Dedupe hashes of the reference (evaluation) kernels, after the same pipeline.
std::set<std::string> referenceHashes(const std::vector<std::string>& csvs, const IngestOptions& options, unsigned jobs,
                                      std::size_t* count) {
  std::vector<std::string> sources;
  std::set<std::string> seen;
  for (const auto& csv : csvs)
    for (const auto& row : dataset::readDevMap(csv))
      if (seen.insert(row.src).second) sources.push_back(row.src);
  std::vector<std::string> hashes(sources.size());
  engine::parallelFor(sources.size(), jobs, [&](std::size_t i) {
    const KernelOutcome k = finishKernel("reference", sources[i], "reference.cl", options);
    if (k.ready()) hashes[i] = k.dedupeHash;
  });
  std::set<std::string> out;
  for (auto& h : hashes)
    if (!h.empty()) out.insert(h);
  *count = sources.size();
  return out;
}

} // namespace

std::vector<SourceInput> collectSources(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw InputError(path + ": no such file or folder");
  std::vector<SourceInput> out;
  if (fs::is_regular_file(st)) {
    const fs::path p(path);
    out.push_back({path, p.has_parent_path() ? p.parent_path().string() : ".", "", "", {}, {}});
    return out;
  }
  const std::string root = fs::path(path).lexically_normal().string();
  for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file(ec) && it->path().extension() == ".cl")
      out.push_back({it->path().lexically_normal().string(), root, "", "", {}, {}});
  }
  std::sort(out.begin(), out.end(), [](const SourceInput& a, const SourceInput& b) { return a.path < b.path; });
  return out;
}

IngestSummary ingestCorpus(store::Workspace& ws, const std::vector<SourceInput>& inputs,
                           const CorpusIngestOptions& options) {
  IngestSummary summary;
  std::set<std::string> references;
  if (!options.referenceCsvs.empty())
    references = referenceHashes(options.referenceCsvs, options.pipeline, options.jobs, &summary.referenceKernels);

  // What is left to do: files not yet ingested with these bytes and options.
  struct Todo {
    const SourceInput* input;
    IngestOptions options;
    std::string specHash, contentHash, flags;
    std::uintmax_t bytes = 0;
  };
  std::vector<Todo> todo;
  std::map<std::string, std::string> specs; // json -> hash, recorded once
  for (const auto& in : inputs) {
    ++summary.files;
    Todo t{&in, options.pipeline, "", rawHash(in.path), flagsText(options.pipeline, in)};
    t.options.compile.defines.insert(t.options.compile.defines.end(), in.defines.begin(), in.defines.end());
    t.options.compile.includeDirs.insert(t.options.compile.includeDirs.end(), in.includeDirs.begin(),
                                         in.includeDirs.end());
    const std::string json = specJson(in, options.pipeline);
    auto it = specs.find(json);
    if (it == specs.end()) it = specs.emplace(json, sha256Hex(json)).first;
    t.specHash = it->second;
    if (ws.corpusFileDone(in.path, t.contentHash, t.specHash)) {
      ++summary.skipped;
      continue;
    }
    std::error_code ec;
    t.bytes = std::filesystem::file_size(in.path, ec);
    if (ec) t.bytes = 0;
    todo.push_back(std::move(t));
  }
  double totalBytes = 0, bytesDone = 0;
  for (const auto& t : todo)
    totalBytes += double(t.bytes) + 1; // + 1: an empty file still costs its turn
  for (const auto& [json, hash] : specs)
    (void)ws.putSpec(json);

  const std::size_t batch = std::max<std::size_t>(8, std::size_t(options.jobs) * 4);
  std::size_t done = 0;
  for (std::size_t start = 0; start < todo.size(); start += batch) {
    if (options.cancel && options.cancel->cancelled()) {
      summary.cancelled = true;
      break;
    }
    const std::size_t n = std::min(batch, todo.size() - start);
    std::vector<FileOutcome> outcomes(n);
    // Bytes, not std::vector<bool>: its bits share words, and two threads
    // setting neighbours would race (a file lost, the run told "interrupted").
    std::vector<char> finished(n, 0);
    engine::parallelFor(
        n, options.jobs,
        [&](std::size_t i) {
          const Todo& t = todo[start + i];
          outcomes[i] = processFile(t.input->path, t.input->root, t.options);
          finished[i] = 1;
        },
        options.cancel);
    // One transaction per file: an interruption never leaves half a file.
    for (std::size_t i = 0; i < n; ++i) {
      if (!finished[i]) {
        summary.cancelled = true;
        continue;
      }
      const Todo& t = todo[start + i];
      FileOutcome& f = outcomes[i];
      ws.transaction([&] {
        store::CorpusFileRecord rec{
            t.input->path, t.contentHash, t.input->package, t.specHash, f.ok() ? "done" : stageName(f.stage), f.reason};
        const std::int64_t fileId = ws.addCorpusFile(rec);
        for (auto& k : f.kernels) {
          store::CorpusKernelRecord kr{
              k.name, stageName(k.stage), k.reason, k.compiledAsIs, !k.compiledAsIs && !k.reconstructed.empty(), 0};
          if (k.ready()) {
            if (const std::int64_t existing = ws.kernelByDedupeHash(k.dedupeHash)) {
              kr.stage = stageName(Stage::Dedupe);
              kr.reason = "duplicate of kernel " + std::to_string(existing);
              kr.kernelId = existing;
            } else {
              store::KernelRecord kernel;
              kernel.name = k.name;
              kernel.source = k.source;
              kernel.originFile = t.input->path;
              kernel.package = t.input->package;
              kernel.license = t.input->license;
              kernel.flags = t.flags;
              kernel.role = references.count(k.dedupeHash) ? "held_out" : "train";
              kernel.dedupeHash = k.dedupeHash;
              kernel.family = k.family;
              kernel.original = k.original;
              for (const auto& line : k.reconstructed)
                kernel.reconstructed += line + "\n";
              kernel.tokens = k.tokens;
              kr.kernelId = ws.addKernel(kernel);
              kr.stage = stageName(Stage::Stored);
              const auto& spaces = features::featureSpaces();
              for (std::size_t s = 0; s < k.vectors.size() && s < spaces.size(); ++s)
                ws.putFeatures({kr.kernelId, spaces[s].name, spaces[s].version, k.vectors[s].values, false,
                                "{\"spec\":\"" + t.specHash + "\"}"});
            }
          }
          ws.addCorpusKernel(fileId, kr);
        }
      });
      // Count only what was committed.
      if (!f.ok()) {
        ++summary.filesRejected;
        ++summary.rejectedAt[stageName(f.stage)];
      }
      for (const auto& k : f.kernels) {
        ++summary.kernelsFound;
        if (!k.ready()) {
          ++summary.kernelsRejected;
          ++summary.rejectedAt[stageName(k.stage)];
        }
      }
    }
    done += n;
    for (std::size_t i = 0; i < n; ++i)
      bytesDone += double(todo[start + i].bytes) + 1;
    if (options.progress) options.progress(done, todo.size(), totalBytes > 0 ? bytesDone / totalBytes : 1.0);
  }
  if (!references.empty()) {
    // Kernels stored by earlier runs may match references named now.
    ws.transaction([&] {
      for (const auto& row : ws.rows("SELECT id, dedupe_hash FROM kernels WHERE role IN ('train', 'capped')"))
        if (references.count(row[1])) ws.setRole(std::stoll(row[0]), "held_out");
    });
  }
  rebalanceCorpus(ws, options.balance);
  return summary;
}

std::size_t rebalanceCorpus(store::Workspace& ws, const BalanceOptions& options) {
  struct K {
    std::int64_t id;
    std::string package, family, role;
  };
  std::vector<K> ks;
  for (const auto& r : ws.rows("SELECT id, package, family, role FROM kernels WHERE role IN ('train', 'capped') "
                               "ORDER BY id"))
    ks.push_back({std::stoll(r[0]), r[1], r[2], "train"});
  // Family cap: the first `familyCap` of each family train, the rest wait.
  if (options.familyCap > 0) {
    std::map<std::string, unsigned> seen;
    for (auto& k : ks)
      if (++seen[k.package + "/" + k.family] > options.familyCap) k.role = "capped";
  }
  // Package share: demote the newest kernels of the largest families of a
  // package that holds more than its share.
  if (options.maxPackageShare > 0 && options.maxPackageShare < 1) {
    for (int round = 0; round < 16; ++round) {
      std::map<std::string, std::size_t> perPackage;
      std::size_t total = 0;
      for (const auto& k : ks)
        if (k.role == "train") {
          ++perPackage[k.package];
          ++total;
        }
      std::string worst;
      std::size_t worstCount = 0;
      for (const auto& [p, c] : perPackage)
        if (c > worstCount) {
          worst = p;
          worstCount = c;
        }
      if (perPackage.size() < 2 || double(worstCount) <= options.maxPackageShare * double(total)) break;
      const double s = options.maxPackageShare;
      const auto others = double(total - worstCount);
      const auto allowed = static_cast<std::size_t>(s * others / (1 - s));
      std::size_t excess = worstCount - std::min(worstCount, allowed);
      std::map<std::string, std::size_t> familySize;
      for (const auto& k : ks)
        if (k.role == "train" && k.package == worst) ++familySize[k.family];
      std::vector<K*> candidates;
      for (auto& k : ks)
        if (k.role == "train" && k.package == worst) candidates.push_back(&k);
      std::stable_sort(candidates.begin(), candidates.end(), [&](K* a, K* b) {
        if (familySize[a->family] != familySize[b->family]) return familySize[a->family] > familySize[b->family];
        return a->id > b->id;
      });
      for (K* k : candidates) {
        if (!excess) break;
        k->role = "capped";
        --excess;
      }
    }
  }
  std::size_t capped = 0;
  ws.transaction([&] {
    for (const auto& k : ks) {
      ws.setRole(k.id, k.role);
      capped += k.role == "capped";
    }
  });
  return capped;
}

} // namespace steerbench::corpus

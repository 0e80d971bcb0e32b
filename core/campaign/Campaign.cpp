#include "campaign/Campaign.h"

#include "common/AtomicFile.h"
#include "common/Error.h"
#include "common/Json.h"
#include "common/TextFormat.h"
#include "dataset/Csv.h"
#include "dataset/DevMap.h"
#include "features/FeatureSpace.h"
#include "source/SourceFile.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace steerbench::campaign {

namespace fs = std::filesystem;

std::string specPath(const std::string& dir) { return (fs::path(dir) / "campaign.json").string(); }

std::string shardWorkspace(const std::string& dir, int shard) {
  return (fs::path(dir) / ("shard-" + std::to_string(shard) + ".sbw")).string();
}

std::string CampaignSpec::toJson() const {
  std::string t = "[";
  for (std::size_t i = 0; i < targets.size(); ++i)
    t += (i ? "," : "") + targets[i].toJson();
  t += "]";
  return "{\"command\":\"campaign\",\"shards\":" + std::to_string(shards) +
         ",\"base_workspace\":" + jsonString(baseWorkspace) + ",\"corpus\":" + jsonString(corpusHash) +
         ",\"corpus_kernels\":" + std::to_string(corpusKernels) + ",\"checkpoint\":" + jsonString(checkpoint) +
         (modelHash.empty() ? std::string() : ",\"model\":" + jsonString(modelHash)) +
         ",\"drive\":" + (drive ? "true" : "false") + ",\"steer\":" + steer.toJson() + ",\"targets\":" + t + "}";
}

CampaignSpec CampaignSpec::fromJson(const std::string& text, const std::string& name) {
  const auto root = json::parse(text);
  const auto* o = root.getAsObject();
  if (!o || o->getString("command") != std::optional<std::string>("campaign"))
    throw InputError(name + ": not a campaign spec");
  CampaignSpec s;
  auto need = [&](auto v, const char* key) {
    if (!v) throw InputError(name + ": the campaign spec lacks \"" + key + "\"");
    return *v;
  };
  s.shards = int(need(o->getInteger("shards"), "shards"));
  s.baseWorkspace = need(o->getString("base_workspace"), "base_workspace");
  s.corpusHash = need(o->getString("corpus"), "corpus");
  s.corpusKernels = need(o->getInteger("corpus_kernels"), "corpus_kernels");
  s.checkpoint = need(o->getString("checkpoint"), "checkpoint");
  s.modelHash = o->getString("model").value_or("");
  s.drive = need(o->getBoolean("drive"), "drive");
  const auto* steer = o->find("steer");
  if (!steer) throw InputError(name + ": the campaign spec lacks \"steer\"");
  s.steer = steer::SteerSpec::fromJson(steer->print(), name);
  const auto* targets = o->getArray("targets");
  if (!targets) throw InputError(name + ": the campaign spec lacks \"targets\"");
  for (const auto& t : *targets)
    s.targets.push_back(steer::Target::fromJson(t.print(), name));
  if (s.shards < 1 || s.targets.empty())
    throw InputError(name + ": a campaign needs at least one shard and one target");
  return s;
}

std::vector<std::size_t> CampaignSpec::shardTargets(int shard) const {
  std::vector<std::size_t> out;
  for (std::size_t i = std::size_t(shard); shard >= 0 && i < targets.size(); i += std::size_t(shards))
    out.push_back(i);
  return out;
}

steer::SteerSpec CampaignSpec::specFor(std::size_t index) const {
  steer::SteerSpec s = steer;
  s.target = targets.at(index);
  s.target.origin = "campaign target " + std::to_string(index) + ": " + targets[index].origin;
  s.seed = steer.seed + index;
  return s;
}

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

std::string lower(std::string s) {
  for (char& c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<steer::Target> fromDevMap(const std::string& path) {
  std::vector<steer::Target> out;
  std::set<std::vector<double>> seen;
  const auto rows = dataset::readDevMap(path);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    std::vector<double> v = {r.comp, r.rational, r.mem, r.localmem, r.coalesced, r.atomic, 0, 0};
    steer::recomputeGreweRatios(v);
    if (!seen.insert(v).second) continue; // the same kernel at another size
    out.push_back({"grewe", v, r.benchmark + " (row " + std::to_string(i) + " of " + path + ")"});
  }
  return out;
}

std::vector<steer::Target> fromCsv(const std::string& path, const std::string& space) {
  std::vector<std::size_t> lines;
  const auto rows = dataset::readCsvFile(path, &lines);
  if (rows.empty()) throw InputError(path + ": no header and no targets");
  const auto& header = rows[0];
  std::vector<std::string> names;
  int nameColumn = -1;
  for (std::size_t c = 0; c < header.size(); ++c) {
    const auto h = trim(header[c]);
    if (lower(h) == "name") nameColumn = int(c);
    names.push_back(h);
  }
  std::vector<steer::Target> out;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::string where = path + " line " + std::to_string(lines[r]);
    if (rows[r].size() == 1 && trim(rows[r][0]).empty()) continue;
    if (rows[r].size() != header.size())
      throw InputError(where + ": " + std::to_string(rows[r].size()) + " fields, the header has " +
                       std::to_string(header.size()));
    std::string assignments, name;
    for (std::size_t c = 0; c < header.size(); ++c) {
      if (int(c) == nameColumn) {
        name = trim(rows[r][c]);
        continue;
      }
      assignments += (assignments.empty() ? "" : ",") + names[c] + "=" + trim(rows[r][c]);
    }
    try {
      auto t = steer::targetFromAssignments(space, assignments);
      t.origin = name.empty() ? assignments : name;
      out.push_back(std::move(t));
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
  }
  return out;
}

} // namespace

std::vector<steer::Target> readTargets(const std::string& path, const std::string& space) {
  (void)features::featureSpace(space); // an unknown space is named
  const std::string text = source::readSourceFile(path);
  const auto first = text.find_first_not_of(" \t\r\n");
  std::vector<steer::Target> out;
  if (first != std::string::npos && text[first] == '[') {
    const auto root = json::parse(text);
    for (const auto& t : *root.getAsArray()) {
      auto target = steer::Target::fromJson(t.print(), path);
      if (target.space != space)
        throw InputError(path + ": a target in the " + target.space + " space, not " + space);
      out.push_back(std::move(target));
    }
  } else {
    const auto header = lower(text.substr(0, text.find('\n')));
    if (header.find("benchmark") != std::string::npos) {
      if (space != "grewe") throw InputError(path + ": a DevMap-layout file gives Grewe targets: use the grewe space");
      out = fromDevMap(path);
    } else {
      out = fromCsv(path, space);
    }
  }
  if (out.empty()) throw InputError(path + ": no targets in it");
  return out;
}

void writeCampaign(const std::string& dir, const CampaignSpec& spec) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("cannot create " + dir + ": " + ec.message());
  const auto path = specPath(dir);
  if (fs::exists(path)) {
    const auto old = CampaignSpec::fromJson(source::readSourceFile(path), path);
    if (old.toJson() != spec.toJson())
      throw InputError(dir + " holds another campaign already; plan into a new folder");
  }
  try {
    writeFileAtomically(path, spec.toJson() + "\n");
  } catch (const std::exception& e) {
    throw InputError("cannot write " + path + ": " + e.what());
  }
}

CampaignSpec loadCampaign(const std::string& dir) {
  const auto path = specPath(dir);
  if (!fs::exists(path))
    throw InputError(dir + ": not a campaign (no campaign.json); make one with steerbench-cli campaign plan");
  return CampaignSpec::fromJson(source::readSourceFile(path), path);
}

} // namespace steerbench::campaign

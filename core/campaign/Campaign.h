// A campaign: many steering targets, the settings to steer (and label) each
// one, and their split into shards that run anywhere (one after the other,
// as MPI ranks, or as a Slurm job array), each into its own workspace, later
// merged into one (store::mergeWorkspaces). A campaign is a folder:
//
//   DIR/campaign.json   the spec (this struct, as JSON)
//   DIR/shard-K.sbw     shard K's workspace: a copy of the base workspace,
//                       then every steering run of its targets
//
// docs/cluster.md explains how campaigns run on clusters.
#pragma once
#include "steer/SteerSpec.h"
#include "steer/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::campaign {

struct CampaignSpec {
  std::vector<steer::Target> targets;
  int shards = 1;
  /// The workspace every shard starts from (absolute path), and the corpus it
  /// held when the campaign was planned (store::corpusIdentity).
  std::string baseWorkspace, corpusHash;
  std::int64_t corpusKernels = 0;
  std::string checkpoint; ///< the model (absolute path)
  /// The model's sha256 when the campaign was planned, so no shard steers
  /// with another (empty in specs written before it was recorded: unchecked).
  std::string modelHash;
  /// How each target is steered: specFor() puts the target in and adds the
  /// target's index to the seed.
  steer::SteerSpec steer;
  /// Label each run's best at the end: drive it on every device at the
  /// global sizes `drive` uses, storing the cases.
  bool drive = false;

  [[nodiscard]] std::string toJson() const;
  /// Throws InputError naming `name` and what is wrong.
  [[nodiscard]] static CampaignSpec fromJson(const std::string& json, const std::string& name);

  /// The targets of shard `shard`, by index: i % shards == shard.
  [[nodiscard]] std::vector<std::size_t> shardTargets(int shard) const;
  /// The steering spec of target `index`. Its target's origin names the
  /// campaign's index, so a shard finds the run it made for it.
  [[nodiscard]] steer::SteerSpec specFor(std::size_t index) const;
};

/// Reads targets in `space` from a file:
/// - a DevMap-layout CSV (a "benchmark" column; Grewe only): each distinct
///   kernel's counts once, named by its benchmark;
/// - any other CSV: a header of dimension names of `space` (unnamed ones
///   are 0; Grewe's ratios follow from the counts unless given), optionally
///   a "name" column; one target per row;
/// - a JSON array of targets ({"space", "values", "origin"}).
/// Throws InputError naming the file, and the line where it can.
[[nodiscard]] std::vector<steer::Target> readTargets(const std::string& path, const std::string& space);

[[nodiscard]] std::string specPath(const std::string& dir);
[[nodiscard]] std::string shardWorkspace(const std::string& dir, int shard);

/// Writes DIR/campaign.json (creating DIR). Refuses, with InputError, a DIR
/// that holds another campaign's spec.
void writeCampaign(const std::string& dir, const CampaignSpec& spec);
/// Reads DIR/campaign.json. Throws InputError.
[[nodiscard]] CampaignSpec loadCampaign(const std::string& dir);

} // namespace steerbench::campaign

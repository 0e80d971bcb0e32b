// Running one shard of a campaign, and reading how far each shard is.
//
// A shard steers its targets one after the other into DIR/shard-K.sbw, made
// on first use as a copy of the base workspace (written beside it and
// renamed, so a kill never leaves half a copy). Every target's run is found
// again by its target (CampaignSpec::specFor names the index), so running a
// shard again skips what is finished, resumes a run that was killed or
// cancelled from its last complete generation, and starts the rest: nothing
// is lost or done twice.
//
// Torch-free interface; the sampler is used through model::Sampler.
#pragma once
#include "campaign/Campaign.h"
#include "common/CancelToken.h"
#include "steer/BeamSearch.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace steerbench::model {
class Sampler;
}

namespace steerbench::campaign {

/// One target of a shard as its workspace records it.
struct TargetState {
  std::size_t index = 0;      ///< in the campaign
  std::int64_t run = 0;       ///< 0: not started
  std::string status;         ///< the run's (running, finished, cancelled, failed); empty: not started
  int generations = 0;        ///< complete generations after the seeds
  double elapsed = 0;         ///< the run's seconds
  /// NaN: none.
  double nearestProximity = std::numeric_limits<double>::quiet_NaN(),
         runnableProximity = std::numeric_limits<double>::quiet_NaN();
  std::string bestText;       ///< the run's best (runnable when it checked contenders)
  std::int64_t labelled = 0;  ///< drive cases of its best kernel ...
  std::int64_t labelledRows = 0; ///< ... of which passed and got a label (rows of an exported CSV)
  std::int64_t candidates = 0;   ///< the run made, over every generation
};

struct ShardStatus {
  int shard = 0;
  bool started = false; ///< its workspace exists
  std::vector<TargetState> targets;
  [[nodiscard]] std::size_t finished() const;
};

/// How far shard `shard` is, read from its workspace (which may be being
/// written by a running shard).
[[nodiscard]] ShardStatus shardStatus(const CampaignSpec& spec, const std::string& dir, int shard);

struct ShardOptions {
  const CancelToken* cancel = nullptr;
  unsigned jobs = 0; ///< compile threads of each new run (0: all cores)
  std::function<void(const std::string&)> onMessage;
  std::function<void(const steer::GenerationReport&)> onGeneration;
};

struct ShardResult {
  int shard = 0;
  std::size_t steered = 0, resumed = 0, skipped = 0, labelled = 0;
  bool cancelled = false;
};

/// Runs shard `shard` of the campaign in `dir` with `sampler` (the spec's
/// checkpoint). Throws InputError when the base workspace is missing or no
/// longer holds the corpus the campaign was planned on, or when `sampler`'s
/// model is not the one it was planned with.
ShardResult runShard(const CampaignSpec& spec, const std::string& dir, int shard, model::Sampler& sampler,
                     const ShardOptions& options);

} // namespace steerbench::campaign

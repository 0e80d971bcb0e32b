// The campaign commands (plan, run, status, merge) and workspace merge.
#pragma once
#include "cli/CommandLine.h"

namespace steerbench::cli {

[[nodiscard]] CommandLine campaignPlanCommandLine();
int runCampaignPlan(const CommandLine& cl);
[[nodiscard]] CommandLine campaignRunCommandLine();
int runCampaignRun(const CommandLine& cl);
[[nodiscard]] CommandLine campaignStatusCommandLine();
int runCampaignStatus(const CommandLine& cl);
[[nodiscard]] CommandLine campaignMergeCommandLine();
int runCampaignMerge(const CommandLine& cl);
[[nodiscard]] CommandLine workspaceMergeCommandLine();
int runWorkspaceMerge(const CommandLine& cl);

} // namespace steerbench::cli

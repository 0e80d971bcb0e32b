// bench-tokenizer: builds the tokenizer from a workspace's corpus (the default
// workspace unless --workspace is given), then encodes and decodes every
// kernel and checks that it comes back with the same tokens (whitespace aside).
// Prints the vocabulary, the round-trip result, sequence lengths and speed.
//
// Usage: bench-tokenizer [--workspace FILE] [--min-count N] [--max-words N] [--out tok.json]
#include "common/Paths.h"
#include "model/Tokenizer.h"
#include "store/Workspace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace steerbench;

int main(int argc, char** argv) {
  std::string wsPath = defaultWorkspacePath(), out;
  model::Tokenizer::Options o;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--workspace") && i + 1 < argc)
      wsPath = argv[++i];
    else if (!std::strcmp(argv[i], "--min-count") && i + 1 < argc)
      o.minCount = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--max-words") && i + 1 < argc)
      o.maxWords = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--out") && i + 1 < argc)
      out = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench-tokenizer [--workspace FILE] [--min-count N] [--max-words N] [--out tok.json]\n");
      return 2;
    }
  }
  try {
    auto ws = store::Workspace::open(wsPath, store::Workspace::Mode::OpenExisting);
    std::vector<std::string> kernels;
    for (const auto& row : ws.rows("SELECT source FROM kernels WHERE role IN ('train', 'capped', 'held_out') ORDER BY id"))
      kernels.push_back(row[0]);
    if (kernels.empty()) {
      std::fprintf(stderr, "bench-tokenizer: %s holds no corpus kernels; build the corpus first\n", wsPath.c_str());
      return 1;
    }
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    const auto tok = model::Tokenizer::build(kernels, o);
    const double buildS = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("corpus: %zu kernels from %s\n", kernels.size(), wsPath.c_str());
    std::printf("vocabulary: %d tokens = %d meta + %d words + %d characters (min count %u, max words %u), built in %.1f s\n",
                tok.size(), model::Tokenizer::kMetaCount, tok.wordCount(), tok.charCount(), o.minCount, o.maxWords,
                buildS);
    std::vector<std::size_t> lengths;
    std::size_t failures = 0, unknown = 0, spelled = 0, total = 0;
    const auto t1 = Clock::now();
    for (const auto& k : kernels) {
      const auto ids = tok.encode(k);
      lengths.push_back(ids.size());
      total += ids.size();
      for (int id : ids) {
        unknown += id == model::Tokenizer::kUnknown;
        spelled += tok.isChar(id);
      }
      if (!model::sameTokens(k, tok.decode(ids))) {
        if (++failures <= 5) std::printf("  round trip differs for a kernel starting: %.60s\n", k.c_str());
      }
    }
    const double codecS = std::chrono::duration<double>(Clock::now() - t1).count();
    std::sort(lengths.begin(), lengths.end());
    std::printf("round trip (encode, decode, same tokens up to whitespace): %zu of %zu kernels, %zu differ%s\n",
                kernels.size() - failures, kernels.size(), failures, failures == 0 ? " (all pass)" : "");
    std::printf("tokens per kernel: median %zu, p90 %zu, max %zu; %.1f%% of tokens are spelled characters, %zu unknown\n",
                lengths[lengths.size() / 2], lengths[lengths.size() * 9 / 10], lengths.back(),
                100.0 * double(spelled) / double(std::max<std::size_t>(1, total)), unknown);
    std::printf("encode + decode + check: %.0f kernels/s, %.0f tokens/s\n", double(kernels.size()) / codecS,
                double(total) / codecS);
    if (!out.empty()) {
      tok.save(out);
      std::printf("saved %s (sha256 %s)\n", out.c_str(), tok.hash().c_str());
    }
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-tokenizer: %s\n", e.what());
    return 1;
  }
}

// Query by committee (docs/active-learning.md, BenchPress 3.4): MLPs, k-NN and K-means
// members trained on labelled points (Grewe F1 to F4, optionally more), each
// voting for a label; the vote entropy of a point says how much the
// committee disagrees there, which is where a new labelled kernel teaches
// the downstream model most.
//
// Plain C++ (no torch): the members are small enough to train by hand, and
// a committee is deterministic for a seed.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace steerbench::explore {

struct LabelledPoint {
  std::vector<double> x; ///< the committee's input (e.g. F1..F4)
  int label = 0;         ///< index into the label names
};

class Committee {
public:
  /// Trains every member on `points` (at least two, of at least two labels
  /// for a meaningful vote). Inputs are log1p-scaled and standardized first.
  /// Members (as BenchPress's code): 4 MLPs (hidden 8, 16, 32, 64), 8 k-NN
  /// (k 1, 2, 5, 10; uniform or distance weights), 6 K-means (k 2, 8, 16;
  /// two seeds), each cluster voting its majority label. Throws InputError
  /// when there are fewer than two points or labels.
  [[nodiscard]] static Committee train(const std::vector<LabelledPoint>& points, int labels, std::uint64_t seed);

  /// Every member's vote for `x`.
  [[nodiscard]] std::vector<int> votes(const std::vector<double>& x) const;
  /// Vote entropy H = -sum over labels of p(l) ln p(l), p the share of votes.
  [[nodiscard]] double entropy(const std::vector<double>& x) const;
  /// The majority vote (ties: the lower label).
  [[nodiscard]] int predict(const std::vector<double>& x) const;
  [[nodiscard]] std::size_t size() const;
  /// What the committee is, as JSON: members, their parameters, training size.
  [[nodiscard]] std::string describe() const;

  struct Member; // defined in the .cpp
  Committee();
  ~Committee();
  Committee(Committee&&) noexcept;
  Committee& operator=(Committee&&) noexcept;

private:
  std::vector<double> scaled(const std::vector<double>& x) const;
  std::vector<Member> members_;
  std::shared_ptr<std::vector<LabelledPoint>> data_; ///< scaled training points (the k-NN members')
  std::vector<double> mean_, sd_;
  int labels_ = 2;
  std::size_t trainingSize_ = 0;
};

/// Vote entropy of a vote list over `labels` labels (exposed for tests).
[[nodiscard]] double voteEntropy(const std::vector<int>& votes, int labels);

} // namespace steerbench::explore

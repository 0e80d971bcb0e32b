// A CART classification tree with the entropy criterion: the model of the
// Grewe et al. CPU/GPU mapping heuristic (docs/evaluation.md, "The
// model"). Written here because OpenCV's ml::DTrees, the library at hand,
// splits on Gini impurity only.
//
// It follows the CART that DeepTune's evaluation used (scikit-learn's
// DecisionTreeClassifier with splitter "best"): every feature and every
// threshold midway between two consecutive distinct values is tried; the
// split with the lowest weighted child entropy wins; x <= threshold goes
// left. Features are rounded to float first, as scikit-learn's float32 X.
// One difference: on a tie between features, scikit-learn takes the one its
// seeded random feature order visits first; this tree takes the lower
// feature (and then the lower threshold). A node is a leaf when
// it is pure, at the depth limit, or has fewer than 2 x minSamplesLeaf
// samples, or when no split leaves minSamplesLeaf samples on both sides. A
// leaf predicts its majority class (ties: the lower class).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace steerbench::heuristic {

struct TreeOptions {
  int maxDepth = 5;       ///< the root is depth 0
  int minSamplesLeaf = 5; ///< samples every leaf keeps at least
};

class DecisionTree {
public:
  /// Fits on rows `x` (all of one width) with labels `y` in [0, classes).
  /// Throws InputError on an empty set, ragged rows, a feature that is not
  /// finite, or a label out of range.
  [[nodiscard]] static DecisionTree fit(const std::vector<std::vector<double>>& x, const std::vector<int>& y,
                                        int classes, const TreeOptions& options = {});

  /// The class of `x`; throws InputError when `x` lacks a feature the tree splits on.
  [[nodiscard]] int predict(const std::vector<double>& x) const;
  [[nodiscard]] int depth() const;
  [[nodiscard]] std::size_t leaves() const;
  /// The tree as indented text: "F2 <= 0.5" per split, "-> GPU (12 CPU, 30 GPU)" per leaf.
  [[nodiscard]] std::string describe(const std::vector<std::string>& featureNames,
                                     const std::vector<std::string>& classNames) const;

  struct Node {
    int feature = -1; ///< -1: a leaf
    double threshold = 0;
    int left = -1, right = -1;
    std::vector<std::size_t> counts; ///< training samples per class at this node
    int majority = 0;
  };
  [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }

private:
  std::vector<Node> nodes_; ///< nodes_[0] is the root
};

} // namespace steerbench::heuristic

// The shape of the infilling encoder (no torch here: included widely).
#pragma once

#include <string>

namespace steerbench::model {

struct ModelConfig {
  int vocab = 0;          ///< tokenizer size
  int layers = 3;
  int hidden = 192;
  int heads = 4;
  int ffn = 768;
  int maxLength = 256;    ///< positions, [START] and [END] included
  /// Throws InputError naming the bad field (e.g. hidden not divisible by heads).
  void validate() const;
  [[nodiscard]] std::string toJson() const;
  [[nodiscard]] static ModelConfig fromJson(const std::string& json, const std::string& name);
  [[nodiscard]] bool operator==(const ModelConfig& o) const {
    return vocab == o.vocab && layers == o.layers && hidden == o.hidden && heads == o.heads && ffn == o.ffn &&
           maxLength == o.maxLength;
  }
  /// A one-line description: "4 layers, hidden 256, 4 heads, FFN 1024, 256 positions, vocabulary 4596".
  [[nodiscard]] std::string describe() const;
};

} // namespace steerbench::model

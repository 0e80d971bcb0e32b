// The shape of the infilling encoder (no torch here: included widely).
#pragma once

#include <string>

namespace steerbench::model {

struct ModelConfig {
  /// How the model reads a [HOLE] (docs/model.md): an encoder reads the
  /// whole sequence both ways and is run again for every token it writes; a
  /// decoder reads the sequence in fill-in-the-middle order (prefix, [HOLE],
  /// suffix, [MASK], the infill so far), left to right, and keeps its keys
  /// and values, so that a written token costs one step.
  enum class Arch { Encoder, Decoder };
  Arch arch = Arch::Encoder;
  /// A decoder's reading order: false, prefix [HOLE] suffix [MASK] middle
  /// (PSM); true, [HOLE] suffix [MASK] prefix middle (SPM), where the infill
  /// continues the text right before the hole. Not part of the shape
  /// (operator==): a fine-tune may change it. Checkpoints without it: PSM.
  bool suffixFirst = false;
  int vocab = 0;          ///< tokenizer size
  int layers = 3;
  int hidden = 192;
  int heads = 4;
  int ffn = 768;
  int maxLength = 256;    ///< positions, [START] and [END] included
  /// Condition tokens (Conditioning.h) after the vocabulary: the model reads
  /// them (ids vocab .. vocab + conditions - 1) but never writes them, so
  /// the head still covers `vocab` alone. 0: a model without conditions.
  int conditions = 0;
  /// Throws InputError naming the bad field (e.g. hidden not divisible by heads).
  void validate() const;
  [[nodiscard]] std::string toJson() const;
  [[nodiscard]] static ModelConfig fromJson(const std::string& json, const std::string& name);
  /// The shape: what the weights must agree on to load.
  [[nodiscard]] bool operator==(const ModelConfig& o) const {
    return arch == o.arch && vocab == o.vocab && layers == o.layers && hidden == o.hidden && heads == o.heads && ffn == o.ffn &&
           maxLength == o.maxLength && conditions == o.conditions;
  }
  [[nodiscard]] bool decoder() const { return arch == Arch::Decoder; }
  /// "encoder" or "decoder".
  [[nodiscard]] static const char* archName(Arch a) { return a == Arch::Decoder ? "decoder" : "encoder"; }
  /// Reads "encoder" or "decoder"; throws InputError naming `name` otherwise.
  [[nodiscard]] static Arch parseArch(const std::string& text, const std::string& name);
  /// Reads "psm" (false) or "spm" (true); throws InputError naming `name` otherwise.
  [[nodiscard]] static bool parseFimOrder(const std::string& text, const std::string& name);
  /// A one-line description: "decoder, 4 layers, hidden 256, 4 heads, FFN 1024, 256 positions, vocabulary 4596".
  [[nodiscard]] std::string describe() const;
};

} // namespace steerbench::model

#include "model/ModelConfig.h"

#include "common/Error.h"
#include "model/Tokenizer.h"

#include <llvm/Support/JSON.h>

namespace steerbench::model {

void ModelConfig::validate() const {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("model config: " + what);
  };
  need(vocab > Tokenizer::kMetaCount, "the vocabulary is empty (build the tokenizer first)");
  need(layers >= 1 && layers <= 48, "layers must be 1 to 48, not " + std::to_string(layers));
  need(hidden >= 8 && hidden <= 4096, "hidden must be 8 to 4096, not " + std::to_string(hidden));
  need(heads >= 1 && hidden % heads == 0,
       "hidden (" + std::to_string(hidden) + ") must be a multiple of heads (" + std::to_string(heads) + ")");
  need(ffn >= 8 && ffn <= 16384, "ffn must be 8 to 16384, not " + std::to_string(ffn));
  need(maxLength >= 8 && maxLength <= 8192, "max length must be 8 to 8192, not " + std::to_string(maxLength));
  need(conditions >= 0 && conditions <= 4096, "conditions must be 0 to 4096, not " + std::to_string(conditions));
}

std::string ModelConfig::toJson() const {
  llvm::json::Object o{{"arch", archName(arch)}, {"vocab", vocab}, {"layers", layers}, {"hidden", hidden},
                       {"heads", heads}, {"ffn", ffn},       {"max_length", maxLength}};
  if (decoder()) o["fim_order"] = suffixFirst ? "spm" : "psm";
  if (conditions > 0) o["conditions"] = conditions;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(o));
  os.flush();
  return text;
}

ModelConfig ModelConfig::fromJson(const std::string& json, const std::string& name) {
  auto parsed = llvm::json::parse(json);
  if (!parsed) throw InputError(name + ": the model config is not JSON (" + llvm::toString(parsed.takeError()) + ")");
  const auto* o = parsed->getAsObject();
  if (!o) throw InputError(name + ": the model config is not a JSON object");
  ModelConfig c;
  // Checkpoints written before the decoder existed hold an encoder and no "arch".
  if (const auto a = o->getString("arch")) c.arch = parseArch(a->str(), name);
  auto get = [&](const char* key, int& field) {
    const auto v = o->getInteger(key);
    if (!v) throw InputError(name + ": the model config has no \"" + key + "\"");
    field = int(*v);
  };
  get("vocab", c.vocab);
  get("layers", c.layers);
  get("hidden", c.hidden);
  get("heads", c.heads);
  get("ffn", c.ffn);
  get("max_length", c.maxLength);
  // Decoders written before the suffix-first order read prefix first.
  if (const auto order = o->getString("fim_order")) c.suffixFirst = parseFimOrder(order->str(), name);
  if (const auto n = o->getInteger("conditions")) c.conditions = int(*n); // none before conditioning existed
  return c;
}

ModelConfig::Arch ModelConfig::parseArch(const std::string& text, const std::string& name) {
  if (text == "encoder") return Arch::Encoder;
  if (text == "decoder") return Arch::Decoder;
  throw InputError(name + ": the architecture must be encoder or decoder, not \"" + text + "\"");
}

bool ModelConfig::parseFimOrder(const std::string& text, const std::string& name) {
  if (text == "psm") return false;
  if (text == "spm") return true;
  throw InputError(name + ": the fill-in-the-middle order must be psm or spm, not \"" + text + "\"");
}

std::string ModelConfig::describe() const {
  return std::string(decoder() ? (suffixFirst ? "decoder (suffix first), " : "decoder, ") : "") + std::to_string(layers) + " layers, hidden " + std::to_string(hidden) + ", " + std::to_string(heads) +
         " heads, FFN " + std::to_string(ffn) + ", " + std::to_string(maxLength) + " positions, vocabulary " +
         std::to_string(vocab) + (conditions > 0 ? " and " + std::to_string(conditions) + " condition tokens" : "");
}

} // namespace steerbench::model

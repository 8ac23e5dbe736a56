// A Hugging Face config.json read into the planner's shapes. Field names differ between model
// families; each shape is read from the first name the file has (docs/planner.md, "The model").
#include "shardlab/plan/transformer.h"

#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"

#include <filesystem>
#include <initializer_list>

namespace shardlab {

namespace {

using detail::json;
using detail::JsonReader;

// The first of `names` the object has (nullptr: none).
const char* firstKey(const json& obj, std::initializer_list<const char*> names)
{
    for (const char* name : names)
        if (obj.contains(name) && !obj.at(name).is_null())
            return name;
    return nullptr;
}

std::optional<int> shape(JsonReader& reader, const json& obj, const std::string& path,
                         std::initializer_list<const char*> names, bool required, long long hi)
{
    const char* k = firstKey(obj, names);
    if (!k) {
        if (required)
            reader.fail(
                JsonReader::key(path, *names.begin()),
                Message("error.json.missing")
                    .with("expected",
                          Message("error.expected.integer_range").with("lo", "1").with("hi", std::to_string(hi))));
        return std::nullopt;
    }
    const auto value = reader.integer(obj, path, k, true, 1, hi);
    return value ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
}

// Families whose MLP is gated (SwiGLU/GeGLU: gate, up and down matrices).
bool gatedFamily(const std::string& type, const std::string& act)
{
    for (const char* family :
         {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2", "gemma3_text",
          "phi3", "olmo", "olmo2", "deepseek_v2", "deepseek_v3", "granite"})
        if (type == family)
            return true;
    return act == "silu" || act == "swiglu" || act == "geglu";
}

} // namespace

Result<TransformerModel> parseHfConfig(std::string_view text, const std::string& origin)
{
    auto document = detail::parseJsonText(std::string(text), origin);
    if (!document)
        return document.error();
    JsonReader reader(origin);
    std::string path = "$";
    const json* cfg = &*document;
    if (!reader.expectObject(*cfg, path))
        return reader.error();
    // Multimodal configs keep the language model's shapes in text_config.
    if (cfg->contains("text_config") && cfg->at("text_config").is_object()
        && !firstKey(*cfg, {"hidden_size", "n_embd"})) {
        cfg = &cfg->at("text_config");
        path = "$.text_config";
    }
    TransformerModel m;
    m.name = std::filesystem::path(origin).parent_path().filename().string();
    if (m.name.empty())
        m.name = std::filesystem::path(origin).filename().string();
    m.source = origin;
    const std::string type = reader.string(*cfg, path, "model_type", false).value_or("");
    const std::string act = cfg->contains("hidden_act") && cfg->at("hidden_act").is_string()
                                ? cfg->at("hidden_act").get<std::string>()
                                : "";
    const auto hidden = shape(reader, *cfg, path, {"hidden_size", "n_embd", "d_model"}, true, 1'000'000);
    const auto layers = shape(reader, *cfg, path, {"num_hidden_layers", "n_layer", "num_layers"}, true, 100'000);
    const auto heads = shape(reader, *cfg, path, {"num_attention_heads", "n_head", "num_heads"}, true, 100'000);
    const auto kv = shape(reader, *cfg, path, {"num_key_value_heads", "num_kv_heads", "n_head_kv"}, false, 100'000);
    const auto ffn = shape(reader, *cfg, path, {"moe_intermediate_size", "intermediate_size", "n_inner", "ffn_dim"},
                           false, 10'000'000);
    const auto vocab = shape(reader, *cfg, path, {"vocab_size", "padded_vocab_size"}, true, 100'000'000);
    const auto experts =
        shape(reader, *cfg, path, {"num_local_experts", "num_experts", "n_routed_experts"}, false, 100'000);
    const auto topk = shape(reader, *cfg, path, {"num_experts_per_tok", "moe_top_k", "top_k"}, false, 100'000);
    const auto tied = reader.boolean(*cfg, path, "tie_word_embeddings");
    if (reader.failed())
        return reader.error();
    m.hidden = *hidden;
    m.layers = *layers;
    m.heads = *heads;
    m.kvHeads = kv.value_or(m.heads);
    m.gatedFfn = gatedFamily(type, act);
    m.ffn = ffn.value_or(4 * m.hidden);
    m.vocab = *vocab;
    m.tiedEmbeddings = tied.value_or(type == "gpt2");
    for (const char* k : {"attention_dropout", "hidden_dropout", "resid_pdrop", "attn_pdrop", "dropout"})
        if (cfg->contains(k) && cfg->at(k).is_number() && cfg->at(k).get<double>() > 0)
            m.dropout = true;
    if (experts && *experts > 1) {
        m.experts = *experts;
        m.expertsPerToken = topk.value_or(2);
    }
    if (const Status valid = validateModel(m); !valid)
        return badInput(Message("plan.error.model_line").with("model", origin).with("what", messageOf(valid.error())));
    return m;
}

Result<TransformerModel> loadModel(const std::string& presetOrPath)
{
    if (auto preset = modelPreset(presetOrPath))
        return *preset;
    std::string list;
    for (const ModelPresetInfo& info : modelPresetList())
        list += (list.empty() ? "" : ", ") + info.id;
    const std::filesystem::path path(presetOrPath);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec) && path.extension() != ".json")
        return badInput(Message("plan.error.unknown_model")
                            .with("model", presetOrPath)
                            .with("known", list)
                            .with("file", "config.json"));
    auto text = readUserFile(
        path, Message("error.file_kind.model_config").with("maker", "Hugging Face").with("file", "config.json"));
    if (!text)
        return text.error();
    return parseHfConfig(*text, presetOrPath);
}

} // namespace shardlab

// The shipped models. Shapes from the papers and model cards named in `source`.
#include "shardlab/plan/transformer.h"

#include <array>

namespace shardlab {

namespace {

struct Preset {
    const char* id;
    const char* description;
    TransformerModel model;
};

TransformerModel dense(const char* name, const char* source, int h, int l, int a, int kv, int f, bool gated, int vocab,
                       bool tied, bool dropout)
{
    TransformerModel m;
    m.name = name;
    m.source = source;
    m.hidden = h;
    m.layers = l;
    m.heads = a;
    m.kvHeads = kv;
    m.ffn = f;
    m.gatedFfn = gated;
    m.vocab = vocab;
    m.tiedEmbeddings = tied;
    m.dropout = dropout;
    return m;
}

const std::array<Preset, 6>& presets()
{
    static const std::array<Preset, 6> table = [] {
        TransformerModel mixtral =
            dense("mixtral-8x7b",
                  "Jiang et al. 2024, Mixtral of Experts, Table 1; config.json of mistralai/Mixtral-8x7B-v0.1", 4096,
                  32, 32, 8, 14336, true, 32000, false, false);
        mixtral.experts = 8;
        mixtral.expertsPerToken = 2;
        return std::array<Preset, 6>{{
            {"teaching-125m", "a small GPT (GPT-3 Small's shapes, 125 M parameters) for the classroom",
             dense("teaching-125m", "Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1 (GPT-3 Small)",
                   768, 12, 12, 12, 3072, false, 50257, true, true)},
            {"gpt3-175b", "GPT-3 175B (96 layers, hidden 12,288, 96 heads)",
             dense("gpt3-175b", "Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1", 12288, 96, 96,
                   96, 49152, false, 50257, true, true)},
            {"llama3-8b", "Llama 3 8B (32 layers, hidden 4,096, grouped-query attention with 8 key/value heads)",
             dense("llama3-8b",
                   "Dubey et al. 2024, The Llama 3 Herd of Models, Table 3; config.json of meta-llama/Meta-Llama-3-8B",
                   4096, 32, 32, 8, 14336, true, 128256, false, false)},
            {"llama3-70b", "Llama 3 70B (80 layers, hidden 8,192, 64 heads, 8 key/value heads)",
             dense("llama3-70b",
                   "Dubey et al. 2024, The Llama 3 Herd of Models, Table 3; config.json of meta-llama/Meta-Llama-3-70B",
                   8192, 80, 64, 8, 28672, true, 128256, false, false)},
            {"llama3-405b", "Llama 3 405B (126 layers, hidden 16,384, 128 heads, 8 key/value heads)",
             dense("llama3-405b",
                   "Dubey et al. 2024, The Llama 3 Herd of Models, Table 3; config.json of meta-llama/Llama-3.1-405B",
                   16384, 126, 128, 8, 53248, true, 128256, false, false)},
            {"mixtral-8x7b", "Mixtral 8x7B (a mixture of 8 experts, 2 per token)", mixtral},
        }};
    }();
    return table;
}

} // namespace

std::vector<ModelPresetInfo> modelPresetList()
{
    std::vector<ModelPresetInfo> out;
    for (const Preset& p : presets())
        out.push_back({p.id, p.description});
    return out;
}

std::optional<TransformerModel> modelPreset(std::string_view id)
{
    for (const Preset& p : presets())
        if (id == p.id)
            return p.model;
    return std::nullopt;
}

} // namespace shardlab

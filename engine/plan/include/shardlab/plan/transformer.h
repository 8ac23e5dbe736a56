// A decoder-only transformer as the planner sees it: the shapes that decide its parameters, its
// FLOPs and its activation memory. From a shipped preset or a Hugging Face config.json.
// docs/planner.md, "The model", has the formulas and their sources.
#pragma once

#include "shardlab/base/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

struct TransformerModel {
    std::string name;
    std::string source;          // where the shapes come from (a paper, a model card, a file)
    int hidden = 0;              // h
    int layers = 0;              // l
    int heads = 0;               // a: query heads
    int kvHeads = 0;             // key/value heads (grouped-query attention); = heads for multi-head
    int ffn = 0;                 // f: the MLP's inner size (of each expert for a mixture of experts)
    bool gatedFfn = false;       // SwiGLU-style MLP: three matrices (gate, up, down) instead of two
    int vocab = 0;               // V
    bool tiedEmbeddings = false; // the output projection shares the input embedding's matrix
    bool dropout = false;        // dropout after attention and MLP (its masks are activations to keep)
    int experts = 0;             // mixture of experts: experts per MoE layer; 0 = a dense model
    int expertsPerToken = 0;     // top-k routing
    bool operator==(const TransformerModel&) const = default;

    int headDim() const { return heads > 0 ? hidden / heads : 0; }
    bool moe() const { return experts > 1; }
};

// Parameter counts (weights only; biases and norm weights are below 0.1 % and counted in
// `norms`). docs/planner.md, "Parameters".
struct ParameterCount {
    double attentionPerLayer = 0; // h*h (Q) + 2*h*kvHeads*d (K, V) + h*h (output)
    double mlpPerLayer = 0;       // every expert's: (gated ? 3 : 2) * h * f * max(1, experts)
    double activeMlpPerLayer = 0; // what one token uses: expertsPerToken experts' (or the one MLP)
    double routerPerLayer = 0;    // h * experts
    double normsPerLayer = 0;     // 2h
    double embedding = 0;         // V * h
    double outputProjection = 0;  // V * h unless tied (0)
    double total = 0;
    double active = 0; // parameters one token's forward pass multiplies by
};
ParameterCount countParameters(const TransformerModel& model);

// Shapes that make no transformer: zero or negative sizes, heads that do not divide the hidden
// size or a kv-head count that does not divide the heads, top-k above the experts.
Status validateModel(const TransformerModel& model);

struct ModelPresetInfo {
    std::string id;
    std::string description;
};
std::vector<ModelPresetInfo> modelPresetList();
std::optional<TransformerModel> modelPreset(std::string_view id);

// A Hugging Face config.json (Llama, Mistral, Mixtral, Qwen2, GPT-2, GPT-NeoX and others that
// name hidden_size / num_hidden_layers / num_attention_heads or GPT-2's n_embd / n_layer / n_head).
// `origin` names the file in messages.
Result<TransformerModel> parseHfConfig(std::string_view text, const std::string& origin);
// MODEL as `shardlab plan` takes it: a preset id, else a path to a config.json.
Result<TransformerModel> loadModel(const std::string& presetOrPath);

} // namespace shardlab

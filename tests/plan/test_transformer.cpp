// The planner's models: parameter counts against the model cards, and Hugging Face configs read.
#include "shardlab/plan/transformer.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

namespace shardlab {
namespace {

TEST(TransformerModel, Llama3_8bHasTheModelCardsParameters)
{
    const ParameterCount c = countParameters(*modelPreset("llama3-8b"));
    // per layer: Q and O 2*4096^2, K and V 2*4096*1024, MLP 3*4096*14336, norms 2*4096 = 218,112,000;
    // 32 layers, embedding and output 128256*4096 each, the final norm 4096
    EXPECT_DOUBLE_EQ(c.attentionPerLayer, 41'943'040);
    EXPECT_DOUBLE_EQ(c.mlpPerLayer, 176'160'768);
    EXPECT_DOUBLE_EQ(c.total, 8'030'261'248); // "8.03B" (Meta's model card)
    EXPECT_DOUBLE_EQ(c.active, c.total);
}

TEST(TransformerModel, MixtralCountsEveryExpertButUsesTwo)
{
    const ParameterCount c = countParameters(*modelPreset("mixtral-8x7b"));
    EXPECT_DOUBLE_EQ(c.total, 46'702'792'704);  // 46.7B (Jiang et al. 2024)
    EXPECT_DOUBLE_EQ(c.active, 12'879'925'248); // 12.9B active per token
}

TEST(TransformerModel, EveryPresetIsAValidModel)
{
    for (const ModelPresetInfo& info : modelPresetList()) {
        const auto model = modelPreset(info.id);
        ASSERT_TRUE(model) << info.id;
        EXPECT_TRUE(validateModel(*model).ok()) << info.id;
        EXPECT_FALSE(model->source.empty()) << info.id;
    }
    EXPECT_FALSE(modelPreset("llama3-9b"));
}

TEST(HfConfig, ALlamaConfigGivesThePresetsShapes)
{
    const auto m = parseHfConfig(R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
        "vocab_size": 128256, "tie_word_embeddings": false, "hidden_act": "silu", "rope_theta": 500000.0,
        "torch_dtype": "bfloat16"})",
                                 "llama/config.json");
    ASSERT_TRUE(m) << m.error().message;
    TransformerModel expected = *modelPreset("llama3-8b");
    expected.name = "llama";
    expected.source = "llama/config.json";
    EXPECT_EQ(*m, expected);
}

TEST(HfConfig, Gpt2NamesAndDefaults)
{
    const auto m = parseHfConfig(R"({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12,
        "vocab_size": 50257, "resid_pdrop": 0.1, "n_inner": null})",
                                 "gpt2/config.json");
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(m->ffn, 4 * 768); // n_inner null: 4h
    EXPECT_FALSE(m->gatedFfn);
    EXPECT_TRUE(m->tiedEmbeddings); // GPT-2 ties its output to its embedding
    EXPECT_TRUE(m->dropout);
    EXPECT_EQ(m->kvHeads, 12);
}

TEST(HfConfig, MixtureOfExpertsAndNestedTextConfig)
{
    const auto m =
        parseHfConfig(R"({"model_type": "llava", "text_config": {"model_type": "mixtral", "hidden_size": 4096,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
        "vocab_size": 32000, "num_local_experts": 8, "num_experts_per_tok": 2}})",
                      "mm/config.json");
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(m->experts, 8);
    EXPECT_EQ(m->expertsPerToken, 2);
    EXPECT_TRUE(m->gatedFfn);
}

TEST(HfConfig, AMissingOrWrongShapeIsNamedByItsPath)
{
    auto m = parseHfConfig(
        R"({"model_type": "llama", "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 10})", "c.json");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("c.json: $.hidden_size: missing"), std::string::npos) << m.error().message;
    m = parseHfConfig(
        R"({"hidden_size": "4096", "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 10})", "c.json");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("$.hidden_size: found a string"), std::string::npos) << m.error().message;
    m = parseHfConfig(R"({"hidden_size": 4100, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 10})",
                      "c.json");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("not a multiple of the 32 attention heads"), std::string::npos)
        << m.error().message;
    m = parseHfConfig("[1, 2]", "c.json");
    ASSERT_FALSE(m);
    m = parseHfConfig("{\"hidden_size\": 4096,", "c.json");
    ASSERT_FALSE(m);
}

TEST(HfConfig, AnUnknownNameThatIsNoFileListsThePresets)
{
    const auto m = loadModel("llama-3-8b");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("unknown model 'llama-3-8b'"), std::string::npos);
    EXPECT_NE(m.error().message.find("llama3-8b"), std::string::npos);
    const auto missing = loadModel("/nonexistent/config.json");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("no such file"), std::string::npos) << missing.error().message;
}

// Issue 26: a model the planner refuses says so in Chinese too (these had no catalogue entry), each
// problem a line of its own under the model's name.
TEST(TransformerModel, ARefusedModelSaysWhyInBothLanguages)
{
    TransformerModel m = *modelPreset("llama3-8b");
    m.name = "mine";
    m.hidden = 4100; // 32 heads do not divide it
    m.kvHeads = 5;   // nor do 5 key/value heads divide 32 heads
    const Status bad = validateModel(m);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "mine: the hidden size 4100 is not a multiple of the 32 attention heads\n"
                                   "mine: the 32 attention heads are not a multiple of the 5 key/value heads");
    EXPECT_EQ(worded(bad.error(), Language::Chinese),
              "mine：隐藏层大小 4100 不是注意力头数 32 的整数倍\nmine：注意力头数 32 不是键值头数 5 的整数倍");
    m = *modelPreset("llama3-8b");
    m.layers = 0;
    const Status noLayers = validateModel(m);
    ASSERT_FALSE(noLayers);
    EXPECT_EQ(noLayers.error().message, m.name + ": layers: 0 is out of range (expected 1 to 100000)");
    const auto unknown = loadModel("llama-3-8b");
    ASSERT_FALSE(unknown);
    std::vector<std::string> kept{m.name, "llama-3-8b", "config.json"};
    for (const ModelPresetInfo& info : modelPresetList())
        kept.push_back(info.id);
    for (const Error* e : {&noLayers.error(), &unknown.error()}) {
        ASSERT_FALSE(e->what.empty()) << e->message;
        EXPECT_EQ(english(e->what), e->message);
        const std::string zh = worded(*e, Language::Chinese);
        EXPECT_EQ(untranslatedWords(zh, kept), std::vector<std::string>{}) << zh;
    }
}

} // namespace
} // namespace shardlab

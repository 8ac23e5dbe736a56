#include "shardlab/plan/transformer.h"

#include <algorithm>
#include <string>
#include <vector>

namespace shardlab {

ParameterCount countParameters(const TransformerModel& m)
{
    const double h = m.hidden;
    const double kvWidth = static_cast<double>(m.kvHeads) * m.headDim();
    ParameterCount p;
    p.attentionPerLayer = 2 * h * h + 2 * h * kvWidth;
    const double oneMlp = (m.gatedFfn ? 3.0 : 2.0) * h * m.ffn;
    p.mlpPerLayer = oneMlp * (m.moe() ? m.experts : 1);
    p.activeMlpPerLayer = oneMlp * (m.moe() ? m.expertsPerToken : 1);
    p.routerPerLayer = m.moe() ? h * m.experts : 0;
    p.normsPerLayer = 2 * h;
    p.embedding = static_cast<double>(m.vocab) * h;
    p.outputProjection = m.tiedEmbeddings ? 0 : static_cast<double>(m.vocab) * h;
    const double layer = p.attentionPerLayer + p.mlpPerLayer + p.routerPerLayer + p.normsPerLayer;
    const double activeLayer = p.attentionPerLayer + p.activeMlpPerLayer + p.routerPerLayer + p.normsPerLayer;
    p.total = m.layers * layer + p.embedding + p.outputProjection + h; // + the final norm
    p.active = m.layers * activeLayer + p.embedding + p.outputProjection + h;
    return p;
}

namespace {

// "hidden size: 0 is out of range (expected 1 to 1000000)", or nothing where it is in range.
Message checkRange(const char* field, long long value, long long lo, long long hi)
{
    if (value >= lo && value <= hi)
        return {};
    return Message("plan.error.out_of_range")
        .with("what", Message(field))
        .with("value", std::to_string(value))
        .with("lo", std::to_string(lo))
        .with("hi", std::to_string(hi));
}

} // namespace

Status validateModel(const TransformerModel& m)
{
    std::vector<Message> problems; // one line each, "MODEL: what"
    auto add = [&](Message what) {
        if (!what.empty())
            problems.push_back(Message("plan.error.model_line").with("model", m.name).with("what", std::move(what)));
    };
    add(checkRange("plan.model.hidden", m.hidden, 1, 1'000'000));
    add(checkRange("plan.model.layers", m.layers, 1, 100'000));
    add(checkRange("plan.model.heads", m.heads, 1, 100'000));
    add(checkRange("plan.model.kv_heads", m.kvHeads, 1, 100'000));
    add(checkRange("plan.model.ffn", m.ffn, 1, 10'000'000));
    add(checkRange("plan.model.vocab", m.vocab, 1, 100'000'000));
    add(checkRange("plan.model.experts", m.experts, 0, 100'000));
    if (problems.empty()) {
        if (m.hidden % m.heads != 0)
            add(Message("plan.error.hidden_heads")
                    .with("hidden", std::to_string(m.hidden))
                    .with("heads", std::to_string(m.heads)));
        if (m.heads % m.kvHeads != 0)
            add(Message("plan.error.kv_heads")
                    .with("heads", std::to_string(m.heads))
                    .with("kv", std::to_string(m.kvHeads)));
        if (m.moe())
            add(checkRange("plan.model.experts_per_token", m.expertsPerToken, 1, m.experts));
    }
    if (!problems.empty())
        return badInput(linesOf(std::move(problems)));
    return {};
}

} // namespace shardlab

#include "shardlab/plan/transformer.h"

#include <algorithm>
#include <string>

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

std::string checkRange(const char* what, long long value, long long lo, long long hi)
{
    if (value >= lo && value <= hi)
        return {};
    return std::string(what) + ": " + std::to_string(value) + " is out of range (expected " + std::to_string(lo)
           + " to " + std::to_string(hi) + ")";
}

} // namespace

Status validateModel(const TransformerModel& m)
{
    std::string problems;
    auto add = [&](const std::string& line) {
        if (!line.empty())
            problems += (problems.empty() ? "" : "\n") + m.name + ": " + line;
    };
    add(checkRange("hidden size", m.hidden, 1, 1'000'000));
    add(checkRange("layers", m.layers, 1, 100'000));
    add(checkRange("attention heads", m.heads, 1, 100'000));
    add(checkRange("key/value heads", m.kvHeads, 1, 100'000));
    add(checkRange("MLP size", m.ffn, 1, 10'000'000));
    add(checkRange("vocabulary", m.vocab, 1, 100'000'000));
    add(checkRange("experts", m.experts, 0, 100'000));
    if (problems.empty()) {
        if (m.hidden % m.heads != 0)
            add("the hidden size " + std::to_string(m.hidden) + " is not a multiple of the " + std::to_string(m.heads)
                + " attention heads");
        if (m.heads % m.kvHeads != 0)
            add("the " + std::to_string(m.heads) + " attention heads are not a multiple of the "
                + std::to_string(m.kvHeads) + " key/value heads");
        if (m.moe() && (m.expertsPerToken < 1 || m.expertsPerToken > m.experts))
            add("experts per token: " + std::to_string(m.expertsPerToken) + " is out of range (expected 1 to "
                + std::to_string(m.experts) + ")");
    }
    if (!problems.empty())
        return badInput(problems);
    return {};
}

} // namespace shardlab

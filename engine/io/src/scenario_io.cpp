#include "shardlab/io/scenario_io.h"

#include "shardlab/text/foreign_text.h"

#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"
#include "shardlab/base/physical_ranges.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/strategies.h"

#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace shardlab {

using detail::expectedChoice;
using detail::foundInstead;
using detail::json;
using detail::JsonReader;

namespace {

constexpr size_t kMaxFileBytes = kMaxUserFileBytes;

void readTopology(JsonReader& rd, const json& t, Topology& out)
{
    const std::string path = "$.topology";
    if (!rd.expectObject(t, path))
        return;
    if (const json* p = rd.find(t, "preset")) {
        rd.onlyKeys(t, path, {"preset", "gpus"});
        if (!p->is_string()) {
            rd.fail(path + ".preset", foundInstead(*p, Message("error.expected.preset")));
            return;
        }
        auto topo = preset(p->get<std::string>());
        if (!topo) {
            rd.fail(path + ".preset", unknownPresetSentence(p->get<std::string>()));
            return;
        }
        out = *topo;
        if (auto n = rd.integer(t, path, "gpus", false, 1, out.rankCount()))
            out = out.firstGpus(static_cast<int>(*n));
        return;
    }
    rd.onlyKeys(t, path, {"name", "source", "gpus", "switches", "links"});
    out.name = rd.string(t, path, "name", false).value_or("custom");
    out.source = rd.string(t, path, "source", false).value_or("");
    const json* gpus = rd.find(t, "gpus");
    if (!gpus || !gpus->is_array() || gpus->empty()) {
        if (gpus)
            rd.fail(path + ".gpus", foundInstead(*gpus, Message("error.expected.gpus")));
        else
            rd.fail(path + ".gpus",
                    Message("error.json.missing")
                        .with("expected", Message("error.expects.preset_or_gpus").with("preset", "\"preset\"")));
        return;
    }
    for (size_t i = 0; i < gpus->size(); ++i) {
        const std::string gp = JsonReader::index(path + ".gpus", i);
        const json& g = (*gpus)[i];
        if (!rd.expectObject(g, gp))
            continue;
        rd.onlyKeys(g, gp, {"id", "name", "memory", "tflops", "mem_bandwidth", "node", "socket"});
        Gpu gpu;
        gpu.id = rd.string(g, gp, "id", false).value_or("gpu" + std::to_string(i));
        gpu.name = rd.string(g, gp, "name", false).value_or("GPU");
        // a size that did not read has said why: no second error about the zero left in its place
        const std::optional<Bytes> memory = rd.size(g, gp, "memory", true);
        gpu.memory = memory.value_or(0);
        if (memory && *memory == 0)
            rd.fail(gp + ".memory", Message("error.says.zero").with("expected", Message("error.expected.memory")));
        else if (memory && *memory < kMinGpuMemory)
            rd.fail(gp + ".memory", Message("error.says.value_bytes")
                                        .with("value", std::to_string(*memory))
                                        .with("expected", Message("error.expects.memory_range")));
        gpu.tflops = rd.number(g, gp, "tflops", true, kMinTflops, kMaxTflops).value_or(1);
        gpu.memBandwidthGBps = rd.bandwidth(g, gp, "mem_bandwidth", false).value_or(0);
        gpu.node = static_cast<int>(rd.integer(g, gp, "node", false, 0, 1'000'000).value_or(0));
        gpu.socket = static_cast<int>(rd.integer(g, gp, "socket", false, 0, 1024).value_or(0));
        out.gpus.push_back(gpu);
    }
    if (const json* sw = rd.find(t, "switches")) {
        if (!sw->is_array())
            rd.fail(path + ".switches", foundInstead(*sw, Message("error.expected.array")));
        else
            for (size_t i = 0; i < sw->size(); ++i) {
                const std::string sp = JsonReader::index(path + ".switches", i);
                const json& s = (*sw)[i];
                if (!rd.expectObject(s, sp))
                    continue;
                rd.onlyKeys(s, sp, {"id", "kind", "node", "socket", "nvls"});
                SwitchNode node;
                node.id = rd.string(s, sp, "id", true).value_or("");
                if (auto k = rd.string(s, sp, "kind", true)) {
                    if (auto kind = switchKindFromName(*k))
                        node.kind = *kind;
                    else
                        rd.fail(sp + ".kind", Message("error.json.unknown_value")
                                                  .with("value", *k)
                                                  .with("expected", expectedChoice({"nvswitch", "pcie-switch", "cpu",
                                                                                    "nic", "net-switch"})));
                }
                node.node = static_cast<int>(rd.integer(s, sp, "node", false, -1, 1'000'000).value_or(0));
                node.socket = static_cast<int>(rd.integer(s, sp, "socket", false, 0, 1024).value_or(0));
                node.nvls = rd.boolean(s, sp, "nvls").value_or(false);
                out.switches.push_back(node);
            }
    }
    if (const json* links = rd.find(t, "links")) {
        if (!links->is_array())
            rd.fail(path + ".links", foundInstead(*links, Message("error.expected.array")));
        else
            for (size_t i = 0; i < links->size(); ++i) {
                const std::string lp = JsonReader::index(path + ".links", i);
                const json& l = (*links)[i];
                if (!rd.expectObject(l, lp))
                    continue;
                rd.onlyKeys(l, lp, {"from", "to", "kind", "count", "bandwidth", "latency_us"});
                Link link;
                link.a = rd.string(l, lp, "from", true).value_or("");
                link.b = rd.string(l, lp, "to", true).value_or("");
                if (auto k = rd.string(l, lp, "kind", true)) {
                    if (auto kind = linkKindFromName(*k))
                        link.kind = *kind;
                    else
                        rd.fail(lp + ".kind",
                                Message("error.json.unknown_value")
                                    .with("value", *k)
                                    .with("expected", expectedChoice({"nvlink", "pcie", "cross-socket", "network"})));
                }
                link.count = static_cast<int>(rd.integer(l, lp, "count", false, 1, 1024).value_or(1));
                link.bandwidthGBps = rd.bandwidth(l, lp, "bandwidth", true).value_or(1);
                link.latencyUs = rd.number(l, lp, "latency_us", false, 0, kMaxLatencyUs).value_or(1.0);
                out.links.push_back(link);
            }
    }
}

// Ranks that the topology does not have, reported where the file names them ("$.workload[0].split_across[2]")
// rather than where the model keeps them.
void checkRanks(JsonReader& rd, const std::vector<int>& list, const std::string& listPath, int ranks)
{
    if (ranks <= 0)
        return; // the topology is wrong already, and says so
    for (size_t i = 0; i < list.size(); ++i)
        if (list[i] >= ranks)
            rd.fail(
                JsonReader::index(listPath, i),
                Message("error.json.rank_missing")
                    .with("rank", std::to_string(list[i]))
                    .with("expected",
                          Message("error.expected.rank_range").with("lo", "0").with("hi", std::to_string(ranks - 1))));
}

void readItem(JsonReader& rd, const json& v, const std::string& path, int ranks, WorkloadItem& item)
{
    if (!rd.expectObject(v, path))
        return;
    rd.onlyKeys(v, path, {"name", "name_zh", "kind", "size", "shards", "replicate_on", "split_across", "split_sizes"});
    item.name = rd.string(v, path, "name", true).value_or("");
    item.nameZh = rd.string(v, path, "name_zh", false).value_or("");
    if (auto k = rd.string(v, path, "kind", true)) {
        if (auto kind = itemKindFromName(*k))
            item.kind = *kind;
        else
            rd.fail(path + ".kind", Message("error.json.unknown_value")
                                        .with("value", *k)
                                        .with("expected", expectedChoice({"parameters", "gradients", "optimizer_state",
                                                                          "activations", "data"})));
    }
    item.size = rd.size(v, path, "size", true).value_or(0);
    std::vector<int> all(static_cast<size_t>(ranks));
    std::iota(all.begin(), all.end(), 0);
    if (const json* shards = rd.find(v, "shards")) {
        if (!shards->is_array()) {
            rd.fail(path + ".shards", foundInstead(*shards, Message("error.expected.shards")));
            return;
        }
        Bytes offset = 0;
        for (size_t i = 0; i < shards->size(); ++i) {
            const std::string sp = JsonReader::index(path + ".shards", i);
            const json& s = (*shards)[i];
            if (!rd.expectObject(s, sp))
                continue;
            rd.onlyKeys(s, sp, {"offset", "size", "owners"});
            Shard sh;
            sh.offset = rd.size(s, sp, "offset", false).value_or(offset);
            sh.size = rd.size(s, sp, "size", true).value_or(0);
            if (rd.find(s, "owners")) {
                if (auto o = rd.ranks(s, sp, "owners")) {
                    checkRanks(rd, *o, sp + ".owners", ranks);
                    sh.owners = o->empty() ? all : *o;
                }
            }
            std::sort(sh.owners.begin(), sh.owners.end());
            offset = sh.offset + sh.size;
            item.shards.push_back(sh);
        }
        return;
    }
    if (rd.find(v, "replicate_on")) {
        if (auto o = rd.ranks(v, path, "replicate_on")) {
            checkRanks(rd, *o, path + ".replicate_on", ranks);
            std::vector<int> owners = o->empty() ? all : *o;
            std::sort(owners.begin(), owners.end());
            item.shards = {Shard{0, item.size, owners}};
        }
        return;
    }
    if (rd.find(v, "split_across")) {
        auto o = rd.ranks(v, path, "split_across");
        if (!o)
            return;
        checkRanks(rd, *o, path + ".split_across", ranks);
        if (rd.failed())
            return;
        const std::vector<int> owners = o->empty() ? all : *o;
        if (const json* sizes = rd.find(v, "split_sizes")) {
            if (!sizes->is_array() || sizes->size() != owners.size()) {
                rd.fail(path + ".split_sizes", Message("error.says.split_sizes")
                                                   .with("split_across", "split_across")
                                                   .with("count", std::to_string(owners.size())));
                return;
            }
            std::vector<Bytes> bytes;
            for (size_t i = 0; i < sizes->size(); ++i)
                bytes.push_back(rd.sizeValue((*sizes)[i], JsonReader::index(path + ".split_sizes", i)).value_or(0));
            item.shards = customShards(bytes);
        } else {
            item.shards =
                evenShards(item.size, static_cast<int>(std::min<Bytes>(owners.size(), std::max<Bytes>(item.size, 1))));
        }
        for (size_t i = 0; i < item.shards.size(); ++i)
            item.shards[i].owners = {owners[i]};
    }
}

void readOp(JsonReader& rd, const json& v, const std::string& path, Op& op)
{
    if (!rd.expectObject(v, path))
        return;
    rd.onlyKeys(v, path,
                {"op", "name", "name_zh", "item", "flops", "bytes", "group", "root", "from", "to", "algorithm",
                 "buckets", "overlap", "gemms", "gemm_share"});
    bool kindKnown = false;
    if (auto k = rd.string(v, path, "op", true)) {
        if (auto kind = opFromName(*k)) {
            op.kind = *kind;
            kindKnown = true;
        } else
            rd.fail(path + ".op", Message("error.json.unknown_value")
                                      .with("value", *k)
                                      .with("expected", expectedChoice({"compute", "all_reduce", "reduce", "broadcast",
                                                                        "all_gather", "all_gather_v", "reduce_scatter",
                                                                        "reduce_scatter_all_gather", "send_recv"})));
    }
    // Keys that mean nothing for this kind of step are refused, not dropped on the next save:
    // a compute step runs on the compute stream (no bytes, group, root, peer, algorithm or
    // overlap), a send_recv names its two ranks with from/to, and only a send_recv has them.
    for (const char* key : {"bytes", "group", "root", "from", "to", "algorithm", "overlap"}) {
        if (!kindKnown || !rd.find(v, key))
            continue;
        const std::string k = key;
        if (op.kind == OpKind::Compute)
            rd.fail(path + "." + k, Message("error.says.communication_only")
                                        .with("flops", "flops")
                                        .with("item", "item")
                                        .with("buckets", "buckets"));
        else if (op.kind == OpKind::SendRecv && (k == "group" || k == "root"))
            rd.fail(path + "." + k, Message("error.says.send_recv_ranks").with("from", "from").with("to", "to"));
        else if (op.kind != OpKind::SendRecv && (k == "from" || k == "to"))
            rd.fail(path + "." + k, Message("error.says.send_recv_only")
                                        .with("from", "from")
                                        .with("to", "to")
                                        .with("group", "group")
                                        .with("root", "root"));
    }
    op.name = rd.string(v, path, "name", false).value_or("");
    op.nameZh = rd.string(v, path, "name_zh", false).value_or("");
    op.item = rd.string(v, path, "item", false).value_or("");
    op.flops = rd.flops(v, path, "flops").value_or(0);
    if (rd.find(v, "bytes"))
        op.bytes = rd.size(v, path, "bytes", false);
    if (rd.find(v, "group")) {
        auto g = rd.ranks(v, path, "group");
        op.group = g.value_or(std::vector<int>{});
    }
    op.root = static_cast<int>(
        rd.integer(v, path, op.kind == OpKind::SendRecv ? "from" : "root", false, 0, 1'000'000).value_or(0));
    op.peer = static_cast<int>(rd.integer(v, path, "to", false, 0, 1'000'000).value_or(1));
    if (auto a = rd.string(v, path, "algorithm", false)) {
        if (auto alg = algorithmFromName(*a))
            op.algorithm = *alg;
        else
            rd.fail(path + ".algorithm",
                    Message("error.json.unknown_value")
                        .with("value", *a)
                        .with("expected", expectedChoice({"auto", "ring", "tree", "direct", "hierarchical"})));
    }
    op.buckets = static_cast<int>(rd.integer(v, path, "buckets", false, 1, 100000).value_or(1));
    op.overlap = rd.boolean(v, path, "overlap").value_or(false);
    // live mode's GEMMs; their ranges and where they may appear are checked by validateScenario
    op.gemmShare = rd.number(v, path, "gemm_share", false, 0, 1).value_or(0);
    if (const json* gemms = rd.find(v, "gemms")) {
        if (!gemms->is_array()) {
            rd.fail(path + ".gemms", foundInstead(*gemms, Message("error.expected.array")));
            return;
        }
        for (size_t i = 0; i < gemms->size(); ++i) {
            const std::string gp = JsonReader::index(path + ".gemms", i);
            const json& g = (*gemms)[i];
            if (!rd.expectObject(g, gp))
                continue;
            rd.onlyKeys(g, gp, {"m", "n", "k", "count"});
            OpGemm gemm;
            gemm.shape.m = rd.integer(g, gp, "m", true, 1, kMaxGemmSide).value_or(1);
            gemm.shape.n = rd.integer(g, gp, "n", true, 1, kMaxGemmSide).value_or(1);
            gemm.shape.k = rd.integer(g, gp, "k", true, 1, kMaxGemmSide).value_or(1);
            gemm.count = static_cast<int>(rd.integer(g, gp, "count", false, 1, kMaxGemmCount).value_or(1));
            op.gemms.push_back(gemm);
        }
    }
}

void readPerturbations(JsonReader& rd, const json& v, int ranks, Perturbations& p)
{
    const std::string path = "$.perturbations";
    if (!rd.expectObject(v, path))
        return;
    rd.onlyKeys(v, path, {"slowdown", "jitter_pct", "seed", "delays", "mismatches"});
    if (const json* s = rd.find(v, "slowdown")) {
        if (s->is_array()) {
            for (size_t i = 0; i < s->size(); ++i) {
                if (!(*s)[i].is_number())
                    rd.fail(JsonReader::index(path + ".slowdown", i),
                            foundInstead((*s)[i], Message("error.expected.factor")));
                else
                    p.slowdown.push_back((*s)[i].get<double>());
            }
        } else if (s->is_object()) {
            // {"2": 1.5}: rank -> factor
            for (auto it = s->begin(); it != s->end(); ++it) {
                const std::string kp = path + ".slowdown." + it.key();
                char* end = nullptr;
                const long r = std::strtol(it.key().c_str(), &end, 10);
                if (it.key().empty() || *end || r < 0 || r >= ranks) {
                    rd.fail(kp, Message("error.json.not_topology_rank")
                                    .with("value", it.key())
                                    .with("expected", Message("error.expected.rank_range")
                                                          .with("lo", "0")
                                                          .with("hi", std::to_string(ranks - 1))));
                    continue;
                }
                if (!it->is_number()) {
                    rd.fail(kp, foundInstead(*it, Message("error.expected.factor")));
                    continue;
                }
                if (p.slowdown.size() <= static_cast<size_t>(r))
                    p.slowdown.resize(static_cast<size_t>(r) + 1, 1.0);
                p.slowdown[static_cast<size_t>(r)] = it->get<double>();
            }
        } else
            rd.fail(path + ".slowdown",
                    foundInstead(*s, Message("error.expected.factors").with("object", "{\"rank\": factor}")));
    }
    p.jitterPct = rd.number(v, path, "jitter_pct", false, 0, 100).value_or(0);
    p.seed = static_cast<std::uint64_t>(rd.integer(v, path, "seed", false, 0, 9'000'000'000'000'000'000LL).value_or(1));
    if (const json* d = rd.find(v, "delays")) {
        if (!d->is_array())
            rd.fail(path + ".delays", foundInstead(*d, Message("error.expected.array")));
        else
            for (size_t i = 0; i < d->size(); ++i) {
                const std::string dp = JsonReader::index(path + ".delays", i);
                if (!rd.expectObject((*d)[i], dp))
                    continue;
                rd.onlyKeys((*d)[i], dp, {"rank", "op", "iteration", "ms"});
                Delay delay;
                delay.rank = static_cast<int>(rd.integer((*d)[i], dp, "rank", true, 0, 1'000'000).value_or(0));
                delay.op = static_cast<int>(rd.integer((*d)[i], dp, "op", true, 0, 1'000'000).value_or(0));
                delay.iteration =
                    static_cast<int>(rd.integer((*d)[i], dp, "iteration", false, -1, 1'000'000).value_or(-1));
                delay.ms = rd.number((*d)[i], dp, "ms", true, 0, 1e6).value_or(0);
                p.delays.push_back(delay);
            }
    }
    if (const json* m = rd.find(v, "mismatches")) {
        if (!m->is_array())
            rd.fail(path + ".mismatches", foundInstead(*m, Message("error.expected.array")));
        else
            for (size_t i = 0; i < m->size(); ++i) {
                const std::string mp = JsonReader::index(path + ".mismatches", i);
                const json& e = (*m)[i];
                if (!rd.expectObject(e, mp))
                    continue;
                rd.onlyKeys(e, mp, {"type", "rank", "op", "iteration", "replacement", "bytes"});
                Mismatch mm;
                const std::string type = rd.string(e, mp, "type", true).value_or("wrong_op");
                if (type == "wrong_op")
                    mm.type = Mismatch::Type::WrongOp;
                else if (type == "wrong_count")
                    mm.type = Mismatch::Type::WrongCount;
                else if (type == "skip")
                    mm.type = Mismatch::Type::Skip;
                else
                    rd.fail(mp + ".type", Message("error.json.unknown_value")
                                              .with("value", type)
                                              .with("expected", expectedChoice({"wrong_op", "wrong_count", "skip"})));
                mm.rank = static_cast<int>(rd.integer(e, mp, "rank", true, 0, 1'000'000).value_or(0));
                mm.op = static_cast<int>(rd.integer(e, mp, "op", true, 0, 1'000'000).value_or(0));
                mm.iteration = static_cast<int>(rd.integer(e, mp, "iteration", false, 0, 1'000'000).value_or(0));
                if (auto r = rd.string(e, mp, "replacement", mm.type == Mismatch::Type::WrongOp)) {
                    if (auto k = opFromName(*r))
                        mm.replacement = *k;
                    else
                        rd.fail(mp + ".replacement", Message("error.says.not_collective").with("value", *r));
                }
                mm.bytes = rd.size(e, mp, "bytes", mm.type == Mismatch::Type::WrongCount).value_or(0);
                p.mismatches.push_back(mm);
            }
    }
}

} // namespace

Result<Scenario> parseScenario(const std::string& text, const std::string& origin)
{
    if (text.size() > kMaxFileBytes)
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$")
                            .with("what", Message("error.file.too_large")
                                              .with("megabytes", "64")
                                              .with("expected", Message("error.expected.scenario_file"))));
    if (Message problem = detail::jsonShapeMessage(text); !problem.empty())
        return badInput(Message("error.at").with("origin", origin).with("path", "$").with("what", std::move(problem)));
    json doc;
    try {
        doc = detail::parseJsonStrict(text);
    } catch (const detail::JsonPathError& e) {
        return detail::errorAt(origin, e);
    } catch (const json::out_of_range& e) {
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$")
                            .with("what", Message("error.file.number_too_large").with("parser", e.what())));
    } catch (const json::parse_error& e) {
        // position as line and column, counted from the byte offset nlohmann reports
        size_t line = 1, col = 1;
        const size_t upto = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        for (size_t i = 0; i < upto; ++i) {
            if (text[i] == '\n') {
                ++line;
                col = 1;
            } else
                ++col;
        }
        std::string what = e.what();
        if (auto p = what.find("syntax error"); p != std::string::npos)
            what = what.substr(p);
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$")
                            .with("what", Message("error.file.invalid_json")
                                              .with("line", std::to_string(line))
                                              .with("column", std::to_string(col))
                                              .with("parser", parserMessage(what))));
    }
    JsonReader rd(origin);
    Scenario s;
    if (!rd.expectObject(doc, "$"))
        return rd.error();
    rd.onlyKeys(doc, "$",
                {"shardlab", "name", "name_zh", "description", "description_zh", "topology", "workload", "program",
                 "perturbations", "iterations", "memory_mode", "strategy", "cost_profile", "mesh"});
    const auto version = rd.integer(doc, "$", "shardlab", true, 1, 1000);
    if (version && *version != kScenarioFormatVersion)
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$.shardlab")
                            .with("what", Message("error.says.format_version")
                                              .with("version", std::to_string(*version))
                                              .with("supported", std::to_string(kScenarioFormatVersion))));
    if (rd.failed())
        return rd.error();
    s.name = rd.string(doc, "$", "name", false).value_or("");
    s.description = rd.string(doc, "$", "description", false).value_or("");
    s.nameZh = rd.string(doc, "$", "name_zh", false).value_or("");
    s.descriptionZh = rd.string(doc, "$", "description_zh", false).value_or("");
    if (const json* t = rd.find(doc, "topology"))
        readTopology(rd, *t, s.topology);
    else
        rd.fail("$.topology",
                Message("error.json.missing")
                    .with("expected", Message("error.expected.topology").with("preset", "{\"preset\": ID}")));
    if (rd.failed())
        return rd.error(); // without a topology, ranks cannot be checked
    if (Status st = validateTopology(s.topology); !st)
        return badInput(Message("error.io.in").with("origin", origin).with("what", messageOf(st.error())));
    if (const json* w = rd.find(doc, "workload")) {
        if (!w->is_array())
            rd.fail("$.workload", foundInstead(*w, Message("error.expected.items")));
        else
            for (size_t i = 0; i < w->size(); ++i) {
                WorkloadItem item;
                readItem(rd, (*w)[i], JsonReader::index("$.workload", i), s.ranks(), item);
                s.workload.items.push_back(item);
            }
    }
    if (const json* p = rd.find(doc, "program")) {
        if (!p->is_array())
            rd.fail("$.program", foundInstead(*p, Message("error.expected.steps")));
        else
            for (size_t i = 0; i < p->size(); ++i) {
                Op op;
                readOp(rd, (*p)[i], JsonReader::index("$.program", i), op);
                s.program.push_back(op);
            }
    }
    if (const json* p = rd.find(doc, "perturbations"))
        readPerturbations(rd, *p, s.ranks(), s.perturbations);
    s.iterations = static_cast<int>(rd.integer(doc, "$", "iterations", false, 1, 100000).value_or(1));
    if (auto mm = rd.string(doc, "$", "memory_mode", false)) {
        if (*mm == "strict")
            s.memoryMode = MemoryMode::Strict;
        else if (*mm == "unified")
            s.memoryMode = MemoryMode::Unified;
        else
            rd.fail("$.memory_mode", Message("error.json.unknown_value")
                                         .with("value", *mm)
                                         .with("expected", expectedChoice({"strict", "unified"})));
    }
    s.costProfile = rd.string(doc, "$", "cost_profile", false).value_or("");
    if (auto st = rd.string(doc, "$", "strategy", false)) {
        auto strategy = strategyFromName(*st);
        if (*st == kObservedStrategy) // a profiled program (shardlab profile): nothing to place
            s.strategy = *st;
        else if (!strategy)
            rd.fail("$.strategy",
                    Message("error.json.unknown_value")
                        .with("value", *st)
                        .with("expected", expectedChoice({"replicate", "data_parallel", "zero1", "zero2", "zero3",
                                                          "tensor_parallel", "pipeline_parallel", "observed"})));
        else {
            // items without explicit ownership take the strategy's placement
            Scenario placed = s;
            applyStrategy(placed, *strategy);
            for (size_t i = 0; i < s.workload.items.size(); ++i)
                if (s.workload.items[i].shards.empty())
                    s.workload.items[i].shards = placed.workload.items[i].shards;
            s.strategy = *st;
        }
    }
    if (const json* m = rd.find(doc, "mesh"); m && rd.expectObject(*m, "$.mesh")) {
        rd.onlyKeys(*m, "$.mesh", {"tp", "cp", "pp", "dp", "order", "gpus"});
        ScenarioMesh mesh;
        for (auto [key, size] : {std::pair{"tp", &mesh.tp}, {"cp", &mesh.cp}, {"pp", &mesh.pp}, {"dp", &mesh.dp}})
            *size = static_cast<int>(rd.integer(*m, "$.mesh", key, false, 1, kMaxTopologyGpus).value_or(1));
        mesh.order = rd.string(*m, "$.mesh", "order", false).value_or(mesh.order);
        if (rd.find(*m, "gpus"))
            mesh.gpus = rd.ranks(*m, "$.mesh", "gpus").value_or(std::vector<int>{});
        s.mesh = mesh;
    }
    if (rd.failed())
        return rd.error();
    if (Status st = validateScenario(s); !st)
        return badInput(Message("error.io.in").with("origin", origin).with("what", messageOf(st.error())));
    return s;
}

Result<Scenario> loadScenario(const std::filesystem::path& path)
{
    auto text = readUserFile(path, Message("error.file_kind.suffix").with("suffix", ".shardlab.json"));
    if (!text)
        return text.error();
    return parseScenario(*text, path.string());
}

} // namespace shardlab

// Scenarios written as files (scenario_io.h): the format docs/scenario-format.md describes, read
// back by scenario_io.cpp.
#include "shardlab/io/scenario_io.h"

#include "shardlab/base/file_io.h"

#include <nlohmann/json.hpp>

#include <string>

namespace shardlab {

using nlohmann::json;

namespace {

// Sizes are written exactly: "24 GB" when the byte count is a whole number of a unit, else bytes.
json sizeJson(Bytes b)
{
    struct U {
        Bytes m;
        const char* n;
    };
    static const U units[] = {
        {1'000'000'000'000ULL, "TB"}, {1ULL << 40, "TiB"}, {1'000'000'000ULL, "GB"}, {1ULL << 30, "GiB"},
        {1'000'000ULL, "MB"},         {1ULL << 20, "MiB"}, {1000ULL, "kB"},          {1ULL << 10, "KiB"}};
    if (b == 0)
        return 0;
    for (const U& u : units)
        if (b % u.m == 0)
            return std::to_string(b / u.m) + " " + u.n;
    return b;
}

} // namespace

std::string serializeScenario(const Scenario& s)
{
    json doc = json::object();
    doc["shardlab"] = kScenarioFormatVersion;
    doc["name"] = s.name;
    if (!s.description.empty())
        doc["description"] = s.description;
    if (!s.nameZh.empty())
        doc["name_zh"] = s.nameZh;
    if (!s.descriptionZh.empty())
        doc["description_zh"] = s.descriptionZh;
    json topo;
    topo["name"] = s.topology.name;
    if (!s.topology.source.empty())
        topo["source"] = s.topology.source;
    topo["gpus"] = json::array();
    for (const Gpu& g : s.topology.gpus) {
        json gj = {{"id", g.id},         {"name", g.name}, {"memory", sizeJson(g.memory)},
                   {"tflops", g.tflops}, {"node", g.node}, {"socket", g.socket}};
        if (g.memBandwidthGBps > 0)
            gj["mem_bandwidth"] = g.memBandwidthGBps;
        topo["gpus"].push_back(gj);
    }
    topo["switches"] = json::array();
    for (const SwitchNode& sw : s.topology.switches) {
        json sj = {{"id", sw.id}, {"kind", switchKindName(sw.kind)}, {"node", sw.node}, {"socket", sw.socket}};
        if (sw.nvls)
            sj["nvls"] = true;
        topo["switches"].push_back(sj);
    }
    topo["links"] = json::array();
    for (const Link& l : s.topology.links)
        topo["links"].push_back({{"from", l.a},
                                 {"to", l.b},
                                 {"kind", linkKindName(l.kind)},
                                 {"count", l.count},
                                 {"bandwidth", l.bandwidthGBps},
                                 {"latency_us", l.latencyUs}});
    doc["topology"] = topo;
    doc["workload"] = json::array();
    for (const WorkloadItem& item : s.workload.items) {
        json it = {{"name", item.name}, {"kind", itemKindName(item.kind)}, {"size", sizeJson(item.size)}};
        if (!item.nameZh.empty())
            it["name_zh"] = item.nameZh;
        it["shards"] = json::array();
        for (const Shard& sh : item.shards)
            it["shards"].push_back(
                {{"offset", sizeJson(sh.offset)}, {"size", sizeJson(sh.size)}, {"owners", sh.owners}});
        doc["workload"].push_back(it);
    }
    doc["program"] = json::array();
    for (const Op& op : s.program) {
        json o = {{"op", opName(op.kind)}};
        if (!op.name.empty())
            o["name"] = op.name;
        if (!op.nameZh.empty())
            o["name_zh"] = op.nameZh;
        if (!op.item.empty())
            o["item"] = op.item;
        if (op.kind == OpKind::Compute) {
            o["flops"] = op.flops;
            if (!op.gemms.empty()) {
                json gemms = json::array();
                for (const OpGemm& g : op.gemms) {
                    json one = {{"m", g.shape.m}, {"n", g.shape.n}, {"k", g.shape.k}};
                    if (g.count != 1)
                        one["count"] = g.count;
                    gemms.push_back(std::move(one));
                }
                o["gemms"] = std::move(gemms);
            }
            if (op.gemmShare != 0)
                o["gemm_share"] = op.gemmShare;
        } else {
            if (op.flops != 0) // read from any step, so written back from any step (load(save(s)) == s)
                o["flops"] = op.flops;
            if (op.bytes)
                o["bytes"] = sizeJson(*op.bytes);
            if (op.kind == OpKind::SendRecv) {
                o["from"] = op.root;
                o["to"] = op.peer;
            } else {
                if (!op.group.empty())
                    o["group"] = op.group;
                if (op.kind == OpKind::Reduce || op.kind == OpKind::Broadcast || op.root != 0)
                    o["root"] = op.root;
            }
            if (op.algorithm != Algorithm::Auto)
                o["algorithm"] = algorithmName(op.algorithm);
            if (op.overlap)
                o["overlap"] = true;
        }
        if (op.buckets != 1)
            o["buckets"] = op.buckets;
        doc["program"].push_back(o);
    }
    const Perturbations& p = s.perturbations;
    if (!(p == Perturbations{})) {
        json pj = json::object();
        if (!p.slowdown.empty())
            pj["slowdown"] = p.slowdown;
        if (p.jitterPct != 0)
            pj["jitter_pct"] = p.jitterPct;
        if (p.seed != 1)
            pj["seed"] = p.seed;
        if (!p.delays.empty()) {
            pj["delays"] = json::array();
            for (const Delay& d : p.delays)
                pj["delays"].push_back({{"rank", d.rank}, {"op", d.op}, {"iteration", d.iteration}, {"ms", d.ms}});
        }
        if (!p.mismatches.empty()) {
            pj["mismatches"] = json::array();
            for (const Mismatch& m : p.mismatches) {
                json mj = {{"rank", m.rank}, {"op", m.op}, {"iteration", m.iteration}};
                mj["type"] = m.type == Mismatch::Type::WrongOp      ? "wrong_op"
                             : m.type == Mismatch::Type::WrongCount ? "wrong_count"
                                                                    : "skip";
                if (m.type == Mismatch::Type::WrongOp)
                    mj["replacement"] = opName(m.replacement);
                if (m.type == Mismatch::Type::WrongCount)
                    mj["bytes"] = sizeJson(m.bytes);
                pj["mismatches"].push_back(mj);
            }
        }
        doc["perturbations"] = pj;
    }
    doc["iterations"] = s.iterations;
    doc["memory_mode"] = s.memoryMode == MemoryMode::Unified ? "unified" : "strict";
    if (!s.strategy.empty())
        doc["strategy"] = s.strategy;
    if (!s.costProfile.empty())
        doc["cost_profile"] = s.costProfile;
    if (s.mesh) {
        doc["mesh"] = {
            {"tp", s.mesh->tp}, {"cp", s.mesh->cp}, {"pp", s.mesh->pp}, {"dp", s.mesh->dp}, {"order", s.mesh->order}};
        if (!s.mesh->gpus.empty())
            doc["mesh"]["gpus"] = s.mesh->gpus;
    }
    return doc.dump(2) + "\n";
}

Status saveScenario(const Scenario& scenario, const std::filesystem::path& path)
{
    return writeFileAtomically(path, serializeScenario(scenario));
}

} // namespace shardlab

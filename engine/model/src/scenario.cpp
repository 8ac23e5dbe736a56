#include "shardlab/model/scenario.h"

#include "shardlab/model/mesh_order.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <string>

namespace shardlab {

double Perturbations::slowdownOf(int rank) const
{
    if (rank < 0 || static_cast<size_t>(rank) >= slowdown.size())
        return 1.0;
    return slowdown[static_cast<size_t>(rank)];
}

namespace {
// splitmix64: a reproducible random number per (seed, rank, op, iteration, bucket), whatever the
// order in which the simulator or the live engine visits ranks.
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
} // namespace

double Perturbations::jitterFactor(int rank, int op, int iteration, int bucket) const
{
    if (jitterPct <= 0)
        return 1.0;
    std::uint64_t h = mix(seed);
    h = mix(h ^ static_cast<std::uint64_t>(rank));
    h = mix(h ^ (static_cast<std::uint64_t>(op) << 20));
    h = mix(h ^ (static_cast<std::uint64_t>(iteration) << 40));
    h = mix(h ^ static_cast<std::uint64_t>(bucket) * 0x100000001ULL);
    const double u = static_cast<double>(h >> 11) / static_cast<double>(1ULL << 53); // [0, 1)
    return 1.0 + (2.0 * u - 1.0) * jitterPct / 100.0;
}

std::vector<int> Scenario::groupOf(const Op& op) const
{
    if (op.kind == OpKind::SendRecv)
        return {std::min(op.root, op.peer), std::max(op.root, op.peer)};
    if (!op.group.empty())
        return op.group;
    std::vector<int> all(static_cast<size_t>(ranks()));
    std::iota(all.begin(), all.end(), 0);
    return all;
}

Bytes Scenario::bytesOf(const Op& op) const
{
    if (op.bytes)
        return *op.bytes;
    if (const WorkloadItem* item = workload.find(op.item))
        return item->size;
    return 0;
}

void forEachComputeShare(const Scenario& s, const std::function<void(size_t, const std::vector<double>&)>& visit)
{
    const size_t n = static_cast<size_t>(std::max(0, s.ranks()));
    std::map<std::string, std::vector<bool>> gathered; // item -> the ranks that hold all of it
    std::vector<double> f;
    for (size_t i = 0; i < s.program.size(); ++i) {
        const Op& op = s.program[i];
        const WorkloadItem* item = op.item.empty() ? nullptr : s.workload.find(op.item);
        if (op.kind == OpKind::Compute) {
            f.assign(n, item ? 0.0 : 1.0);
            if (item && item->size > 0) {
                for (const Shard& sh : item->shards)
                    for (int owner : sh.owners)
                        if (owner >= 0 && static_cast<size_t>(owner) < n)
                            f[static_cast<size_t>(owner)] +=
                                static_cast<double>(sh.size) / static_cast<double>(item->size);
                if (auto g = gathered.find(op.item); g != gathered.end())
                    for (size_t r = 0; r < n; ++r)
                        if (g->second[r])
                            f[r] = 1.0;
            }
            visit(i, f);
            continue;
        }
        const bool bringsAll =
            op.kind == OpKind::AllGather || op.kind == OpKind::AllGatherV || op.kind == OpKind::Broadcast;
        if (!bringsAll || !item || item->size == 0 || s.bytesOf(op) < item->size)
            continue;
        std::vector<bool>& g = gathered[op.item];
        g.resize(n, false);
        for (int r : s.groupOf(op))
            if (r >= 0 && static_cast<size_t>(r) < n)
                g[static_cast<size_t>(r)] = true;
    }
}

std::vector<std::vector<double>> computeShares(const Scenario& s)
{
    std::vector<std::vector<double>> shares(s.program.size());
    forEachComputeShare(s, [&](size_t i, const std::vector<double>& f) { shares[i] = f; });
    return shares;
}

namespace {

std::string at(const std::string& base, size_t i) { return base + "[" + std::to_string(i) + "]"; }

// "PATH: what" of a scenario checked in memory (error.at_path); a reader puts its file in front.
Error badAt(const std::string& path, Message what)
{
    return badInput(Message("error.at_path").with("path", path).with("what", std::move(what)));
}

// "LO..HI" as an expected value (error.expected.rank_range; verbatim where there is no such range)
Message rankRange(int lo, int hi)
{
    if (lo < 0 || hi < 0)
        return verbatim(std::to_string(lo) + ".." + std::to_string(hi));
    return Message("error.expected.rank_range").with("lo", std::to_string(lo)).with("hi", std::to_string(hi));
}

Status checkRank(int rank, int ranks, const std::string& path)
{
    if (rank < 0 || rank >= ranks)
        return badAt(path, Message("error.json.rank_missing")
                               .with("rank", std::to_string(rank))
                               .with("expected", rankRange(0, ranks - 1)));
    return {};
}

Status validateItems(const Scenario& s)
{
    std::set<std::string> names, chineseNames; // unique as written, and as namedIn() shows them in Chinese
    for (size_t i = 0; i < s.workload.items.size(); ++i) {
        const WorkloadItem& item = s.workload.items[i];
        const std::string path = at("$.workload", i);
        if (item.name.empty())
            return badAt(path + ".name",
                         Message("error.json.empty").with("expected", Message("error.expects.unique_name")));
        const Message uniqueNames("error.expects.unique_names");
        if (!names.insert(item.name).second)
            return badAt(path + ".name",
                         Message("error.says.used_twice").with("value", item.name).with("expected", uniqueNames));
        const std::string& chinese = item.nameZh.empty() ? item.name : item.nameZh;
        if (!chineseNames.insert(chinese).second)
            return badAt(path + (item.nameZh.empty() ? ".name" : ".name_zh"),
                         Message("error.says.used_twice").with("value", chinese).with("expected", uniqueNames));
        if (item.size == 0)
            return badAt(
                path + ".size",
                Message("error.says.zero")
                    .with("expected", Message("error.expects.positive_size_such_as").with("example", "\"24 GB\"")));
        if (item.size > kMaxBytes)
            return badAt(path + ".size", Message("error.says.larger_than_pb"));
        Bytes next = 0;
        for (size_t k = 0; k < item.shards.size(); ++k) {
            const Shard& sh = item.shards[k];
            const std::string sp = at(path + ".shards", k);
            if (sh.offset != next)
                return badAt(sp + ".offset", Message("error.says.shard_offset")
                                                 .with("offset", std::to_string(sh.offset))
                                                 .with("next", std::to_string(next)));
            if (sh.size == 0)
                return badAt(sp + ".size",
                             Message("error.says.zero").with("expected", Message("error.expects.positive_size")));
            next += sh.size;
            std::set<int> seen;
            for (size_t o = 0; o < sh.owners.size(); ++o) {
                if (Status st = checkRank(sh.owners[o], s.ranks(), at(sp + ".owners", o)); !st)
                    return st;
                if (!seen.insert(sh.owners[o]).second)
                    return badAt(at(sp + ".owners", o),
                                 Message("error.says.listed_twice").with("rank", std::to_string(sh.owners[o])));
            }
        }
        if (!item.shards.empty() && next != item.size)
            return badAt(path + ".shards", Message("error.says.shards_sum")
                                               .with("sum", std::to_string(next))
                                               .with("size", std::to_string(item.size))
                                               .with("expected", Message("error.expects.whole_item")));
    }
    return {};
}

// A compute step's GEMMs (Op::gemms): sides 1 to kMaxGemmSide, counts 1 to kMaxGemmCount, a share
// of the step's time from 0 to 1, and one bucket (the GEMMs are the whole step's, not a slice's).
Status validateGemms(const Op& op, const std::string& path)
{
    auto outside = [](const std::string& where, const std::string& value, long long lo, long long hi) {
        return badAt(
            where,
            Message("error.says.value_expected")
                .with("value", value)
                .with("expected",
                      Message("error.expects.range").with("lo", std::to_string(lo)).with("hi", std::to_string(hi))));
    };
    if (!(op.gemmShare >= 0 && op.gemmShare <= 1)) {
        char value[32];
        std::snprintf(value, sizeof value, "%g", op.gemmShare);
        return outside(path + ".gemm_share", value, 0, 1);
    }
    if (!op.gemms.empty() && op.buckets != 1)
        return badAt(path + ".buckets", Message("error.says.gemms_one_bucket"));
    for (size_t i = 0; i < op.gemms.size(); ++i) {
        const OpGemm& g = op.gemms[i];
        const std::string gp = at(path + ".gemms", i);
        for (const auto& [key, side] : {std::pair{"m", g.shape.m}, {"n", g.shape.n}, {"k", g.shape.k}})
            if (side < 1 || side > kMaxGemmSide)
                return outside(gp + "." + key, std::to_string(side), 1, kMaxGemmSide);
        if (g.count < 1 || g.count > kMaxGemmCount)
            return outside(gp + ".count", std::to_string(g.count), 1, kMaxGemmCount);
    }
    return {};
}

Status validateOp(const Scenario& s, const Op& op, const std::string& path)
{
    if (op.buckets < 1 || op.buckets > 100000)
        return badAt(path + ".buckets",
                     Message("error.says.value_expected")
                         .with("value", std::to_string(op.buckets))
                         .with("expected", Message("error.expects.range").with("lo", "1").with("hi", "100000")));
    const WorkloadItem* item = op.item.empty() ? nullptr : s.workload.find(op.item);
    if (!op.item.empty() && !item)
        return badAt(path + ".item", Message("error.says.not_item").with("value", op.item));
    if (op.kind != OpKind::Compute && !op.gemms.empty())
        return badAt(path + ".gemms", Message("error.says.compute_only"));
    if (op.kind != OpKind::Compute && op.gemmShare != 0)
        return badAt(path + ".gemm_share", Message("error.says.compute_only"));
    if (op.kind == OpKind::Compute) {
        if (!(op.flops >= 0) || op.flops > 1e24)
            return badAt(path + ".flops", Message("error.says.flops"));
        return validateGemms(op, path);
    }
    if (op.kind == OpKind::SendRecv) {
        if (Status st = checkRank(op.root, s.ranks(), path + ".from"); !st)
            return st;
        if (Status st = checkRank(op.peer, s.ranks(), path + ".to"); !st)
            return st;
        if (op.root == op.peer)
            return badAt(path + ".to", Message("error.says.send_to_itself"));
    } else {
        if (op.group.empty() && s.ranks() == 0)
            return badAt(path + ".group", Message("error.says.no_rank"));
        std::set<int> seen;
        for (size_t g = 0; g < op.group.size(); ++g) {
            if (Status st = checkRank(op.group[g], s.ranks(), at(path + ".group", g)); !st)
                return st;
            if (!seen.insert(op.group[g]).second)
                return badAt(at(path + ".group", g),
                             Message("error.says.listed_twice").with("rank", std::to_string(op.group[g])));
        }
        const std::vector<int> group = s.groupOf(op);
        if (op.algorithm == Algorithm::Direct && group.size() > static_cast<size_t>(kMaxDirectRanks))
            return badAt(path + ".algorithm", Message("error.says.direct_too_large")
                                                  .with("ranks", std::to_string(group.size()))
                                                  .with("max", std::to_string(kMaxDirectRanks)));
        if ((op.kind == OpKind::Reduce || op.kind == OpKind::Broadcast)
            && std::find(group.begin(), group.end(), op.root) == group.end())
            return badAt(path + ".root", Message("error.says.root_not_in_group").with("rank", std::to_string(op.root)));
    }
    if (op.kind == OpKind::AllGatherV && !item)
        return badAt(path + ".item", Message("error.says.gather_v_item"));
    if (!op.bytes && !item)
        return badAt(path + ".bytes",
                     Message("error.json.missing").with("expected", Message("error.expects.size_or_item")));
    if (op.bytes && (*op.bytes == 0 || *op.bytes > kMaxBytes))
        return badAt(path + ".bytes", Message("error.says.bytes_range"));
    return {};
}

} // namespace

int ScenarioMesh::placeOf(int gpu) const
{
    if (gpus.empty())
        return gpu >= 0 && gpu < ranks() ? gpu : -1;
    const auto at = std::find(gpus.begin(), gpus.end(), gpu);
    return at == gpus.end() ? -1 : static_cast<int>(at - gpus.begin());
}

Status validateScenario(const Scenario& s)
{
    if (Status st = validateTopology(s.topology); !st)
        return st;
    if (s.mesh) {
        const ScenarioMesh& m = *s.mesh;
        for (int size : {m.tp, m.cp, m.pp, m.dp})
            if (size < 1 || size > kMaxTopologyGpus)
                return badAt("$.mesh", Message("error.says.mesh_size")
                                           .with("size", std::to_string(size))
                                           .with("max", std::to_string(kMaxTopologyGpus)));
        if (!meshOrderFromText(m.order))
            return badAt("$.mesh.order", Message("error.json.unknown_value")
                                             .with("value", m.order)
                                             .with("expected", Message("error.expects.mesh_order")));
        if (!m.gpus.empty()) { // each of the mesh's GPUs once
            std::vector<int> sorted = m.gpus;
            std::sort(sorted.begin(), sorted.end());
            bool permutation = static_cast<long long>(sorted.size()) == m.ranks();
            for (size_t i = 0; permutation && i < sorted.size(); ++i)
                permutation = sorted[i] == static_cast<int>(i);
            if (!permutation)
                return badAt("$.mesh.gpus", Message("error.says.mesh_gpus").with("places", std::to_string(m.ranks())));
        }
    }
    if (s.iterations < 1 || s.iterations > 100000)
        return badAt("$.iterations",
                     Message("error.says.value_expected")
                         .with("value", std::to_string(s.iterations))
                         .with("expected", Message("error.expects.range").with("lo", "1").with("hi", "100000")));
    if (Status st = validateItems(s); !st)
        return st;
    for (size_t i = 0; i < s.program.size(); ++i)
        if (Status st = validateOp(s, s.program[i], at("$.program", i)); !st)
            return st;
    const Perturbations& p = s.perturbations;
    if (p.slowdown.size() > static_cast<size_t>(s.ranks()))
        return badAt("$.perturbations.slowdown", Message("error.says.too_many_factors")
                                                     .with("count", std::to_string(p.slowdown.size()))
                                                     .with("ranks", std::to_string(s.ranks())));
    for (size_t r = 0; r < p.slowdown.size(); ++r)
        if (!(p.slowdown[r] >= 0.01 && p.slowdown[r] <= 1000))
            return badAt(at("$.perturbations.slowdown", r), Message("error.says.factor_range"));
    if (!(p.jitterPct >= 0 && p.jitterPct <= 100))
        return badAt("$.perturbations.jitter_pct",
                     Message("error.says.expected_range").with("lo", "0").with("hi", "100"));
    for (size_t i = 0; i < p.delays.size(); ++i) {
        const std::string path = at("$.perturbations.delays", i);
        if (Status st = checkRank(p.delays[i].rank, s.ranks(), path + ".rank"); !st)
            return st;
        if (p.delays[i].op < 0 || static_cast<size_t>(p.delays[i].op) >= s.program.size())
            return badAt(path + ".op", Message("error.says.no_step").with("step", std::to_string(p.delays[i].op)));
        if (!(p.delays[i].ms >= 0 && p.delays[i].ms <= 1e6))
            return badAt(path + ".ms", Message("error.says.expected_range").with("lo", "0").with("hi", "1e6 ms"));
        if (p.delays[i].iteration < -1 || p.delays[i].iteration >= s.iterations)
            return badAt(path + ".iteration", Message("error.says.no_such_iteration")
                                                  .with("iteration", std::to_string(p.delays[i].iteration))
                                                  .with("count", std::to_string(s.iterations))
                                                  .with("lo", "0")
                                                  .with("hi", std::to_string(s.iterations - 1)));
    }
    for (size_t i = 0; i < p.mismatches.size(); ++i) {
        const Mismatch& m = p.mismatches[i];
        const std::string path = at("$.perturbations.mismatches", i);
        if (Status st = checkRank(m.rank, s.ranks(), path + ".rank"); !st)
            return st;
        if (m.op < 0 || static_cast<size_t>(m.op) >= s.program.size()
            || !isCollective(s.program[static_cast<size_t>(m.op)].kind))
            return badAt(path + ".op", Message("error.says.step_not_collective").with("step", std::to_string(m.op)));
        if (m.iteration < 0 || m.iteration >= s.iterations)
            return badAt(
                path + ".iteration",
                Message("error.says.expected_rank_range").with("lo", "0").with("hi", std::to_string(s.iterations - 1)));
        if (m.type == Mismatch::Type::WrongOp && !isCollective(m.replacement))
            return badAt(path + ".replacement",
                         Message("error.says.expected").with("expected", Message("error.model.expected_collective")));
    }
    return {};
}

Scenario namedIn(Scenario s, Language language)
{
    const bool chinese = language == Language::Chinese;
    const auto pick = [chinese](std::string& name, std::string& nameZh) {
        if (chinese && !nameZh.empty())
            name = nameZh;
        nameZh.clear();
    };
    pick(s.name, s.nameZh);
    pick(s.description, s.descriptionZh);
    std::map<std::string, std::string> itemNames; // as written -> as shown now
    for (WorkloadItem& item : s.workload.items) {
        const std::string written = item.name;
        pick(item.name, item.nameZh);
        itemNames[written] = item.name;
    }
    for (Op& op : s.program) {
        pick(op.name, op.nameZh);
        if (auto it = itemNames.find(op.item); it != itemNames.end())
            op.item = it->second;
    }
    return s;
}

} // namespace shardlab

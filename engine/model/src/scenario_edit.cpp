#include "shardlab/model/scenario_edit.h"

#include <algorithm>
#include <set>

namespace shardlab {
namespace {

// The number rank `r` has once `removed` is gone; -1 for the removed rank itself.
int shifted(int r, int removed) { return r == removed ? -1 : (r > removed ? r - 1 : r); }

// Removes `removed` from a list of ranks and renumbers the rest (order is kept).
void dropFromList(std::vector<int>& ranks, int removed)
{
    std::erase(ranks, removed);
    for (int& r : ranks)
        r = shifted(r, removed);
}

// Every reference to `rank` in the workload, program and perturbations; the topology is the caller's.
void dropRankReferences(Scenario& s, int rank)
{
    for (WorkloadItem& item : s.workload.items)
        for (Shard& shard : item.shards)
            dropFromList(shard.owners, rank);

    std::vector<int> gone;
    for (size_t i = 0; i < s.program.size(); ++i) {
        Op& op = s.program[i];
        if (op.kind == OpKind::SendRecv) {
            if (op.root == rank || op.peer == rank)
                gone.push_back(static_cast<int>(i));
            op.root = std::max(0, shifted(op.root, rank));
            op.peer = std::max(0, shifted(op.peer, rank));
            continue;
        }
        if (!op.group.empty()) {
            dropFromList(op.group, rank);
            if (op.group.empty()) {
                gone.push_back(static_cast<int>(i));
                continue;
            }
        }
        if (op.root == rank)
            op.root = op.group.empty() ? 0 : op.group.front();
        else
            op.root = shifted(op.root, rank);
    }
    for (auto it = gone.rbegin(); it != gone.rend(); ++it)
        removeOp(s, *it);

    Perturbations& p = s.perturbations;
    if (rank < static_cast<int>(p.slowdown.size()))
        p.slowdown.erase(p.slowdown.begin() + rank);
    std::erase_if(p.delays, [rank](const Delay& d) { return d.rank == rank; });
    for (Delay& d : p.delays)
        d.rank = shifted(d.rank, rank);
    std::erase_if(p.mismatches, [rank](const Mismatch& m) { return m.rank == rank; });
    for (Mismatch& m : p.mismatches)
        m.rank = shifted(m.rank, rank);
    // A plan's mesh placed a GPU that is gone: it no longer describes this machine (a GPU added
    // back later would take places the plan never gave it).
    s.mesh.reset();
}

// Calls `f(op index)` on every perturbation that names a program step, and drops those for which
// it returns -1.
template <class F>
void remapOpReferences(Perturbations& p, F&& f)
{
    for (Delay& d : p.delays)
        d.op = f(d.op);
    std::erase_if(p.delays, [](const Delay& d) { return d.op < 0; });
    for (Mismatch& m : p.mismatches)
        m.op = f(m.op);
    std::erase_if(p.mismatches, [](const Mismatch& m) { return m.op < 0; });
}

} // namespace

std::string newGpuId(const Topology& topology)
{
    std::set<std::string> used;
    for (int v = 0; v < topology.vertexCount(); ++v)
        used.insert(topology.vertexId(v));
    for (int n = 0;; ++n) {
        std::string id = "gpu" + std::to_string(n);
        if (!used.count(id))
            return id;
    }
}

int addGpuLike(Scenario& scenario, int rank)
{
    Topology& t = scenario.topology;
    if (rank < 0 || rank >= t.rankCount())
        return -1;
    Gpu gpu = t.gpus[static_cast<size_t>(rank)];
    const std::string from = gpu.id;
    gpu.id = newGpuId(t);
    const size_t links = t.links.size();
    for (size_t i = 0; i < links; ++i) {
        Link l = t.links[i];
        if (l.a != from && l.b != from)
            continue;
        (l.a == from ? l.a : l.b) = gpu.id;
        t.links.push_back(l);
    }
    t.gpus.push_back(gpu);
    return t.rankCount() - 1;
}

void removeRank(Scenario& scenario, int rank)
{
    Topology& t = scenario.topology;
    if (rank < 0 || rank >= t.rankCount())
        return;
    dropRankReferences(scenario, rank);
    const std::string id = t.gpus[static_cast<size_t>(rank)].id;
    const int node = t.gpus[static_cast<size_t>(rank)].node;
    t.gpus.erase(t.gpus.begin() + rank);
    std::set<std::string> gone{id};
    // a node left without GPUs keeps no hardware: validateTopology() refuses a switch on such a node
    if (std::none_of(t.gpus.begin(), t.gpus.end(), [&](const Gpu& g) { return g.node == node; }))
        std::erase_if(t.switches, [&](const SwitchNode& s) { return s.node == node && gone.insert(s.id).second; });
    std::erase_if(t.links, [&](const Link& l) { return gone.count(l.a) || gone.count(l.b); });
}

void swapRanks(Scenario& s, int a, int b)
{
    if (a == b || a < 0 || b < 0 || a >= s.ranks() || b >= s.ranks())
        return;
    const auto swapped = [a, b](int r) { return r == a ? b : r == b ? a : r; };
    for (WorkloadItem& item : s.workload.items)
        for (Shard& shard : item.shards) {
            for (int& r : shard.owners)
                r = swapped(r);
            std::sort(shard.owners.begin(), shard.owners.end()); // owners stay ascending
        }
    for (Op& op : s.program) {
        for (int& r : op.group)
            r = swapped(r);
        op.root = swapped(op.root);
        if (op.kind == OpKind::SendRecv)
            op.peer = swapped(op.peer);
    }
    Perturbations& p = s.perturbations;
    if (std::max(a, b) < static_cast<int>(p.slowdown.size()))
        std::swap(p.slowdown[static_cast<size_t>(a)], p.slowdown[static_cast<size_t>(b)]);
    else if (std::min(a, b) < static_cast<int>(p.slowdown.size())) { // the other runs at 1.0
        p.slowdown.resize(static_cast<size_t>(std::max(a, b)) + 1, 1.0);
        std::swap(p.slowdown[static_cast<size_t>(a)], p.slowdown[static_cast<size_t>(b)]);
    }
    for (Delay& d : p.delays)
        d.rank = swapped(d.rank);
    for (Mismatch& m : p.mismatches)
        m.rank = swapped(m.rank);
    if (s.mesh && std::max(a, b) < s.mesh->ranks()) {
        ScenarioMesh& m = *s.mesh;
        if (m.gpus.empty())
            for (int place = 0; place < m.ranks(); ++place)
                m.gpus.push_back(place);
        for (int& g : m.gpus)
            g = swapped(g);
        bool identity = true;
        for (size_t place = 0; identity && place < m.gpus.size(); ++place)
            identity = m.gpus[place] == static_cast<int>(place);
        if (identity)
            m.gpus.clear(); // back where the plan put them
    }
}

void replaceTopology(Scenario& scenario, Topology topology)
{
    for (int r = scenario.ranks() - 1; r >= topology.rankCount(); --r)
        dropRankReferences(scenario, r);
    scenario.topology = std::move(topology);
}

void resplitItem(WorkloadItem& item, std::vector<Shard> shards)
{
    for (Shard& fresh : shards) {
        fresh.owners.clear();
        for (const Shard& old : item.shards)
            if (fresh.offset >= old.offset && fresh.offset < old.offset + old.size) {
                fresh.owners = old.owners;
                break;
            }
    }
    item.shards = std::move(shards);
}

void resizeItem(WorkloadItem& item, Bytes size)
{
    const Bytes old = item.size;
    item.size = size;
    if (item.shards.empty())
        return;
    if (old == 0 || size == 0) {
        item.shards = {Shard{0, size, item.shards.front().owners}};
        return;
    }
    // Each boundary keeps its place in the item: end' = floor(end * size / old); the last ends at size.
    std::vector<Shard> out;
    Bytes offset = 0;
    for (size_t i = 0; i < item.shards.size(); ++i) {
        const Shard& s = item.shards[i];
        const Bytes end = i + 1 == item.shards.size()
                              ? size
                              : static_cast<Bytes>(static_cast<long double>(s.offset + s.size)
                                                   * static_cast<long double>(size) / static_cast<long double>(old));
        if (end <= offset)
            continue; // shrank to nothing: the next shard starts here instead
        out.push_back({offset, end - offset, s.owners});
        offset = end;
    }
    item.shards = std::move(out);
}

bool renameItem(Scenario& scenario, const std::string& from, const std::string& to)
{
    WorkloadItem* item = scenario.workload.find(from);
    if (!item || to.empty() || (to != from && scenario.workload.find(to)))
        return false;
    item->name = to;
    for (Op& op : scenario.program)
        if (op.item == from)
            op.item = to;
    return true;
}

int removeItem(Scenario& scenario, const std::string& name)
{
    auto& items = scenario.workload.items;
    auto it = std::find_if(items.begin(), items.end(), [&](const WorkloadItem& i) { return i.name == name; });
    if (it == items.end())
        return 0;
    items.erase(it);
    int removed = 0;
    for (int i = static_cast<int>(scenario.program.size()) - 1; i >= 0; --i)
        if (scenario.program[static_cast<size_t>(i)].item == name) {
            removeOp(scenario, i);
            ++removed;
        }
    return removed;
}

void insertOp(Scenario& scenario, int index, Op op)
{
    index = std::clamp(index, 0, static_cast<int>(scenario.program.size()));
    scenario.program.insert(scenario.program.begin() + index, std::move(op));
    remapOpReferences(scenario.perturbations, [index](int i) { return i >= index ? i + 1 : i; });
}

void removeOp(Scenario& scenario, int index)
{
    if (index < 0 || index >= static_cast<int>(scenario.program.size()))
        return;
    scenario.program.erase(scenario.program.begin() + index);
    remapOpReferences(scenario.perturbations, [index](int i) { return i == index ? -1 : (i > index ? i - 1 : i); });
}

void moveOp(Scenario& scenario, int from, int to)
{
    const int n = static_cast<int>(scenario.program.size());
    if (from < 0 || from >= n || to < 0 || to >= n || from == to)
        return;
    Op op = std::move(scenario.program[static_cast<size_t>(from)]);
    scenario.program.erase(scenario.program.begin() + from);
    scenario.program.insert(scenario.program.begin() + to, std::move(op));
    remapOpReferences(scenario.perturbations, [from, to](int i) {
        if (i == from)
            return to;
        if (from < to && i > from && i <= to)
            return i - 1;
        if (from > to && i >= to && i < from)
            return i + 1;
        return i;
    });
}

} // namespace shardlab

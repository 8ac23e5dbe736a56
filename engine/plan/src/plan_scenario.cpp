// The plan as a scenario. Each pass's time is the estimate's (compute with the CP and EP exchanges
// it exposes); the simulator prices the TP, PP and DP collectives itself on the topology.
#include "shardlab/plan/plan_scenario.h"

#include "shardlab/plan/plan_flops.h"
#include "shardlab/text/message.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace shardlab {

namespace {

struct Event {
    int stage = 0;
    int chunk = 0; // virtual stage (interleaved)
    int microBatch = 0;
    bool forward = true;
};

// Each stage's passes in its schedule's order (Narayanan et al. 2021): GPipe all forwards then all
// backwards; 1F1B P - s - 1 forwards to fill the pipeline, then one forward and one backward in turn,
// then the remaining backwards; interleaved 1F1B the same over the V chunks of each micro-batch group.
std::vector<std::vector<Event>> stageOrders(const ParallelPlan& plan, int m)
{
    const int p = plan.pp;
    const int v = plan.schedule.kind == ScheduleKind::Interleaved ? plan.schedule.virtualStages : 1;
    std::vector<std::vector<Event>> orders(static_cast<size_t>(p));
    for (int s = 0; s < p; ++s) {
        std::vector<Event> forwards, backwards;
        // units of work in the order a stage meets them: for interleaving, groups of P micro-batches
        // through chunk 0, then the same group through chunk 1, ... (Megatron-LM's order)
        for (int group = 0; group < m; group += p)
            for (int c = 0; c < v; ++c)
                for (int k = group; k < std::min(m, group + p); ++k) {
                    forwards.push_back({s, c, k, true});
                    backwards.push_back({s, v - 1 - c, k, false});
                }
        const int total = static_cast<int>(forwards.size());
        int warmup = total;
        if (plan.schedule.kind == ScheduleKind::OneFOneB)
            warmup = std::min(total, p - s - 1);
        else if (plan.schedule.kind == ScheduleKind::Interleaved)
            warmup = std::min(total, (p - s - 1) * 2 + (v - 1) * p);
        std::vector<Event>& order = orders[static_cast<size_t>(s)];
        int f = 0, b = 0;
        for (; f < warmup; ++f)
            order.push_back(forwards[static_cast<size_t>(f)]);
        while (f < total) {
            order.push_back(forwards[static_cast<size_t>(f++)]);
            order.push_back(backwards[static_cast<size_t>(b++)]);
        }
        while (b < total)
            order.push_back(backwards[static_cast<size_t>(b++)]);
    }
    return orders;
}

// Virtual stage index of an event: chunk c of stage s is model part c * P + s.
int part(const Event& e, int p) { return e.chunk * p + e.stage; }

std::string mb(int k) { return std::to_string(k + 1); }

} // namespace

Result<Scenario> planScenario(const TransformerModel& model, const TrainingSettings& settings, const PlanEstimate& est,
                              const Topology& topology)
{
    const ParallelPlan& plan = est.plan;
    const int p = plan.pp, m = est.microBatches;
    const int v = plan.schedule.kind == ScheduleKind::Interleaved ? plan.schedule.virtualStages : 1;
    const int replicas = plan.dp * plan.cp; // groups of a stage's ranks that work alike
    const long long steps = 2LL * m * p * v * (1 + 2LL * replicas * plan.tp) + 2LL * p * plan.tp * plan.cp;
    if (steps > kMaxPlanScenarioSteps)
        return badInput(Message("plan.error.scenario_too_large")
                            .with("option", "--scenario")
                            .with("steps", std::to_string(steps))
                            .with("max", std::to_string(kMaxPlanScenarioSteps)));

    Scenario sc;
    const Message title = Message("plan.scenario.name").with("model", model.name).with("plan", planText(plan));
    sc.name = english(title);
    sc.nameZh = render(title, Language::Chinese);
    const Message description =
        Message("plan.scenario.description")
            .with("m", m)
            .with("mb", est.microBatch)
            .with("seq", settings.seq)
            .with("command", "shardlab plan")
            .with("step", std::to_string(static_cast<long long>(std::llround(est.stepUs / 1e3))));
    sc.description = english(description);
    sc.descriptionZh = render(description, Language::Chinese);
    sc.mesh = ScenarioMesh{plan.tp, plan.cp, plan.pp, plan.dp, meshOrderText(plan.order)};
    sc.topology = topology;
    sc.iterations = 1;

    // ranks of stage s at TP index i, every replica
    auto ranksOf = [&](int stage, int tpIndex) {
        std::vector<int> out;
        for (int dp = 0; dp < plan.dp; ++dp)
            for (int cp = 0; cp < plan.cp; ++cp)
                out.push_back(rankAt(plan, {tpIndex, cp, stage, dp}));
        std::sort(out.begin(), out.end());
        return out;
    };
    // an item of `perRank` bytes on each rank of the stage: split by TP (owned by every replica), or
    // also over the replicas (one owner each) when `sharded`
    auto item = [&](const Message& name, ItemKind kind, int stage, double perRank, bool sharded) {
        WorkloadItem it;
        it.name = english(name);
        it.nameZh = render(name, Language::Chinese);
        it.kind = kind;
        const Bytes each = std::max<Bytes>(1, static_cast<Bytes>(perRank));
        const int owners = sharded ? replicas : 1;
        it.size = each * static_cast<Bytes>(plan.tp) * static_cast<Bytes>(owners);
        it.shards = evenShards(it.size, plan.tp * owners);
        for (int i = 0; i < plan.tp; ++i) {
            const std::vector<int> ranks = ranksOf(stage, i);
            for (int o = 0; o < owners; ++o) {
                Shard& shard = it.shards[static_cast<size_t>(i * owners + o)];
                if (sharded)
                    shard.owners = {ranks[static_cast<size_t>(o)]};
                else
                    shard.owners = ranks;
            }
        }
        sc.workload.items.push_back(std::move(it));
    };
    for (int s = 0; s < p; ++s) {
        const PlanMemory& mem = est.stages[static_cast<size_t>(s)].memory;
        auto named = [s](const char* id) { return Message(id).with("stage", s); };
        item(named("plan.scenario.weights"), ItemKind::Parameters, s, mem.params, shardsWeights(plan.zero));
        item(named("plan.scenario.gradients"), ItemKind::Gradients, s, mem.grads,
             plan.zero != ZeroStage::None && plan.zero != ZeroStage::Optimizer);
        item(named("plan.scenario.optimizer"), ItemKind::OptimizerState, s, mem.optimizer,
             plan.zero != ZeroStage::None);
        item(named("plan.scenario.activations"), ItemKind::Activations, s, mem.activations + mem.temporary, false);
    }

    // a pass of the planner's time: FLOP such that each rank's share (1/TP of the activations item)
    // takes that long at the rate the simulator gives the GPU
    CostModel rates(topology);
    const double usPerFlop = rates.computeUs(1e12, 0) / 1e12;
    auto compute = [&](const Event& e, double us) {
        Op op;
        op.kind = OpKind::Compute;
        const char* id = v > 1 ? (e.forward ? "plan.scenario.forward_part" : "plan.scenario.backward_part")
                               : (e.forward ? "plan.scenario.forward" : "plan.scenario.backward");
        const Message name = Message(id).with("stage", e.stage).with("part", e.chunk + 1).with("mb", mb(e.microBatch));
        op.name = english(name);
        op.nameZh = render(name, Language::Chinese);
        op.item = english(Message("plan.scenario.activations").with("stage", e.stage));
        op.flops = us / usPerFlop * plan.tp;
        // live mode: the pass's GEMMs on each rank of the stage, and their part of the pass's time
        // (the stage's; interleaved chunks share it, the output layer's GEMMs in the last chunk)
        const StageEstimate& st = est.stages[static_cast<size_t>(e.stage)];
        op.gemms = passGemms(model, settings, plan, st.layers / v, e.stage == p - 1 && e.chunk == v - 1, e.forward);
        const double gemmUs = e.forward ? st.forwardGemmUs : st.backwardGemmUs;
        const double passUs = e.forward ? st.forwardUs - st.tpForwardUs : st.backwardUs - st.tpBackwardUs;
        op.gemmShare = passUs > 0 ? std::clamp(gemmUs / passUs, 0.0, 1.0) : 0;
        sc.program.push_back(std::move(op));
    };
    auto collective = [&](OpKind kind, const Message& name, Bytes bytes, std::vector<int> group, int root = 0,
                          int peer = 1) {
        if (bytes == 0)
            return;
        Op op;
        op.kind = kind;
        op.name = english(name);
        op.nameZh = render(name, Language::Chinese);
        op.bytes = bytes;
        op.group = std::move(group);
        op.root = root;
        op.peer = peer;
        sc.program.push_back(std::move(op));
    };
    // TP: the pass's collectives as one all-reduce per TP group (2 per layer of 2*T*h bytes; with
    // sequence parallelism an all-gather and a reduce-scatter each, which move what an all-reduce does)
    const double tokens = static_cast<double>(settings.seq) / plan.cp * est.microBatch;
    auto tensorParallel = [&](const Event& e) {
        if (plan.tp < 2)
            return;
        const int layers = est.stages[static_cast<size_t>(e.stage)].layers / v;
        const double passes = !e.forward && settings.recompute == Recompute::Full ? 2 : 1;
        const Bytes bytes = static_cast<Bytes>(passes * 2 * layers * 2 * tokens * model.hidden);
        for (int dp = 0; dp < plan.dp; ++dp)
            for (int cp = 0; cp < plan.cp; ++cp)
                collective(OpKind::AllReduce,
                           Message(e.forward ? "plan.scenario.tp_forward" : "plan.scenario.tp_backward")
                               .with("stage", e.stage)
                               .with("mb", mb(e.microBatch)),
                           bytes, meshGroup(plan, MeshAxis::Tensor, rankAt(plan, {0, cp, e.stage, dp})));
    };
    const Bytes p2pBytes =
        static_cast<Bytes>(2 * tokens * model.hidden / (plan.sequenceParallel && plan.tp > 1 ? plan.tp : 1));
    auto send = [&](const Event& e, int toStage) {
        for (int dp = 0; dp < plan.dp; ++dp)
            for (int cp = 0; cp < plan.cp; ++cp)
                for (int t = 0; t < plan.tp; ++t) {
                    const int from = rankAt(plan, {t, cp, e.stage, dp}), to = rankAt(plan, {t, cp, toStage, dp});
                    collective(OpKind::SendRecv,
                               Message(e.forward ? "plan.scenario.send_activations" : "plan.scenario.send_gradients")
                                   .with("stage", toStage)
                                   .with("mb", mb(e.microBatch)),
                               p2pBytes, {std::min(from, to), std::max(from, to)}, from, to);
                }
    };

    // Merge the stages' orders into one program in time order: a pass starts when its stage is free
    // and its input has arrived (the previous part's forward, the next part's backward).
    const std::vector<std::vector<Event>> orders = stageOrders(plan, m);
    std::vector<size_t> next(static_cast<size_t>(p), 0);
    std::vector<double> free(static_cast<size_t>(p), 0);
    const int parts = p * v;
    std::vector<double> doneF(static_cast<size_t>(parts * m), -1), doneB(static_cast<size_t>(parts * m), -1);
    auto passUs = [&](const Event& e) {
        const StageEstimate& s = est.stages[static_cast<size_t>(e.stage)];
        // the TP collectives are the scenario's own steps, priced by the simulator
        return (e.forward ? s.forwardUs - s.tpForwardUs : s.backwardUs - s.tpBackwardUs) / v;
    };
    long long remaining = 0;
    for (const auto& o : orders)
        remaining += static_cast<long long>(o.size());
    while (remaining > 0) {
        int best = -1;
        double bestStart = 0;
        for (int s = 0; s < p; ++s) {
            if (next[static_cast<size_t>(s)] >= orders[static_cast<size_t>(s)].size())
                continue;
            const Event& e = orders[static_cast<size_t>(s)][next[static_cast<size_t>(s)]];
            const int q = part(e, p);
            double ready = free[static_cast<size_t>(s)];
            if (e.forward && q > 0) {
                const double in = doneF[static_cast<size_t>((q - 1) * m + e.microBatch)];
                if (in < 0)
                    continue;
                ready = std::max(ready, in);
            }
            if (!e.forward) {
                const double in = q + 1 < parts ? doneB[static_cast<size_t>((q + 1) * m + e.microBatch)]
                                                : doneF[static_cast<size_t>(q * m + e.microBatch)];
                if (in < 0)
                    continue;
                ready = std::max(ready, in);
            }
            if (best < 0 || ready < bestStart) {
                best = s;
                bestStart = ready;
            }
        }
        if (best < 0)
            return runFailed(Message("error.plan.no_pass_ready").with("command", "shardlab plan"));
        const Event e = orders[static_cast<size_t>(best)][next[static_cast<size_t>(best)]++];
        --remaining;
        const double end = bestStart + passUs(e);
        free[static_cast<size_t>(best)] = end;
        const int q = part(e, p);
        (e.forward ? doneF : doneB)[static_cast<size_t>(q * m + e.microBatch)] = end;
        compute(e, passUs(e));
        tensorParallel(e);
        if (e.forward && q + 1 < parts)
            send(e, (q + 1) % p);
        if (!e.forward && q > 0)
            send(e, (q - 1) % p);
    }

    // DP: each stage's gradients over its data-parallel group (with CP: the ranks that hold the same
    // weights), after the backward passes (the estimate overlaps them; the scenario shows them whole)
    if (replicas > 1)
        for (int s = 0; s < p; ++s)
            for (int t = 0; t < plan.tp; ++t) {
                std::vector<int> group = ranksOf(s, t);
                const Bytes bytes = static_cast<Bytes>(est.stages[static_cast<size_t>(s)].memory.params
                                                       * (shardsWeights(plan.zero) ? replicas : 1));
                const OpKind kind = plan.zero == ZeroStage::None ? OpKind::AllReduce : OpKind::ReduceScatterAllGather;
                collective(kind, Message("plan.scenario.dp").with("stage", s), bytes, std::move(group));
            }
    if (const Status valid = validateScenario(sc); !valid)
        return runFailed(Message("error.plan.scenario_invalid")
                             .with("command", "shardlab plan")
                             .with("why", messageOf(valid.error())));
    return sc;
}

std::vector<std::pair<int, int>> meshUnitSwaps(const ScenarioMesh& mesh, int from, int to, MeshUnit unit)
{
    const auto order = meshOrderFromText(mesh.order);
    const int placeFrom = mesh.placeOf(from), placeTo = mesh.placeOf(to);
    if (!order || placeFrom < 0 || placeTo < 0 || mesh.ranks() > kMaxTopologyGpus)
        return {};
    ParallelPlan plan;
    plan.tp = mesh.tp;
    plan.cp = mesh.cp;
    plan.pp = mesh.pp;
    plan.dp = mesh.dp;
    plan.order = *order;
    const MeshCoordinate a = meshCoordinate(plan, placeFrom), b = meshCoordinate(plan, placeTo);
    const bool stage = unit == MeshUnit::Stage;
    if (a.pp == b.pp && a.dp == b.dp && (stage || a.cp == b.cp))
        return {}; // one unit
    std::vector<std::pair<int, int>> pairs;
    for (int cp = 0; cp < (stage ? plan.cp : 1); ++cp)
        for (int tp = 0; tp < plan.tp; ++tp) {
            MeshCoordinate x = a, y = b;
            x.tp = y.tp = tp;
            if (stage)
                x.cp = y.cp = cp;
            pairs.emplace_back(mesh.gpuAt(rankAt(plan, x)), mesh.gpuAt(rankAt(plan, y)));
        }
    return pairs;
}

} // namespace shardlab

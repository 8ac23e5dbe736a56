// A plan priced: the formulas are in plan_estimate.h and docs/planner.md, "Step time".
#include "shardlab/plan/plan_estimate.h"

#include "plan_layer_time.h"

#include <algorithm>
#include <numeric>

namespace shardlab {

namespace {

std::vector<int> dataGroup(const ParallelPlan& plan, int rank, int stride)
{
    // the ranks holding the same weights as `rank`: every context-parallel rank of every
    // `stride`-th data-parallel replica (stride EP for the experts' expert-data-parallel group)
    const MeshCoordinate base = meshCoordinate(plan, rank);
    std::vector<int> group;
    for (int dp = base.dp % stride; dp < plan.dp; dp += stride)
        for (int cp = 0; cp < plan.cp; ++cp) {
            MeshCoordinate at = base;
            at.dp = dp;
            at.cp = cp;
            group.push_back(rankAt(plan, at));
        }
    return group;
}

// The data-parallel collectives of one stage per step, and their exposed time.
struct DataParallelTime {
    double exposedUs = 0;
    std::vector<PlanCollective> collectives;
};

DataParallelTime dataParallel(const StageWork& work, const ParallelPlan& plan, PlanPricer& pricer, int stage,
                              int microBatches, const StageEstimate& est)
{
    DataParallelTime out;
    const int rank = rankAt(plan, {0, 0, stage, 0});
    const std::vector<int> dense = dataGroup(plan, rank, 1);
    const std::vector<int> experts = dataGroup(plan, rank, plan.ep);
    const Topology& topo = pricer.topology();
    auto add = [&](const std::vector<int>& group, OpKind kind, Message what, double params, double count) {
        if (group.size() < 2 || params <= 0)
            return 0.0;
        const Bytes bytes = static_cast<Bytes>(2 * params); // bf16 weights and gradients
        const CollectiveCost cost = pricer.price(kind, bytes, group);
        PlanCollective c{MeshAxis::Data,
                         kind,
                         std::move(what),
                         bytes,
                         count,
                         static_cast<int>(group.size()),
                         groupCrossesNodes(topo, group),
                         cost.timeUs,
                         0,
                         cost.algorithm};
        out.collectives.push_back(c);
        return cost.timeUs * count;
    };
    const double layers = std::max(1, work.layers);
    if (shardsWeights(plan.zero)) {
        // per micro-batch and layer: gather the weights for the forward and the backward pass,
        // reduce-scatter the gradients; each hidden behind the layer's own compute when overlapped
        const double m = microBatches;
        const double gather =
            add(dense, OpKind::AllGather, Message("plan.what.weights"), work.denseParams, 2 * m)
            + add(experts, OpKind::AllGather, Message("plan.what.expert_weights"), work.expertParams, 2 * m);
        const double scatter =
            add(dense, OpKind::ReduceScatter, Message("plan.what.gradients"), work.denseParams, m)
            + add(experts, OpKind::ReduceScatter, Message("plan.what.expert_gradients"), work.expertParams, m);
        if (!plan.overlapDataParallel) {
            out.exposedUs = gather + scatter;
        } else {
            const double fwdComm = gather / 2 / m / layers, bwdComm = (gather / 2 + scatter) / m / layers;
            const double fwdLayer = work.forwardComputeUs / layers, bwdLayer = work.backwardComputeUs / layers;
            out.exposedUs = m * layers * (std::max(0.0, fwdComm - fwdLayer) + std::max(0.0, bwdComm - bwdLayer))
                            + fwdComm; // the first layer's gather waits for nothing to hide behind
        }
        for (PlanCollective& c : out.collectives)
            c.exposedUs = out.exposedUs * (c.timeUs * c.countPerStep) / std::max(1e-9, gather + scatter);
        return out;
    }
    const bool distributed = plan.zero != ZeroStage::None; // ZeRO-1/2: reduce-scatter, then all-gather
    const OpKind reduce = distributed ? OpKind::ReduceScatter : OpKind::AllReduce;
    const double reduceUs = add(dense, reduce, Message("plan.what.gradients"), work.denseParams, 1)
                            + add(experts, reduce, Message("plan.what.expert_gradients"), work.expertParams, 1);
    const double gatherUs =
        distributed ? add(dense, OpKind::AllGather, Message("plan.what.weights"), work.denseParams, 1)
                          + add(experts, OpKind::AllGather, Message("plan.what.expert_weights"), work.expertParams, 1)
                    : 0;
    if (!plan.overlapDataParallel) {
        out.exposedUs = reduceUs + gatherUs;
    } else {
        // one bucket per layer: the gradients reduce behind the last micro-batch's backward pass, all
        // but the last bucket (the first layer's), which is ready when that pass ends; the weights
        // gather behind the next step's first forward pass likewise
        const double lastBackward = est.backwardUs;
        const double firstForward = est.forwardUs;
        out.exposedUs = std::max(reduceUs - lastBackward, reduceUs / layers)
                        + (gatherUs > 0 ? std::max(gatherUs - firstForward, gatherUs / layers) : 0);
    }
    for (PlanCollective& c : out.collectives)
        c.exposedUs = out.exposedUs * (c.timeUs * c.countPerStep) / std::max(1e-9, reduceUs + gatherUs);
    return out;
}

Message percent(const char* id, double share) { return Message(id).with("share", number("%.0f", share * 100)); }

Message bottleneckOf(const PlanEstimate& e, const std::vector<StageWork>& works)
{
    if (!e.fits) { // the stage that needs the most
        const auto worst =
            std::max_element(e.stages.begin(), e.stages.end(), [](const StageEstimate& a, const StageEstimate& b) {
                return a.memory.peak() < b.memory.peak();
            });
        return Message("plan.bottleneck.memory")
            .with("stage", worst->stage)
            .with("need", number("%.1f", worst->memory.peak() / 1e9))
            .with("have", number("%.1f", e.gpuMemory / 1e9));
    }
    // the overheads of the mean stage, per step, against the step
    double tp = 0, cp = 0, ep = 0;
    for (const StageWork& w : works) {
        tp += w.tpExposedUs;
        cp += w.cpExposedUs;
        ep += w.epExposedUs;
    }
    const double stages = std::max<size_t>(1, works.size());
    const double m = e.microBatches;
    double p2p = 0;
    for (const StageEstimate& s : e.stages)
        p2p += s.p2pUs;
    double dpExposed = 0;
    for (const PlanCollective& c : e.collectives)
        if (c.axis == MeshAxis::Data)
            dpExposed += c.exposedUs;
    struct Cost {
        const char* id;
        double us;
    };
    const bool tpAcross = std::any_of(e.collectives.begin(), e.collectives.end(), [](const PlanCollective& c) {
        return c.axis == MeshAxis::Tensor && c.crossesNodes;
    });
    const Cost costs[] = {
        {"plan.bottleneck.bubble", e.bubbleUs},
        {tpAcross ? "plan.bottleneck.tp_across_nodes" : "plan.bottleneck.tp", m * tp / stages},
        {"plan.bottleneck.cp", m * cp / stages},
        {"plan.bottleneck.ep", m * ep / stages},
        {"plan.bottleneck.pp", m * p2p / stages},
        {"plan.bottleneck.dp", dpExposed},
        {"plan.bottleneck.optimizer", e.optimizerUs},
    };
    const Cost* worst =
        std::max_element(std::begin(costs), std::end(costs), [](const Cost& a, const Cost& b) { return a.us < b.us; });
    const double share = worst->us / std::max(1e-9, e.stepUs);
    if (share < 0.10)
        return Message("plan.bottleneck.compute").with("mfu", number("%.0f", e.mfu * 100));
    Message out = percent(worst->id, share);
    if (std::string(worst->id) == "plan.bottleneck.bubble")
        out.arg("m", e.microBatches).arg("pp", e.plan.pp);
    return out;
}

} // namespace

PlanEstimate estimatePlan(const TransformerModel& model, const TrainingSettings& settings, const ParallelPlan& plan,
                          PlanPricer& pricer)
{
    const Topology& topo = pricer.topology();
    PlanEstimate e;
    e.plan = plan;
    e.gpus = plan.gpus();
    e.globalBatch = globalBatchOf(settings, plan);
    e.microBatch = settings.microBatch;
    e.microBatches = microBatchesPerStep(settings, plan);
    e.flops = stepFlops(model, settings, e.globalBatch);
    e.notes = planNotes(model, settings, plan);
    const AcceleratorSpec spec = acceleratorOf(topo.gpus.front());
    const ComputeModel compute(spec, settings.precision, pricer.computeCalibration());
    e.accelerator = compute.spec().name;
    e.computeSource = compute.calibration() ? compute.calibration()->source : spec.source;
    e.gpuMemory = static_cast<double>(topo.gpus.front().memory);
    for (const Gpu& g : topo.gpus)
        e.gpuMemory = std::min(e.gpuMemory, static_cast<double>(g.memory));

    const std::vector<PlanMemory> memory = stageMemory(model, settings, plan);
    std::vector<StageWork> works;
    const double v = plan.schedule.kind == ScheduleKind::Interleaved ? plan.schedule.virtualStages : 1;
    for (int stage = 0; stage < plan.pp; ++stage) {
        StageWork w = stageWork(model, settings, plan, stage, compute, pricer, e.collectives);
        StageEstimate s;
        s.stage = stage;
        s.layers = w.layers;
        s.forwardUs = w.forwardUs;
        s.backwardUs = w.backwardUs;
        s.tpForwardUs = w.tpForwardUs;
        s.tpBackwardUs = w.tpBackwardUs;
        s.forwardGemmUs = w.forwardGemmUs;
        s.backwardGemmUs = w.backwardGemmUs;
        if (plan.pp > 1) {
            // each micro-batch's activations go to the next stage and its gradients come back, once per
            // virtual stage; sends and receives of a stage overlap, so one transfer each way is timed
            const int next = rankAt(plan, {0, 0, (stage + 1) % plan.pp, 0});
            const int here = rankAt(plan, {0, 0, stage, 0});
            const CollectiveCost send = pricer.price(OpKind::SendRecv, w.p2pBytes, {here, next});
            s.p2pUs = 2 * v * send.timeUs;
            if (stage == 0)
                e.collectives.push_back({MeshAxis::Pipeline, OpKind::SendRecv, Message("plan.what.activations"),
                                         w.p2pBytes, 2 * v * e.microBatches, 2, groupCrossesNodes(topo, {here, next}),
                                         send.timeUs, s.p2pUs * e.microBatches, send.algorithm});
        }
        s.memory = memory[static_cast<size_t>(stage)];
        s.fits = s.memory.peak() <= e.gpuMemory;
        e.fits = e.fits && s.fits;
        e.stages.push_back(s);
        works.push_back(w);
    }

    double slowest = 0, sum = 0, computeSum = 0;
    for (size_t i = 0; i < e.stages.size(); ++i) {
        slowest = std::max(slowest, e.stages[i].microBatchUs());
        sum += e.stages[i].microBatchUs();
        computeSum += works[i].forwardComputeUs + works[i].backwardComputeUs;
    }
    const double mean = sum / plan.pp;
    const double m = e.microBatches;
    e.pipelineUs = m * slowest + (plan.pp - 1) / v * mean;
    e.bubbleUs = e.pipelineUs - m * mean;
    e.computeUs = m * computeSum / plan.pp;

    double dpExposed = 0, optimizer = 0;
    for (int stage = 0; stage < plan.pp; ++stage) {
        DataParallelTime dp = dataParallel(works[static_cast<size_t>(stage)], plan, pricer, stage, e.microBatches,
                                           e.stages[static_cast<size_t>(stage)]);
        if (dp.exposedUs >= dpExposed) {
            dpExposed = dp.exposedUs;
            e.collectives.erase(std::remove_if(e.collectives.begin(), e.collectives.end(),
                                               [](const PlanCollective& c) { return c.axis == MeshAxis::Data; }),
                                e.collectives.end());
            e.collectives.insert(e.collectives.end(), dp.collectives.begin(), dp.collectives.end());
        }
        // Adam's update, memory-bound: per parameter of the rank's optimizer shard, read the fp32
        // master weight, both moments and the bf16 gradient, write the three and the bf16 weight:
        // 12 + 2 + 12 + 2 = 28 bytes
        const PlanMemory& mem = e.stages[static_cast<size_t>(stage)].memory;
        optimizer = std::max(optimizer, compute.memoryBoundUs(28 * mem.optimizer / 12));
    }
    e.optimizerUs = optimizer;
    e.stepUs = e.pipelineUs + dpExposed + e.optimizerUs;

    const double seconds = e.stepUs / 1e6;
    e.tokensPerSecPerGpu = static_cast<double>(e.globalBatch) * settings.seq / seconds / e.gpus;
    e.modelTflopsPerGpu = e.flops.model / seconds / e.gpus / 1e12;
    e.mfu = e.modelTflopsPerGpu * 1e12 / compute.peakFlops();
    e.bubbleFraction = e.bubbleUs / e.stepUs;
    e.bottleneck = bottleneckOf(e, works);
    return e;
}

} // namespace shardlab

// What a data-parallel strategy asks of the program's communication (strategies.h: adaptProgram).
// The volumes are those of Rajbhandari et al. 2020 (ZeRO), section 7, for Ψ bytes of gradients:
//   data parallel      all-reduce of the gradients                                  2Ψ
//   ZeRO-1, ZeRO-2     reduce-scatter of the gradients + all-gather of the updated   2Ψ
//                      parameters after the optimizer step
//   ZeRO-3 (FSDP)      reduce-scatter of the gradients + all-gather of the           3Ψ
//                      parameters before the forward pass and again before the
//                      backward pass (each rank frees a gathered layer after use)
// (an all-reduce moves 2(n-1)/n Ψ per rank, a reduce-scatter or an all-gather (n-1)/n Ψ).
#include "shardlab/model/scenario_edit.h"
#include "shardlab/model/strategies.h"

#include <algorithm>
#include <optional>

namespace shardlab {

namespace {

// ZeRO moves the model state a piece at a time (a layer, a bucket of gradients), so a rank holds
// only one piece of the others' bytes at once: its gathers and reduce-scatters run in this many
// buckets (at least), and the transient buffer the capacity check adds is an eighth of the item.
constexpr int kZeroBuckets = 8;

const WorkloadItem* itemOf(const Scenario& s, const Op& op)
{
    return op.item.empty() ? nullptr : s.workload.find(op.item);
}

bool isOfKind(const Scenario& s, const Op& op, ItemKind kind)
{
    const WorkloadItem* item = itemOf(s, op);
    return item && item->kind == kind;
}

// A gradient synchronisation: an all-reduce or reduce-scatter of a gradients item on every rank.
bool isGradientSync(const Scenario& s, const Op& op)
{
    return (op.kind == OpKind::AllReduce || op.kind == OpKind::ReduceScatter) && op.group.empty()
           && isOfKind(s, op, ItemKind::Gradients);
}

// A gather of the parameters: an all-gather of a parameters item on every rank.
bool isParameterGather(const Scenario& s, const Op& op)
{
    return op.kind == OpKind::AllGather && op.group.empty() && isOfKind(s, op, ItemKind::Parameters);
}

std::string stepName(const Scenario& s, size_t i)
{
    const Op& op = s.program[i];
    return op.name.empty() ? opName(op.kind) : op.name;
}

Op gatherOf(const WorkloadItem& params, std::string name)
{
    Op op;
    op.kind = OpKind::AllGather;
    op.item = params.name;
    op.name = std::move(name);
    op.buckets = kZeroBuckets;
    return op;
}

// The parameters item a ZeRO strategy gathers: the largest one.
const WorkloadItem* parametersOf(const Scenario& s)
{
    const WorkloadItem* best = nullptr;
    for (const WorkloadItem& item : s.workload.items)
        if (item.kind == ItemKind::Parameters && (!best || item.size > best->size))
            best = &item;
    return best;
}

// The examples' name for a gradient synchronisation by `kind` (all-reduce or reduce-scatter).
Message gradientStepName(OpKind kind)
{
    return Message(kind == OpKind::AllReduce ? "strategy.step.gradient_all_reduce"
                                             : "strategy.step.gradient_reduce_scatter");
}

void setGradientSync(Scenario& s, OpKind kind, Language language, std::vector<Message>& changes)
{
    for (size_t i = 0; i < s.program.size(); ++i) {
        Op& op = s.program[i];
        if (!isGradientSync(s, op) || op.kind == kind)
            continue;
        changes.push_back(
            Message(kind == OpKind::AllReduce ? "strategy.program.to_all_reduce" : "strategy.program.to_reduce_scatter")
                .with("step", stepName(s, i)));
        // the examples' name for the step, in either language, follows the collective
        const Message was = gradientStepName(op.kind);
        if (op.name == render(was, Language::English) || op.name == render(was, Language::Chinese))
            op.name = render(gradientStepName(kind), language);
        op.kind = kind;
    }
    if (kind == OpKind::ReduceScatter)
        for (Op& op : s.program)
            if (isGradientSync(s, op))
                op.buckets = std::max(op.buckets, kZeroBuckets);
}

// Removes the gathers of the parameters for which `which(index)` holds.
template <class Which>
void removeParameterGathers(Scenario& s, Which&& which, std::vector<Message>& changes)
{
    for (size_t i = s.program.size(); i-- > 0;)
        if (isParameterGather(s, s.program[i]) && which(i)) {
            changes.push_back(Message("strategy.program.removed").with("step", stepName(s, i)));
            removeOp(s, static_cast<int>(i));
        }
}

// The index of the program's last gradient synchronisation, if it has one.
std::optional<size_t> lastGradientSync(const Scenario& s)
{
    std::optional<size_t> last;
    for (size_t i = 0; i < s.program.size(); ++i)
        if (isGradientSync(s, s.program[i]))
            last = i;
    return last;
}

// Whether the program gathers the parameters once, right after its last gradient synchronisation
// (at the end where it has none): ZeRO-1's and ZeRO-2's place.
bool gathersOnceAfterStep(const Scenario& s)
{
    size_t gathers = 0, at = 0;
    for (size_t i = 0; i < s.program.size(); ++i)
        if (isParameterGather(s, s.program[i])) {
            ++gathers;
            at = i;
        }
    if (gathers != 1)
        return false;
    const std::optional<size_t> lastSync = lastGradientSync(s);
    return lastSync ? at == *lastSync + 1 : at + 1 == s.program.size();
}

// ZeRO-1 and ZeRO-2: one all-gather of the updated parameters after the last gradient
// synchronisation (where there is none, at the end).
void gatherAfterStep(Scenario& s, const WorkloadItem& params, Language language, std::vector<Message>& changes)
{
    const std::optional<size_t> lastSync = lastGradientSync(s);
    const size_t at = lastSync ? *lastSync + 1 : s.program.size();
    const std::string name = render(Message("strategy.step.gather_updated").with("item", params.name), language);
    insertOp(s, static_cast<int>(at), gatherOf(params, name));
    changes.push_back(Message("strategy.program.added").with("step", name));
}

// ZeRO-3: every compute step on the parameters (where none is, the first compute step) becomes a
// forward pass (a third of its work) and a backward pass (two thirds, with its buckets), each
// after an all-gather of the parameters. A compute step already right after such a gather is
// left as it is.
void gatherBeforeUse(Scenario& s, const WorkloadItem& params, Language language, std::vector<Message>& changes)
{
    std::vector<size_t> uses;
    for (size_t i = 0; i < s.program.size(); ++i)
        if (s.program[i].kind == OpKind::Compute && s.program[i].item == params.name)
            uses.push_back(i);
    if (uses.empty())
        for (size_t i = 0; i < s.program.size() && uses.empty(); ++i)
            if (s.program[i].kind == OpKind::Compute)
                uses.push_back(i);
    // from the last, so that the earlier indices stay valid
    for (auto it = uses.rbegin(); it != uses.rend(); ++it) {
        const size_t c = *it;
        if (c > 0 && isParameterGather(s, s.program[c - 1]) && s.program[c - 1].item == params.name)
            continue;
        const std::string base = stepName(s, c);
        Op backward = s.program[c];
        Op& forward = s.program[c];
        forward.flops = backward.flops / 3;
        forward.buckets = 1;
        forward.name = render(Message("strategy.step.forward").with("step", base), language);
        forward.nameZh.clear();
        backward.flops = backward.flops - forward.flops;
        backward.name = render(Message("strategy.step.backward").with("step", base), language);
        backward.nameZh.clear();
        const std::string gatherForward =
            render(Message("strategy.step.gather_forward").with("item", params.name), language);
        const std::string gatherBackward =
            render(Message("strategy.step.gather_backward").with("item", params.name), language);
        const std::string forwardName = forward.name, backwardName = backward.name;
        insertOp(s, static_cast<int>(c + 1), std::move(backward));
        insertOp(s, static_cast<int>(c + 1), gatherOf(params, gatherBackward));
        insertOp(s, static_cast<int>(c), gatherOf(params, gatherForward));
        changes.push_back(Message("strategy.program.split")
                              .with("step", base)
                              .with("forward", forwardName)
                              .with("backward", backwardName));
        changes.push_back(Message("strategy.program.added").with("step", gatherForward));
        changes.push_back(Message("strategy.program.added").with("step", gatherBackward));
    }
}

} // namespace

std::vector<Message> adaptProgram(Scenario& scenario, Strategy strategy, Language language)
{
    // Worked on a copy: a program that already has the strategy's communication is left as it
    // is and nothing is reported changed (applying a strategy twice changes nothing).
    Scenario s = scenario;
    std::vector<Message> changes;
    const WorkloadItem* params = parametersOf(s); // editing the program leaves the workload as it is
    switch (strategy) {
    case Strategy::Replicate:
    case Strategy::DataParallel:
        setGradientSync(s, OpKind::AllReduce, language, changes);
        removeParameterGathers(
            s, [](size_t) { return true; }, changes);
        break;
    case Strategy::Zero1:
    case Strategy::Zero2:
        setGradientSync(s, OpKind::ReduceScatter, language, changes);
        if (params && !gathersOnceAfterStep(s)) {
            removeParameterGathers(
                s, [](size_t) { return true; }, changes);
            gatherAfterStep(s, *params, language, changes);
        }
        break;
    case Strategy::Zero3:
        setGradientSync(s, OpKind::ReduceScatter, language, changes);
        if (params) {
            // a gather that no compute step follows (ZeRO-1/2's, after the step) is not ZeRO-3's
            removeParameterGathers(
                s, [&](size_t i) { return i + 1 >= s.program.size() || s.program[i + 1].kind != OpKind::Compute; },
                changes);
            gatherBeforeUse(s, *params, language, changes);
        }
        break;
    case Strategy::TensorParallel:
    case Strategy::PipelineParallel: return {Message("strategy.program.kept")};
    }
    if (s.program == scenario.program)
        return {};
    scenario = std::move(s);
    return changes;
}

} // namespace shardlab

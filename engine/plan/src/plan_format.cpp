// `shardlab plan`'s table. Every label is a catalogue entry (plan.inc), so it reads in Chinese too.
#include "shardlab/plan/plan_format.h"

#include "shardlab/base/display_width.h"
#include "shardlab/base/units.h"

#include <sstream>

namespace shardlab {

namespace {

std::string gb(double bytes) { return number("%.1f", bytes / 1e9); }

std::string pad(const std::string& text, size_t width)
{
    const size_t w = displayWidth(text);
    return text + std::string(w < width ? width - w : 1, ' ');
}

std::string settingsLine(const PlanEstimate& e, Language lang)
{
    return render(Message(e.microBatches == 1 ? "plan.out.settings_one" : "plan.out.settings")
                      .with("mb", e.microBatch)
                      .with("batch", e.globalBatch)
                      .with("m", e.microBatches),
                  lang);
}

} // namespace

std::string formatPlan(const TransformerModel& model, const PlanEstimate& e, Language lang)
{
    auto say = [&](Message m) { return render(m, lang); };
    std::ostringstream out;
    out << say(Message("plan.out.title").with("model", model.name).with("gpus", e.gpus).with("plan", planText(e.plan)))
        << "\n  " << settingsLine(e, lang) << "\n\n";
    const size_t label = 26;
    out << "  " << pad(say(Message("plan.out.step")), label) << formatMicros(e.stepUs) << "\n";
    out << "  " << pad(say(Message("plan.out.tokens")), label) << number("%.0f", e.tokensPerSecPerGpu) << "\n";
    out << "  " << pad(say(Message("plan.out.tflops")), label) << number("%.1f", e.modelTflopsPerGpu) << "  "
        << say(Message("plan.out.mfu").with("mfu", number("%.1f", e.mfu * 100)).with("gpu", e.accelerator)) << "\n";
    out << "  " << pad(say(Message("plan.out.bubble")), label) << number("%.1f", e.bubbleFraction * 100) << " %\n";
    double peak = 0;
    for (const StageEstimate& s : e.stages)
        peak = std::max(peak, s.memory.peak());
    out << "  " << pad(say(Message("plan.out.memory")), label)
        << say(Message(e.fits ? "plan.out.fits" : "plan.out.does_not_fit")
                   .with("peak", gb(peak))
                   .with("have", gb(e.gpuMemory)))
        << "\n\n";

    const char* columns[] = {"plan.col.stage",     "plan.col.layers",    "plan.col.weights",
                             "plan.col.grads",     "plan.col.optimizer", "plan.col.activations",
                             "plan.col.temporary", "plan.col.peak",      "plan.col.fits"};
    out << "  " << say(Message("plan.out.memory_table")) << "\n  ";
    for (const char* c : columns)
        out << pad(say(Message(c)), 12);
    out << "\n";
    for (const StageEstimate& s : e.stages) {
        const PlanMemory& m = s.memory;
        out << "  " << pad(std::to_string(s.stage), 12) << pad(std::to_string(s.layers), 12) << pad(gb(m.params), 12)
            << pad(gb(m.grads), 12) << pad(gb(m.optimizer), 12) << pad(gb(m.activations), 12)
            << pad(gb(m.temporary), 12) << pad(gb(m.peak()), 12) << say(Message(s.fits ? "plan.yes" : "plan.no"))
            << "\n";
    }
    if (!e.collectives.empty()) {
        out << "\n  " << say(Message("plan.out.collectives")) << "\n  ";
        for (const char* c : {"plan.col.axis", "plan.col.collective", "plan.col.size", "plan.col.count", "plan.col.one",
                              "plan.col.exposed", "plan.col.across"})
            out << pad(say(Message(c)), c == std::string("plan.col.collective") ? 40 : 12);
        out << "\n";
        for (const PlanCollective& c : e.collectives) {
            out << "  " << pad(nameIn(kMeshAxisNames, c.axis), 12)
                << pad(std::string(opName(c.kind)) + " (" + say(c.what) + ")", 40) << pad(formatBytes(c.bytes), 12)
                << pad(number("%.0f", c.countPerStep), 12) << pad(formatMicros(c.timeUs), 12)
                << pad(formatMicros(c.exposedUs), 12) << say(Message(c.crossesNodes ? "plan.yes" : "plan.no")) << "\n";
        }
    }
    out << "\n  " << say(Message("plan.out.limits").with("what", e.bottleneck)) << "\n";
    for (const Message& note : e.notes)
        out << "  " << say(note) << "\n";
    return out.str();
}

std::string formatPlanSearch(const TransformerModel& model, const PlanSearch& search, int top, Language lang)
{
    auto say = [&](Message m) { return render(m, lang); };
    std::ostringstream out;
    out << say(Message("plan.search.title")
                   .with("model", model.name)
                   .with("fit", static_cast<int>(search.plans.size()))
                   .with("considered", search.considered))
        << "\n\n";
    if (!search.plans.empty())
        out << "  ";
    for (const char* c : {"plan.col.plan", "plan.col.mb", "plan.col.step", "plan.col.tokens", "plan.col.mfu",
                          "plan.col.bubble", "plan.col.peak"})
        if (!search.plans.empty())
            out << pad(say(Message(c)), c == std::string("plan.col.plan") ? 46 : 12);
    if (!search.plans.empty())
        out << "\n";
    int shown = 0;
    for (const PlanEstimate& e : search.plans) {
        if (shown++ == top)
            break;
        double peak = 0;
        for (const StageEstimate& s : e.stages)
            peak = std::max(peak, s.memory.peak());
        out << "  " << pad(planText(e.plan), 46) << pad(std::to_string(e.microBatch), 12)
            << pad(formatMicros(e.stepUs), 12) << pad(number("%.0f", e.tokensPerSecPerGpu), 12)
            << pad(number("%.1f", e.mfu * 100) + " %", 12) << pad(number("%.1f", e.bubbleFraction * 100) + " %", 12)
            << gb(peak) << " GB\n";
    }
    if (static_cast<int>(search.plans.size()) > top)
        out << "  "
            << say(Message("plan.search.more")
                       .with("count", static_cast<int>(search.plans.size()) - top)
                       .with("option", "--top N"))
            << "\n";
    if (!search.plans.empty())
        out << "\n  " << say(Message("plan.out.limits").with("what", search.plans.front().bottleneck)) << "\n";
    if (!search.dropped.empty()) {
        out << "\n  " << say(Message("plan.search.dropped")) << "\n";
        for (const DroppedPlans& d : search.dropped)
            out << "  " << pad(std::to_string(d.count), 8) << say(d.reason) << "\n";
    }
    return out.str();
}

} // namespace shardlab

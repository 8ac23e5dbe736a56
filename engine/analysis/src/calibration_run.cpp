// A live calibration: measure the plan's sweeps and compute rates through the hooks, then fit.
#include "shardlab/analysis/calibration_run.h"

#include <set>

namespace shardlab {

std::vector<Bytes> defaultCalibrationSizes()
{
    std::vector<Bytes> sizes{8};
    for (Bytes b = 16ULL << 10; b <= (1ULL << 30); b *= 4)
        sizes.push_back(b);
    return sizes;
}

Result<CalibrationResult> runCalibration(const CalibrationPlan& plan, const CalibrationOptions& options,
                                         const CalibrationHooks& hooks)
{
    if (!hooks.topology || !hooks.measure)
        return badInput(Message("calibration.error.no_hooks"));
    auto machine = hooks.topology();
    if (!machine)
        return machine.error();
    const int available = machine->rankCount();
    const int gpus = plan.gpus > 0 ? plan.gpus : available;
    if (gpus > available)
        return badInput(Message(available == 1 ? "calibration.error.gpus_one" : "calibration.error.gpus_many")
                            .with("option", "--gpus")
                            .with("gpus", gpus)
                            .with("count", available));
    if (gpus < 2)
        return badInput(Message("calibration.error.needs_two").with("count", available));
    CalibrationData data;
    data.topology = machine->firstGpus(gpus);
    data.host = hooks.host ? hooks.host() : "";
    std::set<int> counts(plan.rankCounts.begin(), plan.rankCounts.end());
    if (counts.empty())
        counts = {2, gpus};
    for (int r : counts)
        if (r < 2 || r > gpus)
            return badInput(Message("calibration.error.rank_count").with("count", r).with("max", gpus));
    const std::vector<Bytes> sizes = plan.sizes.empty() ? defaultCalibrationSizes() : plan.sizes;
    std::set<std::string> names;
    for (const Gpu& g : data.topology.gpus)
        names.insert(g.name);
    const int total = static_cast<int>(counts.size() * plan.kinds.size() + names.size());
    int done = 0;
    auto step = [&](const std::string& what) -> Status {
        if (hooks.cancel && hooks.cancel->load())
            return Error(ErrorKind::Cancelled, Message("error.analysis.calibration_cancelled"));
        if (hooks.progress && !hooks.progress(done, total, what))
            return Error(ErrorKind::Cancelled, Message("error.analysis.calibration_cancelled"));
        return {};
    };
    for (int r : counts)
        for (OpKind kind : plan.kinds) {
            if (Status st = step(std::string(opName(kind)) + " on " + std::to_string(r) + " GPUs"); !st)
                return st.error();
            auto rows = hooks.measure(kind, r, sizes);
            if (!rows)
                return rows.error();
            for (const SweepRow& row : *rows) {
                if (row.wrong > 0)
                    return runFailed(Message("calibration.error.wrong_elements")
                                         .with("collective", opName(kind))
                                         .with("ranks", r)
                                         .with("size", formatBinaryBytes(row.bytes))
                                         .with("wrong", std::to_string(row.wrong)));
                data.samples.push_back({kind, r, row.bytes, row.timeUs});
            }
            ++done;
        }
    if (hooks.computeTflops)
        for (const std::string& name : names) {
            if (Status st = step("compute rate of " + name); !st)
                return st.error();
            int device = 0;
            while (data.topology.gpus[static_cast<size_t>(device)].name != name)
                ++device;
            auto tflops = hooks.computeTflops(device);
            if (!tflops)
                return tflops.error();
            data.measuredTflops[name] = *tflops;
            ++done;
        }
    if (hooks.progress)
        hooks.progress(total, total, "fitting");
    return fitProfile(data, options);
}

} // namespace shardlab

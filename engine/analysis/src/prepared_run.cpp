#include "shardlab/analysis/prepared_run.h"

#include "shardlab/sim/simulator.h"

namespace shardlab {

Result<PreparedRun> prepareRun(const Scenario& scenario, std::shared_ptr<const RunResult> run, CostModel& model,
                               const std::atomic<bool>* cancel)
{
    PreparedRun out;
    out.run = std::move(run);
    if (out.run->mode == RunMode::Live) {
        SimulationOptions o;
        o.cancel = cancel;
        auto reference = simulate(scenario, model, o);
        if (reference) {
            out.reference = std::make_shared<const RunResult>(std::move(reference).value());
            out.comparison = compareRuns(scenario, *out.run, *out.reference);
        } else {
            out.referenceError = reference.error().message;
        }
    }
    if (cancel && cancel->load())
        return Error(ErrorKind::Cancelled, Message("error.analysis.cancelled"));
    out.summary = summarize(scenario, *out.run);
    out.activity = std::make_shared<const ActivityIndex>(scenario, out.run, model);
    return out;
}

} // namespace shardlab

// What-if for a profiled run (issue 15, part 4): the program as it was observed, as a scenario
// the simulator runs. Per collective instance k (in the order of the world communicator's
// sequence numbers) two program steps: op 2k, compute "work before #k", then op 2k+1, the
// collective with its kind, size and group. Each rank's measured work before it becomes
//   flops(op 2k) = the least time any rank spent there, as work on rank 0's GPU of `topology`
//                  (t_min / computeUs(1 FLOP)), so that a faster GPU finishes it sooner;
//   delay(rank, op 2k) = what that rank spent beyond the least (its own extra work: a straggler's),
//                  an injected delay of that many milliseconds, unchanged on another machine.
// Simulated on the topology it was measured on, it reproduces the measured compute exactly; the
// collectives take what the cost model says they take there.
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

namespace shardlab {

// `run` is a profiled run (profile_build.h) whose program has the shape above; `scenario` its
// observed program. Returns `scenario` on `topology`, with flops and delays from the run's compute.
Result<Scenario> resimulationScenario(const Scenario& scenario, const RunResult& run, const Topology& topology);

// The default machine for a profile of `ranks` ranks: H200s on NVSwitch (h200-nvswitch-8, scaled out).
Topology defaultProfileMachine(int ranks);

} // namespace shardlab

// What-if for a profiled run (issue 15, part 4): the program as it was observed, as a scenario
// the simulator runs. Per collective k of one step of the program (profile_steps.h; the whole
// profile when no step was found), in the order of the world communicator's sequence numbers, two
// program steps: op 2k, compute "work before #k", then op 2k+1, the collective with its kind, size
// and group. Each rank's measured work before it, its mean over the steps in which it reached the
// collective, becomes
//   flops(op 2k) = the least (mean) time any rank spent there, as work on rank 0's GPU of `topology`
//                  (t_min / computeUs(1 FLOP)), so that a faster GPU finishes it sooner;
//   delay(rank, op 2k) = what that rank spent beyond the least (its own extra work: a straggler's),
//                  an injected delay of that many milliseconds, unchanged on another machine.
// It runs as many steps as `scenario` says (the profile's complete steps). Simulated on the topology it was measured
// on, it reproduces the measured mean compute exactly; the collectives take what the cost model says they take there.
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

// Message-size sweeps of one collective, in the columns of nccl-tests.
#pragma once

#include "shardlab/sim/cost_model.h"
#include "shardlab/text/message.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct SweepRow {
    Bytes bytes = 0;
    std::uint64_t count = 0; // elements of `type`
    std::string type = "float";
    double timeUs = 0;
    double algbwGBps = 0;
    double busbwGBps = 0;
    long wrong = 0; // -1: not checked (simulation)
    Algorithm algorithm = Algorithm::Ring;
    Protocol protocol = Protocol::Simple;
};

// START, START*FACTOR, ... up to END inclusive. Sizes are parsed by parseBenchSize.
Result<std::vector<Bytes>> parseSizeRange(const std::string& spec);

// The size nccl-tests actually runs for a requested one: a whole number of float elements, per
// rank for the gathering and scattering collectives (at least one element). Simulated and live
// sweeps both use it, so their rows line up.
Bytes roundBenchSize(OpKind kind, Bytes bytes, int ranks);

// What a sweep may measure: a collective, at least one size, send_recv between exactly two GPUs.
// Simulated and live sweeps (and the command line before either) check the same rules.
Status checkSweepRequest(OpKind kind, int gpus, const std::vector<Bytes>& sizes);

// One row for `bytes` (already rounded, roundBenchSize) timed at `timeUs` on `ranks` ranks:
// algbw = bytes / time, busbw = algbw x busBandwidthFactor(kind, ranks) (nccl-tests'
// doc/PERFORMANCE.md). Simulated and live sweeps both make their rows here.
SweepRow sweepRow(OpKind kind, int ranks, Bytes bytes, double timeUs);

std::vector<SweepRow> simulateSweep(CostModel& model, OpKind kind, int ranks, const std::vector<Bytes>& sizes);

// The table as nccl-tests prints it, with a header naming the collective, ranks and source, in
// `language`. nccl-tests' column names and values (size, count, type, redop, root, time, algbw,
// busbw, #wrong; float, sum, none, N/A) stay as nccl-tests prints them in every language, so that
// the table reads like nccl-tests' output; the header, the units row, the algorithm column and the
// notes are worded (sweep.inc).
std::string formatSweepTable(OpKind kind, int ranks, const std::vector<SweepRow>& rows, const Message& title,
                             Language language = Language::English);
// The words of nccl-tests' table kept in every language (for the no-English-in-Chinese tests).
const std::vector<std::string>& ncclTestsTableWords();
std::string sweepJson(OpKind kind, int ranks, const std::vector<SweepRow>& rows, const std::string& mode);

} // namespace shardlab

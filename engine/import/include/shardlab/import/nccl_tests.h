// nccl-tests' JSON output (`all_reduce_perf ... -J FILE`, format "version" 3) read back as a
// measured sweep, and shown beside ShardLab's simulation of the same sizes on a chosen machine.
//
// What is kept is what the sweep view needs: the collective (from the program's own name, the
// first word of `args`: the JSON names it nowhere else), the ranks (`config.devices`), the GPU
// model, NCCL's version, the iterations and every row. The file's `env` array (the environment of
// rank 0, where tokens and passwords live), the rest of `args`, host names and process ids are
// read past and never copied: nothing here can show them.
//
// Every figure is checked before it is kept: sizes against count x the type's bytes, algbw
// against size / time, busbw against algbw x busBandwidthFactor (model/collectives.h), the tool's
// own average bus bandwidth against the rows. A file that fails one is refused with the file, the
// JSON path and what is wrong ("FILE: $.results[2].in_place.time: zero (expected a positive
// number)"), worded in Chinese by the catalogue (import_sweep.inc, error.says.nccl_tests_*).
#pragma once

#include "shardlab/analysis/sweep.h"
#include "shardlab/base/result.h"
#include "shardlab/base/units.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/topology.h"
#include "shardlab/text/language.h"
#include "shardlab/text/message.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

// The format this reader knows (nccl-tests' JSON_FILE_VERSION).
inline constexpr int kNcclTestsJsonVersion = 3;

// One timed half of a row: out of place or in place.
struct NcclTestsTiming {
    double timeUs = 0;                  // mean time of one call
    double algbwGBps = 0;               // size / time
    double busbwGBps = 0;               // algbw x busBandwidthFactor(kind, ranks)
    std::optional<std::uint64_t> wrong; // #wrong; nullopt: not checked (nccl-tests -c 0)
};

struct NcclTestsRow {
    Bytes bytes = 0;                           // nccl-tests' "size": the full buffer (gathered output, scattered input)
    std::uint64_t count = 0;                   // elements per call, as nccl-tests counts them
    std::string type;                          // nccl-tests' type name: "float", "bfloat16", ...
    std::string redop;                         // "sum", ..., "none"
    int root = -1;                             // -1: no root
    std::optional<NcclTestsTiming> outOfPlace; // nullopt: in place only (the file's null)
    NcclTestsTiming inPlace;
};

struct NcclTestsSweep {
    std::string origin;  // the file, as the user named it
    std::string program; // "all_reduce_perf" (the file name of args[0], nothing else of args)
    OpKind kind = OpKind::AllReduce;
    int ranks = 0;
    std::string gpu;     // config.devices[0].device_info, "NVIDIA H200"; "" when absent
    int ncclVersion = 0; // NCCL_VERSION_CODE, 22809 = 2.28.9; 0 when absent
    int iterations = 0;  // timed calls per size; 0 when absent
    int warmupIterations = 0;
    std::vector<NcclTestsRow> rows;
    std::optional<double> fileAverageBusbwGBps; // the tool's "Avg bus bandwidth" (checked against the rows)
};

// The file's text (already decompressed) read into a sweep; `origin` names it in errors.
Result<NcclTestsSweep> parseNcclTestsJson(std::string_view text, const std::string& origin);

// nccl-tests' "Avg bus bandwidth": the mean of every busbw the file holds, out of place and in
// place (nccl-tests common.cu adds each timed half's busbw to one sum and divides by their count).
double averageBusBandwidth(const NcclTestsSweep& sweep);

// "2.28.9" for 22809 (NCCL >= 2.9: major*10000 + minor*100 + patch; older: major*1000 + minor*100
// + patch); "" for 0.
std::string ncclVersionText(int code);

// The sizes of the file's rows, in order, for simulateSweep.
std::vector<Bytes> sweepSizes(const NcclTestsSweep& sweep);

// The table: every row's out-of-place and in-place time, algbw, busbw and #wrong as nccl-tests
// prints them, and, when `simulated` is given (one row per file row, simulateSweep on the same
// sizes), the simulated time, algbw, busbw and the algorithm beside them. Numbers formatted as
// formatSweepTable's.
std::string formatMeasuredSweep(const NcclTestsSweep& sweep, const std::vector<SweepRow>* simulated,
                                const Message& title, Language language = Language::English);
// The same as JSON (`--json`); `simulatedOn` names the machine and profile when `simulated` is given.
std::string measuredSweepJson(const NcclTestsSweep& sweep, const std::vector<SweepRow>* simulated,
                              const std::string& simulatedOn = {});

// What `shardlab import FILE.json [--preset ID] [--json]` prints: the measured sweep alone
// (`presetId` empty), or beside simulateSweep on preset(presetId)->firstGpus(sweep.ranks) with the
// default cost profile. Errors: an unknown preset, one with fewer GPUs than the file's ranks, a
// send/recv sweep of other than two ranks (ShardLab simulates send/recv between two GPUs).
Result<std::string> renderImportedSweep(const NcclTestsSweep& sweep, const std::string& presetId, bool json,
                                        Language language = Language::English);
// The same beside the simulation on `topology` (its first `ranks` GPUs): the app's view, on the
// open document's machine.
Result<std::string> renderSweepBeside(const NcclTestsSweep& sweep, const Topology& topology, bool json,
                                      Language language = Language::English);

} // namespace shardlab

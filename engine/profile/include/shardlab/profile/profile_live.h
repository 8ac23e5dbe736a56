// A profiled program followed while it runs (`shardlab profile --live`, docs/profiling.md "Live"):
// its record files read as they grow, and the part of the run that can no longer change.
//
// The plugin writes a thread's records at least every 200 ms (recorder.h), so the files grow
// while the program runs, a line possibly cut in two between writes. ProfileDirectoryTail reads
// only what was added since the last look, keeps an incomplete last line for the next one, and
// picks up files that appear (one per profiled process).
//
// A run built from records still arriving (buildProfiledRun with recordsStillArriving) has the
// profiled run's canonical order: collective k is collectives[k] (op 2k+1), and spans are ordered
// by step, then rank, then begin. Its first K collectives and the spans of steps below 2K
// ("settled") are what the finished run will hold there as well (same steps, ranks, kinds,
// waits and who was last), with times that can still move by the GPU clock fit's change as more
// kernel brackets arrive (profile_clock.h), within the two fits' error bounds.
#pragma once

#include "shardlab/model/run_result.h"
#include "shardlab/profile/profile_reader.h"

#include <filesystem>
#include <memory>
#include <vector>

namespace shardlab {

class ProfileDirectoryTail {
public:
    explicit ProfileDirectoryTail(std::filesystem::path dir);
    ~ProfileDirectoryTail();
    // Reads what every record file in the folder gained. A damaged record is an error (naming the
    // file and line); a line still being written is not.
    Status poll();
    // The files so far (those whose first line has arrived), sorted by name as
    // readProfileDirectory sorts them; events of a communicator whose init has not arrived yet are
    // left out for now.
    Result<std::vector<ProfileFile>> files() const;
    // The most ranks any communicator recorded so far has (0: none yet).
    int worldRanks() const;

private:
    struct Tailed;
    std::filesystem::path m_dir;
    std::vector<std::unique_ptr<Tailed>> m_files;
};

// How many leading collectives of `run` (a profiled run in canonical order) every member has
// finished: K such that collectives[0..K) have op 2k+1 and an arrival of every member.
size_t settledCollectives(const RunResult& run);
// The settled part: collectives[0..K) and the spans of steps below 2K, in order; no iteration
// marks (a run built while records arrive has one mark spanning it; the finished run's steps
// come with the result).
RunResult settledPrefix(const RunResult& run, size_t collectives);

} // namespace shardlab

// A stand-in for a user's NCCL program, for `shardlab profile` tests without a GPU: it opens the
// library NCCL_PROFILER_PLUGIN names, as NCCL 2.23+ does, and plays NCCL's calls for a few
// all-reduces (fake_nccl.h). Without the variable it runs and records nothing, as NCCL would.
//   fake_nccl_program [--ranks N] [--rank R] [--straggler R] [--collectives K] [--exit S] [--abort]
//   --rank R: play only rank R of the N (one process of an mpirun job); --abort: end with
//   abort() after the collectives, before NCCL's finalize (a crash: only full buffers were written).
//   --pause-after K --until FILE: after K collectives, wait until FILE exists (a test's gate: it
//   has seen the first K in the live stream), at most 120 s (then exit status 4).
//   --late-us U: how late the straggler starts each collective, in microseconds (1000 unless given).
#include "fake_nccl.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    int ranks = 2, only = -1, straggler = -1, collectives = 3, exitStatus = 0;
    bool crash = false;
    int pauseAfter = -1;
    int lateUs = 1000;
    std::string until;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&] { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
        if (a == "--ranks")
            ranks = next();
        else if (a == "--rank")
            only = next();
        else if (a == "--straggler")
            straggler = next();
        else if (a == "--collectives")
            collectives = next();
        else if (a == "--exit")
            exitStatus = next();
        else if (a == "--abort")
            crash = true;
        else if (a == "--pause-after")
            pauseAfter = next();
        else if (a == "--late-us")
            lateUs = next();
        else if (a == "--until" && i + 1 < argc)
            until = argv[++i];
    }
    const char* path = std::getenv("NCCL_PROFILER_PLUGIN");
    if (!path || !*path) {
        std::puts("fake NCCL program: no profiler plugin");
        return exitStatus;
    }
    shardlab::fakenccl::Plugin plugin(path);
    if (!plugin.error.empty()) {
        std::fprintf(stderr, "fake NCCL program: %s\n", plugin.error.c_str());
        return 1;
    }
    std::vector<std::int64_t> offsets(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
        offsets[static_cast<size_t>(r)] = 1'000'000'000LL * (r + 1);
    shardlab::fakenccl::Communicator comm(plugin, 0x5eedULL, offsets, only);
    for (int k = 0; k < collectives; ++k) {
        if (k == pauseAfter && !until.empty()) {
            struct stat st {};
            int waited = 0;
            for (; ::stat(until.c_str(), &st) != 0 && waited < 120'000; waited += 5)
                ::usleep(5000);
            if (waited >= 120'000)
                return 4;
        }
        for (int r = 0; r < ranks; ++r)
            if ((only < 0 || r == only) && r != straggler)
                comm.start(r, "AllReduce", 1 << 18, "ncclFloat32");
        if (straggler >= 0 && straggler < ranks && (only < 0 || only == straggler)) {
            shardlab::fakenccl::spinFor(static_cast<std::uint64_t>(lateUs) * 1000); // after the others
            comm.start(straggler, "AllReduce", 1 << 18, "ncclFloat32");
        }
        shardlab::fakenccl::spinFor(100'000);
        for (int r = 0; r < ranks; ++r)
            if (only < 0 || r == only)
                comm.finish(r);
        shardlab::fakenccl::spinFor(200'000);
    }
    if (crash)
        std::abort();
    comm.finalize();
    std::printf("fake NCCL program: %d all-reduces on %d ranks\n", collectives, only >= 0 ? 1 : ranks);
    return exitStatus;
}

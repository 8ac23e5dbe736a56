// Runs body(rank) on one thread per rank and waits for all: the processes of a job, as threads
// (tests of the Transport and what is built on it).
#pragma once

#include <functional>
#include <thread>
#include <vector>

namespace shardlab::test {

inline void onEveryRank(int n, const std::function<void(int)>& body)
{
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
        threads.emplace_back(body, r);
    for (auto& t : threads)
        t.join();
}

} // namespace shardlab::test

// Shared by the GUI tests: scenarios from resources/ and a long-running one.
#pragma once

#include "bench_scenarios.h"

#include "shardlab/scenario_io.h"

#include <QtTest>

#include <string>

namespace shardlab::test {

inline Scenario loadExample(const std::string& file)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/" + file);
    if (!s)
        qFatal("cannot load %s: %s", file.c_str(), s.error().message.c_str());
    return *s;
}

// A run that takes long enough to cancel or supersede: `iterations` of a data-parallel step with
// 64 gradient buckets (about 2,000 iterations take seconds at 64 ranks).
inline Scenario longScenario(int iterations, int ranks = 64)
{
    Scenario s = bench::dataParallelStep(ranks, iterations);
    s.name = "long: data-parallel step, 64 buckets";
    return s;
}

} // namespace shardlab::test

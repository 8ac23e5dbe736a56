// For tests of the run stream: what `shardlab sim FILE --stream` writes for a scenario (a header,
// a chunk per iteration, the result), and a text's lines.
#pragma once

#include "shardlab/io/run_stream.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace shardlab::test {

inline std::string simStream(const Scenario& scenario, RunResult* made = nullptr, SimulationOptions options = {})
{
    std::ostringstream out;
    RunStreamWriter writer(out);
    StreamHeader header;
    header.scenario = scenario;
    header.launch = "simulation";
    EXPECT_TRUE(writer.header(header));
    options.iterationDone = [&](const RunResult& soFar, int done, int total) {
        return writer.chunk(soFar, done, total);
    };
    auto run = simulate(scenario, options);
    EXPECT_TRUE(run) << (run ? "" : run.error().message);
    if (!run)
        return out.str();
    EXPECT_TRUE(writer.result(*run));
    if (made)
        *made = *run;
    return out.str();
}

inline std::vector<std::string> linesOfText(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

} // namespace shardlab::test

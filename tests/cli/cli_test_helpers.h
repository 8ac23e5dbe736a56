// Runs the `shardlab` command line in-process for the CLI tests.
#pragma once

#include "cli.h"

#include <sstream>
#include <string>
#include <vector>

namespace shardlab::test {

struct CliRun {
    int status = -1;
    std::string out, err;
};

inline CliRun runCommand(std::vector<std::string> args)
{
    std::ostringstream out, err;
    CliRun r;
    r.status = shardlab::cli::runCli(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

inline std::string scenario(const char* name) { return std::string(SHARDLAB_SCENARIO_DIR) + "/" + name; }

} // namespace shardlab::test

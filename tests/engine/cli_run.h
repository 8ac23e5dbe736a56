// Runs the `shardlab` command line in-process and keeps what it printed (CLI tests).
#pragma once

#include "cli.h"

#include <sstream>
#include <string>
#include <vector>

namespace shardlab::cli {

struct CliRun {
    int status = -1;
    std::string out, err;
};

inline CliRun cli(std::vector<std::string> args)
{
    std::ostringstream out, err;
    CliRun r;
    r.status = runCli(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

} // namespace shardlab::cli

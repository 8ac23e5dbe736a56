// A duration in the job's messages ("15.0 s"): one spelling for the job monitor and the launcher.
#pragma once

#include <cstdio>
#include <string>

namespace shardlab::detail {

inline std::string secondsText(double ms)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", ms / 1000.0);
    return buf;
}

} // namespace shardlab::detail

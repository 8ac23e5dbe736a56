// A whole file as the tests read it back (what a process wrote, a file a command produced): its
// bytes, or "" where it cannot be opened.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace shardlab::test {

inline std::string readText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace shardlab::test

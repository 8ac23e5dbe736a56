// Which of ShardLab's files a path holds, so that File > Open and the command line send it to the
// right reader.
#pragma once

#include <filesystem>
#include <string>

namespace shardlab {

// What a file holds, judged by its name and its first bytes: ShardLab scenario, result file,
// Chrome trace, or unknown (the scenario loader then says what is wrong with it).
enum class FileKind { Scenario, Result, Trace, Unknown };
FileKind fileKindOf(const std::filesystem::path& path);
// The same from a name and the first few kilobytes of the text.
FileKind fileKindOf(const std::string& name, const std::string& head);

} // namespace shardlab

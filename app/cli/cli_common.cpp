#include "cli.h"

#include "shardlab/scenario_io.h"

#include <ostream>

namespace shardlab::cli {

bool writeOutput(const std::string& path, const std::string& text, Io io)
{
    if (Status st = writeFileAtomically(path, text); !st) {
        io.err << "shardlab: " << st.error().message << "\n";
        return false;
    }
    return true;
}

int reportError(const Error& error, Io io)
{
    io.err << "shardlab: " << error.message << "\n";
    return error.kind == ErrorKind::BadInput ? kExitBadInput : kExitRunFailed;
}

} // namespace shardlab::cli

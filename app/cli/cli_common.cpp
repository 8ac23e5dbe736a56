#include "cli.h"

#include "shardlab/base/file_io.h"
#include "shardlab/io/scenario_io.h"

#include <cstdio>
#include <iostream>
#include <ostream>

#include <unistd.h>

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

StdoutToStderr::StdoutToStderr(bool on)
{
    if (!on)
        return;
    std::cout.flush();
    std::fflush(stdout);
    m_saved = dup(STDOUT_FILENO);
    if (m_saved >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        close(m_saved);
        m_saved = -1;
    }
}

StdoutToStderr::~StdoutToStderr()
{
    if (m_saved < 0)
        return;
    std::fflush(stdout);
    dup2(m_saved, STDOUT_FILENO);
    close(m_saved);
}

} // namespace shardlab::cli

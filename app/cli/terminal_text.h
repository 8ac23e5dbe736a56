// What the command line prints goes through here: names and messages come from users' files, and a
// control character in a GPU name (an ESC sequence that recolours the terminal, a 0x7f from a
// binary file) must reach the terminal as text, not as a command. New lines and tabs pass.
#pragma once

#include <ostream>
#include <streambuf>

namespace shardlab::cli {

// A stream buffer that forwards to `target`, writing each control character (below 0x20 but for
// tab, new line and carriage return, and 0x7f) as "\xHH". UTF-8 passes unchanged.
class ControlEscapingBuf : public std::streambuf {
public:
    explicit ControlEscapingBuf(std::streambuf* target) : m_target(target) {}

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    std::streambuf* m_target;
};

// An ostream over a ControlEscapingBuf, for as long as it lives.
class EscapedStream : public std::ostream {
public:
    explicit EscapedStream(std::ostream& target) : std::ostream(nullptr), m_buf(target.rdbuf()) { rdbuf(&m_buf); }
    ~EscapedStream() override { flush(); }

private:
    ControlEscapingBuf m_buf;
};

} // namespace shardlab::cli

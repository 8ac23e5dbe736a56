// What the command line prints goes through here: names and messages come from users' files, and a
// control character in a GPU name (an ESC sequence that recolours the terminal, a 0x7f from a
// binary file, a C1 control, a right-to-left override U+202E that shows what follows reversed)
// must reach the terminal as text, not as a command. New lines and tabs pass.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>

namespace shardlab::cli {

// A stream buffer that forwards to `target`, writing each control character (below 0x20 but for
// tab, new line and carriage return, and 0x7f) as "\xHH", and each control that UTF-8 encodes
// (C1, the bidirectional controls, U+2028/U+2029: shardlab/base/visible_text.h) as "\uHHHH", and a
// lone byte 0x80..0x9f (C1 to an 8-bit terminal) as "\xHH". Other UTF-8 and other bytes pass
// unchanged; a character cut between two writes is held until its last byte comes.
class ControlEscapingBuf : public std::streambuf {
public:
    explicit ControlEscapingBuf(std::streambuf* target) : m_target(target) {}
    ~ControlEscapingBuf() override; // writes a sequence that never ended as its bytes came
    ControlEscapingBuf(const ControlEscapingBuf&) = delete;
    ControlEscapingBuf& operator=(const ControlEscapingBuf&) = delete;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    std::streambuf* m_target;
    std::string m_pending; // the first bytes of a UTF-8 sequence whose rest has not come yet
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

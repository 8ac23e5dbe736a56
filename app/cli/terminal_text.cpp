#include "terminal_text.h"

#include <cstdio>

namespace shardlab::cli {

namespace {
bool escaped(unsigned char c) { return (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f; }
} // namespace

std::streambuf::int_type ControlEscapingBuf::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
}

std::streamsize ControlEscapingBuf::xsputn(const char* s, std::streamsize n)
{
    std::streamsize plain = 0; // a run of characters that pass as they are
    for (std::streamsize i = 0; i < n; ++i) {
        if (!escaped(static_cast<unsigned char>(s[i])))
            continue;
        if (i > plain && m_target->sputn(s + plain, i - plain) != i - plain)
            return plain;
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(s[i]));
        if (m_target->sputn(hex, 4) != 4)
            return i;
        plain = i + 1;
    }
    if (n > plain && m_target->sputn(s + plain, n - plain) != n - plain)
        return plain;
    return n;
}

int ControlEscapingBuf::sync() { return m_target->pubsync(); }

} // namespace shardlab::cli

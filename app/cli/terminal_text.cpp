#include "terminal_text.h"

#include "shardlab/base/visible_text.h"

#include <cstdio>

namespace shardlab::cli {

std::streambuf::int_type ControlEscapingBuf::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
}

std::streamsize ControlEscapingBuf::xsputn(const char* s, std::streamsize n)
{
    std::string text = std::move(m_pending);
    m_pending.clear();
    text.append(s, static_cast<size_t>(n));
    std::string out;
    out.reserve(text.size());
    char escape[16];
    for (size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        if (lead < 0x80) {
            if (isControlCodePoint(lead)) {
                std::snprintf(escape, sizeof escape, "\\x%02x", lead);
                out += escape;
            } else
                out += text[i];
            ++i;
            continue;
        }
        // the start of a sequence whose last bytes are still to come: held for the next write
        const size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if (i + length > text.size()) {
            bool continuing = true;
            for (size_t k = i + 1; k < text.size(); ++k)
                continuing = continuing && (static_cast<unsigned char>(text[k]) & 0xc0) == 0x80;
            if (continuing) {
                m_pending = text.substr(i);
                break;
            }
        }
        const Utf8Char c = utf8At(text, i);
        if (!c.valid && lead <= 0x9f) { // a lone C1 byte: an 8-bit terminal takes 0x9b for CSI
            std::snprintf(escape, sizeof escape, "\\x%02x", lead);
            out += escape;
        } else if (c.valid && isControlCodePoint(c.code)) {
            std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c.code));
            out += escape;
        } else
            out.append(text, i, c.length);
        i += c.length;
    }
    if (!out.empty()
        && m_target->sputn(out.data(), static_cast<std::streamsize>(out.size()))
               != static_cast<std::streamsize>(out.size()))
        return 0;
    return n;
}

ControlEscapingBuf::~ControlEscapingBuf()
{
    if (!m_pending.empty())
        m_target->sputn(m_pending.data(), static_cast<std::streamsize>(m_pending.size()));
}

// A flush leaves a sequence cut short held: its last bytes may come with the next write.
int ControlEscapingBuf::sync() { return m_target->pubsync(); }

} // namespace shardlab::cli

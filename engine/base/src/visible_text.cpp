#include "shardlab/base/visible_text.h"

#include <cstdio>

namespace shardlab {

bool isControlCodePoint(char32_t c)
{
    if (c < 0x20)
        return c != '\t' && c != '\n' && c != '\r';
    return c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f
           || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;
}

bool isInvisibleCodePoint(char32_t c)
{
    return c == 0x00a0 || c == 0x00ad || c == 0x1680 || c == 0x180e || (c >= 0x2000 && c <= 0x200d) || c == 0x202f
           || c == 0x205f || c == 0x2060 || c == 0x3000 || c == 0xfeff;
}

Utf8Char utf8At(std::string_view text, size_t i)
{
    const auto b = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = b(i);
    if (lead < 0x80)
        return {lead, 1, true};
    size_t length = 0;
    char32_t code = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        code = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        code = lead & 0x0f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        code = lead & 0x07;
    } else
        return {0xfffd, 1, false};
    if (i + length > text.size())
        return {0xfffd, 1, false};
    for (size_t k = 1; k < length; ++k) {
        if ((b(i + k) & 0xc0) != 0x80)
            return {0xfffd, 1, false};
        code = (code << 6) | (b(i + k) & 0x3f);
    }
    // overlong forms, surrogates and values past U+10FFFF are no UTF-8
    if ((length == 3 && code < 0x800) || (length == 4 && (code < 0x10000 || code > 0x10ffff))
        || (code >= 0xd800 && code <= 0xdfff))
        return {0xfffd, 1, false};
    return {code, length, true};
}

std::string visibleText(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const Utf8Char c = utf8At(text, i);
        char escape[16];
        if (!c.valid) {
            std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(text[i]));
            out += escape;
        } else if (c.code < 0x80 && isControlCodePoint(c.code)) {
            std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned>(c.code));
            out += escape;
        } else if (isControlCodePoint(c.code) || isInvisibleCodePoint(c.code)) {
            std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c.code));
            out += escape;
        } else
            out.append(text.substr(i, c.length));
        i += c.length;
    }
    return out;
}

} // namespace shardlab

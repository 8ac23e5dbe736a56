#include "shardlab/base/display_width.h"

namespace shardlab {

namespace {

struct Range {
    char32_t first, last;
};

// East Asian Wide (W) and Full-width (F) blocks.
constexpr Range kWide[] = {
    {0x1100, 0x115F}, {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},   {0x2E80, 0x303E},
    {0x3041, 0x33FF}, {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xA960, 0xA97F},
    {0xAC00, 0xD7A3}, {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
    {0xFFE0, 0xFFE6}, {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

// Combining marks and zero-width characters.
constexpr Range kZero[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F}, {0x1AB0, 0x1AFF},
    {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
};

template <std::size_t N>
bool inRanges(char32_t cp, const Range (&ranges)[N])
{
    for (const Range& r : ranges)
        if (cp >= r.first && cp <= r.last)
            return true;
    return false;
}

// Decodes one UTF-8 character at `i`; returns its length in bytes (1 for an invalid byte, whose
// code point is then U+FFFD).
std::size_t decode(std::string_view s, std::size_t i, char32_t& cp)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) {
        cp = 0xFFFD;
        return 1;
    }
    cp = len == 1 ? c : static_cast<char32_t>(c & (0x7F >> len));
    for (std::size_t k = 1; k < len; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) {
            cp = 0xFFFD;
            return 1;
        }
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    return len;
}

} // namespace

int codePointWidth(char32_t cp)
{
    if (inRanges(cp, kZero))
        return 0;
    return inRanges(cp, kWide) ? 2 : 1;
}

std::size_t displayWidth(std::string_view utf8)
{
    std::size_t width = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        char32_t cp = 0;
        i += decode(utf8, i, cp);
        width += static_cast<std::size_t>(codePointWidth(cp));
    }
    return width;
}

std::string fitToWidth(std::string_view utf8, std::size_t width)
{
    std::string out;
    std::size_t used = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        char32_t cp = 0;
        const std::size_t len = decode(utf8, i, cp);
        const auto w = static_cast<std::size_t>(codePointWidth(cp));
        if (used + w > width)
            break;
        out.append(utf8.substr(i, len));
        used += w;
        i += len;
    }
    out.append(width - used, ' ');
    return out;
}

std::string rightAligned(std::string_view utf8, std::size_t width)
{
    const std::size_t w = displayWidth(utf8);
    return (w >= width ? std::string() : std::string(width - w, ' ')) + std::string(utf8);
}

std::string leftAligned(std::string_view utf8, std::size_t width)
{
    const std::size_t w = displayWidth(utf8);
    return std::string(utf8) + (w >= width ? std::string() : std::string(width - w, ' '));
}

} // namespace shardlab

// Text from a user's file or command line as a message may show it: characters that do not show
// (a no-break space before "GB" looks like a space) or that act on the terminal (controls, and the
// bidirectional controls that reverse what follows, as U+202E does) written as escapes.
#pragma once

#include <string>
#include <string_view>

namespace shardlab {

// C0 controls but tab, new line and carriage return; DEL; C1 controls (U+0080..U+009F); the
// bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069); the line and
// paragraph separators (U+2028, U+2029). A terminal acts on these instead of showing them.
bool isControlCodePoint(char32_t c);

// Characters that show as nothing or as a plain space although they are not one: U+00A0, U+00AD,
// U+1680, U+180E, U+2000..U+200D, U+202F, U+205F, U+2060, U+3000, U+FEFF.
bool isInvisibleCodePoint(char32_t c);

// `text` with every control (isControlCodePoint, C0 as "\x1b", the others as "\u202e") and every
// invisible character ("\u00a0") escaped; bytes that are no UTF-8 as "\xff". Everything else as it is.
std::string visibleText(std::string_view text);

// The UTF-8 sequence at text[i]: its code point and length (1 to 4); {0xFFFD, 1} for a byte that
// starts no valid sequence, and for a sequence cut short at the end of `text`.
struct Utf8Char {
    char32_t code = 0;
    size_t length = 1;
    bool valid = false;
};
Utf8Char utf8At(std::string_view text, size_t i);

} // namespace shardlab

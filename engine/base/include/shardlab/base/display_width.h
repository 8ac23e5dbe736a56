// Column alignment by what a terminal shows, not by bytes: a CJK character takes two columns, a
// combining mark none. Tables that print user-given names (devices, collectives, scenarios) pad
// and cut them with fitToWidth so that the columns after them line up.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace shardlab {

// Columns `cp` takes in a terminal: 2 for East Asian wide and full-width characters, 0 for
// combining marks and zero-width characters, 1 otherwise (after the wcwidth tables of Unicode 15).
int codePointWidth(char32_t cp);

// Columns of a UTF-8 string; a byte that is not valid UTF-8 counts as one column.
std::size_t displayWidth(std::string_view utf8);

// `utf8` cut at a whole character so that it takes at most `width` columns, then padded with
// spaces to exactly `width` columns (left aligned).
std::string fitToWidth(std::string_view utf8, std::size_t width);

// `utf8` padded with spaces to at least `width` columns, never cut: right aligned (numbers,
// column titles over numbers) or left aligned (row labels).
std::string rightAligned(std::string_view utf8, std::size_t width);
std::string leftAligned(std::string_view utf8, std::size_t width);

} // namespace shardlab

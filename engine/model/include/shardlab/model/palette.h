// The one visual language: the colour of each kind of time a rank spends, read by every view
// (timeline, playback diagram, diagnosis, scaling and comparison charts, figure exports) and by
// the lab report (SVG/HTML, PDF). A test draws each view and compares its colours with this table
// (tests/gui/test_palette.cpp, tests/engine/report/test_report_svg.cpp); docs/palette.md lists it.
//
// The colours are Okabe & Ito's, which stay apart with every common colour-vision deficiency,
// plus a brown for paging (the lessons say "brown paging blocks"). They read on white and, in
// presenter mode's dark theme, on black, so one table serves both. Wait is also hatched on the
// timeline, so that it stays apart from communication in greyscale.
#pragma once

#include "shardlab/model/run_result.h"

#include <array>
#include <cstdint>
#include <string>

namespace shardlab::palette {

// Memory is not a kind of time: the colour of memory bars (the lab report's memory per rank), so
// that they are never drawn in a time category's colour.
enum class Category : unsigned char { Compute, Communication, Wait, Paging, InjectedDelay, Idle, Memory };

inline constexpr std::array<Category, 7> kCategories = {Category::Compute, Category::Communication, Category::Wait,
                                                        Category::Paging,  Category::InjectedDelay, Category::Idle,
                                                        Category::Memory};

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend constexpr bool operator==(const Rgb&, const Rgb&) = default;
};

struct Entry {
    Category category;
    const char* hex;  // "#0072B2": the report writes it as is, the GUI reads it through rgb()
    const char* name; // English, lower case: the report's legend; the GUI translates its own
};

// The source of truth, in the order of Category.
inline constexpr std::array<Entry, 7> kEntries = {{
    {Category::Compute, "#0072B2", "compute"},              // blue
    {Category::Communication, "#E69F00", "communication"},  // orange
    {Category::Wait, "#CC79A7", "wait at a sync point"},    // reddish purple (pink)
    {Category::Paging, "#8C564B", "unified-memory paging"}, // brown
    {Category::InjectedDelay, "#D55E00", "injected delay"}, // vermilion
    {Category::Idle, "#999999", "idle"},                    // grey
    {Category::Memory, "#009E73", "memory"},                // bluish green
}};

constexpr const Entry& entry(Category c) { return kEntries[static_cast<std::size_t>(c)]; }
constexpr const char* hex(Category c) { return entry(c).hex; }
constexpr const char* name(Category c) { return entry(c).name; }

namespace detail {
constexpr std::uint8_t nibble(char ch)
{
    return static_cast<std::uint8_t>(ch >= '0' && ch <= '9'   ? ch - '0'
                                     : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                                                              : ch - 'A' + 10);
}
constexpr std::uint8_t byteAt(const char* s, int i)
{
    return static_cast<std::uint8_t>(nibble(s[i]) * 16 + nibble(s[i + 1]));
}
} // namespace detail

constexpr Rgb rgb(Category c)
{
    const char* h = hex(c);
    return {detail::byteAt(h, 1), detail::byteAt(h, 3), detail::byteAt(h, 5)};
}

// The category a span is drawn in: paging and injected delays are compute spans with a detail.
constexpr Category categoryOf(SpanKind kind, SpanDetail d = SpanDetail::None)
{
    switch (kind) {
    case SpanKind::Compute:
        return d == SpanDetail::Paging          ? Category::Paging
               : d == SpanDetail::InjectedDelay ? Category::InjectedDelay
                                                : Category::Compute;
    case SpanKind::Comm: return Category::Communication;
    case SpanKind::Wait: return Category::Wait;
    }
    return Category::Idle;
}

constexpr bool entriesInOrder()
{
    for (std::size_t i = 0; i < kEntries.size(); ++i)
        if (kEntries[i].category != static_cast<Category>(i))
            return false;
    return true;
}
static_assert(entriesInOrder());
static_assert(rgb(Category::Compute) == Rgb{0x00, 0x72, 0xB2});
static_assert(rgb(Category::Paging) == Rgb{0x8C, 0x56, 0x4B});

} // namespace shardlab::palette

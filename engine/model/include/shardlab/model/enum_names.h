// One spelling per enum value: each enum that reaches a file, the command line or the GUI has a
// constexpr table of {value, name} in its own header, and every list of its values (a combo box,
// a reader's "expected ..." text, a loop over kinds) walks that table. Adding a value is one row.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace shardlab {

template <class E>
struct EnumName {
    E value;
    const char* name;
};

// True when the table lists every value of a 0-based contiguous enum, in order, exactly once:
// tables are checked with static_assert next to their definition.
template <class E, std::size_t N>
constexpr bool listsEveryValueInOrder(const EnumName<E> (&table)[N], E last)
{
    if (static_cast<std::size_t>(last) + 1 != N)
        return false;
    for (std::size_t i = 0; i < N; ++i)
        if (static_cast<std::size_t>(table[i].value) != i)
            return false;
    return true;
}

template <class E, std::size_t N>
constexpr const char* nameIn(const EnumName<E> (&table)[N], E value)
{
    for (const EnumName<E>& row : table)
        if (row.value == value)
            return row.name;
    return "?";
}

template <class E, std::size_t N>
constexpr std::optional<E> valueIn(const EnumName<E> (&table)[N], std::string_view name)
{
    for (const EnumName<E>& row : table)
        if (name == row.name)
            return row.value;
    return std::nullopt;
}

} // namespace shardlab

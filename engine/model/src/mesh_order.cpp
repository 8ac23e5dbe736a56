#include "shardlab/model/mesh_order.h"

#include <algorithm>

namespace shardlab {

std::optional<MeshOrder> meshOrderFromText(std::string_view text)
{
    MeshOrder order{};
    size_t n = 0;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        const auto axis = valueIn(kMeshAxisNames, text.substr(0, comma));
        if (!axis || *axis == MeshAxis::Expert || n == order.size()
            || std::find(order.begin(), order.begin() + static_cast<long>(n), *axis)
                   != order.begin() + static_cast<long>(n))
            return std::nullopt;
        order[n++] = *axis;
        if (comma != std::string_view::npos && comma + 1 == text.size())
            return std::nullopt; // a trailing comma
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
    if (n != order.size())
        return std::nullopt;
    return order;
}

std::string meshOrderText(const MeshOrder& order)
{
    std::string text;
    for (MeshAxis axis : order)
        text += (text.empty() ? "" : ",") + std::string(nameIn(kMeshAxisNames, axis));
    return text;
}

} // namespace shardlab

#include "shardlab/base/short_list.h"

namespace shardlab {

std::string shortList(const std::vector<std::string>& items, std::size_t shown)
{
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i)
        out += (i ? ", " : "") + items[i];
    if (items.size() > shown)
        out += " and " + std::to_string(items.size() - shown) + " more";
    return out;
}

Message shortListMessage(const std::vector<std::string>& items, std::size_t shown)
{
    if (items.size() <= shown)
        return verbatim(shortList(items, shown));
    return Message("error.piece.and_more")
        .with("list", shortList(std::vector<std::string>(items.begin(), items.begin() + shown), shown))
        .with("count", std::to_string(items.size() - shown));
}

} // namespace shardlab

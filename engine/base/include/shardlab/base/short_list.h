// How a message names many things (ranks, hosts): the first few, then how many more. One form,
// so that the catalogue's error.piece.and_more words every such list the same way.
#pragma once

#include "shardlab/text/message.h"

#include <cstddef>
#include <string>
#include <vector>

namespace shardlab {

// "1, 2, 3"; past `shown` items the first `shown`, then the count left: "1, 2, 3 and 5 more".
std::string shortList(const std::vector<std::string>& items, std::size_t shown);
// The same as a Message: the list as a value, or error.piece.and_more past `shown` items.
Message shortListMessage(const std::vector<std::string>& items, std::size_t shown);

} // namespace shardlab

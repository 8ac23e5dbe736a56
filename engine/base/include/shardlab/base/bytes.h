// A buffer of raw bytes: what a message between processes, an encoded run or a CBOR document is.
#pragma once

#include <cstdint>
#include <vector>

namespace shardlab {

using Bytes8 = std::vector<std::uint8_t>;

} // namespace shardlab

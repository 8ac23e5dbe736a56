// The engine's ActivitySnapshot in the shape the topology diagram takes (activity.h).
#pragma once

#include "activity.h"

#include "shardlab/activity.h"

namespace shardlab::gui {

ActivityFrame toActivityFrame(const ActivitySnapshot& snapshot);

} // namespace shardlab::gui

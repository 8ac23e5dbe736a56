// The app's view of its resources (scenarios, lessons): the engine's resourceDirectory()
// (shardlab/base/resources.h: $SHARDLAB_RESOURCE_DIR, the installed share/shardlab, the source tree).
#pragma once

#include <QString>
#include <QStringList>

namespace shardlab::gui {

// The first folder that holds scenarios/default.shardlab.json; empty when none does.
QString resourceDir();
QString defaultScenarioPath();
// The example scenarios shipped with the app, sorted by file name.
QStringList exampleScenarios();

} // namespace shardlab::gui

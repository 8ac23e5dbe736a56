// Where the app finds its resources (scenarios, lessons). Installed: <prefix>/share/shardlab next
// to <prefix>/bin; in a build tree: the source folder. SHARDLAB_RESOURCES overrides both.
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

// The app's view of its resources (scenarios, lessons): the engine's resourceDirectory()
// (shardlab/base/resources.h: $SHARDLAB_RESOURCE_DIR, the installed share/shardlab, the source tree).
#pragma once

#include <QString>
#include <QList>
#include <QStringList>

namespace shardlab::gui {

// The first folder that holds scenarios/default.shardlab.json; empty when none does.
QString resourceDir();
QString defaultScenarioPath();
// The example scenarios shipped with the app, sorted by file name.
QStringList exampleScenarios();

struct ExampleScenario {
    QString path;
    QString title; // the scenario's name in the interface language, as the editor and the window title show it
};
// The shipped examples in the course's order: the scenarios of the lessons in lesson order (each
// lesson's scenario, then its comparison scenario), then the others by file name. `lessonDir`
// defaults to the shipped lessons.
QList<ExampleScenario> examplesInCourseOrder(const QString& lessonDir = {});

} // namespace shardlab::gui

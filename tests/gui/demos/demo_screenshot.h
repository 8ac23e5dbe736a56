// Shared by the demos: SHARDLAB_SCREENSHOT=file.png saves `widget` once it has settled (half a
// second before the quit, else after 2.5 s), SHARDLAB_QUIT_AFTER_MS quits the application (as
// shardlab-gui does).
#pragma once

#include <QApplication>
#include <QTimer>
#include <QWidget>

namespace shardlab::demo {

inline void screenshotAndQuit(QApplication& app, QWidget& widget)
{
    const QString shot = qEnvironmentVariable("SHARDLAB_SCREENSHOT");
    const int quitAfter = qEnvironmentVariableIntValue("SHARDLAB_QUIT_AFTER_MS");
    if (!shot.isEmpty())
        QTimer::singleShot(quitAfter > 1000 ? quitAfter - 500 : 2500, &widget,
                           [&widget, shot] { widget.grab().save(shot); });
    if (quitAfter > 0)
        QTimer::singleShot(quitAfter, &app, &QApplication::quit);
}

} // namespace shardlab::demo

// GUI tests that show a state worth looking at save a picture of it when SHARDLAB_SCREENS_DIR is
// set (docs/images has some: before and after a fix, docs/screens.md).
#pragma once

#include <QDir>
#include <QStringList>
#include <QTabWidget>
#include <QString>
#include <QWidget>

namespace shardlab::gui::test {

inline void saveScreen(QWidget* w, const QString& name)
{
    const QString dir = qEnvironmentVariable("SHARDLAB_SCREENS_DIR");
    if (!dir.isEmpty())
        w->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

// The minimum width of each of `w`'s pages (what makes a window too wide), "1: 1035, 2: 980".
template <class Window>
QString pageWidths(Window& w)
{
    QStringList out;
    for (int i = 0; i < w.pages()->count(); ++i)
        out << QStringLiteral("%1: %2").arg(i).arg(w.pages()->widget(i)->minimumSizeHint().width());
    return out.join(QStringLiteral(", "));
}

} // namespace shardlab::gui::test

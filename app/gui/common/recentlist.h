// "Most recent first, at most N": how the app keeps the lists it remembers (recent files, remote
// hosts, profiled commands and launchers). Header-only, so that the libraries below the main
// window's (shardlab_gui_remote) use it too.
#pragma once

#include <QString>
#include <QStringList>

namespace shardlab::gui {

// Puts `item` first in `list`, once, and drops the oldest beyond `max`.
inline void putFirst(QStringList& list, const QString& item, qsizetype max)
{
    list.removeAll(item);
    list.prepend(item);
    while (list.size() > max)
        list.removeLast();
}

} // namespace shardlab::gui

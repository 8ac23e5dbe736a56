// Help > Keyboard shortcuts: every menu entry that has keys (read from the menus, so the list is
// never out of date), then the keys of the playback, the timeline and the diagram, which are not
// menu entries.
#pragma once

#include <QDialog>

class QMenuBar;
class QTreeWidget;

namespace shardlab::gui {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(const QMenuBar* menus, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    // "Space" -> "Play or pause" etc.: every row as "section | what | keys", for tests.
    QStringList rows() const;

private:
    QTreeWidget* m_tree = nullptr;
};

} // namespace shardlab::gui

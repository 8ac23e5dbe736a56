// The mouse wheel edits only a combo box or spin box that the user clicked or tabbed into. Over
// one that has no focus, the wheel scrolls what holds it (the editor's side panel, a dialog)
// instead of silently changing its value (the strategy box changed while the user scrolled the
// panel). Installed once on the application by the main window: every such box of every window
// follows it, also ones made later.
#pragma once

#include <QObject>

namespace shardlab::gui {

class WheelGuard : public QObject {
    Q_OBJECT
public:
    // Watches every widget of the application while `owner` lives.
    static void install(QObject* owner);

    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

} // namespace shardlab::gui

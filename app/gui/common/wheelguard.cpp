#include "common/wheelguard.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace shardlab::gui {

namespace {
bool isGuarded(const QObject* o)
{
    return qobject_cast<const QComboBox*>(o) || qobject_cast<const QAbstractSpinBox*>(o);
}
} // namespace

void WheelGuard::install(QObject* owner) { qApp->installEventFilter(new WheelGuard(owner)); }

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::Polish:
        // Qt gives a box with "wheel focus" the focus on the first turn of the wheel, before the
        // box sees the event: only a click or Tab gives it focus now.
        if (isGuarded(watched)) {
            auto* box = static_cast<QWidget*>(watched);
            if (box->focusPolicy() == Qt::WheelFocus)
                box->setFocusPolicy(Qt::StrongFocus);
        }
        break;
    case QEvent::Wheel:
        // ignored, the event goes on to the parents: the scroll area around the box scrolls
        if (isGuarded(watched) && !static_cast<QWidget*>(watched)->hasFocus()) {
            event->ignore();
            return true;
        }
        break;
    default: break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace shardlab::gui

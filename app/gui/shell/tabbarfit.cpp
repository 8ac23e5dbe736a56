#include "shell/tabbarfit.h"

#include <QApplication>
#include <QEvent>
#include <QTabBar>
#include <QTabWidget>

namespace shardlab::gui {

TabBarFit::TabBarFit(QTabBar* bar, double smallestScale)
    : QObject(bar), m_bar(bar), m_own(bar->font()), m_hadOwnFont(bar->testAttribute(Qt::WA_SetFont))
{
    // A bar that follows the application's font may not have been told of presenter mode's yet.
    m_largest = m_hadOwnFont ? bar->font() : QApplication::font(bar);
    m_smallest = m_largest;
    if (m_largest.pointSizeF() > 0)
        m_smallest.setPointSizeF(m_largest.pointSizeF() * smallestScale);
    // the tab widget's width is what the bar may use: watch both
    bar->installEventFilter(this);
    if (QWidget* parent = bar->parentWidget())
        parent->installEventFilter(this);
    fit();
}

TabBarFit::~TabBarFit()
{
    if (!m_bar)
        return;
    m_fitting = true;
    if (auto* tabs = qobject_cast<QTabWidget*>(m_bar->parentWidget()); tabs && m_oldMinimumWidth >= 0)
        tabs->setMinimumWidth(m_oldMinimumWidth);
    if (m_hadOwnFont) {
        m_bar->setFont(m_own);
    } else {
        m_bar->setFont(QFont());
        m_bar->setAttribute(Qt::WA_SetFont, false);
    }
}

bool TabBarFit::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize && !m_fitting)
        fit();
    return QObject::eventFilter(watched, event);
}

void TabBarFit::fit()
{
    if (!m_bar || m_bar->count() == 0)
        return;
    const QWidget* parent = m_bar->parentWidget();
    int available = parent ? parent->width() : m_bar->width();
    if (const auto* tabs = qobject_cast<const QTabWidget*>(parent))
        for (Qt::Corner corner : {Qt::TopLeftCorner, Qt::TopRightCorner})
            if (const QWidget* c = tabs->cornerWidget(corner); c && c->isVisible())
                available -= c->width();
    if (available <= 0)
        return;
    m_fitting = true;
    const double big = m_largest.pointSizeF(), small = m_smallest.pointSizeF();
    if (big <= 0 || small <= 0) { // pixel-sized fonts: left as they are
        m_fitting = false;
        return;
    }
    QFont f = m_largest;
    // from the largest size down in steps of a twentieth, to the smallest
    for (int step = 0; step <= 20; ++step) {
        const double size = big - (big - small) * step / 20.0;
        if (size <= 0)
            break;
        f.setPointSizeF(size);
        m_bar->setFont(f);
        if (m_bar->sizeHint().width() <= available)
            break;
    }
    // Even the smallest font too wide: the tab widget asks its layout for the room its tabs need
    // (a splitter then takes it from its neighbour: the diagram), rather than hide tabs.
    if (auto* tabs = qobject_cast<QTabWidget*>(m_bar->parentWidget()); tabs && m_bar->sizeHint().width() > available) {
        if (m_oldMinimumWidth < 0)
            m_oldMinimumWidth = tabs->minimumWidth();
        tabs->setMinimumWidth(tabs->width() + m_bar->sizeHint().width() - available);
    }
    m_fitting = false;
}

} // namespace shardlab::gui

// Presenter mode's larger font would push the last tabs of a crowded tab bar (the editor's side
// panel: Workload & shards, Step program, Machine, Capacity per GPU) behind scroll arrows. A
// TabBarFit watches one tab bar while presenting and, whenever the bar is resized, gives it the
// largest font (down to a little below the plain window's) at which every tab shows whole. Deleting it puts
// the bar's own font back. If even the smallest font is too wide, the tab widget asks for the
// width its tabs need.
#pragma once

#include <QFont>
#include <QObject>
#include <QPointer>

class QTabBar;

namespace shardlab::gui {

class TabBarFit : public QObject {
public:
    // From the bar's font now (presenter mode's) down to `smallestScale` of it.
    TabBarFit(QTabBar* bar, double smallestScale);
    ~TabBarFit() override;

    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QPointer<QTabBar> m_bar;
    QFont m_largest, m_smallest, m_own;
    bool m_hadOwnFont = false;
    bool m_fitting = false;
    int m_oldMinimumWidth = -1; // the tab widget's, when the fit had to widen it
};

} // namespace shardlab::gui

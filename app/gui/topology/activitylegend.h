// The playback diagram's legend: a swatch and a word for each state a GPU card shows while a run
// plays back (computing, communicating, waiting, paging), in the palette's colours. It sits in
// the view's top-left corner and shows only while the diagram shows a run's activity.
#pragma once

#include "shardlab/sim/activity.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace shardlab::gui {

class ActivityLegend : public QWidget {
    Q_OBJECT
public:
    explicit ActivityLegend(QWidget* parent = nullptr);

    struct Entry {
        ActivityState state;
        QString text;
        QColor colour;
    };
    const std::vector<Entry>& entries() const { return m_entries; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    std::vector<Entry> m_entries;
};

} // namespace shardlab::gui

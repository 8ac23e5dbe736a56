// The per-rank timeline: one lane per rank (with a thin lane for the communication stream when
// collectives overlap compute, and one for the simulated run next to a measured one) on one
// time axis. Wheel zooms, drag pans, F (or fitAll) fits; hovering shows a span's exact times,
// clicking selects it and, for communication and wait, the same collective on every rank.
#pragma once

#include "timeline/timelinedata.h"
#include "timeline/timelineplottables.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCustomPlot;
class QMouseEvent;

namespace shardlab::gui {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // `opNames`: program labels by op index, for tooltips.
    void setData(std::shared_ptr<const TimelineData> data, bool fit = true);
    // The data object grew (a streaming run): redraw, and keep following the end unless the user
    // moved the view.
    void dataAppended();
    const TimelineData* data() const { return m_scene->data.get(); }
    std::shared_ptr<const TimelineData> sharedData() const { return m_scene->data; }
    void setOpNames(std::vector<QString> names) { m_opNames = std::move(names); }
    void setStraggler(std::optional<int> rank);
    std::optional<int> straggler() const { return m_scene->straggler; }

    void selectCollective(int collective);
    void selectSpan(int span, LaneBand band);
    int selectedCollective() const { return m_scene->selectedCollective; }
    int selectedSpan() const { return m_scene->selectedSpan; }

    // The playback cursor (a vertical line); moving it does not redraw the lanes.
    void setCursorTime(double us);
    double cursorTime() const { return m_cursorUs; }
    // Every how many ranks a lane is named now (1: every rank; more where the lanes are too thin
    // for a label each).
    int labelStride() const { return m_labelStride; }

    TimeScale timeScale() const;
    void setTimeRange(double beginUs, double endUs);
    void zoomAt(double factor, double anchorPx);
    void panBy(double deltaPx);

    // Hit-testing and text, as the mouse uses them (public for tests and the presenter).
    std::optional<TimelineData::Hit> hitAt(QPointF pos) const;
    QString tooltipFor(const TimelineData::Hit& hit) const;

    // What the last redraw painted.
    const SpanLayer* spanLayer(SpanKind kind) const { return m_layers[static_cast<size_t>(kind)]; }
    // Unified-memory paging, drawn over the compute spans in its own colour.
    const SpanLayer* pagingLayer() const { return m_pagingLayer; }
    const CollectiveJoins* joins() const { return m_joins; }
    QCustomPlot* plot() const { return m_plot; }
    // Every how many ranks a lane is named when `ranks` rows of `rowPx` pixels share the axis
    // with labels of `linePx`: 1 while a label fits its row, else the smallest power of two
    // that spaces labels 1.2 lines apart.
    static int laneLabelStride(int ranks, double rowPx, double linePx);
    // Redraw now (benchmarks, tests); normal updates are queued.
    void replotNow();

public slots:
    void fitAll();

signals:
    void spanSelected(int span, int collective);
    // The user asked the playback to go to this instant (double-click).
    void timeRequested(double us);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void onMousePress(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onRangeChanged();
    void updateLanes(bool force);
    void updateLegend();
    void fitLegend();
    void updateIterationLabels();
    void placeCursor();
    // `twoLines`: the straggler's mark below its name, else beside it
    QString laneName(int rank, bool withDevice, bool twoLines) const;

    QCustomPlot* m_plot = nullptr;
    std::shared_ptr<TimelineScene> m_scene;
    std::array<SpanLayer*, 3> m_layers{};
    std::array<SpanLayer*, 3> m_referenceLayers{};
    SpanLayer* m_pagingLayer = nullptr;
    LaneBackground* m_background = nullptr;
    CollectiveJoins* m_joins = nullptr;
    QSharedPointer<TimeTicker> m_ticker;
    QWidget* m_cursor = nullptr;
    double m_cursorUs = -1;
    std::vector<QString> m_opNames;
    QPointF m_pressPos;
    int m_lanesShown = -1;
    int m_labelStride = 1; // every how many ranks a lane is named (thin rows: see updateLanes)
    bool m_captionsShown = false;
    bool m_devicesShown = false;
    int m_legendShown = -1; // whether the legend has the simulated-run entry (-1: not built)
    bool m_followEnd = true;
    bool m_settingRange = false;
};

} // namespace shardlab::gui

// The timeline's QCustomPlot layers. Each draws every lane at once from TimelineData; the span
// layers draw the blocks of the level-of-detail pass (timelinelod.h), which aggregates what is
// narrower than a pixel column, so a redraw costs about one rectangle per pixel column per lane
// whatever the number of spans (traceshark's approach, not one QCPItem per span).
#pragma once

#include "timeline/timelinedata.h"
#include "timeline/timelinelod.h"

#include "timeline/qcustomplot_include.h"

#include <memory>
#include <optional>
#include <vector>

namespace shardlab::gui {

// Shared by the layers of one view.
struct TimelineScene {
    std::shared_ptr<const TimelineData> data;
    std::optional<int> straggler;
    int selectedCollective = -1;
    int selectedSpan = -1;
    LaneBand selectedBand = LaneBand::Main;
    // the lanes' blocks at the scale being drawn, shared by the span layers of one redraw
    mutable LaneBlockCache blocks;
};

// A plottable that never takes part in QCustomPlot's own selection (the view hit-tests itself).
class TimelineLayerBase : public QCPAbstractPlottable {
    Q_OBJECT
public:
    TimelineLayerBase(QCPAxis* keyAxis, QCPAxis* valueAxis, std::shared_ptr<const TimelineScene> scene);
    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    TimeScale scale() const;
    // Pixel rows of a band: top < bottom on screen.
    std::pair<double, double> rows(int rank, LaneBand band) const;
    std::shared_ptr<const TimelineScene> m_scene;
};

// Spans of one kind on every lane.
class SpanLayer : public TimelineLayerBase {
    Q_OBJECT
public:
    // detail Paging: the lanes' paging tracks, over the compute spans in the paging colour.
    SpanLayer(QCPAxis* keyAxis, QCPAxis* valueAxis, std::shared_ptr<const TimelineScene> scene, SpanKind kind,
              bool reference, SpanDetail detail = SpanDetail::None);

    struct Annotation {
        int span = -1;
        QString text;
        QRectF rect;
    };
    // What the last draw painted: rectangles (after merging) and the wait labels.
    int paintedRects() const { return m_painted; }
    // Of those, the ones standing for several spans narrower than a pixel column.
    int paintedAggregates() const { return m_aggregates; }
    // The width of an aggregation column, in the plot's pixels, for a painter: a pixel of what
    // it paints on (an image exported at twice the size aggregates to half a plot pixel).
    static double columnPx(const QCPPainter* painter);
    const std::vector<Annotation>& annotations() const { return m_annotations; }

    // "waits 60.0 ms for rank 0" (or shorter when the bar is narrow); empty if nothing fits.
    static QString waitLabel(const Span& span, double widthPx, const QFontMetricsF& fm);

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    SpanKind m_kind;
    bool m_reference;
    SpanDetail m_detail;
    int m_painted = 0;
    int m_aggregates = 0;
    std::vector<Annotation> m_annotations;
    std::vector<QRectF> m_rects; // scratch
    std::vector<QLineF> m_lines; // scratch
};

// Row backgrounds, iteration bands and labels, the straggler's row and the sub-lane captions.
class LaneBackground : public TimelineLayerBase {
    Q_OBJECT
public:
    using TimelineLayerBase::TimelineLayerBase;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}
};

// A line through the members of each collective at its start, and the selected collective.
class CollectiveJoins : public TimelineLayerBase {
    Q_OBJECT
public:
    using TimelineLayerBase::TimelineLayerBase;
    int paintedJoins() const { return m_painted; }
    int paintedJoinLines() const { return static_cast<int>(m_lines.size()); }

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    // the lines of one join: a vertical line across its members and, with `ticks`, a tick where
    // it meets each member's lane
    void addJoin(std::vector<QLineF>& lines, const CollectiveRecord& rec, double x, bool ticks) const;
    static constexpr double kTickSpacingPx = 8;
    void drawSelection(QCPPainter* painter) const;
    int m_painted = 0;
    std::vector<QLineF> m_lines; // reused between redraws
};

// Tick labels in the unit the visible span calls for; the axis title names the unit.
class TimeTicker : public QCPAxisTicker {
public:
    void setUnit(TimeUnit unit) { m_unit = unit; }
    TimeUnit unit() const { return m_unit; }

protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    TimeUnit m_unit = TimeUnit::Milliseconds;
    double m_step = 1;
};

} // namespace shardlab::gui

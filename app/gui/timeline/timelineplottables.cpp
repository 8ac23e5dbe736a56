#include "timeline/timelineplottables.h"

#include "style/plotstyle.h"
#include "style/timelinestyle.h"

#include <algorithm>
#include <cmath>

namespace shardlab::gui {

namespace style = timelinestyle;

namespace {

void strokeLines(QCPPainter* painter, const std::vector<QLineF>& lines)
{
    // One call for all of them: a zoomed-out view has hundreds of joins of 17 lines each and a
    // separator per wide span, and QPainter's per-call overhead was most of the redraw (perf,
    // bench_timeline). Like QCPPainter::drawLine: whole pixels unless antialiased or vector
    // output (PDF/SVG export).
    if (painter->antialiasing() || painter->modes().testFlag(QCPPainter::pmVectorized)) {
        painter->QPainter::drawLines(lines.data(), static_cast<int>(lines.size()));
        return;
    }
    std::vector<QLine> pixels;
    pixels.reserve(lines.size());
    for (const QLineF& l : lines)
        pixels.push_back(l.toLine());
    painter->QPainter::drawLines(pixels.data(), static_cast<int>(pixels.size()));
}

} // namespace

TimelineLayerBase::TimelineLayerBase(QCPAxis* keyAxis, QCPAxis* valueAxis, std::shared_ptr<const TimelineScene> scene)
    : QCPAbstractPlottable(keyAxis, valueAxis), m_scene(std::move(scene))
{
    setAntialiased(false);
    setAntialiasedFill(false);
    setSelectable(QCP::stNone);
}

QCPRange TimelineLayerBase::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = m_scene->data != nullptr;
    return foundRange ? QCPRange(0, std::max(1.0, m_scene->data->endUs())) : QCPRange();
}

QCPRange TimelineLayerBase::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = m_scene->data != nullptr;
    return foundRange ? QCPRange(m_scene->data->layout().valueMin(), m_scene->data->layout().valueMax()) : QCPRange();
}

TimeScale TimelineLayerBase::scale() const
{
    const QCPAxis* x = keyAxis();
    const QRect r = x->axisRect()->rect();
    return {x->range().lower, x->range().upper, static_cast<double>(r.left()), static_cast<double>(r.width())};
}

std::pair<double, double> TimelineLayerBase::rows(int rank, LaneBand band) const
{
    const BandExtent e = m_scene->data->layout().band(rank, band);
    const double a = valueAxis()->coordToPixel(e.top), b = valueAxis()->coordToPixel(e.bottom);
    return {std::min(a, b), std::max(a, b)};
}

// --- spans -------------------------------------------------------------------------------------

SpanLayer::SpanLayer(QCPAxis* keyAxis, QCPAxis* valueAxis, std::shared_ptr<const TimelineScene> scene, SpanKind kind,
                     bool reference, SpanDetail detail)
    : TimelineLayerBase(keyAxis, valueAxis, std::move(scene)), m_kind(kind), m_reference(reference), m_detail(detail)
{
    QColor c = style::kindColour(kind, detail);
    if (reference)
        c.setAlpha(style::referenceAlpha());
    setBrush(c);
    setPen(Qt::NoPen);
}

QString SpanLayer::waitLabel(const Span& span, double widthPx, const QFontMetricsF& fm)
{
    const QString d = QString::fromStdString(formatDuration(span.durationUs()));
    QStringList candidates;
    if (span.waitedFor >= 0) {
        candidates << tr("waits %1 for rank %2").arg(d).arg(span.waitedFor)
                   << tr("%1 for rank %2").arg(d).arg(span.waitedFor);
    } else {
        candidates << tr("waits %1").arg(d);
    }
    candidates << d;
    for (const QString& c : candidates)
        if (fm.horizontalAdvance(c) + 8 <= widthPx)
            return c;
    return {};
}

double SpanLayer::columnPx(const QCPPainter* painter)
{
    // QCustomPlot::toPixmap(w, h, scale) scales the painter (0.25 to 16 in a figure export);
    // vector output (PDF, SVG) and the screen keep the plot's own pixels.
    const double deviceScale = std::fabs(painter->transform().m11());
    return deviceScale > 0 ? 1 / std::clamp(deviceScale, 1.0 / 16, 16.0) : 1.0;
}

void SpanLayer::draw(QCPPainter* painter)
{
    m_painted = 0;
    m_aggregates = 0;
    m_annotations.clear();
    const TimelineData* data = m_scene->data.get();
    if (!data)
        return;
    const TimeScale sc = scale();
    if (!(sc.widthPx > 0) || !(sc.endUs > sc.beginUs))
        return;
    const double column = columnPx(painter);
    const double leftEdge = sc.leftPx - 2, rightEdge = sc.leftPx + sc.widthPx + 2;
    const QFontMetricsF fm(painter->font());
    // the shortest label is a duration such as "60.0 ms": narrower bars are not even measured
    const double labelMin = m_kind == SpanKind::Wait ? fm.horizontalAdvance(QStringLiteral("0.00 ms")) + 8 : 0;
    const LaneLayout& layout = data->layout();
    const bool paging = m_detail == SpanDetail::Paging;
    for (size_t laneIndex = 0; laneIndex < data->lanes().size(); ++laneIndex) {
        const TimelineLane& lane = data->lanes()[laneIndex];
        if ((lane.band == LaneBand::Reference) != m_reference || !layout.hasBand(lane.band))
            continue;
        if ((paging ? lane.paging : lane.track(m_kind)).size() == 0)
            continue;
        const auto [y0, y1] = rows(lane.rank, lane.band);
        m_rects.clear();
        std::vector<std::pair<int, QRectF>> singles;
        for (const LaneBlock& b : m_scene->blocks.blocks(*data, laneIndex, sc, column)) {
            if (b.kind != m_kind || (paging && !b.paging))
                continue;
            const double x0 = std::max(leftEdge, b.x0);
            const double x1 = std::min(rightEdge, std::max(b.x1, x0 + column));
            if (x1 <= x0)
                continue;
            const QRectF rect(x0, y0, x1 - x0, y1 - y0);
            m_rects.push_back(rect);
            m_aggregates += b.aggregated() ? 1 : 0;
            if (!b.aggregated() && m_kind == SpanKind::Wait && !m_reference && rect.width() >= labelMin)
                singles.push_back({b.span, rect});
        }
        m_painted += static_cast<int>(m_rects.size());
        painter->setPen(Qt::NoPen);
        painter->setBrush(brush());
        painter->drawRects(m_rects.data(), static_cast<int>(m_rects.size()));
        if (m_kind == SpanKind::Wait) {
            // hatching keeps wait apart from communication in greyscale
            painter->setBrush(QBrush(QColor(255, 255, 255, 150), Qt::BDiagPattern));
            painter->drawRects(m_rects.data(), static_cast<int>(m_rects.size()));
        }
        // a thin separator between neighbouring spans once they are wide enough to tell apart
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(QColor(255, 255, 255, m_reference ? 120 : 200), 1));
        m_lines.clear();
        for (const QRectF& r : m_rects)
            if (r.width() >= 6)
                m_lines.emplace_back(r.left(), r.top(), r.left(), r.bottom());
        strokeLines(painter, m_lines);
        if (m_reference) {
            painter->setPen(QPen(style::kindColour(m_kind, m_detail).darker(130), 1, Qt::DotLine));
            for (const QRectF& r : m_rects)
                if (r.width() >= 3)
                    painter->drawRect(r);
        }
        painter->setPen(style::annotationText());
        for (const auto& [span, rect] : singles) {
            if (rect.height() < fm.height())
                continue;
            const QString text = waitLabel(data->span(lane.band, span), rect.width(), fm);
            if (text.isEmpty())
                continue;
            // a light box behind the text keeps it readable over the hatching
            const QRectF box(rect.center().x() - fm.horizontalAdvance(text) / 2 - 3,
                             rect.center().y() - fm.height() / 2, fm.horizontalAdvance(text) + 6, fm.height());
            painter->setBrush(QColor(255, 255, 255, 215));
            painter->setPen(Qt::NoPen);
            painter->drawRect(box);
            painter->setPen(style::annotationText());
            painter->drawText(box, Qt::AlignCenter, text);
            m_annotations.push_back({span, text, rect});
        }
    }
}

void SpanLayer::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    painter->setPen(Qt::NoPen);
    painter->setBrush(brush());
    painter->drawRect(rect);
    if (m_kind == SpanKind::Wait) {
        painter->setBrush(QBrush(QColor(255, 255, 255, 150), Qt::BDiagPattern));
        painter->drawRect(rect);
    }
    if (m_reference) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(style::kindColour(m_kind, m_detail).darker(130), 1, Qt::DotLine));
        painter->drawRect(rect);
    }
}

// --- background --------------------------------------------------------------------------------

void LaneBackground::draw(QCPPainter* painter)
{
    const TimelineData* data = m_scene->data.get();
    if (!data)
        return;
    const TimeScale sc = scale();
    const QRect area = keyAxis()->axisRect()->rect();
    const LaneLayout& layout = data->layout();
    painter->setPen(Qt::NoPen);

    // the straggler's row
    if (m_scene->straggler && *m_scene->straggler >= 0 && *m_scene->straggler < layout.ranks) {
        const double a = valueAxis()->coordToPixel(*m_scene->straggler - 0.5);
        const double b = valueAxis()->coordToPixel(*m_scene->straggler + 0.5);
        painter->setBrush(style::stragglerBand());
        painter->drawRect(QRectF(area.left(), std::min(a, b), area.width(), std::fabs(b - a)));
    }

    // iterations: every other one shaded and a line at each boundary (their names are the tick
    // labels of the top axis, above the lanes: TimelineView::updateIterationLabels). Only the
    // visible ones, and none narrower than a few pixels (a zoomed-out run of thousands of
    // iterations would otherwise cost a line each)
    const std::vector<IterationMark>& its = data->run().iterations;
    size_t i = static_cast<size_t>(
        std::partition_point(its.begin(), its.end(), [&](const IterationMark& m) { return m.endUs <= sc.beginUs; })
        - its.begin());
    while (i < its.size() && its[i].beginUs < sc.endUs) {
        const double bx = sc.toPixel(its[i].beginUs);
        const double x0 = std::max<double>(area.left(), bx);
        const double x1 = std::min<double>(area.right(), sc.toPixel(its[i].endUs));
        if (x1 - x0 < 4 && sc.toPixel(its[i].endUs) - bx < 4) {
            // too narrow to see: go to the first iteration that begins a few pixels further on
            const double next = sc.toTime(bx + 4);
            i = static_cast<size_t>(std::partition_point(its.begin() + static_cast<long>(i) + 1, its.end(),
                                                         [&](const IterationMark& m) { return m.beginUs < next; })
                                    - its.begin());
            continue;
        }
        if (i % 2 == 1) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(style::iterationBand());
            painter->drawRect(QRectF(x0, area.top(), x1 - x0, area.height()));
        }
        painter->setPen(QPen(style::ink(90), 1, Qt::DashLine));
        if (bx >= area.left() && bx <= area.right())
            painter->drawLine(QLineF(bx, area.top(), bx, area.bottom()));
        ++i;
    }

    // separators between ranks
    painter->setPen(QPen(style::ink(40), 1));
    for (int r = 1; r < layout.ranks; ++r) {
        const double y = valueAxis()->coordToPixel(r - 0.5);
        painter->drawLine(QLineF(area.left(), y, area.right(), y));
    }
}

// --- collective joins --------------------------------------------------------------------------

void CollectiveJoins::addJoin(std::vector<QLineF>& lines, const CollectiveRecord& rec, double x, bool ticks) const
{
    const LaneLayout& layout = m_scene->data->layout();
    int lo = layout.ranks, hi = -1;
    for (int r : rec.group) {
        lo = std::min(lo, r);
        hi = std::max(hi, r);
    }
    if (hi < 0 || hi >= layout.ranks)
        return;
    const double y0 = rows(lo, LaneBand::Main).first, y1 = rows(hi, LaneBand::Main).second;
    lines.emplace_back(x, y0, x, y1);
    if (!ticks)
        return;
    for (int r : rec.group) {
        const auto [a, b] = rows(r, LaneBand::Main);
        lines.emplace_back(x - 3, a, x + 3, a); // a tick where the line meets a member
        lines.emplace_back(x - 3, b, x + 3, b);
    }
}

void CollectiveJoins::draw(QCPPainter* painter)
{
    m_painted = 0;
    const TimelineData* data = m_scene->data.get();
    if (!data)
        return;
    const TimeScale sc = scale();
    const auto& starts = data->collectiveStarts();
    const auto& order = data->collectivesByStart();
    const RunResult& run = data->run();
    painter->setPen(QPen(timelinestyle::joinLine(), 1));
    // one join per 3 pixels at most: when zoomed out they would only blacken the view
    m_lines.clear();
    const auto first = std::lower_bound(starts.begin(), starts.end(), sc.beginUs);
    const auto last = std::upper_bound(first, starts.end(), sc.endUs);
    // The ticks at each member's lane are 6 px wide: once joins stand closer than 8 px on
    // average, neighbours' ticks merge into a line along every lane edge and tell nothing.
    const bool ticks = static_cast<double>(last - first) * kTickSpacingPx <= sc.widthPx;
    size_t i = static_cast<size_t>(first - starts.begin());
    while (i < starts.size() && starts[i] <= sc.endUs) {
        const double x = sc.toPixel(starts[i]);
        addJoin(m_lines, run.collectives[static_cast<size_t>(order[i])], x, ticks);
        ++m_painted;
        i = static_cast<size_t>(
            std::upper_bound(starts.begin() + static_cast<long>(i) + 1, starts.end(), sc.toTime(x + 3))
            - starts.begin());
    }
    strokeLines(painter, m_lines);
    drawSelection(painter);
}

void CollectiveJoins::drawSelection(QCPPainter* painter) const
{
    if (parentPlot()->property(kExportingProperty).toBool())
        return; // a figure shows the run, not what was clicked on screen
    const TimelineData* data = m_scene->data.get();
    const TimeScale sc = scale();
    const RunResult& run = data->run();
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(timelinestyle::selection(), 2.5));
    const int c = m_scene->selectedCollective;
    if (c >= 0 && c < static_cast<int>(run.collectives.size())) {
        const CollectiveRecord& rec = run.collectives[static_cast<size_t>(c)];
        std::vector<QLineF> join;
        addJoin(join, rec, sc.toPixel(rec.startUs), true);
        strokeLines(painter, join);
        // outline the collective's communication and wait on every member's lanes
        for (int r : rec.group) {
            for (LaneBand band : {LaneBand::Main, LaneBand::CommStream}) {
                const TimelineLane* lane = data->lane(r, band);
                if (!lane || !data->layout().hasBand(band))
                    continue;
                const auto [y0, y1] = rows(r, band);
                for (SpanKind kind : {SpanKind::Wait, SpanKind::Comm}) {
                    const TimelineTrack& t = lane->track(kind);
                    // the member's spans of this collective touch its start: the wait ends there,
                    // the communication begins there
                    const int k = t.at(kind == SpanKind::Wait ? std::nextafter(rec.startUs, -1e300) : rec.startUs);
                    if (k < 0 || data->span(band, t.span[static_cast<size_t>(k)]).collective != c)
                        continue;
                    const double x0 = sc.toPixel(t.begin[static_cast<size_t>(k)]);
                    const double x1 = std::max(sc.toPixel(t.end[static_cast<size_t>(k)]), x0 + 2);
                    painter->drawRect(QRectF(x0, y0, x1 - x0, y1 - y0));
                }
            }
        }
    }
    const int s = m_scene->selectedSpan;
    if (s >= 0 && c < 0) {
        if (static_cast<size_t>(s)
            < (m_scene->selectedBand == LaneBand::Reference ? data->reference()->spans.size() : data->runSpanCount())) {
            const Span& sp = data->span(m_scene->selectedBand, s);
            const auto [y0, y1] = rows(sp.rank, m_scene->selectedBand);
            const double x0 = sc.toPixel(sp.beginUs), x1 = std::max(sc.toPixel(sp.endUs), x0 + 2);
            painter->drawRect(QRectF(x0, y0, x1 - x0, y1 - y0));
        }
    }
}

void CollectiveJoins::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    painter->setPen(QPen(timelinestyle::joinLine(), 1.5));
    const double x = rect.center().x();
    painter->drawLine(QLineF(x, rect.top(), x, rect.bottom()));
    painter->drawLine(QLineF(x - 3, rect.top(), x + 3, rect.top()));
    painter->drawLine(QLineF(x - 3, rect.bottom(), x + 3, rect.bottom()));
}

// --- ticks -------------------------------------------------------------------------------------

double TimeTicker::getTickStep(const QCPRange& range)
{
    m_step = QCPAxisTicker::getTickStep(range);
    return m_step;
}

QString TimeTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return QString::fromStdString(formatTimeValue(tick, m_unit, m_step));
}

} // namespace shardlab::gui

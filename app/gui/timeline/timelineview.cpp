#include "timeline/timelineview.h"

#include "i18n/engineterms.h"
#include "style/timelinestyle.h"
#include "timeline/timelinelod.h"

#include "shardlab/base/units.h"

#include <QKeyEvent>
#include <QStringList>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

namespace shardlab::gui {

namespace {

QString kindTitle(SpanKind kind)
{
    switch (kind) {
    case SpanKind::Compute: return TimelineView::tr("Compute");
    case SpanKind::Comm: return TimelineView::tr("Communication");
    case SpanKind::Wait: return TimelineView::tr("Wait");
    }
    return {};
}

} // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), m_scene(std::make_shared<TimelineScene>())
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    // its minimum width is the axes' and a few lanes', not the legend's in one row (fitLegend wraps it)
    m_plot->setMinimumWidth(240);
    layout->addWidget(m_plot);
    setFocusPolicy(Qt::StrongFocus);
    m_plot->setMouseTracking(true);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setPlottingHints(QCP::phCacheLabels);

    QFont tickFont = font();
    tickFont.setPointSizeF(tickFont.pointSizeF() * 1.1);
    QFont labelFont = tickFont;
    labelFont.setBold(true);

    QCPAxis* x = m_plot->xAxis;
    QCPAxis* y = m_plot->yAxis;
    m_ticker = QSharedPointer<TimeTicker>::create();
    m_ticker->setTickCount(8);
    x->setTicker(m_ticker);
    x->setTickLabelFont(tickFont);
    x->setLabelFont(labelFont);
    x->grid()->setPen(QPen(QColor(0, 0, 0, 30), 1, Qt::DotLine));
    y->setRangeReversed(true);
    y->setTickLabelFont(tickFont);
    y->grid()->setVisible(false);
    y->setTickLength(0, 0);
    y->setSubTickLength(0, 0);
    y->setTicker(QSharedPointer<QCPAxisTickerText>::create());

    // lanes: background under the grid, spans, then the joins and the selection on top
    m_background = new LaneBackground(x, y, m_scene);
    m_background->setLayer(QStringLiteral("background"));
    for (SpanKind kind : {SpanKind::Compute, SpanKind::Comm, SpanKind::Wait}) {
        auto* layer = new SpanLayer(x, y, m_scene, kind, false);
        layer->setName(kindTitle(kind));
        m_layers[static_cast<size_t>(kind)] = layer;
    }
    m_pagingLayer = new SpanLayer(x, y, m_scene, SpanKind::Compute, false, SpanDetail::Paging);
    m_pagingLayer->setName(tr("Unified-memory paging"));
    for (SpanKind kind : {SpanKind::Compute, SpanKind::Comm, SpanKind::Wait}) {
        auto* layer = new SpanLayer(x, y, m_scene, kind, true);
        layer->setName(tr("Simulated (faint, dotted)"));
        m_referenceLayers[static_cast<size_t>(kind)] = layer;
    }
    (new SpanLayer(x, y, m_scene, SpanKind::Compute, true, SpanDetail::Paging))
        ->setName(tr("Simulated (faint, dotted)"));
    m_joins = new CollectiveJoins(x, y, m_scene);
    m_joins->setName(tr("Collective (joins its ranks)"));

    // The playback cursor is a thin child widget over the plot: moving it repaints only the
    // strips it leaves and enters, never the lanes (60 moves a second cost next to nothing).
    m_cursor = new QWidget(m_plot);
    m_cursor->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_cursor->setAutoFillBackground(true);
    QPalette cursorPalette = m_cursor->palette();
    cursorPalette.setColor(QPalette::Window, timelinestyle::cursor());
    m_cursor->setPalette(cursorPalette);
    m_cursor->hide();
    // one buffer for everything: the selection-rectangle overlay is not used
    m_plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    connect(m_plot, &QCustomPlot::afterReplot, this, &TimelineView::placeCursor);

    // the legend in a row of its own above the lanes, so it never hides a span
    QCPLegend* legend = m_plot->legend;
    m_plot->axisRect()->insetLayout()->take(legend);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setFont(tickFont);
    legend->setIconSize(22, 14);
    legend->setVisible(true);
    updateLegend();

    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoomFactor(0.8);

    connect(m_plot, &QCustomPlot::mousePress, this, &TimelineView::onMousePress);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TimelineView::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelineView::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this,
            [this](QMouseEvent* e) { emit timeRequested(m_plot->xAxis->pixelToCoord(e->position().x())); });
    // Iteration names above the lanes, as the tick labels of the top axis: never drawn under the
    // spans of rank 0 or cut by them, and thinned to those wide enough for their name.
    QCPAxis* top = m_plot->xAxis2;
    top->setVisible(true);
    top->setTickLabels(true);
    top->setTickLength(0, 0);
    top->setSubTickLength(0, 0);
    top->setTickPen(Qt::NoPen);
    top->setBasePen(Qt::NoPen);
    top->grid()->setVisible(false);
    top->setTickLabelFont(tickFont);
    top->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), top, qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &TimelineView::onRangeChanged);
    // before every replot, with the plot laid out at its current size: after a zoom, a pan, new
    // data or a resize alike
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] {
        updateLanes(false);
        updateIterationLabels();
    });
    onRangeChanged();
}

TimelineView::~TimelineView() = default;

QString TimelineView::laneName(int rank, bool withDevice, bool twoLines) const
{
    QString name = tr("rank %1").arg(rank);
    if (m_scene->straggler && *m_scene->straggler == rank)
        return twoLines ? name + QLatin1Char('\n') + tr("straggler") : tr("rank %1 (straggler)").arg(rank);
    const RunResult& run = m_scene->data->run();
    if (withDevice && rank < static_cast<int>(run.devices.size()) && !run.devices[static_cast<size_t>(rank)].empty())
        name += QLatin1Char('\n') + QString::fromStdString(run.devices[static_cast<size_t>(rank)]).left(16);
    return name;
}

int TimelineView::laneLabelStride(int ranks, double rowPx, double linePx)
{
    // a label needs a little more than its line: 1.2 lines from one named row to the next
    int stride = 1;
    while (stride < ranks && rowPx * stride < 1.2 * linePx)
        stride *= 2;
    return stride;
}

void TimelineView::updateLanes(bool force)
{
    // What fits a rank's row at the plot's current size and fonts (presenter mode's are larger):
    // the rank's name always; its GPU on a second line when the row has room for both; the thin
    // lanes' captions ("comm stream", "simulated") only when they stay off the name.
    // Where rows are thinner than a line of text (64 ranks in a few hundred pixels), every
    // stride-th rank is named, the stride a power of two (nodes of 8 GPUs start on a label), and
    // the straggler always, its neighbours unnamed where their labels would touch it.
    const TimelineData* d = data();
    const int ranks = d ? d->layout().ranks : -1;
    bool devices = false, captions = false, twoLines = false;
    int stride = 1, minGap = 1; // minGap: rows between the straggler's label and another
    if (d && ranks > 0) {
        QCPLayout* layout = m_plot->plotLayout();
        for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            layout->update(phase);
        const double rowPx = m_plot->axisRect()->height() / static_cast<double>(ranks);
        const double line = QFontMetricsF(m_plot->yAxis->tickLabelFont()).lineSpacing();
        const int thinLanes = (d->layout().commStream ? 1 : 0) + (d->layout().reference ? 1 : 0);
        twoLines = rowPx >= 2.4 * line;
        devices = twoLines;
        captions = thinLanes > 0 && rowPx >= 1.4 * line * (2 + thinLanes);
        stride = laneLabelStride(ranks, rowPx, line);
        minGap = stride == 1 ? 1 : static_cast<int>(std::ceil(1.2 * line / rowPx));
    }
    if (!force && ranks == m_lanesShown && devices == m_devicesShown && captions == m_captionsShown
        && stride == m_labelStride)
        return;
    m_lanesShown = ranks;
    m_devicesShown = devices;
    m_captionsShown = captions;
    m_labelStride = stride;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    if (d) {
        const LaneLayout& l = d->layout();
        const std::optional<int> marked = m_scene->straggler;
        for (int r = 0; r < l.ranks; ++r) {
            const bool named =
                marked && *marked == r ? true : r % stride == 0 && !(marked && std::abs(r - *marked) < minGap);
            if (named)
                ticker->addTick(l.band(r, LaneBand::Main).centre(), laneName(r, devices, twoLines));
            if (captions && l.commStream)
                ticker->addTick(l.band(r, LaneBand::CommStream).centre(), tr("comm stream"));
            if (captions && l.reference)
                ticker->addTick(l.band(r, LaneBand::Reference).centre(), tr("simulated"));
        }
        m_plot->yAxis->setRange(d->layout().valueMin(), d->layout().valueMax());
    }
    m_plot->yAxis->setTicker(ticker);
}

void TimelineView::updateLegend()
{
    const int wanted = (data() && data()->reference() ? 1 : 0) | (data() && data()->hasPaging() ? 2 : 0);
    if (wanted == m_legendShown)
        return;
    m_legendShown = wanted;
    QCPLegend* legend = m_plot->legend;
    legend->clearItems();
    for (SpanLayer* l : m_layers)
        l->addToLegend(legend);
    if (data() && data()->hasPaging())
        m_pagingLayer->addToLegend(legend);
    m_joins->addToLegend(legend);
    if (data() && data()->reference())
        m_referenceLayers[static_cast<size_t>(SpanKind::Compute)]->addToLegend(legend);
    fitLegend();
}

void TimelineView::setData(std::shared_ptr<const TimelineData> d, bool fit)
{
    m_scene->data = std::move(d);
    m_scene->selectedCollective = -1;
    m_scene->selectedSpan = -1;
    updateLanes(true);
    updateLegend();
    if (fit)
        fitAll();
    else
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::dataAppended()
{
    if (data() && data()->layout().ranks != m_lanesShown)
        updateLanes(true); // the band layout is read at every redraw; only the labels need the ranks
    updateLegend();        // the first paging span adds its entry
    if (m_followEnd)
        fitAll();
    else
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::setStraggler(std::optional<int> rank)
{
    m_scene->straggler = rank;
    updateLanes(true);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::selectCollective(int collective)
{
    m_scene->selectedCollective = collective;
    m_scene->selectedSpan = -1;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::selectSpan(int span, LaneBand band)
{
    m_scene->selectedSpan = span;
    m_scene->selectedBand = band;
    m_scene->selectedCollective = -1;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::setCursorTime(double us)
{
    m_cursorUs = us;
    placeCursor();
}

void TimelineView::placeCursor()
{
    const QRect area = m_plot->axisRect()->rect();
    const double x = m_plot->xAxis->coordToPixel(m_cursorUs);
    const bool visible = m_cursorUs >= 0 && data() && x >= area.left() && x <= area.right();
    if (visible)
        m_cursor->setGeometry(qRound(x) - 1, area.top(), 3, area.height());
    m_cursor->setVisible(visible);
}

TimeScale TimelineView::timeScale() const
{
    const QRect r = m_plot->axisRect()->rect();
    return {m_plot->xAxis->range().lower, m_plot->xAxis->range().upper, static_cast<double>(r.left()),
            static_cast<double>(r.width())};
}

void TimelineView::setTimeRange(double beginUs, double endUs)
{
    m_plot->xAxis->setRange(beginUs, endUs);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::zoomAt(double factor, double anchorPx)
{
    const TimeScale z = timeScale().zoomed(factor, anchorPx);
    setTimeRange(z.beginUs, z.endUs);
}

void TimelineView::panBy(double deltaPx)
{
    const TimeScale p = timeScale().panned(deltaPx);
    setTimeRange(p.beginUs, p.endUs);
}

void TimelineView::fitAll()
{
    const TimeScale f = TimeScale::fit(0, data() ? data()->endUs() : 1.0, 0, 1);
    m_settingRange = true;
    m_plot->xAxis->setRange(f.beginUs, f.endUs);
    m_settingRange = false;
    m_followEnd = true;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::replotNow() { m_plot->replot(QCustomPlot::rpImmediateRefresh); }

void TimelineView::onRangeChanged()
{
    const QCPRange r = m_plot->xAxis->range();
    const TimeUnit unit = unitForSpan(r.size());
    m_ticker->setUnit(unit);
    m_plot->xAxis->setLabel(tr("time (%1)").arg(QString::fromUtf8(unitSymbol(unit))));
    if (!m_settingRange)
        m_followEnd = false; // the user moved the view: stop following a streaming run
}

void TimelineView::updateIterationLabels()
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const TimelineData* d = data();
    const QCPRange r = m_plot->xAxis->range();
    // the lanes' width at the plot's current size (the last replot's layout may be of another)
    const QMargins margins = m_plot->axisRect()->margins();
    const double widthPx = m_plot->width() - margins.left() - margins.right();
    if (d && r.size() > 0 && widthPx > 0) {
        const std::vector<IterationMark>& its = d->run().iterations;
        const QFontMetricsF fm(m_plot->xAxis2->tickLabelFont());
        const double labelUs = (fm.horizontalAdvance(tr("iteration %1").arg(its.size())) + 12) * r.size() / widthPx;
        auto it =
            std::partition_point(its.begin(), its.end(), [&](const IterationMark& m) { return m.endUs <= r.lower; });
        while (it != its.end() && it->beginUs < r.upper) {
            const double b = std::max(it->beginUs, r.lower), e = std::min(it->endUs, r.upper);
            if (e - b >= labelUs) {
                ticker->addTick((b + e) / 2, tr("iteration %1").arg(it - its.begin() + 1));
                ++it;
            } else {
                // too narrow for its name: on to the first iteration that begins a name's width further
                it = std::partition_point(it + 1, its.end(),
                                          [&](const IterationMark& m) { return m.beginUs < b + labelUs; });
            }
        }
    }
    m_plot->xAxis2->setTicker(ticker);
}

std::optional<TimelineData::Hit> TimelineView::hitAt(QPointF pos) const
{
    const TimelineData* d = data();
    if (!d || !m_plot->axisRect()->rect().contains(pos.toPoint()))
        return std::nullopt;
    int rank = 0;
    LaneBand band = LaneBand::Main;
    if (!d->layout().hit(m_plot->yAxis->pixelToCoord(pos.y()), &rank, &band))
        return std::nullopt;
    const TimeScale sc = timeScale();
    auto hit = d->spanAt(rank, band, sc.toTime(pos.x()), sc, 3);
    if (hit) {
        // the pixel column under the point, as the level-of-detail pass cuts them
        const double column = std::floor(pos.x() - sc.leftPx);
        const std::array<int, 3> n =
            spansIn(*d->lane(rank, band), sc.toTime(sc.leftPx + column), sc.toTime(sc.leftPx + column + 1));
        hit->inPixel = std::max(1, n[0] + n[1] + n[2]);
    }
    return hit;
}

QString TimelineView::tooltipFor(const TimelineData::Hit& hit) const
{
    const TimelineData* d = data();
    const RunResult& run = d->runOf(hit.band);
    const size_t count = hit.band == LaneBand::Reference ? run.spans.size() : d->runSpanCount();
    if (hit.span < 0 || static_cast<size_t>(hit.span) >= count)
        return {};
    const Span& sp = d->span(hit.band, hit.span);
    const TimeUnit unit = unitForSpan(d->endUs());
    // Begin, end and duration to four significant digits of the duration (20.00 ms, 1234.56 ms,
    // 0.129 ms), never finer than a microsecond: "20.000000 ms" claimed a precision no run has.
    const double resolutionUs =
        std::max(1.0, std::pow(10.0, std::floor(std::log10(std::max(sp.durationUs(), 1e-9))) - 3));
    auto exact = [unit, resolutionUs](double us) { return QString::fromStdString(formatTime(us, unit, resolutionUs)); };
    const QString op = sp.op >= 0 && sp.op < static_cast<int>(m_opNames.size()) ? m_opNames[static_cast<size_t>(sp.op)]
                                                                                : tr("step %1").arg(sp.op + 1);
    QString title = kindTitle(sp.kind);
    if (sp.detail == SpanDetail::InjectedDelay)
        title = tr("Injected delay");
    else if (sp.detail == SpanDetail::Paging)
        title = tr("Unified-memory paging");
    QString text = QStringLiteral("<b>%1</b>: %2<br>").arg(title.toHtmlEscaped(), op.toHtmlEscaped());
    text += tr("rank %1, iteration %2").arg(sp.rank).arg(sp.iteration + 1);
    if (sp.stream != 0)
        text += tr(", communication stream");
    if (hit.band == LaneBand::Reference)
        text += tr(" (simulated)");
    text += QStringLiteral("<br>")
            + tr("begin %1<br>end %2<br>duration %3").arg(exact(sp.beginUs), exact(sp.endUs), exact(sp.durationUs()));
    if (sp.kind == SpanKind::Wait) {
        text += QStringLiteral("<br>");
        text += sp.waitedFor >= 0 ? tr("waited for rank %1, the last to arrive").arg(sp.waitedFor)
                                  : tr("waited for its own overlapped collectives to finish");
    }
    if (sp.collective >= 0 && sp.collective < static_cast<int>(run.collectives.size())) {
        const CollectiveRecord& rec = run.collectives[static_cast<size_t>(sp.collective)];
        // A group of some of the ranks (a tensor- or data-parallel communicator, a send and its
        // receive) is named by its members, in the communicator's order.
        QStringList members;
        for (int r : rec.group)
            members << QString::number(r);
        const QString kind = EngineTerms::op(rec.kind), bytes = QString::fromStdString(formatBytes(rec.bytes));
        const QString over =
            static_cast<int>(rec.group.size()) < run.ranks
                ? tr("%1 of %2 over ranks %3 (%4, %5)").arg(kind, bytes, members.join(QLatin1Char(',')))
                : tr("%1 of %2 over %3 ranks (%4, %5)").arg(kind, bytes).arg(rec.group.size());
        text +=
            QStringLiteral("<br>")
            + over.arg(QString::fromUtf8(algorithmName(rec.algorithm)), QString::fromUtf8(protocolName(rec.protocol)));
    }
    if (hit.inPixel > 1)
        text += QStringLiteral("<br><i>")
                + tr("%n spans aggregated in this pixel: zoom in to tell them apart", nullptr, hit.inPixel)
                + QStringLiteral("</i>");
    return text;
}

void TimelineView::onMousePress(QMouseEvent* event)
{
    m_pressPos = event->position();
    setFocus(Qt::MouseFocusReason);
}

void TimelineView::onMouseRelease(QMouseEvent* event)
{
    if ((event->position() - m_pressPos).manhattanLength() > 4 || event->button() != Qt::LeftButton)
        return; // a drag, not a click
    const auto hit = hitAt(event->position());
    if (!hit) {
        selectCollective(-1);
        emit spanSelected(-1, -1);
        return;
    }
    const Span& sp = data()->span(hit->band, hit->span);
    if (sp.collective >= 0 && hit->band != LaneBand::Reference)
        selectCollective(sp.collective);
    else
        selectSpan(hit->span, hit->band);
    emit spanSelected(hit->span, hit->band == LaneBand::Reference ? -1 : sp.collective);
}

void TimelineView::onMouseMove(QMouseEvent* event)
{
    if (event->buttons() != Qt::NoButton)
        return;
    const auto hit = hitAt(event->position());
    if (hit)
        QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(*hit), m_plot);
    else
        QToolTip::hideText();
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event); // the next replot fits the lanes' labels to the new size
    fitLegend();
}

// The legend's entries in one row where the width allows, else in as many rows as it takes, so
// that neither is an entry cut off nor does the legend set the timeline's minimum width (with a
// measured run's five entries in presenter mode's larger fonts it made the run page 1381 pixels
// wide on a 1366-pixel screen).
void TimelineView::fitLegend()
{
    QCPLegend* legend = m_plot->legend;
    const int entries = legend->itemCount();
    const int room = std::max(1, width());
    int columns = std::max(1, entries);
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    while (columns > 1 && legend->minimumOuterSizeHint().width() > room) {
        legend->setWrap(--columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_F && event->modifiers() == Qt::NoModifier) {
        fitAll();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace shardlab::gui

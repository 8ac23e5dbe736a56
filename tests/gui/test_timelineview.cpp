// The timeline's lanes and view: sorting into lanes, streaming appends, what a redraw paints
// (merging at one rectangle per pixel, wait labels), hit-testing, tooltips, selection, fit.
#include "gui_test_main.h"
#include "export/figure_exporter.h"
#include "run_test_helpers.h"
#include "style/plotstyle.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"

#include "timeline/qcustomplot_include.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

Span span(int rank, SpanKind kind, double b, double e, int collective = -1, int waitedFor = -1, int iteration = 0,
          int stream = 0)
{
    Span s;
    s.rank = rank;
    s.kind = kind;
    s.beginUs = b;
    s.endUs = e;
    s.collective = collective;
    s.waitedFor = waitedFor;
    s.iteration = iteration;
    s.stream = stream;
    s.op = kind == SpanKind::Compute ? 0 : 1;
    return s;
}

// A 1200 x 300 view showing `run`, drawn once.
std::unique_ptr<TimelineView> drawnView(std::shared_ptr<RunResult> run)
{
    auto v = std::make_unique<TimelineView>();
    v->resize(1200, 300);
    v->show();
    v->setData(TimelineData::build(std::move(run)));
    v->replotNow();
    return v;
}

CollectiveRecord collective(double start, double end, int last)
{
    CollectiveRecord c;
    c.op = 1;
    c.group = {0, 1};
    c.startUs = start;
    c.endUs = end;
    c.lastArrival = last;
    c.bytes = 1'000'000;
    return c;
}

// Two ranks, two iterations: rank 0 computes 100 us, rank 1 40 us and waits 60 us for it, then
// both communicate 20 us.
std::shared_ptr<RunResult> twoRanks()
{
    auto r = std::make_shared<RunResult>();
    r->ranks = 2;
    r->devices = {"G0", "G1"};
    for (int it = 0; it < 2; ++it) {
        const double t0 = it * 120.0;
        r->spans.push_back(span(1, SpanKind::Comm, t0 + 100, t0 + 120, it, -1, it)); // out of order on purpose
        r->spans.push_back(span(0, SpanKind::Compute, t0, t0 + 100, -1, -1, it));
        r->spans.push_back(span(0, SpanKind::Comm, t0 + 100, t0 + 120, it, -1, it));
        r->spans.push_back(span(1, SpanKind::Compute, t0, t0 + 40, -1, -1, it));
        r->spans.push_back(span(1, SpanKind::Wait, t0 + 40, t0 + 100, it, 0, it));
        r->collectives.push_back(collective(t0 + 100, t0 + 120, 0));
        r->iterations.push_back({t0, t0 + 120});
    }
    return r;
}

QPoint pointAt(const TimelineView& v, double us, int rank, LaneBand band = LaneBand::Main)
{
    const double y = v.plot()->yAxis->coordToPixel(v.data()->layout().band(rank, band).centre());
    return QPoint(qRound(v.plot()->xAxis->coordToPixel(us)), qRound(y));
}

} // namespace

class TstTimelineView : public QObject {
    Q_OBJECT
private slots:
    void lanesAreSortedPerKind()
    {
        auto d = TimelineData::build(twoRanks());
        QCOMPARE(d->layout().ranks, 2);
        QVERIFY(!d->layout().commStream);
        const TimelineTrack& wait = d->lane(1, LaneBand::Main)->track(SpanKind::Wait);
        QCOMPARE(int(wait.size()), 2);
        QCOMPARE(wait.begin[0], 40.0);
        QCOMPARE(wait.end[1], 220.0);
        QCOMPARE(int(d->lane(0, LaneBand::Main)->track(SpanKind::Wait).size()), 0);
        const TimelineTrack& comm = d->lane(1, LaneBand::Main)->track(SpanKind::Comm);
        QCOMPARE(comm.begin[0], 100.0); // the out-of-order span landed in order
        QCOMPARE(comm.begin[1], 220.0);
        QCOMPARE(d->endUs(), 240.0);
        QCOMPARE(d->spanCount(), size_t(10));
        QCOMPARE(d->collectiveStarts(), (std::vector<double>{100, 220}));
        const TimeScale scale{0, 240, 0, 240}; // 1 us per pixel
        auto hit = d->spanAt(1, LaneBand::Main, 50, scale);
        QVERIFY(hit);
        QCOMPARE(d->span(LaneBand::Main, hit->span).kind, SpanKind::Wait);
        QVERIFY(!d->spanAt(0, LaneBand::Main, 250, scale));
        QVERIFY(d->spanAt(0, LaneBand::Main, 242, scale, 3)); // within 3 px of the last span
    }

    void streamingAppendsIterations()
    {
        auto full = twoRanks();
        auto d = TimelineData::streaming(2, {"G0", "G1"});
        QCOMPARE(d->spanCount(), size_t(0));
        std::vector<Span> first(full->spans.begin(), full->spans.begin() + 5);
        d->append(first, {full->collectives[0]}, {full->iterations[0]});
        QCOMPARE(d->spanCount(), size_t(5));
        QCOMPARE(d->endUs(), 120.0);
        std::vector<Span> second(full->spans.begin() + 5, full->spans.end());
        d->append(second, {full->collectives[1]}, {full->iterations[1]});
        QCOMPARE(d->spanCount(), size_t(10));
        QCOMPARE(d->run().collectives.size(), size_t(2));
        const TimelineTrack& wait = d->lane(1, LaneBand::Main)->track(SpanKind::Wait);
        QCOMPARE(wait.begin, (std::vector<double>{40, 160}));
        // a late span from an earlier time is put in its place
        d->append({span(0, SpanKind::Compute, 500, 510), span(0, SpanKind::Compute, 300, 310)}, {}, {});
        QCOMPARE(d->lane(0, LaneBand::Main)->track(SpanKind::Compute).begin, (std::vector<double>{0, 120, 300, 500}));
        // in slices: two spans per call, the lanes fill up in order
        d->beginAppend({span(0, SpanKind::Compute, 720, 730), span(1, SpanKind::Compute, 700, 705),
                        span(1, SpanKind::Wait, 705, 730)},
                       {}, {{700, 730}});
        QCOMPARE(d->endUs(), 730.0); // the iteration mark is there at once
        QCOMPARE(d->spanCount(), size_t(12));
        QVERIFY(d->continueAppend(2)); // 700 (rank 1) and 705 (rank 1's wait)
        QCOMPARE(d->spanCount(), size_t(14));
        QCOMPARE(d->lane(1, LaneBand::Main)->track(SpanKind::Wait).begin.back(), 705.0);
        QVERIFY(!d->continueAppend(2));
        QCOMPARE(d->spanCount(), size_t(15));
        QCOMPARE(d->runSpanCount(), size_t(15));
        QCOMPARE(d->span(LaneBand::Main, 14).beginUs, 705.0); // spans keep their place in the chunk
        // overlapped collectives open the communication-stream lane
        d->append({span(1, SpanKind::Comm, 600, 610, -1, -1, 2, 1)}, {}, {});
        QVERIFY(d->layout().commStream);
        QCOMPARE(int(d->lane(1, LaneBand::CommStream)->track(SpanKind::Comm).size()), 1);
    }

    void paintsWaitsWithWhomAndHowLong()
    {
        TimelineView v;
        v.resize(1200, 500);
        v.show();
        v.setData(TimelineData::build(twoRanks()));
        v.setStraggler(0);
        v.replotNow();
        const SpanLayer* wait = v.spanLayer(SpanKind::Wait);
        QCOMPARE(wait->paintedRects(), 2);
        QCOMPARE(int(wait->annotations().size()), 2);
        for (const auto& a : wait->annotations())
            QCOMPARE(a.text, QString::fromUtf8("waits 60.0 \xc2\xb5s for rank 0"));
        QCOMPARE(v.spanLayer(SpanKind::Compute)->paintedRects(), 4);
        QCOMPARE(v.joins()->paintedJoins(), 2);
        // each join: its vertical line and a tick at the top and bottom of both members' lanes
        QCOMPARE(v.joins()->paintedJoinLines(), 2 * (1 + 2 * 2));
        QCOMPARE(v.straggler(), std::optional<int>(0));
        // the straggler's lane says so
        auto* ticker = static_cast<QCPAxisTickerText*>(v.plot()->yAxis->ticker().data());
        QVERIFY(ticker->ticks().first().contains(QStringLiteral("straggler")));
        QVERIFY(!ticker->ticks().last().contains(QStringLiteral("straggler")));
        // too narrow for words: the label shortens, then disappears
        QFontMetricsF fm(v.font());
        const Span w = v.data()->span(LaneBand::Main, 4);
        QCOMPARE(SpanLayer::waitLabel(w, fm.horizontalAdvance(QString::fromUtf8("60.0 \xc2\xb5s")) + 9, fm),
                 QString::fromUtf8("60.0 \xc2\xb5s"));
        QVERIFY(SpanLayer::waitLabel(w, 5, fm).isEmpty());
    }

    void mergesToAboutOneRectanglePerPixel()
    {
        // 100,000 compute spans of 1 us with 1 us gaps on one rank
        auto r = std::make_shared<RunResult>();
        r->ranks = 1;
        for (int i = 0; i < 100'000; ++i)
            r->spans.push_back(span(0, SpanKind::Compute, 2.0 * i, 2.0 * i + 1));
        r->iterations.push_back({0, 200'000});
        auto view = drawnView(r);
        TimelineView& v = *view;
        const int width = v.plot()->axisRect()->width();
        const int painted = v.spanLayer(SpanKind::Compute)->paintedRects();
        QVERIFY2(painted > 0 && painted <= width + 2,
                 qPrintable(QStringLiteral("%1 rects for %2 px").arg(painted).arg(width)));
        QVERIFY(v.spanLayer(SpanKind::Compute)->paintedAggregates() > 0);
        // a pixel column holds about 200,000 us / width / 2 us spans: the tooltip names the span
        // under the cursor and says how many the pixel holds, as spansIn counts them
        const QPoint p(v.plot()->axisRect()->left() + width / 2, pointAt(v, 0, 0).y());
        const auto dense = v.hitAt(p);
        QVERIFY(dense);
        const TimeScale sc = v.timeScale();
        const double column = std::floor(p.x() - sc.leftPx);
        const double a = sc.toTime(sc.leftPx + column), b = sc.toTime(sc.leftPx + column + 1);
        // spans begin at even microseconds: those beginning in [a, b), and one beginning before a
        // when a falls inside it
        int expected = 0;
        for (int i = 0; i < 100'000; ++i)
            expected += 2.0 * i < b && 2.0 * i + 1 > a ? 1 : 0;
        QCOMPARE(dense->inPixel, expected);
        QVERIFY(expected > 50);
        QVERIFY2(v.tooltipFor(*dense).contains(QStringLiteral("%1 spans aggregated in this pixel").arg(expected)),
                 qPrintable(v.tooltipFor(*dense)));
        // zoomed in to 100 us, the 50 spans there are each drawn on their own
        v.setTimeRange(0, 99.5);
        v.replotNow();
        QCOMPARE(v.spanLayer(SpanKind::Compute)->paintedRects(), 50);
        QCOMPARE(v.spanLayer(SpanKind::Compute)->paintedAggregates(), 0);
        const auto single = v.hitAt(pointAt(v, 10.5, 0));
        QVERIFY(single);
        QCOMPARE(single->inPixel, 1);
        QCOMPARE(v.data()->span(LaneBand::Main, single->span).beginUs, 10.0);
        QVERIFY(!v.tooltipFor(*single).contains(QStringLiteral("aggregated")));
    }

    void aggregatesToTheExportedImagesPixels()
    {
        // 1 us spans every 2 us, compute and wait in turn, shown at 4 us a pixel: every screen
        // column holds one of each (1 us each, a tie, so wait) and the lane is one wait block;
        // an image exported at twice the size has 2 us columns, one span each, so it shows them
        // in turn: a block per column of the image
        auto r = std::make_shared<RunResult>();
        r->ranks = 1;
        for (int i = 0; i < 20'000; ++i)
            r->spans.push_back(span(0, i % 2 == 0 ? SpanKind::Compute : SpanKind::Wait, 2.0 * i, 2.0 * i + 1));
        r->iterations.push_back({0, 40'000});
        auto view = drawnView(r);
        TimelineView& v = *view;
        const int width = v.plot()->axisRect()->width();
        v.setTimeRange(0, 4.0 * width);
        v.replotNow();
        QCOMPARE(v.spanLayer(SpanKind::Compute)->paintedRects(), 0);
        QCOMPARE(v.spanLayer(SpanKind::Wait)->paintedRects(), 1);
        const QPixmap image = v.plot()->toPixmap(v.plot()->width(), v.plot()->height(), 2.0);
        QCOMPARE(image.width(), 2 * v.plot()->width());
        // the image's columns are half a plot pixel: 2 * width of them, compute and wait in turn
        QCOMPARE(v.spanLayer(SpanKind::Compute)->paintedRects(), width);
        QCOMPARE(v.spanLayer(SpanKind::Wait)->paintedRects(), width);
        QCOMPARE(v.spanLayer(SpanKind::Compute)->paintedAggregates(), width);
    }

    void denseJoinsLoseTheirTicks()
    {
        // 2,000 all-reduces of 2 ranks, 10 us apart: zoomed out, about one join per 3 px and
        // no ticks; zoomed in to 20 of them, every join has its 4 ticks again
        auto r = std::make_shared<RunResult>();
        r->ranks = 2;
        for (int i = 0; i < 2000; ++i) {
            const double t = 10.0 * i;
            for (int rank = 0; rank < 2; ++rank)
                r->spans.push_back(span(rank, SpanKind::Comm, t, t + 5, -1, -1, i, 0));
            CollectiveRecord c;
            c.op = 1;
            c.group = {0, 1};
            c.startUs = t;
            c.endUs = t + 5;
            r->collectives.push_back(c);
        }
        r->iterations.push_back({0, 20'000});
        auto view = drawnView(r);
        TimelineView& v = *view;
        const int width = v.plot()->axisRect()->width();
        const int joins = v.joins()->paintedJoins();
        QVERIFY2(joins > width / 4 && joins <= width / 3 + 1,
                 qPrintable(QStringLiteral("%1 joins for %2 px").arg(joins).arg(width)));
        QCOMPARE(v.joins()->paintedJoinLines(), joins);
        v.setTimeRange(0, 195);
        v.replotNow();
        QCOMPARE(v.joins()->paintedJoins(), 20);
        QCOMPARE(v.joins()->paintedJoinLines(), 20 * 5);
    }

    void hoverAndClickFindTheSpan()
    {
        TimelineView v;
        v.resize(1200, 500);
        v.show();
        v.setOpNames({QStringLiteral("local compute"), QStringLiteral("gradient all-reduce")});
        v.setData(TimelineData::build(twoRanks()));
        v.replotNow();
        const auto hit = v.hitAt(pointAt(v, 70, 1));
        QVERIFY(hit);
        const Span& sp = v.data()->span(LaneBand::Main, hit->span);
        QCOMPARE(sp.kind, SpanKind::Wait);
        const QString tip = v.tooltipFor(*hit);
        QVERIFY2(tip.contains(QStringLiteral("waited for rank 0")), qPrintable(tip));
        // to the microsecond a simulation resolves, no trailing zeros beyond it ("60.000 µs" before)
        QVERIFY2(tip.contains(QString::fromUtf8("begin 40 \xc2\xb5s<br>end 100 \xc2\xb5s<br>duration 60 \xc2\xb5s")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("gradient all-reduce")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("over 2 ranks (")), qPrintable(tip)); // every rank: counted
        const QPoint between(pointAt(v, 70, 0).x(), qRound(v.plot()->yAxis->coordToPixel(0.47)));
        QVERIFY(!v.hitAt(between)); // between the rows of rank 0 and rank 1
        QVERIFY(!v.hitAt(QPoint(pointAt(v, 70, 0).x(), v.plot()->axisRect()->bottom() + 20))); // on the axis

        QSignalSpy selected(&v, &TimelineView::spanSelected);
        QTest::mouseClick(v.plot(), Qt::LeftButton, Qt::NoModifier, pointAt(v, 70, 1));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(1).toInt(), 0); // the first all-reduce
        QCOMPARE(v.selectedCollective(), 0);
        // a compute span selects only itself
        QTest::mouseClick(v.plot(), Qt::LeftButton, Qt::NoModifier, pointAt(v, 20, 0));
        QCOMPARE(v.selectedCollective(), -1);
        QVERIFY(v.selectedSpan() >= 0);
        QCOMPARE(v.data()->span(LaneBand::Main, v.selectedSpan()).kind, SpanKind::Compute);
    }

    // A collective of some of the ranks (a tensor-parallel group of a 2-D mesh, issue 30) names its
    // members: which group it is, not only how large.
    void aGroupOfSomeRanksIsNamedByItsMembers()
    {
        auto run = twoRanks();
        run->ranks = 4;
        run->devices = {"G0", "G1", "G2", "G3"};
        for (CollectiveRecord& c : run->collectives)
            c.group = {2, 0}; // in the communicator's order
        for (Span& s : run->spans)
            s.rank = s.rank == 1 ? 2 : s.rank;
        auto v = drawnView(run);
        const auto hit = v->hitAt(pointAt(*v, 70, 2));
        QVERIFY(hit);
        const QString tip = v->tooltipFor(*hit);
        QVERIFY2(tip.contains(QStringLiteral("over ranks 2,0 (")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("over 2 ranks")), qPrintable(tip));
    }

    void zoomPanAndFit()
    {
        TimelineView v;
        v.resize(1000, 400);
        v.show();
        v.setData(TimelineData::build(twoRanks()));
        v.replotNow();
        const TimeScale fitted = v.timeScale();
        QVERIFY(fitted.beginUs < 0 && fitted.endUs > 240);
        // wheel over the plot zooms in around the mouse
        const QPointF at(v.plot()->xAxis->coordToPixel(120), v.plot()->axisRect()->center().y());
        QWheelEvent wheel(at, v.plot()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(v.plot(), &wheel);
        const TimeScale zoomed = v.timeScale();
        QVERIFY(zoomed.endUs - zoomed.beginUs < fitted.endUs - fitted.beginUs);
        QVERIFY(qAbs(zoomed.toTime(at.x()) - 120) < 1e-6 * 240 + 0.5);
        v.panBy(100);
        QVERIFY(v.timeScale().beginUs < zoomed.beginUs);
        v.setFocus();
        QTest::keyClick(&v, Qt::Key_F);
        QCOMPARE(v.timeScale().beginUs, fitted.beginUs);
        QCOMPARE(v.timeScale().endUs, fitted.endUs);
    }

    void iterationNamesSitAboveTheLanesAndThinOutWhenNarrow()
    {
        auto run = twoRanks();
        run->iterations = {{0, 100}, {100, 200}, {200, 240}};
        TimelineView v;
        v.resize(1000, 400);
        v.show();
        v.setData(TimelineData::build(run));
        v.replotNow();
        auto names = [&v] {
            QStringList out;
            const auto ticker = v.plot()->xAxis2->ticker().dynamicCast<QCPAxisTickerText>();
            for (const QString& label : ticker->ticks())
                out << label;
            return out;
        };
        // on the top axis, outside the lanes: nothing draws over them
        QVERIFY(v.plot()->xAxis2->visible());
        QCOMPARE(names(), (QStringList{QStringLiteral("iteration 1"), QStringLiteral("iteration 2"),
                                       QStringLiteral("iteration 3")}));
        // each name over the middle of its iteration
        const auto ticks = v.plot()->xAxis2->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
        QCOMPARE(ticks.firstKey(), 50.0);
        // in a plot too narrow for all three names, only those that fit are named
        v.resize(260, 400);
        QCoreApplication::processEvents(); // the layout gives the plot its new width
        v.replotNow();
        QVERIFY2(names().size() < 3, qPrintable(names().join(QLatin1Char(','))));
    }

    void referenceRunGetsItsOwnLane()
    {
        auto measured = twoRanks();
        auto simulated = twoRanks();
        for (Span& s : simulated->spans) { // the model predicts compute 10% faster
            s.beginUs *= 0.9;
            s.endUs *= 0.9;
        }
        auto d = TimelineData::build(measured, simulated);
        QVERIFY(d->layout().reference);
        QCOMPARE(int(d->lane(1, LaneBand::Reference)->track(SpanKind::Wait).size()), 2);
        QCOMPARE(d->lane(1, LaneBand::Reference)->track(SpanKind::Wait).begin[0], 36.0);
        TimelineView v;
        v.resize(1200, 500);
        v.show();
        v.setData(d);
        v.replotNow();
        QCOMPARE(v.plot()->legend->itemCount(), 5); // compute, comm, wait, collective, simulated
        const auto hit = v.hitAt(pointAt(v, 50, 1, LaneBand::Reference));
        QVERIFY(hit);
        QCOMPARE(int(hit->band), int(LaneBand::Reference));
        QVERIFY(v.tooltipFor(*hit).contains(QStringLiteral("(simulated)")));
    }

    // Issue 29: a slide's figure shows the run, not the collective clicked on screen.
    void exportedFiguresLeaveTheSelectionOut()
    {
        auto v = drawnView(twoRanks());
        const QImage plain = FigureExporter::renderImage(v->plot(), 1.0);
        v->selectCollective(1);
        v->replotNow();
        const QImage onScreen = v->plot()->toPixmap(v->plot()->width(), v->plot()->height(), 1.0).toImage();
        QVERIFY(onScreen != plain.convertToFormat(onScreen.format())); // the selection is drawn on screen
        QVERIFY(FigureExporter::renderImage(v->plot(), 1.0) == plain);
        QVERIFY(!v->plot()->property(kExportingProperty).isValid()); // and comes back after the export
    }

    // Issue 29: 64 ranks in 300 px printed 64 names over each other. Where a row is thinner than a
    // label, every stride-th rank is named (a power of two), the straggler always.
    void thinRowsNameEveryFewRanksAndTheStraggler()
    {
        QCOMPARE(TimelineView::laneLabelStride(4, 100, 15), 1);
        QCOMPARE(TimelineView::laneLabelStride(64, 4, 15), 8); // 4 px rows: 32 px apart >= 18
        QCOMPARE(TimelineView::laneLabelStride(64, 9, 15), 2);
        QCOMPARE(TimelineView::laneLabelStride(2, 0.5, 15), 2); // never beyond the ranks
        auto run = std::make_shared<RunResult>();
        run->ranks = 64;
        for (int r = 0; r < 64; ++r)
            run->spans.push_back(span(r, SpanKind::Compute, 0, r == 12 ? 200 : 100));
        run->iterations.push_back({0, 200});
        TimelineView v;
        v.resize(1200, 300);
        v.show();
        v.setData(TimelineData::build(run));
        v.setStraggler(12);
        v.replotNow();
        const auto ticks = v.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
        QVERIFY2(ticks.size() >= 4 && ticks.size() < 32, qPrintable(QString::number(ticks.size())));
        const QStringList names = ticks.values();
        QVERIFY(names.contains(QStringLiteral("rank 0")));
        QVERIFY(names.contains(QStringLiteral("rank 12 (straggler)")));
        // no two labels closer on screen than a line of their font
        const double line = QFontMetricsF(v.plot()->yAxis->tickLabelFont()).lineSpacing();
        QList<double> ys;
        for (double value : ticks.keys())
            ys << v.plot()->yAxis->coordToPixel(value);
        std::sort(ys.begin(), ys.end());
        for (int i = 1; i < ys.size(); ++i)
            QVERIFY2(ys[i] - ys[i - 1] >= line, qPrintable(QStringLiteral("%1 px apart").arg(ys[i] - ys[i - 1])));
        // room for every row: every rank named again
        v.resize(1200, 2600);
        QCoreApplication::processEvents();
        v.replotNow();
        QCOMPARE(v.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().size(), 64);
    }
};

SHARDLAB_GUI_TEST_MAIN(test_timelineview, TstTimelineView)
#include "test_timelineview.moc"

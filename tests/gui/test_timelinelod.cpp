// The timeline's level of detail (timelinelod.h): the blocks a lane is drawn as at a pixel scale,
// against blocks worked out by hand; zoomed in past the spans' widths, the blocks are the spans.
#include "gui_test_main.h"
#include "timeline/lanesummary.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinelod.h"

#include <QtTest>

#include <memory>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

Span lodSpan(int rank, SpanKind kind, double b, double e, SpanDetail detail = SpanDetail::None)
{
    Span s;
    s.rank = rank;
    s.kind = kind;
    s.beginUs = b;
    s.endUs = e;
    s.detail = detail;
    return s;
}

// One rank over 0..120 us (the letters name the spans in the comments below).
std::shared_ptr<RunResult> handBuilt()
{
    auto r = std::make_shared<RunResult>();
    r->ranks = 2;
    const SpanKind C = SpanKind::Compute, W = SpanKind::Wait, M = SpanKind::Comm;
    r->spans = {
        lodSpan(0, C, 0, 25),   // 0 A
        lodSpan(0, W, 25, 27),  // 1 B
        lodSpan(0, M, 27, 28),  // 2 C
        lodSpan(0, C, 28, 29),  // 3 D
        lodSpan(0, C, 30, 31),  // 4 E
        lodSpan(0, C, 32, 33),  // 5 F
        lodSpan(0, W, 33, 35),  // 6 G
        lodSpan(0, C, 41, 44),  // 7 H
        lodSpan(0, C, 45, 48),  // 8 I
        lodSpan(0, M, 48, 49),  // 9 J
        lodSpan(0, M, 50, 80),  // 10 K
        lodSpan(0, C, 85, 86),  // 11 L
        lodSpan(0, C, 95, 120), // 12 M
        // rank 1: three 1 us compute spans in one column, two of them paging
        lodSpan(1, C, 0, 1, SpanDetail::Paging),
        lodSpan(1, C, 2, 3, SpanDetail::Paging),
        lodSpan(1, C, 4, 5),
    };
    return r;
}

struct Expected {
    double x0, x1;
    SpanKind kind;
    int span;
};

void compareBlocks(const std::vector<LaneBlock>& got, const std::vector<Expected>& want)
{
    QCOMPARE(int(got.size()), int(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
        QVERIFY2(qFuzzyCompare(got[i].x0 + 1, want[i].x0 + 1) && qFuzzyCompare(got[i].x1 + 1, want[i].x1 + 1),
                 qPrintable(QStringLiteral("block %1: [%2, %3] instead of [%4, %5]")
                                .arg(i)
                                .arg(got[i].x0)
                                .arg(got[i].x1)
                                .arg(want[i].x0)
                                .arg(want[i].x1)));
        QCOMPARE(got[i].kind, want[i].kind);
        QCOMPARE(got[i].span, want[i].span);
    }
}

} // namespace

class TstTimelineLod : public QObject {
    Q_OBJECT
private slots:
    void aggregatesWhatIsBelowAPixel()
    {
        auto d = TimelineData::build(handBuilt());
        // 100 us on 10 px: 10 us a pixel column
        const TimeScale sc{0, 100, 0, 10};
        std::vector<LaneBlock> blocks;
        aggregateLane(*d->lane(0, LaneBand::Main), sc, 1, blocks);
        // A (25 us) is wider than a column: itself. B begins narrower: column 2 from where A
        // ended, [25, 30): wait 2 us (B), communication 1 (C), compute 1 (D): wait. Column 3,
        // [30, 40): compute 2 (E, F), wait 2 (G): a tie goes to wait; it joins the wait block
        // before it. Column 4, [40, 50): compute 6 (H, I), communication 1 (J): compute. K
        // (30 us) itself. Column 8, [80, 90): L alone, still narrower than the column. M from
        // its beginning to its end past the right edge.
        const SpanKind C = SpanKind::Compute, W = SpanKind::Wait, K = SpanKind::Comm;
        compareBlocks(blocks,
                      {{0, 2.5, C, 0}, {2.5, 4, W, -1}, {4, 5, C, -1}, {5, 8, K, 10}, {8, 9, C, -1}, {9.5, 12, C, 12}});
        // an image exported at twice the size: columns of half a pixel (5 us). [25, 30): B wins
        // as before; [30, 35): compute 2, wait 2 (G), a tie: wait, joined; [40, 45) compute 3
        // (H) and [45, 50) compute 3 (I) against communication 1: one compute block.
        aggregateLane(*d->lane(0, LaneBand::Main), sc, 0.5, blocks);
        compareBlocks(
            blocks,
            {{0, 2.5, C, 0}, {2.5, 3.5, W, -1}, {4, 5, C, -1}, {5, 8, K, 10}, {8.5, 9, C, -1}, {9.5, 12, C, 12}});
        // panned so that the view begins inside A: the 15 us left of A from the left edge; with
        // 5 us left, A is narrower than a column and [20, 30) holds compute 6 us (A's 5 and D)
        aggregateLane(*d->lane(0, LaneBand::Main), TimeScale{10, 110, 0, 10}, 1, blocks);
        QCOMPARE(blocks.front().span, 0);
        QCOMPARE(blocks.front().x0, 0.0);
        QCOMPARE(blocks.front().x1, 1.5);
        aggregateLane(*d->lane(0, LaneBand::Main), TimeScale{20, 120, 0, 10}, 1, blocks);
        QVERIFY(blocks.front().aggregated());
        QCOMPARE(blocks.front().kind, C);
        QCOMPARE(blocks.front().x1, 1.0);
    }

    void zoomedInTheBlocksAreTheSpans()
    {
        auto run = handBuilt();
        auto d = TimelineData::build(run);
        // 100 us on 10,000 px: the narrowest span (1 us) is 100 px
        const TimeScale sc{0, 100, 0, 10'000};
        std::vector<LaneBlock> blocks;
        aggregateLane(*d->lane(0, LaneBand::Main), sc, 1, blocks);
        QCOMPARE(int(blocks.size()), 13); // A to M: M begins in view
        for (size_t i = 0; i < blocks.size(); ++i) {
            const Span& s = run->spans[i];
            QCOMPARE(blocks[i].span, int(i));
            QCOMPARE(blocks[i].kind, s.kind);
            QCOMPARE(blocks[i].x0, s.beginUs * 100);
            QCOMPARE(blocks[i].x1, s.endUs * 100);
            QVERIFY(!blocks[i].aggregated());
        }
    }

    void pagingColoursTheColumnsItMostlyFills()
    {
        auto d = TimelineData::build(handBuilt());
        std::vector<LaneBlock> blocks;
        // [0, 10): compute 3 us, 2 of them paging: drawn as paging
        aggregateLane(*d->lane(1, LaneBand::Main), TimeScale{0, 100, 0, 10}, 1, blocks);
        QCOMPARE(int(blocks.size()), 1);
        QVERIFY(blocks[0].aggregated());
        QVERIFY(blocks[0].paging);
        // zoomed in, only the paging spans are
        aggregateLane(*d->lane(1, LaneBand::Main), TimeScale{0, 10, 0, 1000}, 1, blocks);
        QCOMPARE(int(blocks.size()), 3);
        QVERIFY(blocks[0].paging && blocks[1].paging && !blocks[2].paging);
    }

    void countsTheSpansInAColumn()
    {
        auto d = TimelineData::build(handBuilt());
        // [20, 30): A's end and D on compute, B on wait, C on communication
        const std::array<int, 3> n = spansIn(*d->lane(0, LaneBand::Main), 20, 30);
        QCOMPARE(n[size_t(SpanKind::Compute)], 2);
        QCOMPARE(n[size_t(SpanKind::Wait)], 1);
        QCOMPARE(n[size_t(SpanKind::Comm)], 1);
        const std::array<int, 3> none = spansIn(*d->lane(0, LaneBand::Main), 35, 41);
        QCOMPARE(none[0] + none[1] + none[2], 0);
    }

    void summaryBinsByHand()
    {
        LaneSummary sum;
        // the first span sets the bins' width: 4 us (a power of two) from 0
        sum.add(SpanKind::Compute, false, 0, 4);
        sum.add(SpanKind::Wait, false, 4, 6);
        sum.add(SpanKind::Comm, false, 6, 10);
        sum.add(SpanKind::Compute, true, 10, 11);
        sum.finish();
        QCOMPARE(sum.binUs(0), 4.0);
        QCOMPARE(sum.levels(), 1); // three bins: no coarser level needed
        const auto& bins = sum.level(0);
        QCOMPARE(int(bins.size()), 3);
        // [0, 4) compute 4; [4, 8) wait 2, communication 2; [8, 12) communication 2, compute 1
        // of which paging 1
        QCOMPARE(bins[0], (LaneSummary::Bin{4, 0, 0, 0}));
        QCOMPARE(bins[1][size_t(SpanKind::Wait)], 2.0f);
        QCOMPARE(bins[1][size_t(SpanKind::Comm)], 2.0f);
        QCOMPARE(bins[2], (LaneSummary::Bin{1, 2, 0, 1}));
        // on bin edges, exact; [2, 6) takes half of [0, 4) and half of [4, 8)
        QCOMPARE(sum.coverage(0, 4, 8), (LaneSummary::Bin{0, 2, 2, 0}));
        QCOMPARE(sum.coverage(0, 2, 6), (LaneSummary::Bin{2, 1, 1, 0}));
    }

    void summaryStaysSmallAndKeepsTheTotals()
    {
        // 100,000 spans of 1 us every 3 us, compute and wait in turn: the finest bins double until
        // they number no more than a quarter of the spans; every level sums to the same totals
        LaneSummary sum;
        double compute = 0, wait = 0;
        for (int i = 0; i < 100'000; ++i) {
            const SpanKind k = i % 2 ? SpanKind::Wait : SpanKind::Compute;
            sum.add(k, false, 3.0 * i, 3.0 * i + 1);
            (k == SpanKind::Wait ? wait : compute) += 1;
        }
        sum.finish();
        QVERIFY2(sum.level(0).size() <= 25'000, qPrintable(QString::number(sum.level(0).size())));
        QVERIFY(sum.level(0).size() > 12'500); // halved no further than needed
        size_t bins = 0;
        for (int l = 0; l < sum.levels(); ++l)
            bins += sum.level(l).size();
        QVERIFY2(bins * sizeof(LaneSummary::Bin) <= 100'000 * 8, qPrintable(QString::number(bins))); // 8 bytes a span
        QVERIFY2(sum.bytes() <= 100'000 * 16, qPrintable(QString::number(sum.bytes())));             // as allocated
        for (int l = 0; l < sum.levels(); ++l) {
            double c = 0, w = 0;
            for (const LaneSummary::Bin& b : sum.level(l)) {
                c += b[size_t(SpanKind::Compute)];
                w += b[size_t(SpanKind::Wait)];
            }
            QCOMPARE(c, compute);
            QCOMPARE(w, wait);
        }
        QVERIFY(sum.level(sum.levels() - 1).size() <= 16);
    }

    void zoomedOutTheSummaryDrawsTheLane()
    {
        // bins of 1 us (the first span's width); columns of 4 us read level 1 (2 us bins, two a
        // column: the coarsest with kBinsPerColumn = 2 bins a column)
        auto r = std::make_shared<RunResult>();
        r->ranks = 1;
        const SpanKind C = SpanKind::Compute, W = SpanKind::Wait, K = SpanKind::Comm;
        r->spans = {
            lodSpan(0, C, 0, 1),
            lodSpan(0, W, 1, 3), // [0, 4): wait 2, compute 1
            lodSpan(0, C, 4, 7),
            lodSpan(0, K, 7, 8),   // [4, 8): compute 3
            lodSpan(0, K, 8, 40),  // 4: fills [8, 40)
            lodSpan(0, C, 45, 46), // [44, 48): compute
            lodSpan(0, C, 48, 51, SpanDetail::Paging),
            lodSpan(0, C, 51, 52), // [48, 52): paging 3 of 4
        };
        auto d = TimelineData::build(r);
        const TimelineLane& lane = *d->lane(0, LaneBand::Main);
        QCOMPARE(lane.summary.binUs(0), 1.0);
        const TimeScale sc{0, 400, 0, 100};
        QCOMPARE(summaryLevel(lane.summary, sc.usPerPixel()), 1);
        std::vector<LaneBlock> blocks;
        aggregateLane(lane, sc, 1, blocks);
        // the communication filling [8, 40) is found in its track and drawn as itself; [40, 44)
        // is empty; [44, 48) compute and [48, 52) mostly paging stay apart
        compareBlocks(blocks, {{0, 1, W, -1}, {1, 2, C, -1}, {2, 10, K, 4}, {11, 12, C, -1}, {12, 13, C, -1}});
        QVERIFY(!blocks[3].paging);
        QVERIFY(blocks[4].paging);
        // columns on bin edges: the same blocks as from the spans themselves, but for the long
        // span, which the spans draw from its beginning (the column before is compute and the
        // communication [7, 8) joins nothing)
        std::vector<LaneBlock> exact;
        aggregateFromSpans(lane, sc, 1, exact);
        compareBlocks(exact, {{0, 1, W, -1}, {1, 2, C, -1}, {2, 10, K, 4}, {11, 12, C, -1}, {12, 13, C, -1}});
        // coarser columns read a coarser level, up to the coarsest there is (4 us bins: 52 bins,
        // 26, then 13, no more than 16); columns narrower than two finest bins read the spans
        QCOMPARE(summaryLevel(lane.summary, 16), 2);
        QCOMPARE(summaryLevel(lane.summary, 2), 0);
        QCOMPARE(summaryLevel(lane.summary, 1.9), -1);
    }

    void lateSpansResortOnlyTheTail()
    {
        // a stream whose second chunk reaches back before the first one's last span
        auto d = TimelineData::streaming(1, {"G0"});
        d->append({lodSpan(0, SpanKind::Compute, 0, 1), lodSpan(0, SpanKind::Compute, 10, 11),
                   lodSpan(0, SpanKind::Compute, 20, 22)},
                  {}, {});
        d->append({lodSpan(0, SpanKind::Compute, 15, 16), lodSpan(0, SpanKind::Compute, 30, 33)}, {}, {});
        const TimelineTrack& t = d->lane(0, LaneBand::Main)->track(SpanKind::Compute);
        QCOMPARE(t.begin, (std::vector<double>{0, 10, 15, 20, 30}));
        QCOMPARE(t.span, (std::vector<int>{0, 1, 3, 2, 4}));
        // summed durations: 1, 1, 1, 2, 3
        QCOMPARE(t.covered, (std::vector<double>{1, 2, 3, 5, 8}));
        QVERIFY(t.reach.empty()); // the ends are sorted again
        QCOMPARE(t.coveredBetween(1, 4), 4.0);
        // a span inside an earlier one keeps the running maximum of the ends
        d->append({lodSpan(0, SpanKind::Compute, 40, 50), lodSpan(0, SpanKind::Compute, 41, 42)}, {}, {});
        QCOMPARE(t.reach, (std::vector<double>{1, 11, 16, 22, 33, 50, 50}));
        QCOMPARE(t.firstEndingAfter(45), size_t(5));
        QCOMPARE(t.at(41.5), 6);
    }
};

SHARDLAB_GUI_TEST_GUILESS_MAIN(test_timelinelod, TstTimelineLod)
#include "test_timelinelod.moc"

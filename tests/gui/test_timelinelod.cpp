// The timeline's level of detail (timelinelod.h): the blocks a lane is drawn as at a pixel scale,
// against blocks worked out by hand; zoomed in past the spans' widths, the blocks are the spans.
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
                 qPrintable(QStringLiteral("block %1: [%2, %3] instead of [%4, %5]").arg(i).arg(got[i].x0).arg(got[i].x1).arg(want[i].x0).arg(want[i].x1)));
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
        compareBlocks(blocks, {{0, 2.5, C, 0}, {2.5, 4, W, -1}, {4, 5, C, -1}, {5, 8, K, 10}, {8, 9, C, -1}, {9.5, 12, C, 12}});
        // an image exported at twice the size: columns of half a pixel (5 us). [25, 30): B wins
        // as before; [30, 35): compute 2, wait 2 (G), a tie: wait, joined; [40, 45) compute 3
        // (H) and [45, 50) compute 3 (I) against communication 1: one compute block.
        aggregateLane(*d->lane(0, LaneBand::Main), sc, 0.5, blocks);
        compareBlocks(blocks, {{0, 2.5, C, 0}, {2.5, 3.5, W, -1}, {4, 5, C, -1}, {5, 8, K, 10}, {8.5, 9, C, -1}, {9.5, 12, C, 12}});
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

    void lateSpansResortOnlyTheTail()
    {
        // a stream whose second chunk reaches back before the first one's last span
        auto d = TimelineData::streaming(1, {"G0"});
        d->append({lodSpan(0, SpanKind::Compute, 0, 1), lodSpan(0, SpanKind::Compute, 10, 11), lodSpan(0, SpanKind::Compute, 20, 22)}, {},
                  {});
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

QTEST_GUILESS_MAIN(TstTimelineLod)
#include "test_timelinelod.moc"

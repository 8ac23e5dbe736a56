// Time <-> pixel maths, units and the lane layout, row by row (hand-computed).
#include "gui_test_main.h"
#include "timeline/timescale.h"

#include <QtTest>

using namespace shardlab::gui;

class TstTimeScale : public QObject {
    Q_OBJECT
private slots:
    void pixelsAndTimes_data()
    {
        QTest::addColumn<double>("us");
        QTest::addColumn<double>("px");
        // 0..1000 us onto 100 px starting at x = 50: 10 us per pixel
        QTest::newRow("left edge") << 0.0 << 50.0;
        QTest::newRow("one pixel") << 10.0 << 51.0;
        QTest::newRow("middle") << 500.0 << 100.0;
        QTest::newRow("right edge") << 1000.0 << 150.0;
        QTest::newRow("before") << -100.0 << 40.0;
        QTest::newRow("after") << 1500.0 << 200.0;
    }
    void pixelsAndTimes()
    {
        QFETCH(double, us);
        QFETCH(double, px);
        const TimeScale s{0, 1000, 50, 100};
        QCOMPARE(s.usPerPixel(), 10.0);
        QCOMPARE(s.toPixel(us), px);
        QCOMPARE(s.toTime(px), us);
    }

    void zoomKeepsTheAnchor()
    {
        const TimeScale s{0, 1000, 50, 100};
        // zoom in 2x around x = 75 (250 us): [125, 625]
        const TimeScale z = s.zoomed(0.5, 75);
        QCOMPARE(z.beginUs, 125.0);
        QCOMPARE(z.endUs, 625.0);
        QCOMPARE(z.toTime(75), 250.0);
        // and back out
        const TimeScale back = z.zoomed(2.0, 75);
        QCOMPARE(back.beginUs, 0.0);
        QCOMPARE(back.endUs, 1000.0);
    }

    void panFollowsTheMouse()
    {
        const TimeScale s{0, 1000, 50, 100};
        const TimeScale p = s.panned(20); // drag right by 20 px: 200 us earlier
        QCOMPARE(p.beginUs, -200.0);
        QCOMPARE(p.endUs, 800.0);
        QCOMPARE(p.toPixel(0), 70.0); // what was at x = 50 moved with the mouse
    }

    void fitAddsMargins()
    {
        const TimeScale f = TimeScale::fit(0, 2000, 0, 400, 0.05);
        QCOMPARE(f.beginUs, -100.0);
        QCOMPARE(f.endUs, 2100.0);
        const TimeScale empty = TimeScale::fit(10, 10, 0, 400, 0);
        QVERIFY(empty.endUs > empty.beginUs);
    }

    void units_data()
    {
        QTest::addColumn<double>("spanUs");
        QTest::addColumn<int>("unit");
        QTest::newRow("1.5 ms shows us") << 1500.0 << int(TimeUnit::Microseconds);
        QTest::newRow("2 ms shows ms") << 2000.0 << int(TimeUnit::Milliseconds);
        QTest::newRow("360 ms") << 360e3 << int(TimeUnit::Milliseconds);
        QTest::newRow("3 s") << 3e6 << int(TimeUnit::Seconds);
    }
    void units()
    {
        QFETCH(double, spanUs);
        QFETCH(int, unit);
        QCOMPARE(int(unitForSpan(spanUs)), unit);
    }

    void formatting()
    {
        QCOMPARE(QString::fromStdString(formatTime(12'500, TimeUnit::Milliseconds, 100)), QStringLiteral("12.5 ms"));
        QCOMPARE(QString::fromStdString(formatTime(12'600, TimeUnit::Milliseconds, 1000)), QStringLiteral("13 ms"));
        QCOMPARE(QString::fromStdString(formatTime(12'345.678, TimeUnit::Milliseconds, 0.001)),
                 QStringLiteral("12.345678 ms"));
        QCOMPARE(QString::fromStdString(formatTimeValue(2.5e6, TimeUnit::Seconds, 5e5)), QStringLiteral("2.5"));
        // ticks 2.5 ms and 0.25 ms apart: every label exact (before: "2", "5", "8" and "0.8")
        QCOMPARE(QString::fromStdString(formatTimeValue(7'500, TimeUnit::Milliseconds, 2'500)), QStringLiteral("7.5"));
        QCOMPARE(QString::fromStdString(formatTimeValue(5'000, TimeUnit::Milliseconds, 2'500)), QStringLiteral("5.0"));
        QCOMPARE(QString::fromStdString(formatTimeValue(750, TimeUnit::Milliseconds, 250)), QStringLiteral("0.75"));
        QCOMPARE(QString::fromStdString(formatTimeValue(-0.0001, TimeUnit::Milliseconds, 1000)), QStringLiteral("0"));
        QCOMPARE(QString::fromStdString(formatDuration(60'000)), QString::fromUtf8("60.0 ms"));
        QCOMPARE(QString::fromStdString(formatDuration(38.67)), QString::fromUtf8("38.7 \xc2\xb5s"));
        QCOMPARE(QString::fromStdString(formatDuration(2.5e6)), QStringLiteral("2.50 s"));
    }

    void laneRows_data()
    {
        QTest::addColumn<bool>("comm");
        QTest::addColumn<bool>("reference");
        QTest::addColumn<int>("band");
        QTest::addColumn<double>("top");
        QTest::addColumn<double>("bottom");
        // rank 2's row is [1.5, 2.5]; bands inside [-0.40, 0.40] of its centre
        QTest::newRow("main alone") << false << false << int(LaneBand::Main) << 1.60 << 2.40;
        QTest::newRow("main with comm") << true << false << int(LaneBand::Main) << 1.60 << 2.22;
        QTest::newRow("comm lane") << true << false << int(LaneBand::CommStream) << 2.26 << 2.40;
        QTest::newRow("main with reference") << false << true << int(LaneBand::Main) << 1.60 << 2.10;
        QTest::newRow("reference lane") << false << true << int(LaneBand::Reference) << 2.14 << 2.40;
        QTest::newRow("main with both") << true << true << int(LaneBand::Main) << 1.60 << 1.92;
        QTest::newRow("comm with both") << true << true << int(LaneBand::CommStream) << 1.96 << 2.10;
        QTest::newRow("reference with both") << true << true << int(LaneBand::Reference) << 2.14 << 2.40;
    }
    void laneRows()
    {
        QFETCH(bool, comm);
        QFETCH(bool, reference);
        QFETCH(int, band);
        QFETCH(double, top);
        QFETCH(double, bottom);
        const LaneLayout l{4, comm, reference};
        const BandExtent e = l.band(2, LaneBand(band));
        QVERIFY2(qAbs(e.top - top) < 1e-9, qPrintable(QString::number(e.top)));
        QVERIFY2(qAbs(e.bottom - bottom) < 1e-9, qPrintable(QString::number(e.bottom)));
        int rank = -1;
        LaneBand hit = LaneBand::Main;
        QVERIFY(l.hit(e.centre(), &rank, &hit));
        QCOMPARE(rank, 2);
        QCOMPARE(int(hit), band);
    }

    void hitMissesGapsAndOutside()
    {
        const LaneLayout l{4, true, false};
        int rank = -1;
        LaneBand band = LaneBand::Main;
        QVERIFY(!l.hit(2.24, &rank, &band)); // between main (to 2.22) and comm (from 2.26)
        QVERIFY(!l.hit(2.45, &rank, &band)); // between rows
        QVERIFY(!l.hit(-0.6, &rank, &band));
        QVERIFY(!l.hit(3.6, &rank, &band));
        QVERIFY(l.hit(0.0, &rank, &band));
        QCOMPARE(rank, 0);
        QCOMPARE(l.valueMin(), -0.5);
        QCOMPARE(l.valueMax(), 3.5);
    }
};

SHARDLAB_GUI_TEST_APPLESS_MAIN(test_timescale, TstTimeScale)
#include "test_timescale.moc"

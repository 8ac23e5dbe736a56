// The analysis views' item models under QAbstractItemModelTester, with their figures checked
// against the engine's.
#include "analysis/accuracymodel.h"
#include "analysis/findingsmodel.h"
#include "analysis/scalingmodel.h"
#include "analysis/sweepmodel.h"

#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/simulator.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QtTest>

using namespace shardlab;
using namespace shardlab::gui;

class TestAnalysisModels : public QObject {
    Q_OBJECT
private slots:
    void sweepModel()
    {
        SweepModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        CostModel cost(preset("h200-nv18-4")->firstGpus(4));
        const auto sim = simulateSweep(cost, OpKind::AllReduce, 4, {8, 1 << 20, 1 << 30});
        std::vector<SweepRow> measured = {sim[1]};
        measured[0].timeUs *= 1.25; // the model is 20 % faster than this "measurement"
        measured[0].wrong = 0;
        model.setRows(OpKind::AllReduce, overlaySweeps(sim, measured), sim[1].bytes);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(SweepModel::ColumnCount));
        QCOMPARE(model.index(2, SweepModel::Size).data().toString(), QString::number(1 << 30));
        QCOMPARE(model.index(2, SweepModel::SimTime).data().toString(), QString::number(sim[2].timeUs, 'f', 2));
        QCOMPARE(model.index(2, SweepModel::SimBusbw).data().toString(), QString::number(sim[2].busbwGBps, 'f', 2));
        QCOMPARE(model.index(1, SweepModel::Error).data().toString(), QStringLiteral("-20.0"));
        QCOMPARE(model.index(1, SweepModel::Wrong).data().toString(), QStringLiteral("0"));
        QCOMPARE(model.index(0, SweepModel::Wrong).data().toString(), QStringLiteral("N/A"));
        QCOMPARE(model.index(0, SweepModel::Redop).data().toString(), QStringLiteral("sum"));
        QVERIFY(model.index(1, 0).data(Qt::BackgroundRole).value<QBrush>() != QBrush()); // the crossover row
        QVERIFY(!model.headerData(SweepModel::SimBusbw, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        model.setRows(OpKind::Broadcast, {}, 0);
        QCOMPARE(model.rowCount(), 0);
    }

    void scalingModel()
    {
        ScalingModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto s = loadScenario(SHARDLAB_SCENARIO_DIR "/fifth-gpu-4.shardlab.json");
        QVERIFY(s.ok());
        ScalingOptions o;
        o.maxGpus = 6;
        auto curve = scalingCurve(*s, o);
        QVERIFY(curve.ok());
        model.setCurve(*curve);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.index(4, ScalingModel::Gpus).data().toInt(), 5);
        QCOMPARE(model.index(4, ScalingModel::Step).data().toString(),
                 QString::number(curve->points[4].stepTimeMs, 'f', 2)); // numbers.h: two decimals
        QCOMPARE(model.index(0, ScalingModel::Speedup).data().toString(), QStringLiteral("1.00x"));
        QVERIFY(model.index(4, ScalingModel::LimitedBy).data().toString().contains(QStringLiteral("cross-socket")));
    }

    void accuracyModel()
    {
        AccuracyModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        AccuracyRow r;
        r.kind = OpKind::AllGather;
        r.ranks = 2;
        r.bytes = 1 << 20;
        r.measuredUs = 100;
        r.startUs = 120;
        r.calibratedUs = 101;
        std::vector<AccuracyRow> rows{r};
        computeErrors(rows);
        model.setRows(rows);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, AccuracyModel::Collective).data().toString(), QStringLiteral("all_gather"));
        QCOMPARE(model.index(0, AccuracyModel::Size).data().toString(), QStringLiteral("1 MiB"));
        QCOMPARE(model.index(0, AccuracyModel::BeforeError).data().toString(), QStringLiteral("+20.0"));
        QCOMPARE(model.index(0, AccuracyModel::CalibratedError).data().toString(), QStringLiteral("+1.0"));
        // colour by the goal: 20 % is a miss, 1 % is good
        QVERIFY(model.index(0, AccuracyModel::BeforeError).data(Qt::ForegroundRole).value<QBrush>().color()
                != model.index(0, AccuracyModel::CalibratedError).data(Qt::ForegroundRole).value<QBrush>().color());
    }

    void findingsModels()
    {
        auto s = loadScenario(SHARDLAB_SCENARIO_DIR "/straggler-12-6-4-2.shardlab.json");
        QVERIFY(s.ok());
        auto run = simulate(*s);
        QVERIFY(run.ok());
        const auto findings = diagnose(*s, *run, summarize(*s, *run));
        QCOMPARE(findings.size(), size_t(1));

        FindingsModel list;
        QAbstractItemModelTester t1(&list, QAbstractItemModelTester::FailureReportingMode::QtTest);
        list.setFindings(findings);
        QCOMPARE(list.rowCount(), 1);
        QVERIFY(
            list.index(0).data().toString().startsWith(QStringLiteral("Problem: Every sync point waits for rank 0")));
        QCOMPARE(list.index(0).data(Qt::ToolTipRole).toString(), QString::fromStdString(findings[0].sentence));

        RankEvidenceModel table;
        QAbstractItemModelTester t2(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
        table.setEvidence(findings[0].ranks, false, 0);
        QCOMPARE(table.rowCount(), 4);
        QCOMPARE(table.index(3, RankEvidenceModel::Wait).data().toString(), QStringLiteral("100.00"));
        QCOMPARE(table.index(0, RankEvidenceModel::Work).data().toString(), QStringLiteral("50.0 %"));
        QVERIFY(table.index(0, 0).data(Qt::BackgroundRole).value<QBrush>() != QBrush()); // the straggler stands out
        QVERIFY(table.index(0, RankEvidenceModel::LastCompleted).data().toString().isEmpty()); // not a hang
        table.setEvidence({}, false, -1);
        QCOMPARE(table.rowCount(), 0);
    }
};

QTEST_MAIN(TestAnalysisModels)
#include "test_analysismodels.moc"

// The analysis views offscreen: each computes off the GUI thread and shows the engine's figures;
// the calibration action is disabled with an explanation where live mode is missing; the page
// diagnoses the scenario it is given and the runs it is shown.
#include "analysis/accuracymodel.h"
#include "analysis/analysispage.h"
#include "analysis/calibrationpanel.h"
#include "analysis/comparisonview.h"
#include "analysis/diagnosispanel.h"
#include "analysis/findingsmodel.h"
#include "analysis/scalingmodel.h"
#include "analysis/scalingview.h"
#include "analysis/sweepmodel.h"
#include "analysis/sweepview.h"

#include "shardlab/analysis/calibration_run.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/live.h"
#include "shardlab/model/presets.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include "timeline/qcustomplot_include.h"

#include <numeric>

using namespace shardlab;
using namespace shardlab::gui;

namespace {
Scenario example(const char* file)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/" + file);
    return s.ok() ? *s : Scenario{};
}
} // namespace

class TestAnalysisViews : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

    void sweepView()
    {
        SweepView view;
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy done(&view, &SweepView::simulationAvailable);
        view.setTopology(*preset("h200-nv18-4"), CostProfile::defaults());
        QVERIFY(done.wait(10000));
        QCOMPARE(view.gpus(), 4);
        QCOMPARE(view.model()->rowCount(), 14); // 8 B to 512 MiB in steps of 4 (1 GB is not a power of 4 past 512M)
        QCOMPARE(view.plot()->graph(0)->dataCount(), 14);
        QVERIFY(view.fitText().contains(QStringLiteral("bandwidth-bound")));
        // the crossover is drawn
        QVERIFY(view.plot()->itemCount() >= 1);
        // the simulated numbers are the engine's
        CostModel model(preset("h200-nv18-4")->firstGpus(4));
        const auto rows = simulateSweep(model, OpKind::AllReduce, 4, {1 << 20});
        const auto& last = view.model()->rows();
        bool found = false;
        for (const SweepOverlayRow& r : last)
            if (r.bytes == rows[0].bytes) {
                found = true;
                QCOMPARE(r.simulated->timeUs, rows[0].timeUs);
            }
        QVERIFY(!found); // 1 MiB is not on the 8B:1GB:4 grid; 8 x 4^k is
        // measured rows overlay, with the error
        std::vector<SweepRow> measured = {last[5].simulated.value()};
        measured[0].timeUs *= 2;
        view.setMeasuredRows(measured);
        QCOMPARE(view.plot()->graph(1)->dataCount(), 1);
        QCOMPARE(view.model()->index(5, SweepModel::Error).data().toString(), QStringLiteral("-50.0"));
        QCOMPARE(view.findChild<QPushButton*>()->isEnabled() || !liveBuiltIn(), true);
        const auto buttons = view.findChildren<QPushButton*>();
        for (QPushButton* b : buttons)
            if (b->text().contains(QStringLiteral("Measure")))
                QCOMPARE(b->isEnabled(), liveBuiltIn());
    }

    void scalingView()
    {
        ScalingView view;
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy done(&view, &ScalingView::curveAvailable);
        view.setScenario(example("fifth-gpu-4.shardlab.json")); // up to 16 GPUs
        QVERIFY(done.wait(20000));
        view.setMaxGpus(8);
        QVERIFY(done.wait(20000));
        QCOMPARE(view.model()->rowCount(), 8);
        const ScalingCurve& c = view.model()->curve();
        QVERIFY(c.points[4].stepTimeMs > c.points[3].stepTimeMs); // the fifth GPU makes it slower
        QVERIFY(view.notesText().contains(QStringLiteral("From 4 to 5 GPUs")));
        QCOMPARE(view.curvePlot()->graph(0)->dataCount(), 8);
        QCOMPARE(view.splitPlot()->plottableCount(), 4); // compute, communication, wait, idle
        QCOMPARE(qobject_cast<QCPBars*>(view.splitPlot()->plottable(1))->data()->at(4)->value, c.points[4].commMs);
        // the crossing into the other socket is marked above the fifth bar
        bool marked = false;
        for (int i = 0; i < view.splitPlot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(view.splitPlot()->item(i)))
                marked = marked || t->text().contains(QStringLiteral("CPU-socket"));
        QVERIFY(marked);
        // weak scaling, then a long curve cancelled at once: nothing arrives
        view.setMode(ScalingMode::Weak);
        QVERIFY(done.wait(20000));
        QCOMPARE(view.model()->curve().mode, ScalingMode::Weak);
        done.clear();
        view.setMaxGpus(1024);
        QVERIFY(view.computing());
        view.cancel();
        QVERIFY(!view.computing());
        QVERIFY(!done.wait(1500));
    }

    // Issue 29: the course's own counts (as `scale --gpus 1,8,16`), a linear or logarithmic GPU
    // axis, and the ideal line never cut off at the top.
    void scalingViewTakesCountsAndAxes()
    {
        ScalingView view;
        QSignalSpy done(&view, &ScalingView::curveAvailable);
        QSignalSpy failed(&view, &ScalingView::failed);
        view.setScenario(example("scaling-8-to-16.shardlab.json"));
        QVERIFY(done.wait(20000));
        view.setGpuCounts(QStringLiteral("8, 16 32"));
        QVERIFY(done.wait(20000));
        const ScalingCurve& c = view.model()->curve();
        QCOMPARE(view.model()->rowCount(), 4); // one GPU always
        QCOMPARE(c.points.back().gpus, 32);
        QCOMPARE(c.points[1].gpus, 8);
        QCustomPlot* plot = view.curvePlot();
        for (auto axis : {ScalingView::GpuAxis::Points, ScalingView::GpuAxis::Linear, ScalingView::GpuAxis::Log}) {
            view.setGpuAxis(axis);
            QVERIFY2(plot->yAxis->range().upper >= 32, qPrintable(QString::number(plot->yAxis->range().upper)));
            QVERIFY(plot->xAxis->range().contains(plot->graph(1)->data()->at(3)->key));
        }
        // logarithmic: both axes, the points at their GPU counts
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(plot->graph(0)->data()->at(2)->key, 16.0);
        view.setGpuAxis(ScalingView::GpuAxis::Linear);
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLinear);
        QCOMPARE(plot->graph(1)->data()->at(3)->value, 32.0);
        view.setGpuAxis(ScalingView::GpuAxis::Points);
        QCOMPARE(plot->graph(0)->data()->at(3)->key, 3.0);
        // a wrong entry is named and nothing is simulated; the curve shown stays
        view.setGpuCounts(QStringLiteral("8, sixteen"));
        QCOMPARE(failed.count(), 1);
        QVERIFY(view.statusText().contains(QStringLiteral("\"sixteen\"")));
        QCOMPARE(view.model()->rowCount(), 4);
        QString error;
        for (const char* bad : {"0", "70000", "-4", "2.5"}) {
            error.clear();
            QVERIFY(ScalingView::parseGpuCounts(QString::fromLatin1(bad), &error).empty());
            QVERIFY2(error.contains(QString::fromLatin1(bad)), bad);
        }
        error.clear();
        QVERIFY(ScalingView::parseGpuCounts(QStringLiteral("  "), &error).empty());
        QVERIFY(error.isEmpty());
        QCOMPARE(ScalingView::parseGpuCounts(QStringLiteral("1;2 ,4"), &error), (std::vector<int>{1, 2, 4}));
    }

    void comparisonView()
    {
        ComparisonView view;
        QSignalSpy done(&view, &ComparisonView::comparisonAvailable);
        view.setTopology(*preset("h200-nv18-4"), CostProfile::defaults());
        QVERIFY(done.wait(10000));
        view.setBytesText(QStringLiteral("4 GB"));
        QVERIFY(done.wait(10000));
        QCOMPARE(view.comparison().ranks, 4);
        QCOMPARE(view.cellText(0, 2), QStringLiteral("1 GB")); // reduce-scatter leaves a quarter
        QCOMPARE(view.cellText(1, 0), QStringLiteral("8 GB")); // all-reduce: in + out
        QCOMPARE(view.cellText(1, 1), QStringLiteral("5 GB")); // the pair: 4 GB + 1 GB
        QCOMPARE(view.cellText(2, 0), QStringLiteral("6 GB")); // 2(n-1)/n x 4 GB
        QCOMPARE(view.cellText(3, 0), QString::fromStdString(formatMicros(view.comparison().allReduce.timeUs)));
        // the default wrong choice: all-reduce where the concatenation was needed
        QVERIFY(!view.consequence().correct);
        QCOMPARE(view.consequence().got[0], (std::vector<double>{100, 104}));
    }

    void calibrationPanelFitsAndSaves()
    {
        QTemporaryDir dir;
        qputenv("SHARDLAB_PROFILE_DIR", dir.path().toUtf8());
        CalibrationPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Disabled, saying why, until the live probe has found GPUs; enabled only when it has.
        QVERIFY(!panel.calibrateEnabled());
        QVERIFY(!panel.calibrateReason().isEmpty());
        if (!liveBuiltIn())
            QVERIFY(panel.explanation().contains(QStringLiteral("Not available here")));
        panel.setLiveAvailability(false, QStringLiteral("No GPU is visible to this process"));
        QVERIFY(!panel.calibrateEnabled());
        QVERIFY(panel.calibrateReason().contains(QStringLiteral("No GPU is visible to this process")));
        panel.setLiveAvailability(true, QStringLiteral("1 GPU on this machine: NVIDIA H200"));
        QVERIFY(panel.calibrateEnabled());
        QVERIFY(panel.calibrateReason().isEmpty());
        const Topology machine = preset("h200-nv18-4")->firstGpus(2);
        panel.setTopology(machine);
        CostProfile truth = CostProfile::defaults();
        truth.link[static_cast<int>(LinkKind::NvLink)].efficiency = 0.7;
        CostModel m(machine, truth);
        std::vector<CalibrationSample> samples;
        for (OpKind k : {OpKind::AllReduce, OpKind::AllGather, OpKind::Broadcast})
            for (const SweepRow& r : simulateSweep(m, k, 2, {8, 1 << 16, 1 << 20, 1 << 26, 1 << 30}))
                samples.push_back({k, 2, r.bytes, r.timeUs});
        QSignalSpy done(&panel, &CalibrationPanel::calibrationAvailable);
        QSignalSpy saved(&panel, &CalibrationPanel::profileSaved);
        panel.fitSamples(samples);
        QVERIFY(done.wait(20000));
        QCOMPARE(panel.model()->rowCount(), 15);
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved.at(0).at(0).toString(), QStringLiteral("calibrated"));
        auto profile = loadProfile("calibrated");
        QVERIFY(profile.ok());
        QVERIFY(std::fabs(profile->link[0].efficiency - 0.7) < 0.01);
        QVERIFY(panel.summaryText().contains(QStringLiteral("Saved as profile 'calibrated'")));
        QCOMPARE(panel.errorPlot()->graph(1)->dataCount(), 15);

        // a calibration through hooks reports progress on the GUI thread
        CalibrationHooks hooks;
        hooks.topology = [machine]() -> Result<Topology> { return machine; };
        hooks.measure = [machine, truth](OpKind k, int gpus,
                                         const std::vector<Bytes>& sizes) -> Result<std::vector<SweepRow>> {
            CostModel model(machine.firstGpus(gpus), truth);
            return simulateSweep(model, k, gpus, sizes);
        };
        QSignalSpy progress(&panel, &CalibrationPanel::progress);
        panel.startCalibration(hooks);
        QVERIFY(done.wait(20000));
        QVERIFY(progress.count() >= 5);
        QCOMPARE(panel.model()->rowCount(), 5 * int(defaultCalibrationSizes().size()));
        qunsetenv("SHARDLAB_PROFILE_DIR");
    }

    void pageDiagnosesScenarioAndRuns()
    {
        AnalysisPage page;
        QAbstractItemModelTester t1(page.diagnosisPanel()->findingsModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(page.diagnosisPanel()->evidenceModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy diagnosed(&page, &AnalysisPage::diagnosisAvailable);
        const Scenario straggler = example("straggler-12-6-4-2.shardlab.json");
        page.setScenario(straggler);
        QVERIFY(diagnosed.wait(20000));
        QCOMPARE(page.diagnosisPanel()->findingsModel()->rowCount(), 1);
        QCOMPARE(page.diagnosisPanel()->evidenceModel()->rowCount(), 4);
        QVERIFY(page.diagnosisPanel()->detailText().contains(QStringLiteral("input distribution")));

        // a hung run shown to the page: the hang rule, with each rank's last collective
        Scenario hang = example("default.shardlab.json");
        hang.iterations = 2;
        hang.perturbations.mismatches = {
            Mismatch{Mismatch::Type::Skip, 1, 2, 1}}; // rank 1 skips the bucketed all-reduce
        QVERIFY(validateScenario(hang).ok());
        auto run = simulate(hang);
        QVERIFY(run.ok() && run->hang);
        page.showRun(hang, *run, summarize(hang, *run));
        QVERIFY(diagnosed.wait(20000));
        const auto& findings = page.diagnosisPanel()->findingsModel()->findings();
        QCOMPARE(findings.size(), size_t(1));
        QCOMPARE(findings[0].rule, FindingRule::CollectiveHang);
        QVERIFY(page.diagnosisPanel()->detailText().contains(QStringLiteral("rank 1 skipped")));
        // iteration 0 completed its four bucket all-reduces, #0 to #3
        QCOMPARE(page.diagnosisPanel()->evidenceModel()->index(0, RankEvidenceModel::LastCompleted).data().toInt(), 3);

        // a balanced run: no finding, said so
        page.setScenario(example("default.shardlab.json"));
        QVERIFY(diagnosed.wait(20000));
        QCOMPARE(page.diagnosisPanel()->findingsModel()->rowCount(), 0);

        // a scenario naming a profile that does not exist still works, on the built-in one
        Scenario missing = straggler;
        missing.costProfile = "no-such-profile";
        QSignalSpy failedSpy(&page, &AnalysisPage::failed);
        page.setScenario(missing);
        QVERIFY(diagnosed.wait(20000));
        QCOMPARE(failedSpy.count(), 0);
        page.showTab(AnalysisPage::ScalingTab);
    }
};

QTEST_MAIN(TestAnalysisViews)
#include "test_analysisviews.moc"

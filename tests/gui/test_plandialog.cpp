// Issue 27, File > New from a transformer plan: the dialog prices the plan as the boxes change,
// refuses an impossible one with its reason (and no way to open it), and opens a plan as a new
// scenario whose program is the schedule and whose memory is the plan's.
#include "gui_test_main.h"
#include "document/document.h"
#include "plan/plandialog.h"
#include "plan/plancomparison.h"
#include "shell/mainwindow.h"
#include "screenshot.h"

#include "shardlab/base/file_io.h"
#include "shardlab/plan/compute_calibration.h"

#include <QDialogButtonBox>
#include <QTemporaryDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

using namespace shardlab;
using namespace shardlab::gui;

class TestPlanDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-plandialog"));
    }

    void pricesThePlanAndRefusesAnImpossibleOne()
    {
        PlanDialog dialog;
        dialog.setModel(QStringLiteral("llama3-8b"));
        dialog.setMachine(QStringLiteral("h200-nvswitch-8"), 8);
        dialog.setAxes(8, 1, 1);
        QVERIFY(dialog.estimate() != nullptr);
        QVERIFY(dialog.summaryText().contains(QStringLiteral("MFU")));
        QCOMPARE(dialog.estimate()->plan.dp, 1);
        QPushButton* open = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(open->isEnabled());

        dialog.setAxes(3, 1, 1); // 32 heads are not divisible by 3 (and 8 GPUs not by TP 3)
        QVERIFY(dialog.estimate() == nullptr);
        QVERIFY(!open->isEnabled());
        QVERIFY2(dialog.problemText().contains(QStringLiteral("not a multiple")), qPrintable(dialog.problemText()));

        dialog.setMachine(QStringLiteral("h200-nvswitch-8"), 6);
        QVERIFY2(dialog.problemText().contains(QStringLiteral("TP 3 does not divide the 32 attention heads")),
                 qPrintable(dialog.problemText()));

        dialog.setMachine(QStringLiteral("h200-nvswitch-8"), 8);
        dialog.setAxes(2, 4, 1);
        QVERIFY(dialog.estimate() != nullptr);
        dialog.resize(560, 760);
        dialog.show();
        test::saveScreen(&dialog, QStringLiteral("plan-dialog"));
        QCOMPARE(static_cast<int>(dialog.estimate()->stages.size()), 4);
    }

    // A compute calibration measured on the plan's GPU (`shardlab calibrate --compute`) prices the
    // plan's compute; one measured on another GPU is refused with both named; "As shipped" undoes it.
    void aMeasuredComputeFileReprices()
    {
        PlanDialog dialog;
        dialog.setModel(QStringLiteral("llama3-8b"));
        dialog.setMachine(QStringLiteral("h200-nvswitch-8"), 8);
        dialog.setAxes(2, 1, 1);
        QVERIFY(dialog.estimate() != nullptr);
        const double shipped = dialog.estimate()->stepUs;
        ComputeMeasurementFile fast;
        fast.device = "NVIDIA H200";
        fast.date = "2026-12-05";
        for (const GemmPoint& p : calibrationGemmGrid())
            fast.gemmBf16.push_back({p.m, p.n, p.k, 950});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h200-fast.json"));
        QVERIFY(writeFileAtomically(path.toStdString(), computeMeasurementJson(fast)));
        dialog.setComputeFile(path);
        QVERIFY(dialog.estimate() != nullptr);
        QVERIFY2(dialog.estimate()->stepUs < shipped, qPrintable(dialog.summaryText()));
        QCOMPARE(QString::fromStdString(dialog.request().computeFile), path);
        // the same file for an A100 machine: refused, not priced with something else
        dialog.setMachine(QStringLiteral("2x8-a100-8hdr"), 8);
        QVERIFY(dialog.estimate() == nullptr);
        QVERIFY2(dialog.problemText().contains(QStringLiteral("taken on NVIDIA H200")),
                 qPrintable(dialog.problemText()));
        dialog.setMachine(QStringLiteral("h200-nvswitch-8"), 8);
        dialog.setComputeFile(QString()); // as shipped
        QVERIFY(dialog.estimate() != nullptr);
        QCOMPARE(dialog.estimate()->stepUs, shipped);
        // a file that is not there: its path in the message
        dialog.setComputeFile(dir.filePath(QStringLiteral("gone.json")));
        QVERIFY(dialog.estimate() == nullptr);
        QVERIFY2(dialog.problemText().contains(QStringLiteral("gone.json")), qPrintable(dialog.problemText()));
    }

    // A lesson's plan fills every box at once and is priced as `shardlab plan` prices it.
    void takesARequestWhole()
    {
        PlanRequest r;
        r.model = "teaching-125m";
        r.gpus = 8;
        r.plan.tp = 2;
        r.plan.pp = 4;
        r.plan.zero = ZeroStage::Optimizer;
        r.plan.schedule = {ScheduleKind::Interleaved, 3};
        r.settings.seq = 2048;
        r.settings.microBatch = 2;
        r.settings.globalBatch = 32;
        r.settings.recompute = Recompute::Full;
        r.settings.flashAttention = false;
        PlanDialog dialog;
        dialog.setRequest(r);
        PlanRequest shown = dialog.request();
        shown.plan.dp = r.plan.dp; // the dialog leaves DP to the GPUs
        QVERIFY(shown == r);
        QVERIFY(dialog.estimate() != nullptr);
        auto priced = pricePlan(r);
        QVERIFY(priced && priced->priced);
        QCOMPARE(dialog.estimate()->stepUs, priced->priced->estimate.stepUs);
        QCOMPARE(dialog.estimate()->plan.dp, 1);
    }

    // Two plans side by side: A kept, B in the boxes; the table's figures are the two estimates, and
    // "Side by side" hands both plans' scenarios to the window's side-by-side view.
    void comparesTwoPlans()
    {
        PlanDialog dialog;
        dialog.setModel(QStringLiteral("llama3-8b"));
        dialog.setMachine(QStringLiteral("h200-nvswitch-8"), 8);
        dialog.setAxes(8, 1, 1);
        QVERIFY(dialog.comparison()->isHidden());
        dialog.keepAsA();
        QVERIFY(dialog.kept());
        const double stepA = dialog.kept()->estimate.stepUs;
        dialog.setAxes(2, 4, 1);
        const double stepB = dialog.estimate()->stepUs;
        QVERIFY(!dialog.comparison()->isHidden());
        QCOMPARE(dialog.comparison()->item(0, 0)->text(), QStringLiteral("TP 8 x PP 1 x DP 1"));
        QCOMPARE(dialog.comparison()->item(0, 1)->text(), QString::fromStdString(planText(dialog.estimate()->plan)));
        QCOMPARE(dialog.comparison()->item(1, 2)->text(), QStringLiteral("%1x").arg(stepB / stepA, 0, 'f', 2));

        dialog.resize(620, 980);
        dialog.show();
        test::saveScreen(&dialog, QStringLiteral("plan-compare"));

        QSignalSpy sides(&dialog, &PlanDialog::sideBySideRequested);
        for (QPushButton* b : dialog.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Side &by side"))
                b->click();
        QCOMPARE(sides.count(), 1);
        const auto a = sides.at(0).at(0).value<Scenario>();
        const auto b = sides.at(0).at(1).value<Scenario>();
        QVERIFY(a.name.find("TP 8 x PP 1") != std::string::npos);
        QVERIFY(b.name.find("TP 2 x PP 4") != std::string::npos);

        dialog.setAxes(3, 1, 1); // refused: B's column says so, A stays
        QCOMPARE(dialog.comparison()->item(1, 1)->text(), QStringLiteral("refused"));
        dialog.forgetA();
        QVERIFY(dialog.comparison()->isHidden());
        QVERIFY(!dialog.kept());
    }

    void opensThePlanAsANewScenario()
    {
        MainWindow w;
        w.newFromPlan();
        PlanDialog* dialog = w.planDialog();
        QVERIFY(dialog && dialog->isVisible() && !dialog->isModal()); // beside the window
        dialog->setModel(QStringLiteral("teaching-125m"));
        dialog->setMachine(QStringLiteral("h200-nvswitch-8"), 4);
        dialog->setAxes(1, 4, 1);
        dialog->accept();
        QVERIFY(!dialog->isVisible());
        const Scenario& sc = w.scenario();
        QCOMPARE(sc.topology.rankCount(), 4);
        int passes = 0;
        for (const Op& op : sc.program)
            passes += op.kind == OpKind::Compute;
        QVERIFY(passes >= 2 * 4); // a forward and a backward pass per stage and micro-batch
        QVERIFY(sc.name.find("TP 1 x PP 4") != std::string::npos);
        QVERIFY(w.document()->filePath().isEmpty()); // untitled: saving asks where
    }
};

SHARDLAB_GUI_TEST_MAIN(test_plandialog, TestPlanDialog)
#include "test_plandialog.moc"

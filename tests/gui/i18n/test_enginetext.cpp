// The engine's sentences in the interface language: in a zh_CN app the run page's summary
// sentence, the diagnosis (findings, detail, evidence states) and the warnings of the editor are
// worded in Chinese, with no English left but technical terms, units and the scenario's names;
// in an English app they are the engine's English.
#include "../../common/preset_source_terms.h"
#include "analysis/analysispage.h"
#include "analysis/diagnosispanel.h"
#include "analysis/findingsmodel.h"
#include "analysis/scalingmodel.h"
#include "analysis/scalingview.h"
#include "document/livefeedback.h"
#include "i18n/language.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "run/summarypanel.h"
#include "shell/mainwindow.h"
#include "topology/gpumodel.h"
#include "topology/machinedialog.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/model/presets.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/text/untranslated.h"

#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QStatusBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

Scenario straggler()
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/straggler-12-6-4-2.shardlab.json");
    if (!s)
        qFatal("%s", s.error().message.c_str());
    return *s;
}

std::vector<std::string> namesOf(const Scenario& s)
{
    std::vector<std::string> names{s.name, s.topology.name};
    for (const WorkloadItem& item : s.workload.items)
        names.push_back(item.name);
    for (const Op& op : s.program)
        names.push_back(op.name);
    for (const Gpu& g : s.topology.gpus)
        names.push_back(g.name);
    return names;
}

QString englishLeft(const QString& text, const Scenario& s)
{
    QStringList words;
    for (const std::string& w : untranslatedWords(text.toStdString(), namesOf(s)))
        words << QString::fromStdString(w);
    return words.join(QStringLiteral(", "));
}

bool hasHan(const QString& text)
{
    static const QRegularExpression han(QStringLiteral("\\p{Han}"));
    return han.match(text).hasMatch();
}

} // namespace

class TestEngineText : public QObject {
    Q_OBJECT
private slots:
    void summaryAndDiagnosisInChinese();
    void summaryInEnglish();
    void liveNotesInTheInterfaceLanguage();
    void scalingNotesInChinese();
    void machinesAndRefusedEditsInChinese();
    void liveUnavailableInChinese();
    void piecesOfChineseJoinWithoutStraySpaces();
};

// Issue 29: "跨越 网络" (a piece put into "跨越 %1") loses its stray space; a space between Chinese
// and Latin words or numbers stays, and English is left alone.
void TestEngineText::piecesOfChineseJoinWithoutStraySpaces()
{
    QCOMPARE(i18n::tidySpaces(QStringLiteral("跨越 网络")), QStringLiteral("跨越网络"));
    QCOMPARE(i18n::tidySpaces(QStringLiteral("由保存在 本机上的运行流 中的运行实测得到。")),
             QStringLiteral("由保存在本机上的运行流中的运行实测得到。"));
    QCOMPARE(i18n::tidySpaces(QStringLiteral("从 本机上的运行流 读取（第 2 步）")),
             QStringLiteral("从本机上的运行流读取（第 2 步）"));
    for (const QString& kept :
         {QStringLiteral("跨越 NVLink"), QStringLiteral("4 张 GPU"), QStringLiteral("保存在 run.json 中"),
          QStringLiteral("crosses the network"), QStringLiteral("Rank 0 #6、Rank 1 #6")})
        QCOMPARE(i18n::tidySpaces(kept), kept);
}

// Issue 29: where live mode cannot run, the reason (the run bar's note, the line under Run > Live,
// the analysis views' tooltips) is worded in the interface language, not as the engine's English.
void TestEngineText::liveUnavailableInChinese()
{
    i18n::installTranslations(qApp, i18n::kChinese, false);
    MainWindow w;
    RunController* c = w.runPage()->controller();
    QSignalSpy probed(c, &RunController::liveAvailabilityChanged);
    QVERIFY(probed.count() > 0 || probed.wait(60000));
    if (c->liveAvailable())
        QSKIP("live mode works on this machine");
    const Scenario none;
    const QString why = c->liveExplanation();
    QVERIFY2(hasHan(why) && englishLeft(why, none).isEmpty(),
             qPrintable(why + QStringLiteral(" | ") + englishLeft(why, none)));
    const QString line = w.action(QStringLiteral("run.liveReason"))->toolTip();
    QVERIFY2(hasHan(line) && englishLeft(line, none).isEmpty(), qPrintable(line));
    i18n::installTranslations(qApp, i18n::kEnglish, false);
}

// Pick a machine: each preset's description, citation (tooltip) and the summary of the machine
// chosen, and the status line of an edit the engine refuses (a size as typed), in Chinese.
void TestEngineText::machinesAndRefusedEditsInChinese()
{
    i18n::installTranslations(qApp, i18n::kChinese, false);
    // product names, document titles, figures and preset ids stay as they are
    std::vector<std::string> kept = shardlab::test::presetSourceTerms();
    for (const PresetInfo& p : presetList())
        kept.push_back(p.id);
    const auto left = [&](const QString& text) {
        QStringList words;
        for (const std::string& w : untranslatedWords(text.toStdString(), kept))
            words << QString::fromStdString(w);
        return words.join(QStringLiteral(", "));
    };
    MachineDialog dialog(4);
    auto* list = dialog.findChild<QListWidget*>();
    QVERIFY(list && list->count() == static_cast<int>(presetList().size()));
    for (int i = 0; i < list->count(); ++i) {
        const QString text = list->item(i)->text(), tip = list->item(i)->toolTip();
        QVERIFY2(hasHan(text) && left(text).isEmpty(), qPrintable(text + QStringLiteral(" | ") + left(text)));
        QVERIFY2(hasHan(tip) && left(tip).isEmpty(), qPrintable(tip + QStringLiteral(" | ") + left(tip)));
        list->setCurrentRow(i);
        dialog.findChild<QSpinBox*>()->setValue(64); // a scaled machine: its name says so
        const QString summary = dialog.findChildren<QLabel*>().last()->text();
        QVERIFY2(left(summary).isEmpty(), qPrintable(summary + QStringLiteral(" | ") + left(summary)));
    }

    MainWindow w;
    auto* gpus = w.findChild<GpuModel*>();
    QVERIFY(gpus);
    QVERIFY(!gpus->setData(gpus->index(0, GpuModel::Memory), QStringLiteral("12 XB"), Qt::EditRole));
    const QString status = w.statusBar()->currentMessage();
    QVERIFY2(status.contains(QStringLiteral("单位“XB”无法识别")), qPrintable(status));
    kept.insert(kept.end(), {"XB", "kB", "KiB", "MiB", "GiB", "TiB"}); // the units it names
    QVERIFY2(left(status).isEmpty(), qPrintable(status));
    i18n::installTranslations(qApp, i18n::kEnglish, false);
}

// The scaling curve's notes, the rescaling ones included (the straggler's uneven shards cannot be
// spread evenly over more GPUs), in Chinese.
void TestEngineText::scalingNotesInChinese()
{
    i18n::installTranslations(qApp, i18n::kChinese, false);
    const Scenario s = straggler();
    ScalingView view;
    QSignalSpy done(&view, &ScalingView::curveAvailable);
    view.setScenario(s);
    QVERIFY(done.wait(60000));
    QVERIFY(!view.model()->curve().rescaleNotes.empty());
    const QString notes = view.notesText();
    QVERIFY2(hasHan(notes), qPrintable(notes));
    QVERIFY2(englishLeft(notes, s).isEmpty(), qPrintable(englishLeft(notes, s) + QStringLiteral(" in ") + notes));
}

// A measured run's notes (its scaled buffers, its clock alignment) in the summary, worded in the
// interface language; the English where a run carries no message (an older result file).
void TestEngineText::liveNotesInTheInterfaceLanguage()
{
    const Scenario s = straggler();
    auto simulated = simulate(s);
    QVERIFY(simulated.ok());
    RunResult run = *simulated;
    run.notes = {Message("live.note.scaled")
                     .with("scale", verbatim("0.5"))
                     .with("rank", verbatim("1"))
                     .with("need", verbatim("80 GB"))
                     .with("free", verbatim("40 GB"))
                     .with("percent", verbatim("90")),
                 verbatim("an English note of an older file")};
    run.clockNote = Message("live.clock.no_timeline").with("error", verbatim("3"));
    auto outcome = std::make_shared<RunOutcome>();
    outcome->kind = RunKind::Live;
    outcome->scenario = s;
    outcome->summary = summarize(s, run);
    outcome->run = std::make_shared<const RunResult>(run);

    i18n::installTranslations(qApp, i18n::kChinese, false);
    SummaryPanel panel;
    panel.setOutcome(outcome);
    const QStringList zh = panel.notes().split(QLatin1Char('\n'));
    QCOMPARE(zh.size(), 3);
    QVERIFY2(zh[0].contains(QStringLiteral("缩放")) && zh[0].contains(QStringLiteral("80 GB")), qPrintable(zh[0]));
    QCOMPARE(zh[1], QStringLiteral("an English note of an older file"));
    QVERIFY2(zh[2].contains(QStringLiteral("对齐误差至多 3 us")), qPrintable(zh[2]));

    i18n::installTranslations(qApp, i18n::kEnglish, false);
    panel.setOutcome(outcome);
    const QStringList en = panel.notes().split(QLatin1Char('\n'));
    QCOMPARE(en.size(), 3);
    QVERIFY2(en[0].startsWith(QStringLiteral("collective sizes scaled by 0.5")), qPrintable(en[0]));
    QCOMPARE(en[2],
             QStringLiteral(
                 "live, timeline capture off: only iteration boundaries were stamped (alignment error at most 3 us)"));

    // a simulation has nothing to add: no notes, no clock note
    auto sim = std::make_shared<RunOutcome>(*outcome);
    sim->kind = RunKind::Simulate;
    sim->run = std::make_shared<const RunResult>(*simulated);
    panel.setOutcome(sim);
    QVERIFY(panel.notes().isEmpty());
}

void TestEngineText::summaryAndDiagnosisInChinese()
{
    i18n::installTranslations(qApp, i18n::kChinese, false);
    QCOMPARE(i18n::engineLanguage(), Language::Chinese);
    const Scenario s = straggler();

    RunPage run;
    run.setScenario(s);
    QSignalSpy ran(&run, &RunPage::runFinished);
    run.run();
    QVERIFY(ran.wait(60000));
    const QString sentence = run.findChild<SummaryPanel*>()->sentence();
    QVERIFY2(hasHan(sentence), qPrintable(sentence));
    QVERIFY2(sentence.contains(QStringLiteral("等待")), qPrintable(sentence));
    QVERIFY2(englishLeft(sentence, s).isEmpty(),
             qPrintable(englishLeft(sentence, s) + QStringLiteral(" in ") + sentence));

    AnalysisPage analysis;
    QSignalSpy diagnosed(&analysis, &AnalysisPage::diagnosisAvailable);
    analysis.setScenario(s);
    QVERIFY(diagnosed.wait(60000));
    DiagnosisPanel* panel = analysis.diagnosisPanel();
    FindingsModel* findings = panel->findingsModel();
    QVERIFY(findings->rowCount() > 0);
    QStringList shown;
    for (int row = 0; row < findings->rowCount(); ++row) {
        shown << findings->data(findings->index(row, 0), Qt::DisplayRole).toString();
        shown << findings->data(findings->index(row, 0), Qt::ToolTipRole).toString();
    }
    shown << panel->detailText();
    const QString all = shown.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("每个同步点都在等待 Rank 0")), qPrintable(all));
    QVERIFY2(englishLeft(all, s).isEmpty(), qPrintable(englishLeft(all, s) + QStringLiteral(" in ") + all));

    // the editor's warnings (an unbalanced placement)
    Feedback feedback;
    feedback.capacity = capacityOf(s, 10.0);
    const QString warnings = feedback.warnings().join(QLatin1Char('\n'));
    QVERIFY2(!warnings.isEmpty() && hasHan(warnings), qPrintable(warnings));
    QVERIFY2(englishLeft(warnings, s).isEmpty(), qPrintable(warnings));
}

void TestEngineText::summaryInEnglish()
{
    i18n::installTranslations(qApp, i18n::kEnglish, false);
    QCOMPARE(i18n::engineLanguage(), Language::English);
    const Scenario s = straggler();
    RunPage run;
    run.setScenario(s);
    QSignalSpy ran(&run, &RunPage::runFinished);
    run.run();
    QVERIFY(ran.wait(60000));
    const QString sentence = run.findChild<SummaryPanel*>()->sentence();
    QVERIFY2(!hasHan(sentence), qPrintable(sentence));
    QVERIFY2(sentence.contains(QStringLiteral("the others wait")), qPrintable(sentence));
}

QTEST_MAIN(TestEngineText)
#include "test_enginetext.moc"

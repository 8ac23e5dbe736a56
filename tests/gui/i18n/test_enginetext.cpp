// The engine's sentences in the interface language: in a zh_CN app the run page's summary
// sentence, the diagnosis (findings, detail, evidence states) and the warnings of the editor are
// worded in Chinese, with no English left but technical terms, units and the scenario's names;
// in an English app they are the engine's English.
#include "analysis/analysispage.h"
#include "analysis/diagnosispanel.h"
#include "analysis/findingsmodel.h"
#include "document/livefeedback.h"
#include "i18n/language.h"
#include "run/runpage.h"
#include "run/summarypanel.h"

#include "shardlab/io/scenario_io.h"
#include "shardlab/text/untranslated.h"

#include <QApplication>
#include <QRegularExpression>
#include <QSignalSpy>
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
};

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
    QVERIFY2(englishLeft(sentence, s).isEmpty(), qPrintable(englishLeft(sentence, s) + QStringLiteral(" in ") + sentence));

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

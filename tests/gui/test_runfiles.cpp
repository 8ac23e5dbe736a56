// File > Open on runs made elsewhere: a result file and a Chrome trace written by the real
// `shardlab` command line in this test appear on the run page (timeline, summary) and the analysis
// page (diagnosis) exactly as a local run of the same scenario; a bad file names the file and the
// problem and changes nothing; a trace without its scenario is read against the open one.
#include "gui_test_main.h"
#include "analysis/analysispage.h"
#include "analysis/diagnosispanel.h"
#include "document/document.h"
#include "document/edits.h"
#include "analysis/findingsmodel.h"
#include "gui_test_helpers.h"
#include "shell/mainwindow.h"
#include "run/playbackcontroller.h"
#include "run/runpage.h"
#include "run/summarypanel.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"
#include "shell/runfileopener.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/result_file.h"
#include "shardlab/sim/simulator.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

const QString kStraggler = QStringLiteral(SHARDLAB_SCENARIO_DIR "/straggler-12-6-4-2.shardlab.json");

// Runs the real command line; fails the test when it does not exit 0.
bool runCli(const QStringList& args)
{
    QProcess cli;
    cli.start(QStringLiteral(SHARDLAB_CLI), args);
    if (!cli.waitForFinished(60000) || cli.exitStatus() != QProcess::NormalExit || cli.exitCode() != 0) {
        qWarning("shardlab %s: %s", qPrintable(args.join(QLatin1Char(' '))), cli.readAllStandardError().constData());
        return false;
    }
    return true;
}

// Opens `path` and waits for the run to be shown (or for the failure).
RunOutcomePtr openRun(MainWindow& w, const QString& path)
{
    QSignalSpy shown(w.runPage(), &RunPage::outcomeAvailable);
    QSignalSpy failed(w.runFiles(), &RunFileOpener::failed);
    if (!w.openFile(path))
        return nullptr;
    for (int i = 0; i < 200 && shown.isEmpty() && failed.isEmpty(); ++i)
        shown.wait(100);
    return shown.isEmpty() ? nullptr : w.runPage()->lastOutcome();
}

bool waitForFailure(MainWindow& w, const QString& path)
{
    QSignalSpy failed(w.runFiles(), &RunFileOpener::failed);
    if (!w.openFile(path))
        return false;
    return failed.wait(20000);
}

// The diagnosis shown once the analysis page has caught up with the latest run (however long that
// takes on a loaded machine: the page says when it is done).
std::vector<Finding> shownFindings(MainWindow& w)
{
    QTest::qWait(0); // the run's outcome reaches the page through the event loop
    QElapsedTimer clock;
    clock.start();
    while (w.analysisPage()->diagnosing() && clock.elapsed() < 120000)
        QTest::qWait(10);
    return w.analysisPage()->diagnosisPanel()->findingsModel()->findings();
}

void expectLikeALocalRun(MainWindow& w, const RunOutcomePtr& out, const Scenario& scenario)
{
    auto direct = simulate(scenario);
    QVERIFY(direct.ok());
    const Summary expected = summarize(scenario, *direct);
    QVERIFY(out);
    QCOMPARE(out->scenario, scenario);
    QCOMPARE(out->summary.straggler, expected.straggler);
    QVERIFY(qAbs(out->summary.stepTimeMs - expected.stepTimeMs) < 1e-6);
    QCOMPARE(out->summary.sentence, expected.sentence);
    // the timeline and the summary panel show it
    QCOMPARE(w.runPage()->timeline()->data(), out->timeline.get());
    QCOMPARE(w.runPage()->timeline()->straggler(), std::optional<int>(0));
    QCOMPARE(w.runPage()->summary()->sentence(), QString::fromStdString(expected.sentence));
    QVERIFY(w.runPage()->playback()->index());
    // and the analysis page diagnoses it: rank 0 is the one every rank waits for
    bool sameRank = false;
    for (const Finding& f : shownFindings(w))
        sameRank = sameRank || (f.rule == FindingRule::SameRankWaitedFor && f.rank == std::optional<int>(0));
    QVERIFY(sameRank);
    QCOMPARE(w.pages()->currentWidget(), w.runPage());
}

} // namespace

class TstRunFiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-runfiles"));
        QVERIFY(m_dir.isValid());
        QVERIFY(runCli({QStringLiteral("sim"), kStraggler, QStringLiteral("--result"), path("run.shardlab-result.json"),
                        QStringLiteral("--trace"), path("run.trace.json")}));
    }

    void aResultFileAppearsAsALocalRun()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        w.resize(1500, 940);
        const RunOutcomePtr out = openRun(w, path("run.shardlab-result.json"));
        QVERIFY(prompter.errors.isEmpty());
        expectLikeALocalRun(w, out, test::loadExample("straggler-12-6-4-2.shardlab.json"));
        QCOMPARE(out->origin, QStringLiteral("run.shardlab-result.json"));
        // the run's scenario is open, as an untitled document that saving never writes over the result
        QCOMPARE(w.scenario(), out->scenario);
        QVERIFY(w.document()->filePath().isEmpty());
        QVERIFY(w.runPage()->message().isEmpty()); // no "scenario changed" banner: it is the run's scenario
    }

    void aTraceAppearsAsALocalRun()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QVERIFY(RunFileOpener::holdsRun(path("run.trace.json")));
        const RunOutcomePtr out = openRun(w, path("run.trace.json"));
        QVERIFY2(prompter.errors.isEmpty(), qPrintable(prompter.errors.join(QLatin1Char('\n'))));
        expectLikeALocalRun(w, out, test::loadExample("straggler-12-6-4-2.shardlab.json"));
        QCOMPARE(out->origin, QStringLiteral("run.trace.json"));
    }

    void unsavedChangesAreAskedAboutFirst()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QVERIFY(Edits::setGpuTflops(*w.document(), 0, 19).ok());
        const Scenario edited = w.scenario();
        prompter.saveChoice = Prompter::SaveChoice::Cancel;
        QVERIFY(!w.openFile(path("run.shardlab-result.json")));
        QCOMPARE(prompter.saveQuestions, 1);
        QVERIFY(w.scenario() == edited);
        QVERIFY(!w.runPage()->lastOutcome());
    }

    void badFilesNameTheFileAndTheProblemAndChangeNothing()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QVERIFY(openRun(w, path("run.shardlab-result.json")));
        const RunOutcomePtr before = w.runPage()->lastOutcome();
        QVERIFY(Edits::setGpuTflops(*w.document(), 2, 17).ok());
        const Scenario edited = w.scenario();
        prompter.saveChoice = Prompter::SaveChoice::Discard; // and still nothing may be lost

        // a result file cut short
        QFile cut(path("cut.shardlab-result.json"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(readFile(path("run.shardlab-result.json")).left(5000));
        cut.close();
        QVERIFY(waitForFailure(w, cut.fileName()));
        QCOMPARE(prompter.errors.size(), 1);
        QVERIFY(prompter.errors[0].contains(QStringLiteral("\"cut.shardlab-result.json\" could not be opened")));
        QVERIFY2(prompter.errors[0].contains(QStringLiteral("cut.shardlab-result.json: $: not valid JSON")),
                 qPrintable(prompter.errors[0]));

        // a trace whose event has a wrong field
        auto doc = nlohmann::json::parse(readFile(path("run.trace.json")).toStdString());
        size_t x = 0;
        while (doc["traceEvents"][x]["ph"] != "X")
            ++x;
        doc["traceEvents"][x]["dur"] = "long";
        QFile bad(path("bad.trace.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(QByteArray::fromStdString(doc.dump()));
        bad.close();
        QVERIFY(waitForFailure(w, bad.fileName()));
        QCOMPARE(prompter.errors.size(), 2);
        QVERIFY2(prompter.errors[1].contains(QStringLiteral(".dur: found a string (expected a number)")),
                 qPrintable(prompter.errors[1]));

        // nothing changed: the edited document, the run on the page
        QVERIFY(w.scenario() == edited);
        QVERIFY(w.document()->isModified());
        QCOMPARE(w.runPage()->lastOutcome(), before);
    }

    void aTraceWithoutItsScenarioIsReadAgainstTheOpenOne()
    {
        auto doc = nlohmann::json::parse(readFile(path("run.trace.json")).toStdString());
        doc["otherData"].erase("shardlab");
        QFile old(path("old.trace.json"));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write(QByteArray::fromStdString(doc.dump()));
        old.close();

        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        // the open scenario is another machine (two ranks): refused, naming the trace
        w.document()->reset(test::loadExample("lab-two-gpu-all-reduce.shardlab.json"), QString());
        QVERIFY(waitForFailure(w, old.fileName()));
        QVERIFY2(prompter.errors.join(QString()).contains(QStringLiteral("old.trace.json")),
                 qPrintable(prompter.errors.join(QString())));

        // with the scenario it was made from open, it reads
        w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        const RunOutcomePtr out = openRun(w, old.fileName());
        QVERIFY(out);
        QCOMPARE(out->summary.straggler, std::optional<int>(0));
        QVERIFY(!out->run->notes.empty());
    }

    void aLiveResultIsComparedWithItsSimulation()
    {
        // a result file of a measured run (made here from a simulation, marked live): the run page
        // overlays the simulation and shows the error per phase, as after a live run on this machine
        const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
        ResultFile rf;
        rf.scenario = s;
        rf.run = *simulate(s);
        rf.run.mode = RunMode::Live;
        rf.run.clockNote = verbatim("clocks of 4 processes aligned to rank 0's; residual error <= 2.0 us");
        rf.createdBy = "test";
        rf.launch = "Open MPI (mpirun), 4 processes on 1 host";
        QVERIFY(saveResult(rf, path("live.shardlab-result.json").toStdString()).ok());
        MainWindow w;
        const RunOutcomePtr out = openRun(w, path("live.shardlab-result.json"));
        QVERIFY(out);
        QCOMPARE(out->kind, RunKind::Live);
        QVERIFY(out->reference);
        QVERIFY(out->comparison.has_value());
        QVERIFY(w.runPage()->message().contains(QStringLiteral("live.shardlab-result.json")));
    }

private:
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    static QByteArray readFile(const QString& p)
    {
        QFile f(p);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    QTemporaryDir m_dir;
};

SHARDLAB_GUI_TEST_MAIN(test_runfiles, TstRunFiles)
#include "test_runfiles.moc"

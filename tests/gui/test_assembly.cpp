// The assembled main window: every page follows the open document, the run page's playback
// animates the diagram, a finished run is diagnosed on the analysis page, lessons open their
// scenario (asking about unsaved changes) and point at views, and the menus carry tooltips and
// keys that never collide, with Live disabled and its reason where there is no live mode.
#include "gui_test_main.h"
#include "analysis/analysispage.h"
#include "analysis/diagnosispanel.h"
#include "document/document.h"
#include "document/edits.h"
#include "editor/editorpage.h"
#include "analysis/findingsmodel.h"
#include "gui_test_helpers.h"
#include "lessons/lesson_browser.h"
#include "lessons/lesson_list_model.h"
#include "run/playbackcontroller.h"
#include "shell/mainwindow.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "sandbox/hangsandbox.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"
#include "shell/shortcutsdialog.h"

#include "shardlab/sim/simulator.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

QList<QAction*> menuActions(const QMenu* menu)
{
    QList<QAction*> out;
    for (QAction* a : menu->actions()) {
        if (a->menu())
            out += menuActions(a->menu());
        else if (!a->isSeparator())
            out << a;
    }
    return out;
}

QList<QAction*> allMenuActions(const MainWindow& w)
{
    QList<QAction*> out;
    for (QAction* top : w.menuBar()->actions())
        if (top->menu())
            out += menuActions(top->menu());
    return out;
}

void openStraggler(MainWindow& w)
{
    w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
}

} // namespace

class TstAssembly : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-assembly"));
    }

    void pagesFollowTheDocument()
    {
        MainWindow w;
        QCOMPARE(w.pages()->count(), 3);
        QCOMPARE(w.pages()->widget(1), w.runPage());
        QCOMPARE(w.pages()->widget(2), w.analysisPage());
        QVERIFY(w.lessons()->model()->rowCount() >= 10);
        QCOMPARE(w.runPage()->scenario(), w.scenario());

        QVERIFY(Edits::setGpuTflops(*w.document(), 1, 33).ok());
        QCOMPARE(w.runPage()->scenario().topology.gpus[1].tflops, 33.0);
        QVERIFY(w.hangSandbox()->scenarioWithMistake().ok());
        QCOMPARE(w.hangSandbox()->scenarioWithMistake()->topology.gpus[1].tflops, 33.0);
        // the analysis follows once the edits pause
        QSignalSpy diagnosed(w.analysisPage(), &AnalysisPage::diagnosisAvailable);
        QVERIFY(diagnosed.wait(10000));

        // a new document reaches every page
        openStraggler(w);
        QCOMPARE(w.runPage()->scenario().name, w.scenario().name);
        QVERIFY(diagnosed.wait(10000));
    }

    void aRunAnimatesTheDiagramAndIsDiagnosed()
    {
        MainWindow w;
        w.resize(1500, 940);
        w.show();
        openStraggler(w);
        QSignalSpy finished(w.runPage(), &RunPage::outcomeAvailable);
        QSignalSpy diagnosed(w.analysisPage(), &AnalysisPage::diagnosisAvailable);
        w.action(QStringLiteral("run.run"))->trigger();
        QCOMPARE(w.pages()->currentWidget(), w.runPage());
        QVERIFY(finished.wait(10000));
        const RunOutcomePtr out = w.runPage()->lastOutcome();
        QCOMPARE(out->summary.straggler, std::optional<int>(0));

        // the diagnosis on the analysis page is of this run: rank 0 is the one everyone waits for
        bool sameRank = false;
        for (int tries = 0; tries < 3 && !sameRank; ++tries) {
            if (diagnosed.isEmpty())
                QVERIFY(diagnosed.wait(10000));
            for (const Finding& f : w.analysisPage()->diagnosisPanel()->findingsModel()->findings())
                sameRank = sameRank || (f.rule == FindingRule::SameRankWaitedFor && f.rank == std::optional<int>(0));
            diagnosed.clear();
        }
        QVERIFY(sameRank);

        // playback animates the editor's diagram; the run page shows the same scene under its timeline
        QCOMPARE(w.runDiagram()->scene(), w.topologyScene());
        w.runPage()->playback()->stepForward();
        const ActivitySnapshot& frame = w.topologyScene()->activity();
        QCOMPARE(int(frame.ranks.size()), 4);
        QCOMPARE(frame.ranks[3], ActivityState::Wait);
        QCOMPARE(frame.waitingFor[3], 0);
    }

    void lessonsOpenTheirScenarioAskingAboutUnsavedChanges()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QVERIFY(Edits::setGpuTflops(*w.document(), 0, 21).ok());
        QVERIFY(w.document()->isModified());
        const Scenario edited = w.scenario();
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("straggler-12-6-4-2")));
        const QString path = QString::fromStdString(w.lessons()->currentLesson()->lesson.scenarioPath().string());

        prompter.saveChoice = Prompter::SaveChoice::Cancel;
        emit w.lessons()->openScenarioRequested(path);
        QCOMPARE(prompter.saveQuestions, 1);
        QVERIFY(w.scenario() == edited); // kept

        prompter.saveChoice = Prompter::SaveChoice::Discard;
        emit w.lessons()->openScenarioRequested(path);
        QCOMPARE(prompter.saveQuestions, 2);
        QCOMPARE(w.scenario(), namedIn(*loadScenario(path.toStdString()), Language::English)); // as it opens in English
        QVERIFY(!w.document()->isModified());
        QVERIFY(w.document()->filePath().isEmpty()); // a copy: the shipped file is never overwritten
    }

    // Issue 13: going through a lesson (its scenario, its steps' views, a run) and then opening its
    // second scenario must not ask to save a document the user never touched.
    void aLessonsSecondScenarioOpensWithoutAskingToSave()
    {
        MainWindow w;
        test::ScriptedPrompter prompter;
        w.setPrompter(&prompter);
        QVERIFY(w.lessons()->selectLesson(QStringLiteral("capacity-is-ownership")));
        const auto& lesson = w.lessons()->currentLesson()->lesson;
        emit w.lessons()->openScenarioRequested(QString::fromStdString(lesson.scenarioPath().string()));
        QSignalSpy finished(w.runPage(), &RunPage::outcomeAvailable);
        for (const char* view : {"memory", "summary", "program", "timeline"})
            w.showView(QString::fromLatin1(view));
        if (finished.isEmpty())
            QVERIFY(finished.wait(10000));
        QVERIFY2(!w.document()->isModified(), "the lesson's own steps modified the document");
        emit w.lessons()->openScenarioRequested(QString::fromStdString(lesson.compareScenarioPath().string()));
        QCOMPARE(prompter.saveQuestions, 0);
        QCOMPARE(w.scenario(), namedIn(*loadScenario(lesson.compareScenarioPath()), Language::English));
    }

    void lessonStepsPointAtViews()
    {
        MainWindow w;
        w.showView(QStringLiteral("memory"));
        QCOMPARE(w.pages()->currentWidget(), w.editorPage());
        QCOMPARE(w.editorPage()->sideTabs()->currentIndex(), 3);
        w.showView(QStringLiteral("program"));
        QCOMPARE(w.editorPage()->sideTabs()->currentIndex(), 1);
        QSignalSpy finished(w.runPage(), &RunPage::outcomeAvailable);
        w.showView(QStringLiteral("timeline")); // runs the scenario when there is no run of it
        QCOMPARE(w.pages()->currentWidget(), w.runPage());
        QVERIFY(finished.wait(10000));
        w.showView(QStringLiteral("scaling"));
        QCOMPARE(w.pages()->currentWidget(), w.analysisPage());
    }

    void menusHaveTooltipsAndKeysThatNeverCollide()
    {
        MainWindow w;
        QMap<QString, QString> owner;
        int withKeys = 0;
        for (QAction* a : allMenuActions(w)) {
            if (a->text().isEmpty())
                continue;
            QVERIFY2(!a->toolTip().isEmpty() && a->toolTip() != a->text().remove(QLatin1Char('&')),
                     qPrintable(QStringLiteral("no tooltip: ") + a->text()));
            for (const QKeySequence& k : a->shortcuts()) {
                const QString key = k.toString(QKeySequence::PortableText);
                QVERIFY2(!owner.contains(key), qPrintable(key + QStringLiteral(": ") + owner.value(key)
                                                          + QStringLiteral(" and ") + a->text()));
                owner.insert(key, a->text());
                ++withKeys;
            }
        }
        QVERIFY(withKeys >= 25);
        for (const char* name : {"run.run", "run.cancel", "run.simulate", "run.live", "export.png", "export.svg",
                                 "export.pdf", "export.copy", "export.all", "export.csv", "export.trace", "report.lab",
                                 "view.presenter", "help.shortcuts", "run.sandbox"})
            QVERIFY2(w.action(QString::fromLatin1(name)), name);
        QCOMPARE(w.action(QStringLiteral("view.presenter"))->shortcut(), QKeySequence(Qt::Key_F11));
        QVERIFY(w.mainToolBar()->actions().contains(w.action(QStringLiteral("view.presenter"))));
    }

    void liveIsDisabledWithItsReason()
    {
        MainWindow w;
        RunController* rc = w.runPage()->controller();
        QSignalSpy probed(rc, &RunController::liveAvailabilityChanged);
        if (probed.isEmpty())
            QVERIFY(probed.wait(5000));
        QAction* live = w.action(QStringLiteral("run.live"));
        QAction* why = w.action(QStringLiteral("run.liveReason"));
        if (rc->liveAvailable())
            QSKIP("live mode is available here");
        QVERIFY(!live->isEnabled());
        QVERIFY(live->toolTip().contains(rc->liveExplanation()));
        QVERIFY(why->isVisible());
        QVERIFY(why->text().contains(QStringLiteral("unavailable")));
        QCOMPARE(why->toolTip(), rc->liveExplanation());

        // a live executor (a stand-in here) enables it, and the menu switches the page's mode
        w.runPage()->useLiveRunner([](const Scenario& s, const LiveOptions&) { return simulate(s); },
                                   QStringLiteral("a stand-in"));
        QVERIFY(live->isEnabled());
        QVERIFY(!why->isVisible());
        live->trigger();
        QCOMPARE(w.runPage()->mode(), RunKind::Live);
        w.action(QStringLiteral("run.simulate"))->trigger();
        QCOMPARE(w.runPage()->mode(), RunKind::Simulate);
    }

    void cancelIsEnabledOnlyWhileRunning()
    {
        MainWindow w;
        w.document()->reset(test::loadExample("scaling-16-gpus.shardlab.json"), QString());
        QAction* cancel = w.action(QStringLiteral("run.cancel"));
        QVERIFY(!cancel->isEnabled());
        QSignalSpy done(w.runPage(), &RunPage::runningChanged);
        w.action(QStringLiteral("run.run"))->trigger();
        QVERIFY(cancel->isEnabled());
        while (cancel->isEnabled())
            QVERIFY(done.wait(10000));
    }

    void theShortcutsDialogListsMenusAndPlaybackKeys()
    {
        MainWindow w;
        ShortcutsDialog dialog(w.menuBar(), &w);
        const QString all = dialog.rows().join(QLatin1Char('\n'));
        for (const QString& expected : {QStringLiteral("Run | Ctrl+R, F5"), QStringLiteral("Presenter mode | F11"),
                                        QStringLiteral("Play or pause | Space"), QStringLiteral("| Home / End"),
                                        QStringLiteral("Faster / slower | + / -"), QStringLiteral("Undo | Ctrl+Z")})
            QVERIFY2(all.contains(expected), qPrintable(expected + QStringLiteral(" not in\n") + all));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_assembly, TstAssembly)
#include "test_assembly.moc"

// What connects the lessons to the window: a lesson opens its scenario (asking about unsaved
// changes only where there are some) and goes to the view of its step; "Show me" goes to the page
// and tab a step names; the Lessons dock opens with a welcome on the first start and is remembered.
#include "shell/mainwindow.h"

#include "analysis/analysispage.h"
#include "document/document.h"
#include "document/documentcontroller.h"
#include "document/prompter.h"
#include "editor/editorpage.h"
#include "i18n/language.h"
#include "lessons/lesson_browser.h"
#include "run/runpage.h"
#include "shell/dockfit.h"
#include "shell/presentermode.h"

#include "shardlab/io/scenario_io.h"

#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace shardlab::gui {

namespace {
constexpr auto kLessonsDockSetting = "lessons/dockVisible";
} // namespace

void MainWindow::wireLessons()
{
    // which lesson scenario the document holds: none after any other open, new or recovery
    connect(m_document, &Document::documentReset, m_lessons, [this] { m_lessons->setOpenScenario(QString()); });
    const auto openLessonScenario = [this](const QString& path) {
        if (!m_controller->openExample(path, true))
            return false;
        m_lessons->setOpenScenario(path);
        return true;
    };
    connect(m_lessons, &LessonBrowser::openScenarioRequested, this, [this, openLessonScenario](const QString& path) {
        if (!openLessonScenario(path))
            return;
        showStatus(tr("Opened the lesson's scenario; press Ctrl+R to run it."), 8000);
        // where the lesson's step about this scenario looks
        const int step = m_lessons->stepFor(path);
        if (step >= 0) {
            m_lessons->setCurrentStep(step);
            showView(m_lessons->stepView(step));
        }
    });
    // "Side by side": the lesson's two scenarios, simulated and shown one above the other
    connect(m_lessons, &LessonBrowser::sideBySideRequested, this, [this](const QString& path, const QString& compare) {
        auto a = loadScenario(path.toStdString());
        auto b = a ? loadScenario(compare.toStdString()) : Result<Scenario>(a.error());
        if (!a || !b) {
            m_prompter->showError(tr("Side by side"), tr("The lesson's scenarios cannot be opened."),
                                  i18n::engineError((!a ? a : b).error()));
            return;
        }
        showSideBySide(*a, *b);
    });
    // "Show me" shows the scenario the step is about (lesson 2's steps 3 and 4: the ZeRO-3 one),
    // opening it unless it is the one open (edited or not)
    connect(m_lessons, &LessonBrowser::stepActivated, this,
            [this, openLessonScenario](const QString& view, const QString& path) {
                if (!path.isEmpty() && path != m_lessons->openScenario() && !openLessonScenario(path))
                    return;
                showView(view);
            });

    // the keys of the playback belong to the whole window while the run page shows (a focused tab
    // bar or toolbar does not take them), and everywhere in presenter mode
    m_run->setDefaultShortcutScope(this);
    auto gateKeys = [this] {
        m_run->setShortcutsEnabled(m_pages->currentWidget() == m_run || m_presenter->isActive());
    };
    connect(m_pages, &QTabWidget::currentChanged, this, gateKeys);
    connect(m_presenter, &PresenterMode::activeChanged, this, gateKeys);
    gateKeys();

    // the dock as the user left it (restoreLessonsDock() reads it)
    // (the dock also becomes invisible when the window closes: what counts is whether the dock
    // itself was hidden, by the user)
    connect(m_lessonsDock, &QDockWidget::visibilityChanged, this,
            [this] { QSettings().setValue(QLatin1String(kLessonsDockSetting), !m_lessonsDock->isHidden()); });
}

void MainWindow::restoreLessonsDock()
{
    QSettings settings;
    const QVariant stored = settings.value(QLatin1String(kLessonsDockSetting));
    if (!stored.isValid()) { // the first start
        showWelcome();
        settings.setValue(QLatin1String(kLessonsDockSetting), true);
    } else {
        m_lessonsDock->setVisible(stored.toBool());
    }
    dockfit::fitBesideOrBelow(this, m_lessonsDock, width()); // below the pages on a small screen
}

void MainWindow::showWelcome()
{
    m_lessonsDock->show();
    m_lessonsDock->raise();
    m_lessons->setWelcomeVisible(true);
}

bool MainWindow::showView(const QString& view)
{
    // docs/lessons.md lists the views a lesson step may name; lessonViews() in the engine too
    enum EditorTab { Workload, Program, Machine, Capacity };
    const auto editorTab = [this](EditorTab tab) {
        m_pages->setCurrentWidget(m_editor);
        m_editor->sideTabs()->setCurrentIndex(tab);
    };
    if (view == QLatin1String("workload")) {
        editorTab(Workload);
    } else if (view == QLatin1String("program")) {
        editorTab(Program);
    } else if (view == QLatin1String("topology")) {
        editorTab(Machine);
    } else if (view == QLatin1String("memory")) {
        editorTab(Capacity);
    } else if (view == QLatin1String("timeline") || view == QLatin1String("summary")
               || view == QLatin1String("collectives") || view == QLatin1String("report")) {
        m_pages->setCurrentWidget(m_run);
        m_run->showSideTab(m_run->sideTabs()->widget(0)); // the summary, with the collectives' table
        // a step about a run needs one of the open scenario
        if (!m_run->lastOutcome() || m_run->lastOutcome()->scenario != m_document->scenario())
            m_run->run();
        if (view == QLatin1String("report"))
            showStatus(tr("Report > Lab report writes the course's report for this scenario."), 8000);
    } else if (view == QLatin1String("plan")) {
        // the lesson's plan in the planner, beside the window (the page stays as it is)
        showPlan(m_lessons->stepPlan(m_lessons->currentStep()));
    } else if (view == QLatin1String("comparison") || view == QLatin1String("scaling")) {
        flushAnalysis();
        m_pages->setCurrentWidget(m_analysis);
        m_analysis->showTab(view == QLatin1String("comparison") ? AnalysisPage::ComparisonTab
                                                                : AnalysisPage::ScalingTab);
    } else {
        return false;
    }
    return true;
}

} // namespace shardlab::gui

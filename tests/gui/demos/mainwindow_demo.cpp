// Not a test: the whole app in a chosen state, saved as a screenshot (docs/images, reviews on a
// machine without a display: xvfb-run).
//   SHARDLAB_SCREENSHOT=out.png mainwindow_demo [--open FILE] [--run] [--at FRACTION]
//       [--sandbox wrong_op|wrong_count|skip:RANK:STEP:ITERATION] [--deadline MS]
//       [--page editor|run|analysis] [--analysis-tab N] [--lesson ID] [--presenter light|dark]
//       [--move-tp A:B | --move-stage A:B] (a plan's GPU A's TP group or stage dropped on GPU B)
//       [--size WxH] [--welcome] [--step N [--show-me]] [--lang zh_CN|en]
//       [--scale-gpus 1,8,16] [--scale-axis points|linear|log] [--side-by-side FILE] [--projector]
//       [--share-gpu [--shardlab PATH]]   (--run as Run > Live with N ranks on this one GPU)
#include "analysis/analysispage.h"
#include "analysis/scalingview.h"
#include "document/document.h"
#include "document/documentcontroller.h"
#include "document/edits.h"
#include "i18n/language.h"
#include "lessons/lesson_browser.h"
#include "shell/mainwindow.h"
#include "run/playbackcontroller.h"
#include "run/runpage.h"
#include "sandbox/hangsandbox.h"
#include "shell/presentermode.h"
#include "shell/projectorview.h"
#include "shell/sidebyside.h"

#include <QApplication>
#include <QDockWidget>
#include <QGraphicsView>
#include <QPushButton>
#include <QScreen>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>

#include <functional>
#include <memory>

using namespace shardlab;
using namespace shardlab::gui;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("shardlab-demo"));
    // --lang zh_CN: the interface (and the engine's sentences) in that language
    if (const int at = QApplication::arguments().indexOf(QStringLiteral("--lang")); at > 0 && at + 1 < argc)
        i18n::installTranslations(&app, QApplication::arguments()[at + 1], false);
    MainWindow w;
    const QStringList args = QApplication::arguments();
    auto option = [&](const QString& name) {
        const int i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args[i + 1] : QString();
    };
    const QString size = option(QStringLiteral("--size"));
    if (!size.isEmpty())
        w.resize(size.section(QLatin1Char('x'), 0, 0).toInt(), size.section(QLatin1Char('x'), 1, 1).toInt());
    w.show();

    // the steps, each started when the one before has finished
    std::vector<std::function<void(std::function<void()>)>> steps;
    auto afterRun = [&w](std::function<void()> next, std::function<void()> start) {
        auto* c = new QMetaObject::Connection;
        *c = QObject::connect(w.runPage(), &RunPage::outcomeAvailable, &w, [c, next](RunOutcomePtr) {
            QObject::disconnect(*c);
            delete c;
            QTimer::singleShot(300, next);
        });
        start();
    };
    if (const QString file = option(QStringLiteral("--open")); !file.isEmpty()) {
        if (file.endsWith(QLatin1String(".shardlab.json")))
            steps.push_back([&w, file](std::function<void()> next) {
                w.controller()->openExample(file, false);
                next();
            });
        else
            steps.push_back(
                [&w, file, afterRun](std::function<void()> next) { afterRun(next, [&w, file] { w.openFile(file); }); });
    }
    // --move-tp A:B / --move-stage A:B: GPU A's TP group (stage) dropped on GPU B, as a drag in the
    // diagram does (a plan's scenario)
    for (const auto& [flag, unit] : {std::pair{QStringLiteral("--move-tp"), MeshUnit::TensorGroup},
                                     std::pair{QStringLiteral("--move-stage"), MeshUnit::Stage}})
        if (const QStringList pair = option(flag).split(QLatin1Char(':')); pair.size() == 2)
            steps.push_back([&w, pair, unit](std::function<void()> next) {
                const Status st = Edits::moveMeshUnit(*w.document(), pair[0].toInt(), pair[1].toInt(), unit);
                if (!st)
                    qWarning("mainwindow_demo: %s", st.error().message.c_str());
                next();
            });
    if (const QString id = option(QStringLiteral("--lesson")); !id.isEmpty())
        steps.push_back([&w, id](std::function<void()> next) {
            w.lessonsDock()->show();
            w.lessons()->selectLesson(id);
            next();
        });
    if (args.contains(QStringLiteral("--welcome"))) // the first start: the Lessons dock and its welcome
        steps.push_back([&w](std::function<void()> next) {
            w.showWelcome();
            next();
        });
    if (const QString step = option(QStringLiteral("--step")); !step.isEmpty()) // a lesson's step, from 1
        steps.push_back([&w, step](std::function<void()> next) {
            w.lessons()->setCurrentStep(step.toInt() - 1);
            if (QApplication::arguments().contains(QStringLiteral("--show-me")))
                w.lessons()->showStepButton()->click();
            QTimer::singleShot(300, next);
        });
    if (args.contains(QStringLiteral("--share-gpu"))) { // as Run > Live with N ranks on this one GPU does
        if (const QString program = option(QStringLiteral("--shardlab")); !program.isEmpty())
            w.runPage()->setShardlabProgram(program);
        // Live is offered once the app's probe of the live library has answered (on its worker):
        // try every 200 ms for a minute, then run what can be run, saying so.
        steps.push_back([&w](std::function<void()> next) {
            auto tries = std::make_shared<int>(0);
            auto attempt = std::make_shared<std::function<void()>>();
            *attempt = [&w, next, tries, attempt] {
                w.runPage()->setMode(RunKind::Live);
                if (w.runPage()->mode() == RunKind::Live) {
                    w.runPage()->setShareGpu(true);
                    next();
                } else if (++*tries < 300) {
                    QTimer::singleShot(200, &w, *attempt);
                } else {
                    qWarning("mainwindow_demo: live mode is not available here; --share-gpu runs the simulation");
                    next();
                }
            };
            (*attempt)();
        });
    }
    if (args.contains(QStringLiteral("--run")))
        steps.push_back([&w, afterRun](std::function<void()> next) { afterRun(next, [&w] { w.runPage()->run(); }); });
    if (const QString spec = option(QStringLiteral("--sandbox")); !spec.isEmpty()) {
        const QString deadline = option(QStringLiteral("--deadline"));
        steps.push_back([&w, spec, deadline, afterRun](std::function<void()> next) {
            const QStringList p = spec.split(QLatin1Char(':'));
            const Mismatch::Type type = p.value(0) == QLatin1String("skip")          ? Mismatch::Type::Skip
                                        : p.value(0) == QLatin1String("wrong_count") ? Mismatch::Type::WrongCount
                                                                                     : Mismatch::Type::WrongOp;
            w.hangSandbox()->choose(type, p.value(1).toInt(), p.value(2).toInt(), p.value(3).toInt());
            if (!deadline.isEmpty())
                w.hangSandbox()->setDeadlineMs(deadline.toDouble());
            afterRun(next, [&w] { w.hangSandbox()->runButton()->click(); });
        });
    }
    if (const QString at = option(QStringLiteral("--at")); !at.isEmpty())
        steps.push_back([&w, at](std::function<void()> next) {
            PlaybackController* p = w.runPage()->playback();
            p->setTime(p->endTime() * at.toDouble());
            next();
        });
    if (const QString page = option(QStringLiteral("--page")); !page.isEmpty())
        steps.push_back([&w, page, tab = option(QStringLiteral("--analysis-tab"))](std::function<void()> next) {
            w.pages()->setCurrentIndex(page == QLatin1String("run") ? 1 : page == QLatin1String("analysis") ? 2 : 0);
            if (!tab.isEmpty())
                w.analysisPage()->showTab(static_cast<AnalysisPage::Tab>(tab.toInt()));
            // let the analysis finish its work
            QTimer::singleShot(page == QLatin1String("analysis") ? 3000 : 300, next);
        });
    // --scale-gpus "1,8,16,32" and --scale-axis points|linear|log: the scaling tab's counts and axis
    if (const QString counts = option(QStringLiteral("--scale-gpus")), axis = option(QStringLiteral("--scale-axis"));
        !counts.isEmpty() || !axis.isEmpty())
        steps.push_back([&w, counts, axis](std::function<void()> next) {
            auto* view = w.findChild<ScalingView*>();
            if (!axis.isEmpty())
                view->setGpuAxis(axis == QLatin1String("log")      ? ScalingView::GpuAxis::Log
                                 : axis == QLatin1String("linear") ? ScalingView::GpuAxis::Linear
                                                                   : ScalingView::GpuAxis::Points);
            if (!counts.isEmpty())
                view->setGpuCounts(counts);
            QTimer::singleShot(3000, next);
        });
    if (const QString theme = option(QStringLiteral("--presenter")); !theme.isEmpty())
        steps.push_back([&w, theme, size](std::function<void()> next) {
            w.presenter()->setTheme(theme == QLatin1String("dark") ? PresenterMode::Theme::Dark
                                                                   : PresenterMode::Theme::Light);
            w.presenter()->setActive(true);
            // The offscreen platform's one screen has its own size: with --size, the window keeps
            // presenter mode's look at the size of the screen being shown (as test_screens does).
            if (!size.isEmpty())
                QTimer::singleShot(200, &w, [&w, size] {
                    w.showNormal();
                    w.setGeometry(0, 0, size.section(QLatin1Char('x'), 0, 0).toInt(),
                                  size.section(QLatin1Char('x'), 1, 1).toInt());
                });
            QTimer::singleShot(800, next);
        });

    // --side-by-side FILE: the open scenario beside FILE (Run > Compare side by side), shot instead
    // of the main window; --projector: the projector view, shot instead of the main window
    QWidget* shown = &w;
    if (const QString other = option(QStringLiteral("--side-by-side")); !other.isEmpty())
        steps.push_back([&w, &shown, other](std::function<void()> next) {
            w.compareWithFile(other);
            shown = w.sideBySide();
            if (shown)
                shown->resize(w.size());
            QTimer::singleShot(2500, next);
        });
    if (args.contains(QStringLiteral("--projector")))
        steps.push_back([&w, &shown](std::function<void()> next) {
            w.setProjectorShown(true);
            shown = w.projector();
            QTimer::singleShot(1500, next);
        });
    const QString shot = qEnvironmentVariable("SHARDLAB_SCREENSHOT");
    steps.push_back([&w, &shown, shot](std::function<void()>) {
        QTimer::singleShot(800, &w, [&w, &shown, shot] {
            if (!shot.isEmpty())
                (shown ? shown : &w)
                    ->grab()
                    .save(shot, "PNG", 0); // the strongest compression: smaller files for docs/images
            if (qEnvironmentVariableIsSet("SHARDLAB_DEMO_DEBUG"))
                for (QGraphicsView* v : w.findChildren<QGraphicsView*>())
                    for (QWidget* c : v->viewport()->findChildren<QWidget*>())
                        qInfo("view %d,%d %dx%d visible %d; child %d,%d %dx%d; zoom %.2f sceneRect %.0f,%.0f %.0fx%.0f",
                              v->mapTo(&w, QPoint()).x(), v->mapTo(&w, QPoint()).y(), v->width(), v->height(),
                              v->isVisible(), c->x(), c->y(), c->width(), c->height(), v->transform().m11(),
                              v->sceneRect().x(), v->sceneRect().y(), v->sceneRect().width(), v->sceneRect().height());
            if (qEnvironmentVariableIsSet("SHARDLAB_DEMO_SIZES")) // which widgets make the window wide
                for (QWidget* c : w.findChildren<QWidget*>())
                    if (c->minimumSizeHint().width() > 700 || c->minimumWidth() > 700)
                        qInfo("%s %s min %d hint %d", c->metaObject()->className(), qPrintable(c->objectName()),
                              c->minimumSizeHint().width(), c->minimumWidth());
            w.document()->undoStack()->setClean(); // an edit of the demo's (--move-tp) asks nothing on quitting
            QApplication::quit();
        });
    });
    // run the chain
    auto run = std::make_shared<std::function<void(size_t)>>();
    *run = [&steps, run](size_t i) {
        if (i < steps.size())
            steps[i]([run, i] { (*run)(i + 1); });
    };
    QTimer::singleShot(500, &w, [run] { (*run)(0); });
    return app.exec();
}

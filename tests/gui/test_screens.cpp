// Every main page on a laptop (1366x768) and a projector (1920x1080), in English and Chinese,
// plain and in presenter mode's light and dark themes: the window fits the screen, no axis label
// of any plot is longer than its axis, and no tab bar hides tabs behind scroll arrows. With
// SHARDLAB_SCREENS_DIR set, each screen is also saved there as a PNG (docs/images has them).
#include "gui_test_main.h"
#include "analysis/analysispage.h"
#include "document/documentcontroller.h"
#include "editor/editorpage.h"
#include "i18n/language.h"
#include "run/runpage.h"
#include "shell/mainwindow.h"
#include "shell/presentermode.h"
#include "style/axislabels.h"
#include "style/theme.h"
#include "topology/gpucarditem.h"
#include "topology/topologyview.h"
#include "timeline/qcustomplot_include.h"

#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QTranslator>

using namespace shardlab::gui;

namespace {

struct Screen {
    const char* name;
    QSize size;
};

// Presenter mode: the diagram's smallest text at least this high on the screen (the plain app's
// 9 pt interface text is 12 px).
constexpr double kPresenterDiagramPx = 12;

const Screen kScreens[] = {{"1366x768", {1366, 768}}, {"1920x1080", {1920, 1080}}};

// The height in screen pixels of the topology diagram's smallest text (shard tile labels) in
// `view` as it is zoomed now.
double smallestDiagramTextPx(const TopologyView& view)
{
    return QFontMetricsF(theme::diagramFont(theme::kDiagramSmallestPt, true)).height() * view.zoom();
}

// What the user cannot read on the window as it is shown now: labels cut, tabs hidden, diagram
// small print drawn smaller than `minDiagramPx`, and with `detailedDiagram` an editor diagram
// drawn compact (its small print left out).
QStringList clippedNow(MainWindow& w, double minDiagramPx, bool detailedDiagram)
{
    QStringList problems;
    for (TopologyView* view : w.findChildren<TopologyView*>()) {
        if (!view->isVisible() || view->width() < 50)
            continue;
        // a zoomed-out diagram draws compact cards, whose few words are sized in screen pixels
        if (GpuCardItem::drawsCompactAt(view->zoom())) {
            if (detailedDiagram)
                problems << QStringLiteral("diagram drawn compact at zoom %1").arg(view->zoom(), 0, 'f', 2);
            continue;
        }
        const double px = smallestDiagramTextPx(*view);
        if (px < minDiagramPx)
            problems << QStringLiteral("diagram text %1 px high (zoom %2), at least %3 px wanted")
                            .arg(px, 0, 'f', 1)
                            .arg(view->zoom(), 0, 'f', 2)
                            .arg(minDiagramPx);
    }
    for (QCustomPlot* plot : w.findChildren<QCustomPlot*>()) {
        if (!plot->isVisible() || plot->width() < 50 || plot->height() < 50)
            continue;
        problems << clippedAxisLabels(plot) << crowdedTickLabels(plot);
    }
    for (QTabBar* bar : w.findChildren<QTabBar*>()) {
        if (!bar->isVisible() || bar->count() == 0)
            continue;
        // scroll arrows shown, or a tab narrower than its text: some tab is hidden or cut
        bool arrows = false;
        for (QToolButton* b : bar->findChildren<QToolButton*>())
            arrows = arrows || b->isVisible();
        if (arrows)
            problems << QStringLiteral("tabs behind scroll arrows: %1, …").arg(bar->tabText(0));
        for (int i = 0; i < bar->count(); ++i)
            if (bar->fontMetrics().horizontalAdvance(bar->tabText(i).remove(QLatin1Char('&')))
                > bar->tabRect(i).width())
                problems << QStringLiteral("tab cut: %1").arg(bar->tabText(i));
    }
    return problems;
}

} // namespace

class TestScreens : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); } // no saved geometry or theme

    void everyPageFitsAndNothingIsCut_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("screen");
        QTest::addColumn<int>("presenter");    // 0: off, 1: light, 2: dark
        QTest::addColumn<QString>("scenario"); // the default, and the straggler (the widest run tables)
        for (const char* scenario : {"default", "straggler-12-6-4-2"})
            for (const char* language : {"en", "zh_CN"})
                for (int s = 0; s < 2; ++s)
                    for (int p = 0; p < 3; ++p)
                        QTest::addRow("%s %s %s %s", scenario, language, kScreens[s].name,
                                      p == 0   ? "plain"
                                      : p == 1 ? "light"
                                               : "dark")
                            << QString::fromLatin1(language) << s << p << QString::fromLatin1(scenario);
    }

    void everyPageFitsAndNothingIsCut()
    {
        QFETCH(QString, language);
        QFETCH(int, screen);
        QFETCH(int, presenter);
        QFETCH(QString, scenario);
        QCoreApplication* app = QCoreApplication::instance();
        const QList<QTranslator*> before = app->findChildren<QTranslator*>();
        i18n::installTranslations(app, language, false);
        const QSize size = kScreens[screen].size;
        {
            MainWindow w;
            w.resize(size);
            w.show();
            QVERIFY(w.controller()->openExample(
                QStringLiteral(SHARDLAB_SCENARIO_DIR "/") + scenario + QStringLiteral(".shardlab.json"), false));
            QSignalSpy done(w.runPage(), &RunPage::outcomeAvailable);
            w.runPage()->run();
            QVERIFY(done.wait(20000));
            if (presenter > 0) {
                w.presenter()->setTheme(presenter == 2 ? PresenterMode::Theme::Dark : PresenterMode::Theme::Light);
                w.presenter()->setActive(true);
            }
            // The window at the size of the screen being tried. The offscreen platform has one
            // screen of its own size, so presenter mode's full screen is left for a window of
            // the screen's size, with presenter mode's look (fonts, theme, keys) kept.
            if (presenter > 0)
                w.showNormal();
            w.setGeometry(QRect(QPoint(0, 0), size));
            QCoreApplication::processEvents();
            QCOMPARE(w.size(), size);
            QCoreApplication::processEvents();
            const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
            QVERIFY2(min.width() <= size.width() && min.height() <= size.height(),
                     qPrintable(QStringLiteral("minimum %1x%2").arg(min.width()).arg(min.height())));
            QStringList problems;
            const QString dir = qEnvironmentVariable("SHARDLAB_SCREENS_DIR");
            auto look = [&](const QString& where) {
                QCoreApplication::processEvents();
                const QSize pageMin = w.minimumSizeHint().expandedTo(w.minimumSize());
                if (w.size() != size || pageMin.width() > size.width() || pageMin.height() > size.height())
                    problems << QStringLiteral("%1: window %2x%3, minimum %4x%5")
                                    .arg(where)
                                    .arg(w.width())
                                    .arg(w.height())
                                    .arg(pageMin.width())
                                    .arg(pageMin.height());
                for (QCustomPlot* plot : w.findChildren<QCustomPlot*>())
                    if (plot->isVisible() && plot->width() > 0 && plot->height() > 0)
                        plot->replot(QCustomPlot::rpImmediateRefresh);
                for (const QString& p : clippedNow(w, presenter > 0 ? kPresenterDiagramPx : 0,
                                                   w.pages()->currentWidget() == w.editorPage()))
                    problems << where + QStringLiteral(": ") + p;
                if (!dir.isEmpty())
                    w.grab().save(QDir(dir).filePath(QStringLiteral("%1-%2-%3-%4.png")
                                                         .arg(scenario + QLatin1Char('-') + where, language,
                                                              QString::fromLatin1(kScreens[screen].name))
                                                         .arg(QLatin1String(presenter == 0   ? "plain"
                                                                            : presenter == 1 ? "light"
                                                                                             : "dark"))));
            };
            for (int page = 0; page < w.pages()->count(); ++page) {
                w.pages()->setCurrentIndex(page);
                if (w.pages()->currentWidget() != w.analysisPage()) {
                    look(QStringLiteral("page%1").arg(page));
                    continue;
                }
                for (int tab = AnalysisPage::SweepTab; tab <= AnalysisPage::DiagnosisTab; ++tab) {
                    w.analysisPage()->showTab(static_cast<AnalysisPage::Tab>(tab));
                    look(QStringLiteral("analysis%1").arg(tab));
                }
            }
            if (presenter > 0)
                w.presenter()->setActive(false);
            QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        }
        for (QTranslator* t : app->findChildren<QTranslator*>())
            if (!before.contains(t)) {
                QCoreApplication::removeTranslator(t);
                delete t;
            }
        QLocale::setDefault(QLocale(QLocale::English));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_screens, TestScreens)
#include "test_screens.moc"

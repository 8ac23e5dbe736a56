// Issue 29, the editor's side panel: the mouse wheel over a combo box or spin box that the user has
// not clicked into scrolls the panel and edits nothing (it silently changed the strategy box);
// after a click into it the wheel edits it as usual. The placement summary under the strategy box
// belongs to its document: opening another one clears it.
#include "gui_test_main.h"
#include "common/labels.h"
#include "document/documentcontroller.h"
#include "editor/editorpage.h"
#include "gui_test_helpers.h"
#include "shell/mainwindow.h"
#include "workload/workloadpanel.h"

#include "shardlab/model/strategies.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

// One notch of the wheel over the middle of `target`, as the window system delivers it (the
// application gives focus by the wheel and passes an ignored event on to the parents).
void wheelOver(QWidget* target, int notches)
{
    const QPoint at = target->rect().center();
    QWheelEvent event(QPointF(at), QPointF(target->mapToGlobal(at)), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&event);
    QApplication::sendEvent(target, &event);
}

QComboBox* strategyBox(MainWindow& w)
{
    const QString first = Labels::strategy(allStrategies().front());
    for (QComboBox* box : w.editorPage()->workloadPanel()->findChildren<QComboBox*>())
        if (box->count() == static_cast<int>(allStrategies().size()) && box->itemText(0) == first)
            return box;
    return nullptr;
}

// What a box shows: its text (a combo box's current item, a spin box's value).
QString shown(QWidget* box)
{
    if (auto* combo = qobject_cast<QComboBox*>(box))
        return combo->currentText();
    return static_cast<QAbstractSpinBox*>(box)->text();
}

} // namespace

class TestSidePanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-sidepanel"));
    }

    void theWheelEditsOnlyABoxClickedInto()
    {
        MainWindow w;
        w.resize(1300, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.pages()->setCurrentWidget(w.editorPage());
        QStringList edited;
        // every side tab's boxes (the workload's strategy, the program's iterations and steps)
        for (int tab = 0; tab < w.editorPage()->sideTabs()->count(); ++tab) {
            w.editorPage()->sideTabs()->setCurrentIndex(tab);
            QCoreApplication::processEvents();
            QList<QWidget*> boxes;
            for (QComboBox* b : w.editorPage()->findChildren<QComboBox*>())
                boxes << b;
            for (QAbstractSpinBox* b : w.editorPage()->findChildren<QAbstractSpinBox*>())
                boxes << b;
            for (QWidget* box : boxes) {
                if (!box->isVisible() || !box->isEnabled())
                    continue;
                w.editorPage()->sideTabs()->setFocus();
                const QString before = shown(box);
                wheelOver(box, -1);
                wheelOver(box, 1);
                wheelOver(box, 1);
                if (shown(box) != before || box->hasFocus())
                    edited << QStringLiteral("%1 '%2': '%3' became '%4'%5")
                                  .arg(QString::fromLatin1(box->metaObject()->className()), box->objectName(), before,
                                       shown(box), box->hasFocus() ? QStringLiteral(" (focused)") : QString());
            }
        }
        QVERIFY2(edited.isEmpty(), qPrintable(edited.join(QLatin1Char('\n'))));

        // clicked into, the strategy box takes the wheel
        w.editorPage()->sideTabs()->setCurrentIndex(0);
        QComboBox* strategy = strategyBox(w);
        QVERIFY(strategy);
        strategy->setCurrentIndex(0);
        strategy->setFocus(Qt::MouseFocusReason);
        QVERIFY(strategy->hasFocus());
        wheelOver(strategy, -1);
        QCOMPARE(strategy->currentIndex(), 1);
    }

    void thePlacementSummaryBelongsToItsDocument()
    {
        MainWindow w;
        w.show();
        WorkloadPanel* panel = w.editorPage()->workloadPanel();
        panel->placeByStrategy();
        QVERIFY(!panel->outcomeText().isEmpty());
        QVERIFY(w.controller()->openExample(QStringLiteral(SHARDLAB_SCENARIO_DIR "/straggler-12-6-4-2.shardlab.json"),
                                            false));
        QVERIFY2(panel->outcomeText().isEmpty(), qPrintable(panel->outcomeText()));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_sidepanel, TestSidePanel)
#include "test_sidepanel.moc"

// The main window: opens the default scenario, keeps the document and its signal available to
// other pages, takes a new page with one call, and undo/redo sit on Ctrl+Z / Ctrl+Shift+Z.
#include "document/document.h"
#include "document/edits.h"
#include "editor/editorpage.h"
#include "gui_test_helpers.h"
#include "shell/mainwindow.h"
#include "common/resourcepaths.h"
#include "topology/topologyscene.h"

#include <QAction>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

using namespace shardlab;
using namespace shardlab::gui;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-mainwindow"));
    }

    void startsOnTheDefaultScenario()
    {
        QVERIFY(!resourceDir().isEmpty());
        MainWindow w;
        QCOMPARE(w.scenario(), test::loadExample("default.shardlab.json"));
        // an example opens as an untitled copy: saving never overwrites the shipped file
        QVERIFY(w.document()->filePath().isEmpty());
        QVERIFY(!w.document()->isModified());
        QCOMPARE(w.topologyScene()->cardCount(), 4);
        QVERIFY(w.windowTitle().contains(QStringLiteral("Data-parallel training step")));
    }

    void aPagePlugsInWithOneCall()
    {
        MainWindow w;
        QSignalSpy changed(&w, &MainWindow::scenarioChanged);
        auto* extra = new QLabel(QStringLiteral("another page"));
        const int index = w.addPage(extra, QStringLiteral("Extra"));
        QCOMPARE(index, 3);
        QCOMPARE(w.pages()->count(), 4);
        QCOMPARE(w.pages()->tabText(0), QStringLiteral("Editor"));
        QCOMPARE(w.pages()->tabText(1), QStringLiteral("Run"));
        QCOMPARE(w.pages()->tabText(2), QStringLiteral("Analysis"));
        // it gets its entry in the View menu, on Ctrl+4
        QAction* go = w.action(QStringLiteral("view.page3"));
        QVERIFY(go);
        QCOMPARE(go->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_4));
        go->trigger();
        QCOMPARE(w.pages()->currentWidget(), extra);
        QVERIFY(Edits::setGpuTflops(*w.document(), 0, 20).ok());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(w.scenario().topology.gpus[0].tflops, 20.0);
        QVERIFY(w.isWindowModified());
    }

    void undoAndRedoShortcuts()
    {
        MainWindow w;
        QAction *undo = nullptr, *redo = nullptr;
        for (QAction* a : w.menuBar()->actions())
            for (QAction* b : a->menu() ? a->menu()->actions() : QList<QAction*> {}) {
                if (b->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_Z))
                    undo = b;
                if (b->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)))
                    redo = b;
            }
        QVERIFY(undo && redo);
        const Scenario start = w.scenario();
        QVERIFY(Edits::removeGpu(*w.document(), 3).ok());
        QCOMPARE(w.topologyScene()->cardCount(), 3);
        undo->trigger();
        QVERIFY(w.scenario() == start);
        QCOMPARE(w.topologyScene()->cardCount(), 4);
        redo->trigger();
        QCOMPARE(w.topologyScene()->cardCount(), 3);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_mainwindow.moc"

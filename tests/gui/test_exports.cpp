// The Export menu's work: the current figure of each page, every figure at its real size (pages
// never shown included), every table as CSV, and the current run as a Chrome trace that reads
// back as the same run.
#include "gui_test_main.h"
#include "../common/full_disk.h"
#include "document/document.h"
#include "editor/editorpage.h"
#include "gui_test_helpers.h"
#include "shell/mainwindow.h"
#include "timeline/qcustomplot_include.h"
#include "run/runpage.h"
#include "timeline/timelineview.h"
#include "topology/topologyview.h"
#include "shell/exportactions.h"

#include "shardlab/io/trace_import.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace shardlab;
using namespace shardlab::gui;

class TstExports : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-exports"));
    }

    // Issue 14: every figure format goes through the atomic write; on a full disk the export fails
    // naming the file and the previous file is unchanged.
    void aFullDiskLeavesThePreviousFigure()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTemporaryDir dir;
        for (FigureFormat format : {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf}) {
            const QString path =
                QDir(dir.path()).filePath(QStringLiteral("topology.") + FigureExporter::suffix(format));
            FigureExportOptions options;
            options.format = format;
            QVERIFY(FigureExporter::exportView(w.editorPage()->view(), path, options).ok());
            QVERIFY2(QFileInfo(path).size() > 8192, qPrintable(path));
            fs_test::writePlain(path.toStdString(), "previous figure");
            Status st;
            {
                fs_test::FullDisk disk(8192);
                QVERIFY(disk.active());
                st = FigureExporter::exportView(w.editorPage()->view(), path, options);
            }
            QVERIFY2(!st.ok(), qPrintable(path));
            QVERIFY2(st.error().message.find(path.toStdString()) != std::string::npos, st.error().message.c_str());
            QCOMPARE(fs_test::fileText(path.toStdString()), std::string("previous figure"));
            QCOMPARE(fs_test::leftoverTemporaries(path.toStdString()), 0);
        }
    }

    // Issue 13: exporting with larger fonts for print left the plot's legend enlarged on screen.
    void exportingLeavesTheViewAsItWas()
    {
        QCustomPlot plot;
        plot.resize(400, 300);
        plot.addGraph()->setName(QStringLiteral("compute"));
        plot.addGraph()->setName(QStringLiteral("communication"));
        plot.legend->setVisible(true);
        plot.xAxis->setLabel(QStringLiteral("GPUs"));
        const QFont legendFont = plot.legend->font(), itemFont = plot.legend->item(0)->font(),
                    labelFont = plot.xAxis->labelFont();
        const QImage image = FigureExporter::renderImage(&plot, 1.0, 1.6);
        QVERIFY(!image.isNull());
        QCOMPARE(plot.legend->font(), legendFont);
        QCOMPARE(plot.legend->item(0)->font(), itemFont);
        QCOMPARE(plot.legend->item(1)->font(), itemFont);
        QCOMPARE(plot.xAxis->labelFont(), labelFont);
    }

    void figuresTablesAndTheTrace()
    {
        MainWindow w;
        w.resize(1500, 940);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ExportActions* ex = w.exports();
        QCOMPARE(ex->currentFigure(), w.editorPage()->view());
        QCOMPARE(ex->figureName(w.editorPage()->view()), QStringLiteral("Editor - Topology"));
        QVERIFY(ex->writeTrace(QStringLiteral("/nonexistent/x.json")).error().message.find("no run yet")
                != std::string::npos);

        w.document()->reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        QSignalSpy done(w.runPage(), &RunPage::outcomeAvailable);
        w.pages()->setCurrentWidget(w.runPage());
        w.runPage()->run();
        QVERIFY(done.wait(10000));
        QCOMPARE(ex->currentFigure(), w.runPage()->timeline()->plot());
        QCOMPARE(ex->figureName(ex->currentFigure()), QStringLiteral("Run - Timeline"));

        // every figure, with a real size even on pages never shown
        const QList<NamedView> all = ex->allFigures();
        QStringList names;
        for (const NamedView& nv : all) {
            names << nv.name;
            QVERIFY2(nv.view->width() > 150 && nv.view->height() > 100, qPrintable(nv.name));
        }
        for (const QString& expected :
             {QStringLiteral("Editor - Topology"), QStringLiteral("Run - Timeline"), QStringLiteral("Run - Topology"),
              QStringLiteral("Analysis - Scaling - plot 1"), QStringLiteral("Analysis - Diagnosis")})
            QVERIFY2(names.contains(expected), qPrintable(names.join(QStringLiteral(", "))));
        QCOMPARE(w.pages()->currentWidget(), w.runPage()); // the pages shown are put back
        QTemporaryDir dir;
        auto files = FigureExporter::exportAll(all, dir.path(), {FigureFormat::Png}, {});
        QVERIFY2(files.ok(), files ? "" : files.error().message.c_str());
        QCOMPARE(files->size(), all.size());

        // every table as CSV: the run's own tables, then each table as shown
        auto tables = ex->writeTables(dir.filePath(QStringLiteral("tables")));
        QVERIFY2(tables.ok(), tables ? "" : tables.error().message.c_str());
        QStringList bases;
        for (const QString& f : *tables)
            bases << QFileInfo(f).completeBaseName();
        for (const QString& expected :
             {QStringLiteral("run-ranks"), QStringLiteral("run-collectives"), QStringLiteral("run-spans"),
              QStringLiteral("run-summary-ranktable"), QStringLiteral("analysis-scaling-scaling")})
            QVERIFY2(bases.contains(expected), qPrintable(bases.join(QStringLiteral(", "))));
        QFile ranks(dir.filePath(QStringLiteral("tables/run-ranks.csv")));
        QVERIFY(ranks.open(QIODevice::ReadOnly));
        QCOMPARE(ranks.readAll().count('\n'), 5); // header + 4 ranks

        // the trace reads back as the run
        const QString trace = dir.filePath(QStringLiteral("run.trace.json"));
        QVERIFY(ex->writeTrace(trace).ok());
        auto back = loadChromeTrace(trace.toStdString());
        QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
        QCOMPARE(back->scenario, w.runPage()->lastOutcome()->scenario);
        QCOMPARE(back->run.spans.size(), w.runPage()->lastOutcome()->run->spans.size());
    }

    void csvQuotesWhatNeedsIt()
    {
        QStandardItemModel m(1, 2);
        m.setHorizontalHeaderLabels({QStringLiteral("name"), QStringLiteral("note")});
        m.setItem(0, 0, new QStandardItem(QStringLiteral("a,b")));
        m.setItem(0, 1, new QStandardItem(QStringLiteral("say \"hi\"")));
        QCOMPARE(ExportActions::modelCsv(m), QStringLiteral("name,note\n\"a,b\",\"say \"\"hi\"\"\"\n"));
    }

    void csvNeutralisesFormulas()
    {
        // issue 25: a name a spreadsheet would run (=HYPERLINK, @SUM, -2+3) is written as text
        QStandardItemModel m(1, 3);
        m.setHorizontalHeaderLabels({QStringLiteral("=cmd"), QStringLiteral("time"), QStringLiteral("name")});
        m.setItem(0, 0, new QStandardItem(QStringLiteral("@SUM(A1)")));
        m.setItem(0, 1, new QStandardItem(QStringLiteral("-1.5")));
        m.setItem(0, 2, new QStandardItem(QStringLiteral("-2+3")));
        QCOMPARE(ExportActions::modelCsv(m), QStringLiteral("\"'=cmd\",time,name\n\"'@SUM(A1)\",-1.5,\"'-2+3\"\n"));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_exports, TstExports)
#include "test_exports.moc"

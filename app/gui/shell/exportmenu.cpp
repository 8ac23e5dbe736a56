// The Export, Report and Help menus of the main window.
#include "shell/mainwindow.h"

#include "document/document.h"
#include "report/report_writer.h"
#include "shardlab/base/version.h"
#include "shell/exportactions.h"
#include "shell/shortcutsdialog.h"

#include <QAction>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace shardlab::gui {

void MainWindow::buildExportMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("E&xport"));
    menu->setToolTipsVisible(true);
    const QString current =
        tr("The figure you are looking at: the diagram, the timeline or the plot that has the focus");
    connect(addNamedAction(menu, QStringLiteral("export.png"), tr("Current view as &PNG\u2026"),
                           current + tr(" (1x, 2x or a DPI of your choice)"), {QKeySequence(Qt::CTRL | Qt::Key_E)}),
            &QAction::triggered, this, [this] { m_exports->exportCurrent(FigureFormat::Png); });
    connect(
        addNamedAction(menu, QStringLiteral("export.svg"), tr("Current view as &SVG\u2026"), current + tr(" (vector)")),
        &QAction::triggered, this, [this] { m_exports->exportCurrent(FigureFormat::Svg); });
    connect(
        addNamedAction(menu, QStringLiteral("export.pdf"), tr("Current view as P&DF\u2026"), current + tr(" (vector)")),
        &QAction::triggered, this, [this] { m_exports->exportCurrent(FigureFormat::Pdf); });
    connect(addNamedAction(menu, QStringLiteral("export.copy"), tr("&Copy current view"),
                           tr("Put the figure on the clipboard as an image and as SVG"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)}),
            &QAction::triggered, m_exports, &ExportActions::copyCurrent);
    connect(addNamedAction(menu, QStringLiteral("export.all"), tr("&All figures to a folder\u2026"),
                           tr("Every diagram and plot of every page as PNG (2x), SVG and PDF, for a report"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)}),
            &QAction::triggered, m_exports, &ExportActions::exportAllFigures);
    menu->addSeparator();
    connect(addNamedAction(menu, QStringLiteral("export.csv"), tr("Every &table as CSV\u2026"),
                           tr("The run's per-rank, collective and span tables, and every table on the pages, one CSV "
                              "file each")),
            &QAction::triggered, m_exports, &ExportActions::exportTables);
    connect(addNamedAction(menu, QStringLiteral("export.trace"), tr("Run as Chrome/Perfetto &trace\u2026"),
                           tr("The current run, one process per rank, arrows joining each collective; opens in "
                              "ui.perfetto.dev and back in ShardLab")),
            &QAction::triggered, m_exports, &ExportActions::exportTrace);
    connect(m_exports, &ExportActions::statusMessage, this, [this](const QString& m) { showStatus(m, 8000); });
}

void MainWindow::buildReportMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("Re&port"));
    menu->setToolTipsVisible(true);
    QAction* report = m_report->createAction(this);
    report->setObjectName(QStringLiteral("report.lab"));
    report->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    menu->addAction(report);
    connect(m_report, &ReportWriter::reportAvailable, this,
            [this](const QString& path) { showStatus(tr("Wrote the lab report %1").arg(path), 10000); });
}

void MainWindow::buildHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setToolTipsVisible(true);
    connect(addNamedAction(help, QStringLiteral("help.welcome"), tr("&Where to begin"),
                           tr("The welcome note of the lessons: what they are and which one to start with")),
            &QAction::triggered, this, &MainWindow::showWelcome);
    connect(addNamedAction(help, QStringLiteral("help.shortcuts"), tr("&Keyboard shortcuts"),
                           tr("Every key of the menus, the playback, the timeline and the diagram"),
                           {QKeySequence(Qt::Key_F1)}),
            &QAction::triggered, this, [this] {
                ShortcutsDialog dialog(menuBar(), this);
                dialog.exec();
            });
    connect(
        addNamedAction(help, QStringLiteral("help.about"), tr("&About ShardLab"), tr("Version and what ShardLab is")),
        &QAction::triggered, this, [this] {
            QMessageBox::about(this, tr("About ShardLab"),
                               tr("<b>ShardLab %1</b><br>A visual simulator and live profiler for multi-GPU "
                                  "programming: ownership, balance and necessary communication, made visible.")
                                   .arg(QString::fromLatin1(kVersion)));
        });
}

} // namespace shardlab::gui

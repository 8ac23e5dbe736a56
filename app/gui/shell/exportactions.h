// What the Export menu does: the figure the user is looking at (PNG, SVG, PDF, the clipboard),
// every figure of every page into a folder, every table as CSV, and the current run as a
// Chrome/Perfetto trace. The functions that write files take a path and return a Status (tests
// call them); the menu's entry points ask with dialogs first and report errors in a message box.
#pragma once

#include "export/figure_exporter.h"

#include "shardlab/base/result.h"

#include <QObject>
#include <QPair>
#include <QPointer>

#include <optional>

class QAbstractItemModel;

namespace shardlab::gui {

class MainWindow;

class ExportActions : public QObject {
    Q_OBJECT
public:
    explicit ExportActions(MainWindow* window);

    // On the current page: the plot or diagram that holds the focus, else the page's main figure
    // (setMainFigure), else the largest one shown.
    QWidget* currentFigure() const;
    void setMainFigure(QWidget* page, QWidget* figure);
    // "Timeline", "Topology", "Analysis - Scaling - 2": for titles and file names.
    QString figureName(QWidget* figure) const;
    // Every plot and diagram of every page that has a size (a page never shown has none).
    QList<NamedView> allFigures() const;

    // Writes the current run's tables (per rank, collectives, spans; the engine's CSV) and every
    // table on the pages as shown, one file each, into `folder`. Returns the files.
    Result<QStringList> writeTables(const QString& folder) const;
    // The current run (the run page's) as a Chrome trace that Perfetto opens and ShardLab reads back.
    Status writeTrace(const QString& path) const;
    // A table model as CSV: a header row of its column titles, then its rows as shown.
    static QString modelCsv(const QAbstractItemModel& model);

public slots:
    void exportCurrent(std::optional<shardlab::gui::FigureFormat> format = std::nullopt);
    void copyCurrent();
    void exportAllFigures();
    void exportTables();
    void exportTrace();

signals:
    void statusMessage(const QString& text);

private:
    void warn(const QString& title, const QString& message) const;
    MainWindow* m_window;
    QList<QPair<QPointer<QWidget>, QPointer<QWidget>>> m_mainFigures; // page, figure
};

} // namespace shardlab::gui

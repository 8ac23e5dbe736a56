#include "shell/exportactions.h"

#include "common/plaintext.h"
#include "export/export_dialog.h"
#include "i18n/language.h"
#include "shell/mainwindow.h"
#include "timeline/qcustomplot_include.h"
#include "run/runpage.h"
#include "timeline/timelineview.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/base/file_io.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/scenario_io.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QGraphicsView>
#include <QMessageBox>
#include <QSet>
#include <QTabWidget>
#include <QTableView>

namespace shardlab::gui {

namespace {

bool isFigure(QWidget* w) { return qobject_cast<QCustomPlot*>(w) || qobject_cast<QGraphicsView*>(w); }

// The titles of the tabs that hold `w`, outermost first ("Analysis", "Scaling").
QStringList tabTitles(QWidget* w)
{
    // a tab's page is a child of the tab widget's stack
    QStringList titles;
    for (QWidget* page = w; page && page->parentWidget(); page = page->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(page->parentWidget()->parentWidget())) {
            const int i = tabs->indexOf(page);
            if (i >= 0)
                titles.prepend(tabs->tabText(i).remove(QLatin1Char('&')));
        }
    return titles;
}

// The engine's one CSV field (exporters.h): quoted where needed, formulas neutralised.
QString csvField(const QString& s) { return QString::fromStdString(shardlab::csvField(s.toStdString())); }

// Every tab of every tab widget in `root` is made current once, so that pages never shown get
// their real size; the tabs shown before are put back.
void layOutEveryTab(QWidget* root)
{
    const QList<QTabWidget*> all = root->findChildren<QTabWidget*>();
    QList<QPair<QTabWidget*, int>> current;
    for (QTabWidget* tabs : all)
        current.append({tabs, tabs->currentIndex()});
    for (QTabWidget* tabs : all)
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        }
    for (const auto& [tabs, index] : current)
        tabs->setCurrentIndex(index);
    QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
}

} // namespace

ExportActions::ExportActions(MainWindow* window) : QObject(window), m_window(window) {}

QWidget* ExportActions::currentFigure() const
{
    QWidget* page = m_window->pages()->currentWidget();
    if (!page)
        return nullptr;
    for (QWidget* w = QApplication::focusWidget(); w; w = w->parentWidget())
        if (isFigure(w) && page->isAncestorOf(w))
            return w;
    for (const auto& [p, figure] : m_mainFigures)
        if (p == page && figure && figure->isVisible())
            return figure;
    QWidget* best = nullptr;
    qint64 bestArea = 0;
    for (QWidget* w : page->findChildren<QWidget*>()) {
        if (!isFigure(w) || !w->isVisible())
            continue;
        const qint64 area = qint64(w->width()) * w->height();
        if (area > bestArea) {
            best = w;
            bestArea = area;
        }
    }
    return best;
}

void ExportActions::setMainFigure(QWidget* page, QWidget* figure)
{
    m_mainFigures.append(qMakePair(QPointer<QWidget>(page), QPointer<QWidget>(figure)));
}

QString ExportActions::figureName(QWidget* figure) const
{
    if (!figure)
        return {};
    QStringList parts = tabTitles(figure);
    if (qobject_cast<QGraphicsView*>(figure))
        parts << tr("Topology");
    else if (qobject_cast<TimelineView*>(figure->parentWidget()))
        parts << tr("Timeline");
    // several plots in one tab: number them in the order they were made
    if (qobject_cast<QCustomPlot*>(figure) && !parts.contains(tr("Timeline"))) {
        QWidget* page = figure;
        while (page && !(page->parentWidget() && qobject_cast<QTabWidget*>(page->parentWidget()->parentWidget())))
            page = page->parentWidget();
        const QList<QCustomPlot*> siblings = page ? page->findChildren<QCustomPlot*>() : QList<QCustomPlot*>();
        if (siblings.size() > 1)
            parts << tr("plot %1").arg(siblings.indexOf(qobject_cast<QCustomPlot*>(figure)) + 1);
    }
    return parts.join(QStringLiteral(" - "));
}

QList<NamedView> ExportActions::allFigures() const
{
    layOutEveryTab(m_window);
    QList<NamedView> out;
    QSet<QString> names;
    for (QWidget* w : m_window->findChildren<QWidget*>()) {
        if (!isFigure(w) || w->size().isEmpty() || w->width() < 50 || w->height() < 50)
            continue;
        QString name = figureName(w);
        for (int n = 2; names.contains(name); ++n)
            name = figureName(w) + QStringLiteral(" %1").arg(n);
        names.insert(name);
        out.append({name, w});
    }
    return out;
}

QString ExportActions::modelCsv(const QAbstractItemModel& model)
{
    QString out;
    QStringList row;
    for (int c = 0; c < model.columnCount(); ++c)
        row << csvField(model.headerData(c, Qt::Horizontal).toString());
    out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        row.clear();
        for (int c = 0; c < model.columnCount(); ++c)
            row << csvField(model.index(r, c).data().toString());
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

Result<QStringList> ExportActions::writeTables(const QString& folder) const
{
    if (!QDir().mkpath(folder))
        return badInput(i18n::appWorded(tr("%1: the folder cannot be created").arg(folder)));
    QStringList written;
    auto write = [&](const QString& base, const std::string& text) -> Status {
        const QString path = QDir(folder).filePath(base + QStringLiteral(".csv"));
        if (Status st = writeFileAtomically(path.toStdString(), text); !st)
            return st;
        written << path;
        return {};
    };
    // the run's tables, as the CLI writes them (--csv): exact figures, documented columns
    if (RunOutcomePtr run = m_window->runPage()->lastOutcome()) {
        for (const auto& [base, text] : {std::pair{QStringLiteral("run-ranks"), perRankCsv(run->summary)},
                                         std::pair{QStringLiteral("run-collectives"), collectivesCsv(run->summary)},
                                         std::pair{QStringLiteral("run-spans"), spansCsv(run->scenario, *run->run)}})
            if (Status st = write(base, text); !st)
                return st.error();
    }
    // every other table as shown, named by its page, its tab and its model
    QSet<QString> used;
    for (QTableView* view : m_window->findChildren<QTableView*>()) {
        const QAbstractItemModel* model = view->model();
        if (!model || model->columnCount() == 0)
            continue;
        QString what = QString::fromLatin1(model->metaObject()->className()).section(QStringLiteral("::"), -1);
        if (what.endsWith(QLatin1String("Model")))
            what.chop(5);
        QString base = FigureExporter::fileBaseName((tabTitles(view) << what).join(QLatin1Char(' ')));
        for (int n = 2; used.contains(base); ++n)
            base = FigureExporter::fileBaseName((tabTitles(view) << what).join(QLatin1Char(' ')))
                   + QStringLiteral("-%1").arg(n);
        used.insert(base);
        if (Status st = write(base, modelCsv(*model).toStdString()); !st)
            return st.error();
    }
    return written;
}

Status ExportActions::writeTrace(const QString& path) const
{
    RunOutcomePtr run = m_window->runPage()->lastOutcome();
    if (!run)
        return badInput(i18n::appWorded(tr("there is no run yet: run the scenario first (Run > Run)")));
    // streamed to the file: a long run's trace is never held in memory as text
    return writeFileAtomicallyWith(path.toStdString(),
                                   [&](std::ostream& out) { return writeChromeTrace(out, run->scenario, *run->run); });
}

void ExportActions::warn(const QString& title, const QString& message) const
{
    warnPlainText(m_window, title, message);
}

void ExportActions::exportCurrent(std::optional<FigureFormat> format)
{
    QWidget* figure = currentFigure();
    if (!figure) {
        warn(tr("Export figure"),
             tr("This page shows no figure: go to the editor's diagram, the run's timeline or a plot."));
        return;
    }
    if (const auto path = ExportDialog::exportView(figure, figureName(figure), m_window, format))
        emit statusMessage(tr("Exported %1 to %2").arg(figureName(figure), QDir::toNativeSeparators(*path)));
}

void ExportActions::copyCurrent()
{
    QWidget* figure = currentFigure();
    if (!figure) {
        warn(tr("Copy figure"), tr("This page shows no figure to copy."));
        return;
    }
    if (Status st = FigureExporter::copyToClipboard(figure); !st)
        warn(tr("Copy figure"), i18n::engineError(st.error()));
    else
        emit statusMessage(tr("Copied %1 to the clipboard (image and SVG)").arg(figureName(figure)));
}

void ExportActions::exportAllFigures()
{
    if (const auto folder = ExportDialog::exportAll(allFigures(), m_window))
        emit statusMessage(tr("Exported every figure into %1").arg(QDir::toNativeSeparators(*folder)));
}

void ExportActions::exportTables()
{
    const QString folder =
        QFileDialog::getExistingDirectory(m_window, tr("Write every table as CSV into"), QDir::homePath());
    if (folder.isEmpty())
        return;
    auto written = writeTables(folder);
    if (!written) {
        warn(tr("Export tables"), i18n::engineError(written.error()));
        return;
    }
    QMessageBox::information(
        m_window, tr("Export tables"),
        tr("Wrote %n CSV file(s) into %1.", nullptr, static_cast<int>(written->size())).arg(folder));
}

void ExportActions::exportTrace()
{
    RunOutcomePtr run = m_window->runPage()->lastOutcome();
    if (!run) {
        warn(tr("Export trace"), tr("There is no run yet: run the scenario first (Run > Run)."));
        return;
    }
    const QString base = FigureExporter::fileBaseName(QString::fromStdString(run->scenario.name));
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Write the run as a Chrome/Perfetto trace"),
                                                      QDir::home().filePath(base + QStringLiteral(".trace.json")),
                                                      tr("Chrome traces (*.json)"));
    if (path.isEmpty())
        return;
    if (Status st = writeTrace(path); !st)
        warn(tr("Export trace"), i18n::engineError(st.error()));
    else
        emit statusMessage(
            tr("Wrote %1: open it in ui.perfetto.dev or chrome://tracing, or back in ShardLab").arg(path));
}

} // namespace shardlab::gui

#include "mainwindow.h"

#include "shardlab/analysis.h"
#include "shardlab/exporters.h"
#include "shardlab/scenario_io.h"
#include "shardlab/simulator.h"
#include "shardlab/topo_matrix.h"

#include <QFontDatabase>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>

namespace shardlab::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("ShardLab"));
    m_text = new QPlainTextEdit(this);
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setCentralWidget(m_text);
    resize(1100, 750);
    openFile(QStringLiteral(SHARDLAB_RESOURCE_DIR "/scenarios/default.shardlab.json"));
}

bool MainWindow::openFile(const QString& path)
{
    auto loaded = loadScenario(path.toStdString());
    if (!loaded) {
        QMessageBox::warning(this, tr("Cannot open scenario"), QString::fromStdString(loaded.error().message));
        return false;
    }
    m_scenario = *loaded;
    showScenario();
    statusBar()->showMessage(tr("Opened %1").arg(path));
    return true;
}

void MainWindow::showScenario()
{
    std::string text = formatTopoMatrix(m_scenario.topology);
    auto run = simulate(m_scenario);
    if (run)
        text += "\n" + formatSummaryTable(m_scenario, summarize(m_scenario, *run));
    else
        text += "\n" + run.error().message;
    m_text->setPlainText(QString::fromStdString(text));
    setWindowTitle(tr("ShardLab - %1").arg(QString::fromStdString(m_scenario.name)));
}

} // namespace shardlab::gui

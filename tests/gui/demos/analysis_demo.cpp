// The analysis page on its own, for screenshots and for trying it before it is in the main
// window: analysis_demo [SCENARIO] [TAB 0-4]. SHARDLAB_SCREENSHOT=file.png saves the
// window once it has settled; SHARDLAB_QUIT_AFTER_MS quits (as shardlab-gui does).
#include "demo_screenshot.h"
#include "analysis/analysispage.h"

#include "shardlab/io/scenario_io.h"

#include <QApplication>
#include <QMessageBox>
#include <QTimer>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ShardLab"));
    const QStringList args = QApplication::arguments();
    const QString file =
        args.size() > 1 ? args.at(1) : QStringLiteral(SHARDLAB_SCENARIO_DIR "/fifth-gpu-4.shardlab.json");
    auto scenario = shardlab::loadScenario(file.toStdString());
    if (!scenario) {
        QMessageBox::critical(nullptr, QObject::tr("Cannot open scenario"),
                              QString::fromStdString(scenario.error().message));
        return 2;
    }
    shardlab::gui::AnalysisPage page;
    page.setWindowTitle(QObject::tr("ShardLab analysis - %1").arg(QString::fromStdString(scenario->name)));
    page.resize(1400, 950);
    page.setScenario(*scenario);
    if (args.size() > 2)
        page.showTab(static_cast<shardlab::gui::AnalysisPage::Tab>(args.at(2).toInt()));
    page.show();
    shardlab::demo::screenshotAndQuit(app, page);
    return app.exec();
}

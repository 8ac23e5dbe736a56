// Shows the run page on a scenario, runs it, moves the playback to a point of interest and
// saves a screenshot: for the docs, for reviews, and on the GPU machine for a live run.
//   SHARDLAB_SCREENSHOT=out.png SHARDLAB_QUIT_AFTER_MS=6000 runpage_demo FILE [--live] [--at FRACTION] [--select]
//                                                                      [--stand-in-live SLOWDOWN]
//                                                                      [--stream-command COMMAND]
// --at moves the playback cursor to that fraction of the run (default: the first all-reduce);
// --select selects the first collective so that its members are outlined.
// --stand-in-live S previews the simulated-vs-measured view without GPUs: the "measurement" is
// the simulation with every rank S times slower (labelled as a stand-in in the mode's tooltip).
// --stream-command C runs C on this machine (sh -c) with the scenario on its standard input and
// reads its run stream through the path of Run > Live on… (RemoteSession, the engine's stream
// reader): on the GPU machine, --stream-command "shardlab live --stream -" with
// SHARDLAB_QUIT_AFTER_MS shorter than the run shows the run page during the run.
#include "demo_screenshot.h"
#include "run_test_helpers.h"
#include "run/playbackcontroller.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "timeline/timelineview.h"

#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/simulator.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>

using namespace shardlab;
using namespace shardlab::gui;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: runpage_demo SCENARIO.shardlab.json [--live] [--at FRACTION] [--select]\n");
        return 2;
    }
    auto scenario = loadScenario(args.at(1).toStdString());
    if (!scenario) {
        std::fprintf(stderr, "%s\n", scenario.error().message.c_str());
        return 2;
    }
    const int atIndex = static_cast<int>(args.indexOf(QStringLiteral("--at")));
    const double at = atIndex > 0 && atIndex + 1 < args.size() ? args.at(atIndex + 1).toDouble() : -1;
    const bool select = args.contains(QStringLiteral("--select"));
    const int standInIndex = static_cast<int>(args.indexOf(QStringLiteral("--stand-in-live")));
    const double standIn =
        standInIndex > 0 && standInIndex + 1 < args.size() ? args.at(standInIndex + 1).toDouble() : 0;

    RunPage page;
    page.setWindowTitle(QStringLiteral("ShardLab \u2013 %1").arg(QString::fromStdString(scenario->name)));
    page.resize(1600, 900);
    page.show();
    page.setScenario(*scenario);
    if (standIn > 0) {
        page.useLiveRunner(test::standInLiveRunner(standIn),
                           QStringLiteral("stand-in: the simulation with every rank %1x slower").arg(standIn));
    }
    const bool live = args.contains(QStringLiteral("--live")) || standIn > 0;
    const int streamIndex = static_cast<int>(args.indexOf(QStringLiteral("--stream-command")));
    const QString streamCommand =
        streamIndex > 0 && streamIndex + 1 < args.size() ? args.at(streamIndex + 1) : QString();

    int status = 0;
    auto go = [&] {
        if (!streamCommand.isEmpty()) {
            RemoteTarget here;
            here.host = QStringLiteral("this machine");
            here.command = streamCommand;
            here.onThisMachine = true;
            page.runRemote(here);
            return;
        }
        if (live)
            page.setMode(RunKind::Live);
        if (live && page.mode() != RunKind::Live) {
            std::fprintf(stderr, "live runs unavailable: %s\n", qPrintable(page.controller()->liveExplanation()));
            status = 3;
        }
        page.run();
    };
    // live availability is answered by the engine thread: wait for it before choosing the mode
    QObject::connect(
        page.controller(), &RunController::liveAvailabilityChanged, &page, [&] { go(); }, Qt::SingleShotConnection);
    QObject::connect(&page, &RunPage::outcomeAvailable, &page, [&](const RunOutcomePtr& out) {
        const double end = page.playback()->endTime();
        double t = at >= 0 ? at * end : end / 2;
        if (at < 0 && !out->run->collectives.empty())
            t = (out->run->collectives.front().startUs + out->run->collectives.front().endUs) / 2;
        page.playback()->setTime(t);
        if (select && !out->run->collectives.empty())
            page.timeline()->selectCollective(0);
        std::printf("%s\n", out->summary.sentence.c_str());
    });
    QObject::connect(&page, &RunPage::runFailed, &page, [&](const QString& m) {
        std::fprintf(stderr, "run failed: %s\n", qPrintable(m));
        status = 3;
    });

    shardlab::demo::screenshotAndQuit(app, page);
    const int rc = app.exec();
    return status ? status : rc;
}

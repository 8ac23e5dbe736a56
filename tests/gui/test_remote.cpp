// Remote runs over SSH (issue 18), against an sshd of the test's own (sshd_fixture.h) whose
// "remote" ShardLab is the built `shardlab sim --stream -`: the run that arrives is the run made
// locally; each failure says what happened (unreachable, key refused, command missing, another
// stream version, no GPU there, the connection cut mid-run, which also stops the remote run);
// Cancel stops the remote run. Waits are on signals and conditions, never on the clock.
#include "gui_test_main.h"
#include "sshd_fixture.h"

#include "remote/remotedialog.h"
#include "remote/remotefailure.h"
#include "remote/remoteprobe.h"
#include "remote/remotesession.h"
#include "remote/sharedgpu.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "run/summarypanel.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/base/version.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/live.h"
#include "shardlab/sim/simulator.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <fstream>
#include <csignal>

#include <signal.h>

using namespace shardlab;
using namespace shardlab::gui;

namespace {
constexpr int kWaitMs = 120000; // an upper bound for a slow CI machine, not a timing assumption

Scenario load(const char* name)
{
    auto s = loadScenario(QStringLiteral(SHARDLAB_SCENARIO_DIR "/%1").arg(QString::fromLatin1(name)).toStdString());
    return s ? *s : Scenario{};
}

QString cli() { return QStringLiteral(SHARDLAB_CLI); }

bool processGone(qint64 pid) { return ::kill(static_cast<pid_t>(pid), 0) != 0; }

// Runs `command` there on `scenario`; returns the session after it ended (finished or failed).
// `sink`, if given, receives the run so far after each chunk (on the stream parser's thread).
struct Ended {
    bool finished = false;
    std::shared_ptr<const RunResult> run;
    QString message;
};
Ended runThere(const RemoteTarget& target, const Scenario& scenario, StreamParser::ChunkSink sink = {})
{
    RemoteSession session(target);
    if (sink)
        session.setChunkSink(std::move(sink));
    QSignalSpy done(&session, &RemoteSession::runAvailable);
    QSignalSpy failed(&session, &RemoteSession::failed);
    session.start(scenario);
    if (!QTest::qWaitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, kWaitMs))
        return {};
    Ended e;
    e.finished = !done.isEmpty();
    if (e.finished)
        e.run = done.first().at(0).value<std::shared_ptr<const RunResult>>();
    else
        e.message = failed.first().at(0).toString();
    return e;
}
} // namespace

class TestRemote : public QObject {
    Q_OBJECT
    test::LocalSshd m_sshd;

private slots:
    void initTestCase()
    {
        qRegisterMetaType<std::shared_ptr<const RunResult>>();
        QString why;
        if (!m_sshd.start(&why))
            QSKIP(qPrintable(why));
    }

    void aRemoteSimulationIsTheLocalRun()
    {
        const Scenario scenario = load("straggler-12-6-4-2.shardlab.json");
        const Ended e = runThere(m_sshd.target(cli() + QStringLiteral(" sim --stream -")), scenario);
        QVERIFY2(e.finished, qPrintable(e.message));
        auto local = simulate(scenario);
        QVERIFY(local);
        QCOMPARE(serializeRunResult(*e.run), serializeRunResult(*local));
    }

    void theRunPageGetsItAsALocalRun()
    {
        const Scenario scenario = load("default.shardlab.json");
        RunController controller;
        QSignalSpy result(&controller, &RunController::resultAvailable);
        QSignalSpy partial(&controller, &RunController::partialAvailable);
        QSignalSpy failed(&controller, &RunController::failed);
        controller.startRemote(scenario, m_sshd.target(cli() + QStringLiteral(" sim --stream -")));
        QVERIFY(controller.streamingTimeline());
        QVERIFY(QTest::qWaitFor([&] { return !result.isEmpty() || !failed.isEmpty(); }, kWaitMs));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
        const auto outcome = result.first().at(0).value<RunOutcomePtr>();
        QVERIFY(outcome->origin.contains(QStringLiteral("over SSH")));
        QVERIFY(outcome->incomplete.isEmpty());
        auto local = simulate(scenario);
        QVERIFY(local);
        QCOMPARE(serializeRunResult(*outcome->run), serializeRunResult(*local));
        QCOMPARE(outcome->summary.stepTimeMs, summarize(scenario, *local).stepTimeMs);
    }

    void aHangArrivesWithTheWatchdogsReport()
    {
        const Scenario scenario = load("hang-mismatched-collective.shardlab.json");
        const Ended e = runThere(m_sshd.target(cli() + QStringLiteral(" sim --stream -")), scenario);
        QVERIFY2(e.finished, qPrintable(e.message));
        QVERIFY(e.run->hang);
        auto local = simulate(scenario);
        QVERIFY(local && local->hang);
        QCOMPARE(e.run->hang->explanation, local->hang->explanation);
    }

    void anUnreachablePortSaysSo()
    {
        const int closed = test::freeLocalPort();
        const Ended e = runThere(m_sshd.target(cli() + QStringLiteral(" sim --stream -"), false, closed),
                                 load("default.shardlab.json"));
        QVERIFY(!e.finished);
        QVERIFY2(e.message.contains(QStringLiteral("cannot be reached"))
                     && e.message.contains(QStringLiteral("refused")),
                 qPrintable(e.message));
    }

    void aRefusedKeySaysSo()
    {
        const Ended e =
            runThere(m_sshd.target(cli() + QStringLiteral(" sim --stream -"), true), load("default.shardlab.json"));
        QVERIFY(!e.finished);
        QVERIFY2(e.message.contains(QStringLiteral("refused the login")), qPrintable(e.message));
        QVERIFY(e.message.contains(QStringLiteral("Permission denied")));
    }

    void aMissingShardlabSaysSo()
    {
        const Ended e = runThere(m_sshd.target(QStringLiteral("/nonexistent/bin/shardlab sim --stream -")),
                                 load("default.shardlab.json"));
        QVERIFY(!e.finished);
        QVERIFY2(e.message.contains(QStringLiteral("was not found")), qPrintable(e.message));
        QVERIFY(e.message.contains(QStringLiteral("Install the ShardLab package")));
    }

    void anotherVersionNamesBoth()
    {
        QFile script(m_sshd.path("old-shardlab.sh"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("cat > /dev/null\nprintf '%s\\n' "
                     "'{\"shardlab_stream\":0,\"type\":\"header\",\"shardlab_version\":\"0.0.3\"}'\n");
        script.close();
        const Ended e =
            runThere(m_sshd.target(QStringLiteral("sh ") + script.fileName()), load("default.shardlab.json"));
        QVERIFY(!e.finished);
        QVERIFY2(e.message.contains(QStringLiteral("written by ShardLab 0.0.3")), qPrintable(e.message));
        QVERIFY2(e.message.contains(QStringLiteral("this ShardLab (%1)").arg(QString::fromUtf8(kVersion))),
                 qPrintable(e.message));
    }

    void noGpuThereSaysWhy()
    {
        if (liveDevices())
            QSKIP("this machine has GPUs: the remote live run would succeed");
        const Ended e =
            runThere(m_sshd.target(cli() + QStringLiteral(" live --stream -")), load("default.shardlab.json"));
        QVERIFY(!e.finished);
        QVERIFY2(e.message.startsWith(QStringLiteral("The run on ")), qPrintable(e.message));
        QVERIFY2(e.message.contains(QString::fromStdString(liveDevices().error().message)), qPrintable(e.message));
    }

    void theMachineIsShownBeforeTheRun()
    {
        RemoteTarget t = m_sshd.target(cli() + QStringLiteral(" sim --stream -"));
        t.topologyCommand = cli() + QStringLiteral(" topo --preset h200-nv18-4 --json");
        RemoteProbe probe;
        QSignalSpy machine(&probe, &RemoteProbe::machineAvailable);
        QSignalSpy failed(&probe, &RemoteProbe::failed);
        probe.start(t);
        QVERIFY(QTest::qWaitFor([&] { return !machine.isEmpty() || !failed.isEmpty(); }, kWaitMs));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        const auto m = machine.first().at(0).value<RemoteMachine>();
        QCOMPARE(m.shardlabVersion, QString::fromUtf8(kVersion));
        QVERIFY(m.topology);
        QCOMPARE(m.topology->gpus.size(), size_t(4));
        const QString text = describeRemoteMachine(m, t.displayName());
        QVERIFY2(text.contains(QStringLiteral("4 \u00d7 H200")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("ShardLab %1 on").arg(QString::fromUtf8(kVersion))), qPrintable(text));
    }

    // The connection is cut (ssh killed) after the first iteration arrived: what arrived is
    // shown, marked incomplete, and the remote run stops by itself (its output is gone).
    void aCutConnectionKeepsWhatArrivedAndStopsTheRemoteRun()
    {
        const QString pidFile = m_sshd.path("cut.pid");
        QFile::remove(pidFile);
        const QString command =
            QStringLiteral("sh -c 'echo $$ > %1; exec %2 sim --stream - --iterations 100000'").arg(pidFile, cli());
        RunController controller;
        QSignalSpy result(&controller, &RunController::resultAvailable);
        QSignalSpy failed(&controller, &RunController::failed);
        controller.startRemote(load("default.shardlab.json"), m_sshd.target(command));
        RemoteSession* session = controller.remoteSession();
        QVERIFY(session);
        bool cut = false;
        connect(session, &RemoteSession::chunkAvailable, this, [&] {
            if (!cut && session->sshProcessId() > 0) {
                cut = true;
                ::kill(static_cast<pid_t>(session->sshProcessId()), SIGKILL);
            }
        });
        QVERIFY(QTest::qWaitFor([&] { return !result.isEmpty() || !failed.isEmpty(); }, kWaitMs));
        QVERIFY(cut);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
        const auto outcome = result.first().at(0).value<RunOutcomePtr>();
        QVERIFY2(outcome->incomplete.contains(QStringLiteral("was cut after")), qPrintable(outcome->incomplete));
        QVERIFY(!outcome->run->iterations.empty());
        QVERIFY(outcome->run->iterations.size() < 100000);
        QVERIFY(english(outcome->run->notes.back()).find("incomplete") != std::string::npos);
        QFile f(pidFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const qint64 remotePid = f.readAll().trimmed().toLongLong();
        QVERIFY(remotePid > 0);
        QVERIFY2(QTest::qWaitFor([&] { return processGone(remotePid); }, kWaitMs), "the remote run is still running");
    }

    void cancelStopsTheRemoteRun()
    {
        const QString pidFile = m_sshd.path("cancel.pid");
        QFile::remove(pidFile);
        const QString command =
            QStringLiteral("sh -c 'echo $$ > %1; exec %2 sim --stream - --iterations 100000'").arg(pidFile, cli());
        RunController controller;
        QSignalSpy cancelled(&controller, &RunController::cancelled);
        QSignalSpy result(&controller, &RunController::resultAvailable);
        controller.startRemote(load("default.shardlab.json"), m_sshd.target(command));
        bool asked = false;
        connect(controller.remoteSession(), &RemoteSession::chunkAvailable, this, [&] {
            if (!asked) {
                asked = true;
                controller.cancel();
            }
        });
        QVERIFY(QTest::qWaitFor([&] { return !cancelled.isEmpty() || !result.isEmpty(); }, kWaitMs));
        QVERIFY(result.isEmpty());
        QFile f(pidFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const qint64 remotePid = f.readAll().trimmed().toLongLong();
        QVERIFY2(QTest::qWaitFor([&] { return processGone(remotePid); }, kWaitMs), "the remote run is still running");
    }
};

// The failures' sentences from ssh's exit status and standard error, without a network.
class TestRemoteFailure : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<std::shared_ptr<const RunResult>>(); }

    void sentences()
    {
        RemoteTarget t;
        t.host = QStringLiteral("lab-gpu");
        RemoteEnd e;
        e.exitCode = 255;
        e.stderrText = QStringLiteral("ssh: Could not resolve hostname lab-gpu: Name or service not known\n");
        QVERIFY(explainRemoteEnd(t, e).contains(QStringLiteral("not a known host name")));
        e.stderrText = QStringLiteral("Host key verification failed.\n");
        QVERIFY(explainRemoteEnd(t, e).contains(QStringLiteral("host key")));
        e.exitCode = 2;
        e.stderrText = QStringLiteral("shardlab: The following argument was not expected: --stream\n");
        QVERIFY(explainRemoteEnd(t, e).contains(QStringLiteral("older than this one")));
        QCOMPARE(remoteHostProblem(QStringLiteral("-oProxyCommand=x")).isEmpty(), false);
        QCOMPARE(remoteHostProblem(QStringLiteral("alice@gpu1")).isEmpty(), true);
        QVERIFY(remoteCommandSimulates(QStringLiteral("shardlab sim --stream -")));
        QVERIFY(!remoteCommandSimulates(QStringLiteral("srun -N2 shardlab live --stream -")));
        QCOMPARE(topologyCommandFor(QStringLiteral("srun -N1 --gpus-per-node=8 shardlab live --stream -")),
                 QStringLiteral("srun -N1 --gpus-per-node=8 shardlab topo --json"));
        QCOMPARE(topologyCommandFor(QStringLiteral("my-wrapper")), RemoteTarget::defaultTopologyCommand());
    }

    // A host that begins with a Unicode space and an option passed the old check (an ASCII \s on
    // the untrimmed text) and reached ssh trimmed, as an option. Now the engine checks exactly the
    // text used, and the session refuses it before any ssh starts.
    void hostileTargetsAreRefusedBeforeSshStarts()
    {
        for (char16_t c : {u'\u00a0', u'\u2003', u'\u3000', u'\u0085', u'\u2028', u'\u2029', u'\u1680', u'\u202f',
                           u'\ufeff', u'\u200b', u'\t', u' '}) {
            const QString host = QString(QChar(c)) + QStringLiteral("-oProxyCommand=touch /tmp/shardlab-pwned");
            QVERIFY2(!remoteHostProblem(host).isEmpty(), qPrintable(host));
            QVERIFY2(!remoteHostProblem(QStringLiteral("lab-gpu") + QChar(c)).isEmpty(), qPrintable(host));
        }
        RemoteTarget t;
        t.host = QStringLiteral("alice@lab-gpu");
        auto args = sshArguments(t, QStringLiteral("shardlab live --stream -"));
        QVERIFY(args);
        QCOMPARE(args->mid(args->size() - 3), (QStringList{QStringLiteral("--"), QStringLiteral("alice@lab-gpu"),
                                                           QStringLiteral("shardlab live --stream -")}));
        QVERIFY(!sshArguments(t, QStringLiteral("-E /tmp/appended")));
        // the session: the failure names the host; ssh (a program that does not exist) never started
        t.host = QStringLiteral("\u00a0-oProxyCommand=touch /tmp/shardlab-pwned");
        t.sshProgram = QStringLiteral("/nonexistent/ssh-never-started");
        const Ended e = runThere(t, load("default.shardlab.json"));
        QVERIFY(!e.finished);
        QVERIFY2(e.message.startsWith(QStringLiteral("the host '\\u00a0-oProxyCommand")), qPrintable(e.message));
        QVERIFY2(e.message.contains(QStringLiteral("U+00A0 at character 1")), qPrintable(e.message));
    }
};

// `shardlab sim --stream -` piped into the same session and reader on this machine (no ssh):
// what the GPU machine's demo does with `live --stream -`.
class TestStreamHere : public QObject {
    Q_OBJECT
    // `shardlab sim --stream -` run through `sh` here, as the demo on the GPU machine does
    static RemoteTarget simulationHere()
    {
        RemoteTarget here;
        here.host = QStringLiteral("this machine");
        here.onThisMachine = true;
        here.command = cli() + QStringLiteral(" sim --stream -");
        return here;
    }

private slots:
    void initTestCase() { qRegisterMetaType<std::shared_ptr<const RunResult>>(); }

    void aPipedStreamIsTheLocalRun()
    {
        const RemoteTarget here = simulationHere();
        const Scenario scenario = load("straggler-12-6-4-2.shardlab.json");
        const Ended e = runThere(here, scenario);
        QVERIFY2(e.finished, qPrintable(e.message));
        auto local = simulate(scenario);
        QVERIFY(local);
        QCOMPARE(serializeRunResult(*e.run), serializeRunResult(*local));
    }

    // The stream is read on a thread of its own (StreamParser), never on the GUI thread: a long
    // profile's last line takes the JSON parser most of a second (bench_timeline part 5). Each
    // chunk reaches the sink there, growing, and the run is still the local one.
    void theStreamIsReadOffTheGuiThread()
    {
        const RemoteTarget here = simulationHere();
        const Scenario scenario = load("default.shardlab.json");
        QThread* gui = QThread::currentThread();
        std::atomic<int> chunks{0}, onGuiThread{0};
        std::atomic<size_t> lastSpans{0};
        std::atomic<bool> shrank{false};
        const Ended e = runThere(here, scenario, [&](const RunResult& soFar, int, int) {
            if (QThread::currentThread() == gui)
                ++onGuiThread;
            if (soFar.spans.size() < lastSpans)
                shrank = true;
            lastSpans = soFar.spans.size();
            ++chunks;
            return true;
        });
        QVERIFY2(e.finished, qPrintable(e.message));
        QVERIFY(chunks > 0);
        QCOMPARE(onGuiThread.load(), 0);
        QVERIFY(!shrank);
        auto local = simulate(scenario);
        QVERIFY(local);
        QCOMPARE(lastSpans.load(), local->spans.size());
        QCOMPARE(serializeRunResult(*e.run), serializeRunResult(*local));
    }
};

// Text from another machine or program is shown as text: a version string or an error with markup
// must not render as a heading or a link (Qt shows text that looks like HTML as HTML by default).
class TestPlainText : public QObject {
    Q_OBJECT
    static constexpr const char* kMarkup = "<h1>0.9.9</h1><a href='https://example.org/x'>click</a>";
    QTemporaryDir m_settings;

    static QLabel* labelShowing(QWidget& w, const QString& part)
    {
        for (QLabel* l : w.findChildren<QLabel*>())
            if (l->text().contains(part))
                return l;
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<std::shared_ptr<const RunResult>>();
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
    }

    void aMarkupVersionFromTheRemoteMachineShowsLiterally()
    {
        RemoteDialog dialog;
        RemoteProbe* probe = dialog.findChild<RemoteProbe*>();
        QVERIFY(probe);
        auto machine = parseRemoteMachine(QByteArray("{\"shardlab_version\": \"") + kMarkup
                                          + "\", \"stream_format\": 2, \"live\": \"\", \"error\": \"<b>no GPU</b>\"}");
        QVERIFY(machine);
        emit probe->machineAvailable(*machine);
        QVERIFY2(dialog.machineText().contains(QString::fromUtf8(kMarkup)), qPrintable(dialog.machineText()));
        QLabel* shown = labelShowing(dialog, QStringLiteral("<h1>"));
        QVERIFY(shown);
        QCOMPARE(shown->textFormat(), Qt::PlainText);
        // and a failure's text (ssh's standard error, the remote run's error)
        emit probe->failed(QStringLiteral("lab-gpu: <a href=\"x\">it said</a>"));
        QCOMPARE(labelShowing(dialog, QStringLiteral("<a href"))->textFormat(), Qt::PlainText);
    }

    // Run > Live with N ranks on this one GPU: the page runs `shardlab live --share-gpu N --stream -`
    // here with the scenario on its standard input (a stand-in for shardlab replays a stream such
    // a run writes), and the run it shows says that its ranks shared one GPU.
    void ranksSharingOneGpuRunThroughTheCommandLineAndAreMarked()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Scenario scenario = load("straggler-12-6-4-2.shardlab.json");
        auto run = simulate(scenario);
        QVERIFY(run);
        run->mode = RunMode::Live;
        run->sharedGpu = 4;
        run->notes.insert(run->notes.begin(), Message("live.note.shared_gpu").with("ranks", 4));
        {
            std::ofstream stream(dir.filePath(QStringLiteral("stream.jsonl")).toStdString());
            RunStreamWriter writer(stream);
            StreamHeader header;
            header.mode = RunMode::Live;
            header.scenario = scenario;
            header.launch = "ShardLab (--share-gpu), 4 processes on 1 host";
            QVERIFY(writer.header(header));
            QVERIFY(writer.result(*run));
        }
        const QString fake = dir.filePath(QStringLiteral("shardlab"));
        {
            QFile f(fake);
            QVERIFY(f.open(QIODevice::WriteOnly));
            // it waits for the test's go, so that the status while it runs can be read
            f.write(QStringLiteral("#!/bin/sh\necho \"$@\" > '%1/args'\ncat > '%1/scenario.json'\n"
                                   "while [ ! -e '%1/go' ]; do sleep 0.02; done\ncat '%1/stream.jsonl'\n")
                        .arg(dir.path())
                        .toUtf8());
        }
        QFile::setPermissions(fake, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        RunPage page;
        page.setScenario(scenario);
        QSignalSpy finished(&page, &RunPage::runFinished);
        QSignalSpy failed(&page, &RunPage::runFailed);
        QVERIFY(sharedGpuProblem(scenario.ranks()).isEmpty());
        page.runSharingGpu(fake);
        auto saidWhileRunning = [&] {
            for (QLabel* label : page.findChildren<QLabel*>())
                if (QString(label->text() + label->toolTip())
                        .contains(QStringLiteral("on this machine's one GPU, one process each")))
                    return true;
            return false;
        };
        QVERIFY(QTest::qWaitFor(saidWhileRunning, kWaitMs));
        QFile go(dir.filePath(QStringLiteral("go")));
        QVERIFY(go.open(QIODevice::WriteOnly));
        go.close();
        QVERIFY2(QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, kWaitMs), "no end");
        QVERIFY2(failed.isEmpty(), qPrintable(page.message()));
        QFile args(dir.filePath(QStringLiteral("args")));
        QVERIFY(args.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(args.readAll()).trimmed(),
                 QStringLiteral("live --share-gpu 4 --watchdog-ms 10000 --stream -"));
        args.close();
        QFile sentFile(dir.filePath(QStringLiteral("scenario.json")));
        QVERIFY(sentFile.open(QIODevice::ReadOnly));
        auto sent = parseScenario(sentFile.readAll().toStdString(), "sent");
        QVERIFY(sent);
        QCOMPARE(sent->ranks(), 4);
        QVERIFY2(page.summary()->notes().startsWith(QStringLiteral(
                     "4 ranks shared one GPU: results and waits are real, times are not those of 4 GPUs")),
                 qPrintable(page.summary()->notes()));
        // what cannot share one GPU says why
        QVERIFY(sharedGpuProblem(1).contains(QStringLiteral("between 2 and 8")));
        QVERIFY(!sharedGpuProblem(9).isEmpty());

        // As a mode, every run of the page goes that way: the hang sandbox's variants (runScenario)
        // too, with the sandbox's deadline; the page's own Live (one GPU per rank) turns it off.
        page.useLiveRunner([](const Scenario& s, const LiveOptions&) { return simulate(s); }, QStringLiteral("test"));
        page.setMode(RunKind::Live);
        page.setShareGpu(true);
        page.setWatchdogMs(2500);
        QVERIFY(QFile::remove(args.fileName()));
        finished.clear();
        page.runScenario(scenario);
        QVERIFY2(QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, kWaitMs), "no end");
        QVERIFY(args.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(args.readAll()).trimmed(),
                 QStringLiteral("live --share-gpu 4 --watchdog-ms 2500 --stream -"));
        Scenario sixteen = scenario;
        while (sixteen.topology.gpus.size() < 16)
            sixteen.topology.gpus.push_back(sixteen.topology.gpus.front());
        failed.clear();
        page.runScenario(sixteen);
        QCOMPARE(failed.size(), 1);
        QVERIFY2(page.message().contains(QStringLiteral("between 2 and 8")), qPrintable(page.message()));
        QRadioButton* liveRadio = nullptr;
        for (QRadioButton* b : page.findChildren<QRadioButton*>())
            if (b->text().contains(QStringLiteral("Live")))
                liveRadio = b;
        QVERIFY(liveRadio);
        QSignalSpy modes(&page, &RunPage::modeChanged);
        liveRadio->click();
        QVERIFY(!page.shareGpu());
        QCOMPARE(page.mode(), RunKind::Live);
        QCOMPARE(modes.count(), 1); // the Run menu hears it once
        liveRadio->click();         // already Live, not sharing: nothing changed, nothing said
        QCOMPARE(modes.count(), 1);
    }

    void aMarkupErrorFromTheRemoteRunShowsLiterallyOnTheRunPage()
    {
        RunPage page;
        page.setScenario(load("default.shardlab.json"));
        QSignalSpy failed(&page, &RunPage::runFailed);
        RemoteTarget here;
        here.host = QStringLiteral("this machine");
        here.onThisMachine = true;
        here.command = QStringLiteral("cat > /dev/null; echo \"%1\" >&2; exit 3").arg(QString::fromUtf8(kMarkup));
        page.runRemote(here);
        QVERIFY(QTest::qWaitFor([&] { return !failed.isEmpty(); }, kWaitMs));
        QVERIFY2(page.message().contains(QString::fromUtf8(kMarkup)), qPrintable(page.message()));
        auto* banner = page.findChild<QLabel*>(QStringLiteral("runBanner"));
        QVERIFY(banner);
        QCOMPARE(banner->text(), page.message());
        QCOMPARE(banner->textFormat(), Qt::PlainText);
    }
};

// The dialog: a host that cannot be an SSH destination disables Run and says why; the hosts used
// are remembered, most recent first, with the command.
class TestRemoteDialog : public QObject {
    Q_OBJECT
    QTemporaryDir m_settings;

private slots:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
    }

    void rememberedAndChecked()
    {
        RemoteDialog dialog;
        QPushButton* run = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        dialog.setHost(QString());
        QVERIFY(!run->isEnabled());
        dialog.setHost(QStringLiteral("-oProxyCommand=touch /tmp/x"));
        QVERIFY(!run->isEnabled());
        dialog.setHost(QStringLiteral("\u00a0-oProxyCommand=touch /tmp/x")); // a no-break space first
        QVERIFY(!run->isEnabled());
        QVERIFY(!dialog.checkButton()->isEnabled());
        dialog.setHost(QStringLiteral("lab-gpu\u3000"));
        QVERIFY(!run->isEnabled());
        dialog.setHost(QStringLiteral("lab-gpu"));
        QVERIFY(run->isEnabled());
        // SHARDLAB_REMOTE_SHOTS=DIR: the dialog as a picture, for reviews
        if (const QString shots = qEnvironmentVariable("SHARDLAB_REMOTE_SHOTS"); !shots.isEmpty()) {
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            dialog.grab().save(shots + QStringLiteral("/remote-dialog.png"));
        }
        QCOMPARE(dialog.target().command, RemoteTarget::defaultCommand());
        QCOMPARE(dialog.target().topologyCommand, QStringLiteral("shardlab topo --json"));
        dialog.accept();
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("remote/hosts")).toStringList(), QStringList{QStringLiteral("lab-gpu")});
        RemoteSettings again = RemoteSettings::load(settings);
        RemoteTarget other;
        other.host = QStringLiteral("alice@gpu1");
        other.command = QStringLiteral("srun -N1 shardlab live --stream -");
        again.remember(settings, other);
        QCOMPARE(RemoteSettings::load(settings).hosts,
                 (QStringList{QStringLiteral("alice@gpu1"), QStringLiteral("lab-gpu")}));
        QCOMPARE(RemoteSettings::load(settings).command, other.command);
    }
};

int shardlabGuiTest_test_remote(int argc, char** argv)
{
    QApplication app(argc, argv);
    int status = 0;
    {
        TestRemoteFailure failures;
        status |= QTest::qExec(&failures, argc, argv);
    }
    {
        TestStreamHere here;
        status |= QTest::qExec(&here, argc, argv);
    }
    {
        TestRemoteDialog dialog;
        status |= QTest::qExec(&dialog, argc, argv);
    }
    {
        TestPlainText plain;
        status |= QTest::qExec(&plain, argc, argv);
    }
    {
        TestRemote remote;
        status |= QTest::qExec(&remote, argc, argv);
    }
    return status;
}

#include "test_remote.moc"

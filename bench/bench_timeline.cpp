// Timeline and playback speed, offscreen (QT_QPA_PLATFORM=offscreen is set if unset).
//  1. redraw after a zoom or a pan step with 8 ranks x 100,000 and x 1,000,000 spans (target:
//     median <= 16 ms), the level-of-detail pass alone, the lanes' bytes per span, and the time
//     of each slice when the same run streams in chunk by chunk;
//  2. playback frames for 8 ranks: activity at t, the frame for the diagram, the cursor
//     (target: 60 frames per second);
//  3. the GUI event loop while a simulation of more than 1,000,000 spans streams in on the
//     engine thread: the largest gap between ticks of a 5 ms timer (target: <= 50 ms);
//  4. cancel: from RunController::cancel() to its cancelled signal while a long simulation streams
//     (target: <= 200 ms; the tests check that cancel works, this how fast);
//  5. only when asked (`bench_timeline 0 profile SHARDLAB PROGRAM ARGS...`): the same gap while a
//     profiled program streams in through `shardlab profile --live` (issue 15: <= 50 ms).
// Prints the machine; results go to docs/benchmarks.md ("Timeline").
#include "bench_common.h"
#include "bench_scenarios.h"

#include "remote/remotetarget.h"
#include "run/playbackcontroller.h"
#include "run/runcontroller.h"
#include "run/runpage.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinelod.h"
#include "timeline/timelineview.h"

#include "shardlab/model/presets.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include "timeline/qcustomplot_include.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <functional>
#include <sys/resource.h>
#include <numeric>
#include <string>
#include <vector>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

// CPU time of the calling thread, in ms: what the GUI thread itself spends, apart from waiting
// for a core on a shared machine.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// What the kernel did for the calling thread so far: pages read from disk (code, fonts, data
// mapped from files that the OS's cache no longer holds) and CPU time spent in the kernel
// (zeroing fresh pages, compacting memory for them), both part of a cold first run's cost.
struct KernelWork {
    long majorFaults = 0;
    double systemMs = 0;
};
KernelWork threadKernelWork()
{
    rusage ru{};
    getrusage(RUSAGE_THREAD, &ru);
    return {ru.ru_majflt,
            static_cast<double>(ru.ru_stime.tv_sec) * 1e3 + static_cast<double>(ru.ru_stime.tv_usec) / 1e3};
}

// Times every event the GUI thread handles, so that a stall can be traced to what caused it.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    struct Slow {
        double ms = 0;
        double cpuMs = 0;
        long majorFaults = 0;
        double systemMs = 0;
        QString what;
    };
    bool recording = false;
    std::vector<Slow> slowest; // the five slowest while recording

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (!recording || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        QElapsedTimer t;
        t.start();
        const double cpu0 = threadCpuMs();
        const KernelWork kernel0 = threadKernelWork();
        const bool r = QApplication::notify(receiver, event);
        const double ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        const double cpuMs = threadCpuMs() - cpu0;
        const KernelWork kernel1 = threadKernelWork();
        if (slowest.size() < 5 || ms > slowest.back().ms) {
            const char* name = receiver->metaObject()->className();
            QString what =
                QString::fromLatin1(name) + QStringLiteral(" / event ") + QString::number(int(event->type()));
            if (event->type() == QEvent::MetaCall)
                what += QStringLiteral(" (queued call or signal)");
            slowest.push_back(
                {ms, cpuMs, kernel1.majorFaults - kernel0.majorFaults, kernel1.systemMs - kernel0.systemMs, what});
            std::sort(slowest.begin(), slowest.end(), [](const Slow& a, const Slow& b) { return a.ms > b.ms; });
            if (slowest.size() > 5)
                slowest.pop_back();
        }
        return r;
    }
};

struct Stats {
    double median = 0, p95 = 0, max = 0;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    if (v.empty())
        return {};
    return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 95 / 100)], v.back()};
}

// 8 ranks x `perRank` spans: compute, wait for the last arrival, an all-reduce joining all
// ranks; durations from a fixed-seed generator so that every run draws the same picture.
std::shared_ptr<RunResult> syntheticRun(int ranks, int perRank)
{
    auto r = std::make_shared<RunResult>();
    r->ranks = ranks;
    for (int i = 0; i < ranks; ++i)
        r->devices.push_back("H200");
    std::uint64_t state = 42;
    auto uniform = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);
    };
    std::vector<double> t(static_cast<size_t>(ranks), 0.0);
    std::vector<int> count(static_cast<size_t>(ranks), 0);
    r->spans.reserve(static_cast<size_t>(ranks) * static_cast<size_t>(perRank));
    for (int k = 0; *std::min_element(count.begin(), count.end()) < perRank; ++k) {
        CollectiveRecord c;
        c.op = 1;
        c.iteration = k / 1000;
        for (int q = 0; q < ranks; ++q) {
            const double busy = 5 + 10 * uniform();
            Span s{q, 0, SpanKind::Compute, t[size_t(q)], t[size_t(q)] + busy, 0, k / 1000};
            r->spans.push_back(s);
            ++count[size_t(q)];
            t[size_t(q)] += busy;
            c.group.push_back(q);
            c.arrivalUs.push_back(t[size_t(q)]);
        }
        c.startUs = *std::max_element(t.begin(), t.end());
        c.endUs = c.startUs + 3;
        c.lastArrival = static_cast<int>(std::max_element(t.begin(), t.end()) - t.begin());
        const int index = static_cast<int>(r->collectives.size());
        for (int q = 0; q < ranks; ++q) {
            Span w{q, 0, SpanKind::Wait, t[size_t(q)], c.startUs, 1, k / 1000, 0, index, c.lastArrival};
            if (w.endUs > w.beginUs) {
                r->spans.push_back(w);
                ++count[size_t(q)];
            }
            r->spans.push_back(Span{q, 0, SpanKind::Comm, c.startUs, c.endUs, 1, k / 1000, 0, index});
            ++count[size_t(q)];
            t[size_t(q)] = c.endUs;
        }
        r->collectives.push_back(c);
        if ((k + 1) % 1000 == 0)
            r->iterations.push_back({r->iterations.empty() ? 0.0 : r->iterations.back().endUs, c.endUs});
    }
    if (r->iterations.empty() || r->iterations.back().endUs < t[0])
        r->iterations.push_back({r->iterations.empty() ? 0.0 : r->iterations.back().endUs, t[0]});
    return r;
}

// Bytes the lanes hold per span, apart from the Span itself: the tracks' arrays as allocated and
// the lanes' summaries.
std::pair<double, double> laneBytesPerSpan(const TimelineData& d)
{
    size_t tracks = 0, summaries = 0;
    for (const TimelineLane& l : d.lanes()) {
        for (const TimelineTrack* t : {&l.kinds[0], &l.kinds[1], &l.kinds[2], &l.paging})
            tracks +=
                (t->begin.capacity() + t->end.capacity() + t->reach.capacity() + t->covered.capacity()) * sizeof(double)
                + t->span.capacity() * sizeof(int);
        summaries += l.summary.bytes();
    }
    const double n = static_cast<double>(std::max<size_t>(1, d.spanCount()));
    return {static_cast<double>(tracks) / n, static_cast<double>(summaries) / n};
}

// The run as the run page receives it: one chunk per iteration (1,000 collectives), each sorted
// off the GUI thread and put into the lanes in slices of 4,000 spans (RunController::drainStream).
// Times every slice: appending must cost the slice, not the run so far.
void appendBench(const RunResult& run)
{
    auto d = TimelineData::streaming(run.ranks, run.devices);
    std::vector<double> slices, cpuSlices;
    size_t span = 0, collective = 0;
    double totalMs = 0;
    for (size_t it = 0; it < run.iterations.size(); ++it) {
        const double end = run.iterations[it].endUs;
        std::vector<Span> chunk;
        while (span < run.spans.size() && run.spans[span].beginUs < end)
            chunk.push_back(run.spans[span++]);
        std::vector<CollectiveRecord> recs;
        while (collective < run.collectives.size() && run.collectives[collective].startUs < end)
            recs.push_back(run.collectives[collective++]);
        std::vector<int> order(chunk.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int x, int y) { return chunk[size_t(x)].beginUs < chunk[size_t(y)].beginUs; });
        QElapsedTimer c;
        c.start();
        double cpu0 = threadCpuMs();
        if (it == 1) // as RunController does once it knows how much of the run it has seen
            d->expectGrowth(static_cast<double>(run.iterations.size()));
        d->beginAppend(std::move(chunk), std::move(recs), {run.iterations[it]}, std::move(order));
        slices.push_back(static_cast<double>(c.nsecsElapsed()) / 1e6);
        cpuSlices.push_back(threadCpuMs() - cpu0);
        for (;;) {
            QElapsedTimer sc;
            sc.start();
            cpu0 = threadCpuMs();
            const bool more = d->continueAppend(4000);
            slices.push_back(static_cast<double>(sc.nsecsElapsed()) / 1e6);
            cpuSlices.push_back(threadCpuMs() - cpu0);
            if (!more)
                break;
        }
    }
    for (double ms : slices)
        totalMs += ms;
    const Stats st = stats(slices);
    const Stats cpu = stats(cpuSlices);
    std::printf("   streamed in %zu chunks (one per iteration, slices of 4,000 spans): %zu slices, median %.3f ms, p95 "
                "%.3f ms, max "
                "%.2f ms (CPU max %.2f ms), %.0f ms in all\n",
                run.iterations.size(), slices.size(), st.median, st.p95, st.max, cpu.max, totalMs);
}

void redrawBench(int perRank)
{
    auto run = syntheticRun(8, perRank);
    TimelineView view;
    view.resize(1600, 900);
    view.show();
    QElapsedTimer build;
    build.start();
    auto data = TimelineData::build(run);
    const double buildMs = static_cast<double>(build.nsecsElapsed()) / 1e6;
    view.setData(data);
    view.replotNow();
    std::vector<double> fitted;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer c;
        c.start();
        view.replotNow();
        fitted.push_back(static_cast<double>(c.nsecsElapsed()) / 1e6);
    }
    std::vector<LaneBlock> blocks;
    // the level-of-detail pass alone with the whole run in view (every column aggregated)
    auto lodPass = [&] {
        size_t n = 0;
        QElapsedTimer l;
        l.start();
        for (const TimelineLane& lane : data->lanes()) {
            aggregateLane(lane, view.timeScale(), 1, blocks);
            n += blocks.size();
        }
        return std::pair(static_cast<double>(l.nsecsElapsed()) / 1e6, n);
    };
    std::vector<double> fittedLod;
    for (int i = 0; i < 5; ++i)
        fittedLod.push_back(lodPass().first);
    // 15 zoom steps in around the middle, 20 pan steps, 15 zoom steps out
    std::vector<double> zooms, pans, cpu, lod;
    size_t blockCount = 0;
    const double centre = view.plot()->axisRect()->center().x();
    auto timed = [&](std::vector<double>& steps, auto&& change) {
        change();
        QElapsedTimer c;
        c.start();
        const double cpu0 = threadCpuMs();
        view.replotNow();
        cpu.push_back(threadCpuMs() - cpu0);
        steps.push_back(static_cast<double>(c.nsecsElapsed()) / 1e6);
        // the level-of-detail pass alone (part of the redraw just timed): every lane's blocks
        const auto [ms, n] = lodPass();
        lod.push_back(ms);
        blockCount += n;
    };
    const int repeat =
        qEnvironmentVariableIntValue("BENCH_REPEAT") > 0 ? qEnvironmentVariableIntValue("BENCH_REPEAT") : 1;
    for (int rep = 0; rep < repeat; ++rep) {
        for (int i = 0; i < 15; ++i)
            timed(zooms, [&] { view.zoomAt(0.7, centre); });
        for (int i = 0; i < 20; ++i)
            timed(pans, [&] { view.panBy(i < 10 ? 150 : -150); });
        for (int i = 0; i < 15; ++i)
            timed(zooms, [&] { view.zoomAt(1 / 0.7, centre); });
    }
    std::vector<double> steps = zooms;
    steps.insert(steps.end(), pans.begin(), pans.end());
    const Stats s = stats(steps);
    const Stats z = stats(zooms);
    const Stats p = stats(pans);
    const Stats sc = stats(cpu);
    const Stats f = stats(fitted);
    const Stats l = stats(lod);
    std::printf("1. redraw, 8 ranks x %d spans (%zu spans, %zu collectives), 1600x900 offscreen\n", perRank,
                run->spans.size(), run->collectives.size());
    const auto [trackBytes, summaryBytes] = laneBytesPerSpan(*data);
    std::printf("   lanes built in %.1f ms, %.1f bytes per span in tracks + %.1f in summaries (plus the %zu-byte Span "
                "itself); whole "
                "run in view: median %.2f ms\n",
                buildMs, trackBytes, summaryBytes, sizeof(Span), f.median);
    std::printf("   whole run in view, the level-of-detail pass alone: median %.2f ms\n", stats(fittedLod).median);
    std::printf(
        "   after a zoom or pan step (%zu steps): median %.2f ms, p95 %.2f ms, max %.2f ms  [target median <= 16 ms]\n",
        steps.size(), s.median, s.p95, s.max);
    std::printf("     after a zoom step (%zu): median %.2f ms, p95 %.2f ms; after a pan step (%zu): median %.2f ms, "
                "p95 %.2f ms\n",
                zooms.size(), z.median, z.p95, pans.size(), p.median, p.p95);
    std::printf("   the same, CPU time of the GUI thread: median %.2f ms, p95 %.2f ms, max %.2f ms\n", sc.median,
                sc.p95, sc.max);
    std::printf("   of which the level-of-detail pass (all lanes, %.0f blocks a step): median %.2f ms, p95 %.2f ms\n",
                static_cast<double>(blockCount) / static_cast<double>(std::max<size_t>(1, lod.size())), l.median,
                l.p95);
    view.setData(nullptr);
    data.reset();
    appendBench(*run);
}

void playbackBench(QApplication& app)
{
    const Scenario s = bench::dataParallelStep(8, 60);
    CostModel model(s.topology, *profileFor(s));
    auto r = simulate(s, model);
    if (!r) {
        std::fprintf(stderr, "simulation failed: %s\n", r.error().message.c_str());
        std::exit(1);
    }
    auto run = std::make_shared<const RunResult>(std::move(r).value());
    QElapsedTimer build;
    build.start();
    auto index = std::make_shared<const ActivityIndex>(s, run, model);
    const double indexMs = static_cast<double>(build.nsecsElapsed()) / 1e6;
    TimelineView view;
    view.resize(1600, 900);
    view.show();
    view.setData(TimelineData::build(run));
    view.replotNow();
    PlaybackController playback;
    QObject::connect(&playback, &PlaybackController::timeChanged, &view, &TimelineView::setCursorTime);
    size_t busyLinks = 0;
    QObject::connect(&playback, &PlaybackController::activityAvailable, &view, [&](const ActivitySnapshot& f) {
        for (const LinkActivity& l : f.links)
            busyLinks += l.utilisation > 0;
    });
    playback.setIndex(index);
    app.processEvents();
    // one frame = position -> activity -> frame signal -> cursor layer redraw and repaint
    std::vector<double> frames;
    const int n = 600;
    for (int i = 0; i < n; ++i) {
        QElapsedTimer c;
        c.start();
        playback.setTime(index->endUs() * i / n);
        app.processEvents(); // the cursor's move is painted
        frames.push_back(static_cast<double>(c.nsecsElapsed()) / 1e6);
    }
    const Stats f = stats(frames);
    // and in real time: play for 2 s and count frames
    const int before = playback.framesEmitted();
    playback.setSpeed(1e-3);
    playback.play();
    QElapsedTimer wall;
    wall.start();
    while (wall.elapsed() < 2000)
        app.processEvents(QEventLoop::AllEvents, 5);
    playback.pause();
    const double fps = (playback.framesEmitted() - before) / (static_cast<double>(wall.elapsed()) / 1e3);
    std::printf("2. playback, 8 ranks, %zu spans, %zu collectives (activity index built in %.1f ms)\n",
                run->spans.size(), run->collectives.size(), indexMs);
    std::printf("   frame (activity at t + frame + cursor redraw): median %.3f ms, p95 %.3f ms, max %.3f ms\n",
                f.median, f.p95, f.max);
    std::printf("   playing for 2 s: %.1f frames per second  [target 60]  (%zu busy links seen)\n", fps, busyLinks);
}

// The GUI event loop while a run streams into `page`, started by `start`: the largest gap
// between ticks of a 5 ms timer, the most GUI-thread work between two ticks, the slowest events.
// It runs the app's own event loop, as the app does: the GUI thread sleeps while there is
// nothing to do (a loop polling processEvents() would keep a core busy that the engine thread
// and Qt's painting need, and count its polling as the GUI thread's work).
void measureStall(TimedApplication& app, RunPage& page, const std::function<void()>& start, const char* what)
{
    size_t spans = 0;
    bool done = false;
    QEventLoop loop;
    QElapsedTimer clock;
    clock.start();
    qint64 finishedAt = 0;
    QObject::connect(&page, &RunPage::runFinished, &page, [&](const RunResult& r, const Summary&) {
        spans = r.spans.size();
        done = true;
        finishedAt = clock.elapsed();
        QTimer::singleShot(500, &loop, &QEventLoop::quit); // the finished run's redraw counts too
    });
    QObject::connect(page.controller(), &RunController::failed, &page, [&](quint64, const QString& message) {
        std::printf("   the run failed: %s\n", qPrintable(message));
        loop.quit();
    });
    QTimer::singleShot(120000, &loop, &QEventLoop::quit); // a run that never ends
    qint64 last = 0, worst = 0;
    double lastCpu = threadCpuMs(), worstCpu = 0; // GUI-thread work between two ticks
    int partials = 0;
    QObject::connect(page.controller(), &RunController::partialAvailable, &page, [&] { ++partials; });
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(5);
    QObject::connect(&tick, &QTimer::timeout, &page, [&] {
        const qint64 now = clock.nsecsElapsed() / 1000;
        worst = std::max(worst, now - last);
        last = now;
        const double cpuNow = threadCpuMs();
        worstCpu = std::max(worstCpu, cpuNow - lastCpu);
        lastCpu = cpuNow;
    });
    last = clock.nsecsElapsed() / 1000;
    lastCpu = threadCpuMs();
    tick.start();
    app.slowest.clear();
    app.recording = true;
    const double cpu0 = threadCpuMs();
    const KernelWork kernel0 = threadKernelWork();
    start();
    loop.exec();
    tick.stop();
    app.recording = false;
    const double cpu = threadCpuMs() - cpu0;
    const KernelWork kernel1 = threadKernelWork();
    if (!done)
        std::printf("   the run did not finish within 120 s; the figures below are of its first 120 s\n");
    std::printf("   %s: %zu spans, %d streamed redraws\n", what, spans, partials);
    std::printf("   run finished after %lld ms; largest gap of a 5 ms timer: %.1f ms  [target <= 50 ms]\n",
                static_cast<long long>(finishedAt), static_cast<double>(worst) / 1e3);
    std::printf("   the most work the GUI thread did between two ticks: %.1f ms of CPU time\n", worstCpu);
    std::printf("   GUI thread CPU time meanwhile: %.0f ms (%.0f ms in the kernel, %ld pages read from disk); slowest "
                "events:\n",
                cpu, kernel1.systemMs - kernel0.systemMs, kernel1.majorFaults - kernel0.majorFaults);
    for (const auto& slow : app.slowest)
        std::printf("     %7.1f ms (CPU %6.1f ms, of it %.1f in the kernel; %ld pages read from disk)  %s\n", slow.ms,
                    slow.cpuMs, slow.systemMs, slow.majorFaults, qPrintable(slow.what));
}

void stallBench(TimedApplication& app)
{
    RunPage page;
    page.resize(1600, 900);
    page.show();
    page.setScenario(bench::dataParallelStep(8, 700));
    app.processEvents();
    std::printf("3. event loop while a simulation streams in (run page shown)\n");
    measureStall(
        app, page, [&] { page.run(); }, "simulated");
}

// 5. The same while a profiled program streams in: `shardlab profile --live -- PROGRAM` through
// the session and stream reader that Run > Profile a program… uses (the bench is given the
// shardlab command line and the program; the tests' stand-in NCCL program makes as many
// collectives as asked, as fast as a real job's small ones).
void profileStallBench(TimedApplication& app, const QString& shardlab, const QString& program)
{
    RunPage page;
    page.resize(1600, 900);
    page.show();
    app.processEvents();
    QTemporaryDir out;
    RemoteTarget target;
    target.onThisMachine = true;
    target.command =
        shardlab + QStringLiteral(" profile --live --out ") + out.path() + QStringLiteral(" -- ") + program;
    std::printf("5. event loop while a profiled program streams in: %s\n", qPrintable(program));
    measureStall(
        app, page, [&] { page.runProfile(target, program, out.path()); }, "profiled");
}

void cancelBench(QApplication& app)
{
    constexpr int kRounds = 10;
    std::vector<double> ms;
    for (int i = 0; i < kRounds; ++i) {
        RunController c;
        bool cancelled = false, progressed = false;
        QObject::connect(&c, &RunController::cancelled, &c, [&] { cancelled = true; });
        QObject::connect(&c, &RunController::progress, &c, [&] { progressed = true; });
        // 1,500 iterations: up to 18.7 million events, under the limit of a run (2,000 would be refused)
        c.start(bench::dataParallelStep(64, 1500), RunKind::Simulate);
        QElapsedTimer clock;
        clock.start();
        while (!progressed && clock.elapsed() < 60000) // under way
            app.processEvents(QEventLoop::AllEvents, 5);
        const qint64 runningSince = clock.elapsed();
        while (clock.elapsed() < runningSince + 200)
            app.processEvents(QEventLoop::AllEvents, 5);
        if (!c.isRunning()) {
            std::printf("4. cancel: the run ended before it could be cancelled; skipped\n");
            return;
        }
        QElapsedTimer took;
        took.start();
        c.cancel();
        while (!cancelled && took.elapsed() < 60000)
            app.processEvents(QEventLoop::AllEvents, 1);
        ms.push_back(static_cast<double>(took.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::printf(
        "4. cancel while a 64-rank simulation streams in, %d rounds: median %.1f ms, max %.1f ms  [target <= 200 ms]\n",
        kRounds, ms[ms.size() / 2], ms.back());
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    std::printf("bench_timeline (Qt %s, platform %s)\n", qVersion(), qPrintable(QGuiApplication::platformName()));
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) == 3)
        std::printf("load average at start: %.2f %.2f %.2f (other processes share the cores)\n", load[0], load[1],
                    load[2]);
    std::printf("machine: %s\n\n", bench::machineDescription().c_str());
    // without an argument: 8 x 100,000 spans (a long simulation) and 8 x 1,000,000 (a profiled job)
    const int perRank = argc > 1 ? std::atoi(argv[1]) : 0;
    const std::string only = argc > 2 ? argv[2] : "";
    if (only.empty() || only == "redraw") {
        if (perRank > 0) {
            redrawBench(perRank);
        } else {
            redrawBench(100'000);
            redrawBench(1'000'000);
        }
    }
    if (only.empty() || only == "playback")
        playbackBench(app);
    if (only.empty() || only == "stall")
        stallBench(app);
    if (only.empty() || only == "cancel")
        cancelBench(app);
    // `profile SHARDLAB PROGRAM...`: part 5, not run by default (it needs a program to profile)
    if (only == "profile" && argc > 4) {
        QStringList program;
        for (int i = 4; i < argc; ++i)
            program << QString::fromLocal8Bit(argv[i]);
        profileStallBench(app, QString::fromLocal8Bit(argv[3]), program.join(QLatin1Char(' ')));
    }
    return 0;
}

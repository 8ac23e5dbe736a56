// Shared by the GUI tests: scenarios from resources/ and a long-running one.
#pragma once

#include "bench_scenarios.h"

#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/simulator.h"

#include "run/engineworker.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

namespace shardlab::test {

inline Scenario loadExample(const std::string& file)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/" + file);
    if (!s)
        qFatal("cannot load %s: %s", file.c_str(), s.error().message.c_str());
    return namedIn(std::move(*s), Language::English); // as the app opens it in English
}

// A run that takes long enough to cancel or supersede: `iterations` of a data-parallel step with
// 64 gradient buckets (about 1,500 iterations take seconds at 64 ranks; 2,000 would record up to
// 25 million events, over the limit of a run, sim/event_estimate.h).
inline Scenario longScenario(int iterations, int ranks = 64)
{
    Scenario s = bench::dataParallelStep(ranks, iterations);
    s.name = "long: data-parallel step, 64 buckets";
    return s;
}

// A stand-in for the GPUs where there are none: the "measurement" is the simulation of the same
// scenario with every rank `slowdown` times slower, marked as a live run.
inline gui::EngineWorker::LiveRunner standInLiveRunner(double slowdown)
{
    return [slowdown](const Scenario& scenario, const LiveOptions& o) -> Result<RunResult> {
        Scenario slow = scenario;
        slow.perturbations.slowdown.assign(static_cast<size_t>(scenario.ranks()), slowdown);
        SimulationOptions so;
        so.cancel = o.cancel;
        auto r = simulate(slow, so);
        if (r)
            r->mode = RunMode::Live;
        return r;
    };
}

// A run that cannot finish on its own: once a simulation has streamed `holdAfter` iterations, the
// engine thread waits at the gate until the test opens it or the run is cancelled. It holds one
// run, once; every run after that passes. Tests that cancel or supersede a run hold it here, so
// that whether the run is still going never depends on how fast the machine simulates.
class RunGate {
public:
    explicit RunGate(int holdAfter = 2) : m_state(std::make_shared<State>()) { m_state->holdAfter = holdAfter; }
    ~RunGate() { open(); }
    RunGate(const RunGate&) = delete;
    RunGate& operator=(const RunGate&) = delete;

    gui::EngineWorker::IterationHook hook() const
    {
        return [s = m_state](int done, const std::atomic<bool>& cancel) {
            std::unique_lock lock(s->mutex);
            if (done < s->holdAfter || s->released)
                return;
            s->held = true;
            // the cancel flag is an atomic nobody signals: look at it every millisecond
            while (!s->opened && !cancel.load())
                s->wake.wait_for(lock, std::chrono::milliseconds(1));
            s->released = true;
        };
    }
    // Whether a run has reached the gate, waiting up to `ms` with the event loop running.
    bool waitUntilHeld(int ms = 60000) const
    {
        QElapsedTimer clock;
        clock.start();
        while (!held()) {
            if (clock.elapsed() > ms)
                return false;
            QTest::qWait(5);
        }
        return true;
    }
    bool held() const
    {
        std::lock_guard lock(m_state->mutex);
        return m_state->held;
    }
    void open()
    {
        std::lock_guard lock(m_state->mutex);
        m_state->opened = true;
        m_state->wake.notify_all();
    }

private:
    struct State {
        std::mutex mutex;
        std::condition_variable wake;
        int holdAfter = 2;
        bool held = false, opened = false, released = false;
    };
    std::shared_ptr<State> m_state;
};

} // namespace shardlab::test

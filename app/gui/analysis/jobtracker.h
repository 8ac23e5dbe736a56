// Runs engine work off the GUI thread and hands the result back on it. Every job gets an id; a
// newer job supersedes the older one, whose result is dropped (KDAB hotspot's JobTracker). The
// work runs on QThreadPool with its own copies of its inputs and a cancel flag of its own, so it
// never touches the widget that started it.
//
// Handing the result back is the delicate part: the widget may be destroyed on the GUI thread at
// the very moment a pool thread finishes. A QPointer is not enough there (checking it on the pool
// thread and then posting races with the destructor), so the tracker and its jobs share a small
// state under a mutex: the tracker's destructor clears the context under that mutex, and a job
// posts its result only while holding it. Once the destructor has run no job posts again, and
// what was posted before is removed with the context's pending events by ~QObject (the tracker is
// a member of the context, so it dies before the context's QObject base does).
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <mutex>

namespace shardlab::gui {

class JobTracker {
public:
    explicit JobTracker(QObject* context) : m_shared(std::make_shared<Shared>()) { m_shared->context = context; }
    ~JobTracker()
    {
        cancel();
        const std::lock_guard lock(m_shared->mutex);
        m_shared->context = nullptr;
    }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // `work(cancel)` runs on the pool; `done(result)` runs on the context's thread if the job is
    // still the latest and the context still exists.
    template <class Work, class Done>
    void start(Work work, Done done)
    {
        stopCurrent();
        const quint64 id = ++m_latest;
        auto flag = std::make_shared<std::atomic<bool>>(false);
        m_cancel = flag;
        JobTracker* self = this;
        QThreadPool::globalInstance()->start(
            [work = std::move(work), done = std::move(done), flag, shared = m_shared, self, id]() mutable {
                auto result = work(*flag);
                if (flag->load())
                    return;
                post(shared, self, id, [result = std::move(result), done = std::move(done), self]() mutable {
                    self->m_running = false;
                    done(std::move(result));
                });
            });
        m_running = true;
    }

    // A function the job may call from the pool thread as often as it likes: each call runs
    // `onGui(args...)` on the context's thread, through the same guard as the result, so nothing
    // reaches a context that is gone (a QPointer checked on the pool thread races with the
    // destructor). Calls from a superseded or cancelled job are dropped. Make it just before the
    // start() of the job that uses it: it belongs to the next job started.
    template <class... Args, class OnGui>
    auto reporter(OnGui onGui)
    {
        const quint64 id = m_latest + 1; // the id start() gives the next job
        return [shared = m_shared, self = this, id, onGui = std::move(onGui)](Args... args) {
            post(shared, self, id, [onGui, args...]() mutable { onGui(args...); });
        };
    }

    // Asks the running job to stop and drops its result.
    void cancel()
    {
        stopCurrent();
        ++m_latest;
        m_running = false;
    }

    bool running() const { return m_running; }

private:
    struct Shared;

    // From any thread: runs `onGui()` on the context's thread if the context still exists and job
    // `id` is still the latest. The post happens under the mutex the destructor takes.
    template <class OnGui>
    static void post(const std::shared_ptr<Shared>& shared, JobTracker* self, quint64 id, OnGui onGui)
    {
        const std::lock_guard lock(shared->mutex);
        if (!shared->context)
            return;
        QMetaObject::invokeMethod(
            shared->context,
            [shared, self, id, onGui = std::move(onGui)]() mutable {
                // Runs on the context's thread, where the tracker is destroyed too: a non-null
                // context means the tracker is alive.
                if (shared->context && self->m_latest == id)
                    onGui();
            },
            Qt::QueuedConnection);
    }

    void stopCurrent()
    {
        if (m_cancel)
            m_cancel->store(true);
        m_cancel.reset();
    }

    struct Shared {
        std::mutex mutex;
        QObject* context = nullptr;
    };
    std::shared_ptr<Shared> m_shared;
    quint64 m_latest = 0;
    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace shardlab::gui

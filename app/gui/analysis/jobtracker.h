// Runs engine work off the GUI thread and hands the result back on it. Every job gets an id; a
// newer job supersedes the older one, whose result is dropped (KDAB hotspot's JobTracker). The
// work runs on QThreadPool with its own copies of its inputs and a cancel flag of its own, so it
// never touches the widget that started it; the result comes back through a queued call guarded
// by a QPointer to that widget.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

namespace shardlab::gui {

class JobTracker {
public:
    explicit JobTracker(QObject* context) : m_context(context) {}

    // `work(cancel)` runs on the pool; `done(result)` runs on the context's thread if the job is
    // still the latest and the context still exists.
    template <class Work, class Done>
    void start(Work work, Done done)
    {
        cancel();
        const quint64 id = ++m_latest;
        auto flag = std::make_shared<std::atomic<bool>>(false);
        m_cancel = flag;
        QPointer<QObject> context = m_context;
        JobTracker* self = this;
        QThreadPool::globalInstance()->start([work = std::move(work), done = std::move(done), flag, context, self, id]() mutable {
            auto result = work(*flag);
            if (!context)
                return;
            QMetaObject::invokeMethod(
                context.data(),
                [result = std::move(result), done = std::move(done), context, self, id]() mutable {
                    // the tracker lives inside the context: alive whenever the context is
                    if (context && self->m_latest == id) {
                        self->m_running = false;
                        done(std::move(result));
                    }
                },
                Qt::QueuedConnection);
        });
        m_running = true;
    }

    // Asks the running job to stop and drops its result.
    void cancel()
    {
        if (m_cancel)
            m_cancel->store(true);
        m_cancel.reset();
        ++m_latest;
        m_running = false;
    }

    bool running() const { return m_running; }

private:
    QObject* m_context;
    quint64 m_latest = 0;
    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace shardlab::gui

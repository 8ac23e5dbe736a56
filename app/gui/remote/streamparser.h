// Reads a run stream on a thread of its own, for RemoteSession. A profiled program's last line
// (its whole timeline, tens of MB for a long job) takes the JSON parser most of a second, and a
// busy chunk line tens of milliseconds: the GUI thread must never spend that (the event loop
// never waits more than 50 ms, bench_timeline part 5). The reader and everything it holds stay on
// the parser's thread; what the GUI needs comes back by queued signals, and each chunk's new
// spans go into the run's bounded buffer (RunStream) from here, as the engine thread's do.
#pragma once

#include "shardlab/io/run_stream.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace shardlab::gui {

// What the stream left once its input ended.
struct StreamEnd {
    std::shared_ptr<const RunResult> run; // the finished run; null when there is none
    Scenario scenario;     // the one it ran: the result's (an open program), the header's, else the one sent
    bool finished = false; // the result line arrived
    QString finishProblem; // why a result that arrived was not a run (it does not fit its scenario), worded
    bool sawHeader = false;
    int iterationsArrived = 0;
    int iterationsTotal = 0; // from the stream; 0 when it never said
    int collectivesArrived = 0;
    QString reportedError; // the run's own error line, worded in the app's language
    // What arrived, as a run a view can show (its notes say it is incomplete); null when nothing
    // usable did (no header, a refused stream, an error line, nothing complete).
    std::shared_ptr<const RunResult> partial;
};

class StreamParser : public QObject {
    Q_OBJECT
public:
    // Called on the parser's thread after each line that brought spans: the whole run so far, as
    // RunStream::push takes it; true when the GUI needs telling (its buffer was empty).
    using ChunkSink = std::function<bool(const RunResult& soFar, int done, int total)>;

    explicit StreamParser(std::string origin) : m_reader(std::move(origin)) {}
    // Before the first feed (the session's start), from the thread that made the parser.
    void setChunkSink(ChunkSink sink) { m_sink = std::move(sink); }

    // Parser thread, in the order the bytes arrived.
    void feed(const QByteArray& bytes);
    // Parser thread, after the last feed: `sent` is the scenario sent, if the stream names none.
    void finish(const Scenario& sent);

signals:
    void headerParsed(std::shared_ptr<const shardlab::StreamHeader> header);
    void chunksParsed(int done, int total, bool tell); // tell: the sink's answer
    void progressParsed(int done, int total);
    void refused(const QString& message); // the first problem, worded: nothing more is read
    void ended(std::shared_ptr<const shardlab::gui::StreamEnd> end);

private:
    RunStreamReader m_reader;
    ChunkSink m_sink;
    bool m_refused = false;
};

} // namespace shardlab::gui

Q_DECLARE_METATYPE(std::shared_ptr<const shardlab::StreamHeader>)
Q_DECLARE_METATYPE(std::shared_ptr<const shardlab::gui::StreamEnd>)

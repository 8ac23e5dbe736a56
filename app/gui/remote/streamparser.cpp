#include "remote/streamparser.h"

#include "i18n/language.h"

namespace shardlab::gui {

void StreamParser::feed(const QByteArray& bytes)
{
    if (m_refused)
        return;
    const bool hadHeader = m_reader.header().has_value();
    int chunks = 0;
    bool progressed = false;
    const Status st = m_reader.feed(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                                    [&](RunStreamReader::Event e) {
                                        if (e == RunStreamReader::Event::Chunk)
                                            ++chunks;
                                        else if (e == RunStreamReader::Event::Progress)
                                            progressed = true;
                                    });
    if (!hadHeader && m_reader.header())
        emit headerParsed(std::make_shared<const StreamHeader>(*m_reader.header()));
    if (chunks > 0) {
        const bool tell = !m_sink || m_sink(m_reader.soFar(), m_reader.done(), m_reader.total());
        emit chunksParsed(m_reader.done(), m_reader.total(), tell);
    } else if (progressed) {
        emit progressParsed(m_reader.done(), m_reader.total());
    }
    if (!st) {
        m_refused = true;
        emit refused(i18n::engineError(st.error()));
    }
}

void StreamParser::finish(const Scenario& sent)
{
    auto end = std::make_shared<StreamEnd>();
    end->scenario = m_reader.scenario() ? *m_reader.scenario() : sent;
    if (!m_refused) {
        auto run = m_reader.finish();
        if (run) {
            end->run = std::make_shared<const RunResult>(std::move(run).value());
            end->finished = true;
            emit ended(std::move(end));
            return;
        }
        end->finished = m_reader.finished();
        if (end->finished)
            end->finishProblem = i18n::engineError(run.error());
    }
    end->sawHeader = m_reader.header().has_value();
    end->iterationsArrived = static_cast<int>(m_reader.soFar().iterations.size());
    end->iterationsTotal = m_reader.total();
    end->collectivesArrived = static_cast<int>(m_reader.soFar().collectives.size());
    if (m_reader.reportedError())
        end->reportedError = i18n::engineError(*m_reader.reportedError());
    // an open program's stream (a profiled program) brings its iteration mark only at the end
    const bool open = m_reader.header() && m_reader.header()->openProgram;
    if (end->sawHeader && !m_refused && end->finishProblem.isEmpty() && end->reportedError.isEmpty()
        && (end->iterationsArrived > 0 || (open && !m_reader.soFar().spans.empty())))
        end->partial = std::make_shared<const RunResult>(m_reader.partial());
    emit ended(std::move(end));
}

} // namespace shardlab::gui

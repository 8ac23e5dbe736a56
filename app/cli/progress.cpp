#include "progress.h"

#include <chrono>
#include <ostream>

namespace shardlab::cli {

std::string progressText(const std::string& what, const std::string& unit, long long done, long long total)
{
    const long long pct = total > 0 ? done * 100 / total : 0;
    return what + ": " + unit + " " + std::to_string(done) + " of " + std::to_string(total) + " (" + std::to_string(pct)
           + "%)";
}

namespace {

double steadySeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ProgressOutput& installed()
{
    static ProgressOutput output;
    return output;
}

} // namespace

ProgressLine::ProgressLine(std::ostream* out, bool terminal, Clock clock, std::string what, std::string unit)
    : m_out(out), m_terminal(terminal), m_clock(clock ? std::move(clock) : Clock(&steadySeconds)),
      m_what(std::move(what)), m_unit(std::move(unit))
{
    m_start = m_clock();
}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(long long done, long long total)
{
    m_done = done;
    m_total = total;
    if (!m_out || m_finished)
        return;
    const double now = m_clock();
    if (now - m_start < kQuietSeconds)
        return; // a short run prints nothing
    if (m_last >= 0 && now - m_last < (m_terminal ? kTerminalEvery : kLogEvery))
        return;
    m_last = now;
    const std::string text = progressText(m_what, m_unit, done, total);
    if (m_terminal) {
        *m_out << '\r' << text;
        if (text.size() < m_width)
            *m_out << std::string(m_width - text.size(), ' ');
        m_width = text.size();
    } else {
        *m_out << text << '\n';
    }
    m_out->flush();
    m_printed = true;
}

void ProgressLine::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    if (!m_out || !m_printed || !m_terminal)
        return;
    const std::string text = progressText(m_what, m_unit, m_done, m_total);
    *m_out << '\r' << text;
    if (text.size() < m_width)
        *m_out << std::string(m_width - text.size(), ' ');
    *m_out << '\n';
    m_out->flush();
}

void setProgressOutput(ProgressOutput output) { installed() = std::move(output); }

ProgressLine progressLine(const std::string& what, const std::string& unit)
{
    const ProgressOutput& o = installed();
    return ProgressLine(o.out, o.terminal, o.clock, what, unit);
}

} // namespace shardlab::cli

// Progress of long runs on standard error: "simulating: iteration 1200 of 100000 (1%)".
//
// Nothing for a run shorter than a second (kQuietSeconds). On a terminal the line is rewritten in
// place (\r) at most every 0.1 s and ended with a newline when the run is done; in a log (standard
// error not a terminal) one line every 2 s at most. Standard output is never touched, so --json
// stays one JSON object. The clock is injected, so tests check what is printed when without waiting.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace shardlab::cli {

// "simulating: iteration 1200 of 100000 (1%)"; the percentage is rounded down (99% until done).
std::string progressText(const std::string& what, const std::string& unit, long long done, long long total);

class ProgressLine {
public:
    using Clock = std::function<double()>; // seconds on a steady clock
    static constexpr double kQuietSeconds = 1.0;
    static constexpr double kTerminalEvery = 0.1;
    static constexpr double kLogEvery = 2.0;

    // `what` ("simulating"), `unit` ("iteration"); `out` may be null (prints nothing).
    ProgressLine(std::ostream* out, bool terminal, Clock clock, std::string what, std::string unit);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    void update(long long done, long long total);
    // Ends the terminal's line (the last state, then a newline) if anything was printed.
    void finish();
    bool printed() const { return m_printed; }

private:
    std::ostream* m_out;
    bool m_terminal;
    Clock m_clock;
    std::string m_what, m_unit;
    double m_start = 0;
    double m_last = -1;
    long long m_done = 0, m_total = 0;
    bool m_printed = false;
    bool m_finished = false;
    size_t m_width = 0; // of the last line written on the terminal, to blank what is left of it
};

// Where commands print progress: main() sets standard error (a terminal or not); unset (as in the
// tests of other things), commands print none.
struct ProgressOutput {
    std::ostream* out = nullptr;
    bool terminal = false;
    ProgressLine::Clock clock; // empty: std::chrono::steady_clock
};
void setProgressOutput(ProgressOutput output);
// A progress line on the installed output (or a silent one).
ProgressLine progressLine(const std::string& what, const std::string& unit);

} // namespace shardlab::cli

#include "cli.h"

#include "shardlab/base/file_io.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/profiles.h"

#include <charconv>
#include <cmath>
#include <map>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <ostream>

#include <fcntl.h>
#include <unistd.h>

namespace shardlab::cli {

bool writeOutput(const std::string& path, const std::string& text, Io io)
{
    io.out.flush(); // what is printed so far comes first where the output is standard output (/dev/stdout)
    if (path == "-") {
        io.out << text;
        return true;
    }
    if (Status st = writeFileAtomically(path, text); !st) {
        io.err << "shardlab: " << worded(st.error(), io.language()) << "\n";
        return false;
    }
    return true;
}

bool writeOutputWith(const std::string& path, const std::function<Status(std::ostream&)>& write, Io io)
{
    io.out.flush();
    Status st = path == "-" ? write(io.out) : writeFileAtomicallyWith(path, write);
    if (!st) {
        io.err << "shardlab: " << worded(st.error(), io.language()) << "\n";
        return false;
    }
    return true;
}

Status refuseClashingFiles(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs)
{
    for (size_t i = 0; i < outputs.size(); ++i) {
        const NamedFile& out = outputs[i];
        if (out.path.empty() || out.path == "-")
            continue;
        for (const NamedFile& in : inputs)
            if (in.path != "-")
                if (Status st = refuseOutputOverInput(out.name, out.path, in.path, in.name); !st)
                    return st;
        for (size_t j = 0; j < i; ++j)
            if (outputs[j].path != "-")
                if (Status st = refuseOutputTwice(out.name, out.path, outputs[j].name, outputs[j].path); !st)
                    return st;
    }
    return {};
}

std::vector<NamedFile> runOutputs(const RunArgs& a)
{
    std::vector<NamedFile> out{{"--trace", a.trace}, {"--result", a.result}};
    if (!a.csvPrefix.empty())
        for (const char* table : kCsvTables)
            out.push_back({"--csv", a.csvPrefix + table});
    return out;
}

std::vector<NamedFile> profileInput(const std::string& name)
{
    if (name.empty() || name == "default" || name.find('/') != std::string::npos)
        return {};
    return {{"the cost profile", (profileDirectory() / (name + ".json")).string()}};
}

int reportError(const Error& error, Io io)
{
    // in the user's language: every error is born a Message (shardlab/base/result.h)
    io.err << "shardlab: " << worded(error, io.language()) << "\n";
    return exitStatusOf(error.kind);
}

StdoutToStderr::StdoutToStderr(bool on)
{
    if (!on)
        return;
    std::cout.flush();
    std::fflush(stdout);
    m_saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
    if (m_saved >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        close(m_saved);
        m_saved = -1;
    }
}

StdoutToStderr::~StdoutToStderr()
{
    if (m_saved < 0)
        return;
    std::fflush(stdout);
    dup2(m_saved, STDOUT_FILENO);
    close(m_saved);
}

CLI::Validator wholeNumber(long long lo, long long hi)
{
    const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            long long v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec == std::errc::result_out_of_range)
                return text + " is out of range (expected " + range + ")";
            if (ec != std::errc() || end != text.data() + text.size() || text.empty())
                return "'" + text + "' is not a whole number (expected " + range + ")";
            if (v < lo || v > hi)
                return text + " is out of range (expected " + range + ")";
            return {};
        },
        // the help's "INT:1..100000", the same in every language
        std::to_string(lo) + ".." + std::to_string(hi));
}

CLI::Validator realNumber(double lo, double hi)
{
    auto num = [](double x) {
        char b[32];
        std::snprintf(b, sizeof b, "%g", x);
        return std::string(b);
    };
    const std::string range = num(lo) + " to " + num(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
                return "'" + text + "' is not a number (expected " + range + ")";
            if (v < lo || v > hi)
                return text + " is out of range (expected " + range + ")";
            return {};
        },
        num(lo) + ".." + num(hi));
}

CLI::Validator traceIterationsCount()
{
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (text == "all")
                return {};
            std::string copy = text;
            const std::string why = wholeNumber(1, 100000)(copy);
            return why.empty() ? std::string() : why.substr(0, why.size() - 1) + ", or all)";
        },
        "N|all");
}

Message presetTooSmall(const std::string& preset, int has, int asked)
{
    return Message("cli.error.preset_too_small")
        .with("preset", preset)
        .with("has", has)
        .with("option", "--gpus")
        .with("asked", asked);
}

Message sweepCollectiveChoices()
{
    std::vector<Message> names;
    for (const char* n : {"all_reduce", "reduce", "broadcast", "all_gather", "all_gather_v", "reduce_scatter",
                          "reduce_scatter_all_gather"})
        names.push_back(verbatim(n));
    return Message("error.expected.choice").with("choices", listOf(std::move(names))).with("last", "send_recv");
}

Error suggestInstead(Error error, const Message& alternative)
{
    // live mode's sentences that end with the advice "use `shardlab sim` to simulate"
    // (errors_cluster.inc): the same, naming the alternative that fits the command
    static const std::map<std::string, std::string> insteadOf = {
        {"error.live.no_gpu_visible", "cli.error.no_gpu_visible_instead"},
        {"error.live.no_gpu_visible_in", "cli.error.no_gpu_visible_in_instead"},
        {"error.live.driver_too_old", "cli.error.driver_too_old_instead"},
    };
    if (const auto it = insteadOf.find(error.what.id); it != insteadOf.end()) {
        Message said(it->second);
        for (const MessageArg& arg : error.what.args)
            if (arg.name != "command")
                said.args.push_back(arg);
        said.arg("instead", alternative);
        return Error(error.kind, std::move(said));
    }
    return error;
}

} // namespace shardlab::cli

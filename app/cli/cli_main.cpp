#include "cli.h"
#include "terminal_text.h"

#include "shardlab/base/version.h"
#include "shardlab/cluster/mpi_loader.h"
#include "shardlab/live/live.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <ostream>

namespace shardlab::cli {

void buildApp(CLI::App& app, Io io, Action& action, std::string& langCode, bool& version)
{
    app.description("ShardLab: simulate and measure multi-GPU programs (ownership, balance, communication)");
    app.require_subcommand(0, 1);
    // --lang belongs to every command: given after a subcommand's name it falls through to here
    // (subcommands inherit fallthrough from the app when they are added).
    app.fallthrough();
    app.add_option("--lang", langCode,
                   "Language of what ShardLab says: en or zh (default: from LC_ALL / LC_MESSAGES / LANG)")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                return languageFromCode(text) ? std::string() : "'" + text + "': expected en or zh";
            },
            "en|zh"));
    app.add_flag("--version", version, "Print the version and whether live mode (CUDA/NCCL) is built in");
    addTopo(app, io, action);
    addSim(app, io, action);
    addBench(app, io, action);
    addLive(app, io, action);
    addProfile(app, io, action);
    addImport(app, io, action);
    addPlan(app, io, action);
    addReport(app, io, action);
    addLessons(app, io, action);
    addScale(app, io, action);
    addDiagnose(app, io, action);
    addCompare(app, io, action);
    addCalibrate(app, io, action);
    app.footer(kSizeRule);
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
        sub->footer(kSizeRule);
}

namespace {

// The language asked for on the command line, read before the app is built so that --help and the
// errors of parsing are worded in it: "--lang zh" or "--lang=zh" anywhere (a bad value is left to
// the parser, which says what is wrong).
std::optional<Language> languageAskedFor(const std::vector<std::string>& args)
{
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--lang" && i + 1 < args.size())
            return languageFromCode(args[i + 1]);
        if (args[i].rfind("--lang=", 0) == 0)
            return languageFromCode(args[i].substr(7));
    }
    return std::nullopt;
}

// `lessons check ID -inf`: "-inf", "-infinity" and "-nan" are answers, not options, but CLI11
// takes them for the short options -i and -n and then says that ANSWER is missing. In a lessons
// command they go after "--", where CLI11 reads every argument as positional, so that the checker
// says what is wrong with them (not a finite number).
std::vector<std::string> nonFiniteAnswersAsPositionals(std::vector<std::string> args)
{
    if (std::find(args.begin(), args.end(), "lessons") == args.end())
        return args;
    const auto mark = std::find(args.begin(), args.end(), "--");
    std::vector<std::string> moved, kept;
    for (auto it = args.begin(); it != mark; ++it) {
        std::string lower = *it;
        for (char& c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        (lower == "-inf" || lower == "-infinity" || lower == "-nan" ? moved : kept).push_back(*it);
    }
    if (moved.empty())
        return args;
    kept.push_back("--");
    kept.insert(kept.end(), moved.begin(), moved.end());
    if (mark != args.end())
        kept.insert(kept.end(), mark + 1, args.end());
    return kept;
}

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& rawOut, std::ostream& rawErr)
{
    // names and messages from users' files reach the terminal as text (terminal_text.h)
    EscapedStream out(rawOut), err(rawErr);
    setCommandArguments(args);
    Language language = languageAskedFor(args).value_or(languageFromEnvironment());
    Io io{out, err, &language};
    CLI::App app{"", "shardlab"};
    std::string langCode;
    bool version = false;
    Action action;
    buildApp(app, io, action, langCode, version);
    wordHelp(app, language);

    const std::vector<std::string> parsed = nonFiniteAnswersAsPositionals(args);
    std::vector<std::string> reversed(parsed.rbegin(), parsed.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return kExitOk;
    } catch (const CLI::CallForAllHelp&) {
        out << app.help("", CLI::AppFormatMode::All);
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        err << "shardlab: " << wordedUsageError(e, language) << "\n"
            << io.say(Message("cli.run_help").with("command", "shardlab --help")) << "\n";
        return kExitBadInput;
    }
    if (!langCode.empty())
        language = languageFromCode(langCode).value_or(Language::English);
    if (version) {
        // the build facts are the engine's English, worded in the user's language (readers.inc)
        out << "shardlab " << kVersion << "\n"
            << io.say(Message("cli.version.live").with("info", liveBuildInfo())) << "\n"
            << io.say(Message("cli.version.mpi").with("info", mpiBuildInfo())) << "\n";
        return kExitOk;
    }
    if (!action) {
        out << app.help();
        return kExitOk;
    }
    return action();
}

} // namespace shardlab::cli

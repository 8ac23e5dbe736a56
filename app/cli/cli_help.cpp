// `shardlab --help` in the user's language (docs/translations.md, "The command line"). The English
// of every description stays where the option is added (the source of truth, as for Qt's tr());
// the catalogue's help.inc holds each distinct description once, its Chinese beside the English it
// was translated from. A description is shown in Chinese only while its English is in help.inc as
// the source says it, so that an edited description shows its new English instead of a stale
// translation; the test "EveryHelpTextHasItsChinese" fails until help.inc follows.
#include "cli.h"

#include "shardlab/base/display_width.h"
#include "shardlab/text/catalogue.h"

#include <map>
#include <regex>

namespace shardlab::cli {

namespace {

void collect(CLI::App& app, bool top, std::vector<HelpText>& out)
{
    out.push_back({&app, nullptr, app.get_description()});
    for (CLI::Option* option : app.get_options())
        if (top || option != app.get_help_ptr()) // the help flag is the app's, copied into every command
            out.push_back({&app, option, option->get_description()});
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
        collect(*sub, false, out);
}

// CLI11's formatter with its columns aligned by what a terminal shows (a Chinese character takes
// two columns; CLI11 counts bytes).
class WidthFormatter : public CLI::Formatter {
public:
    std::string make_option(const CLI::Option* opt, bool is_positional) const override
    {
        const std::string name = "  " + make_option_name(opt, is_positional) + make_option_opts(opt);
        const std::size_t width = get_column_width();
        std::string out = name;
        if (displayWidth(name) >= width)
            out += "\n" + std::string(width, ' ');
        else
            out = leftAligned(name, width);
        for (char c : make_option_desc(opt)) {
            out += c;
            if (c == '\n')
                out += std::string(width, ' ');
        }
        return out + "\n";
    }
};

} // namespace

std::vector<HelpText> helpTexts(CLI::App& app)
{
    std::vector<HelpText> out;
    collect(app, true, out);
    out.push_back({&app, nullptr, kSizeRule}); // the footer every command shows
    return out;
}

std::string helpInChinese(const std::string& english)
{
    static const std::map<std::string_view, std::string_view> byEnglish = [] {
        std::map<std::string_view, std::string_view> m;
        for (const CatalogueEntry& e : catalogue())
            if (e.id.starts_with("help.") && !e.id.starts_with("help.label."))
                m.emplace(e.en, e.zh);
        return m;
    }();
    const auto it = byEnglish.find(english);
    return it == byEnglish.end() ? std::string() : std::string(it->second);
}

void wordHelp(CLI::App& app, Language language)
{
    if (language == Language::English)
        return;
    const auto say = [language](const char* id) { return render(Message(id), language); };
    std::vector<CLI::App*> all{&app}; // the app and every command under it
    for (size_t i = 0; i < all.size(); ++i)
        for (CLI::App* sub : all[i]->get_subcommands([](CLI::App*) { return true; }))
            all.push_back(sub);
    for (CLI::App* a : all) {
        if (const std::string zh = helpInChinese(a->get_description()); !zh.empty())
            a->description(zh);
        if (const std::string zh = helpInChinese(a->get_footer()); !zh.empty())
            a->footer(zh);
        for (CLI::Option* option : a->get_options()) {
            if (const std::string zh = helpInChinese(option->get_description()); !zh.empty())
                option->description(zh);
            if (option->get_group() == "Options")
                option->group(say("help.label.Options"));
        }
        if (a != &app)
            a->group(say("help.label.Subcommands"));
    }
    // CLI11's own words around them, in a formatter that aligns Chinese
    auto formatter = std::make_shared<WidthFormatter>();
    for (CLI::App* a : all)
        a->formatter(formatter);
    for (const char* label : {"Usage", "OPTIONS", "SUBCOMMAND", "SUBCOMMANDS", "Positionals", "REQUIRED", "TEXT", "INT",
                              "UINT", "FLOAT", "BOOLEAN", "Needs", "Excludes", "Env"}) {
        const std::string id = std::string("help.label.") + label;
        if (wording(id, language))
            formatter->label(label, render(Message(id), language));
    }
    // a type with its check's range or choices: "INT:1..100000" -> "整数:1..100000", "TEXT:en|zh"
    for (CLI::App* a : all)
        for (CLI::Option* option : a->get_options()) {
            const std::string type = option->get_type_name();
            const size_t colon = type.find(':');
            if (colon == std::string::npos)
                continue;
            const std::string id = "help.label." + type.substr(0, colon);
            if (wording(id, language))
                formatter->label(type, render(Message(id), language) + type.substr(colon));
        }
}

Message usageErrorMessage(const std::string& what)
{
    // CLI11's messages (CLI/Error.hpp) and the validators' of cli_common.cpp
    static const std::regex required(R"((\S+) is required)");
    static const std::regex extras(R"(The following (argument was|arguments were) not expected: (.+))");
    static const std::regex conversion(R"(Could not convert: (\S+) = (.+))");
    static const std::regex missingValue(R"((\S+): [0-9]+ required \S+ missing)");
    static const std::regex requiresOther(R"((\S+) requires (\S+))");
    static const std::regex excludes(R"((\S+) excludes (\S+))");
    static const std::regex invalid(R"((-\S+): (.+))");
    static const std::regex notWhole(R"('(.*)' is not a whole number \(expected (\S+) to (\S+)\))");
    static const std::regex notNumber(R"('(.*)' is not a number \(expected (\S+) to (\S+)\))");
    static const std::regex outOfRange(R"((\S+) is out of range \(expected (\S+) to (\S+)\))");
    static const std::regex notLanguage(R"('(.*)': expected en or zh)");
    std::smatch m;
    if (std::regex_match(what, m, required))
        return Message("cli.usage.required").with("option", m[1].str());
    if (std::regex_match(what, m, extras))
        return Message(m[1].str() == "argument was" ? "cli.usage.extra" : "cli.usage.extras")
            .with("arguments", m[2].str());
    if (std::regex_match(what, m, conversion))
        return Message("cli.usage.conversion").with("option", m[1].str()).with("value", m[2].str());
    if (std::regex_match(what, m, missingValue))
        return Message("cli.usage.missing_value").with("option", m[1].str());
    if (std::regex_match(what, m, requiresOther))
        return Message("cli.usage.requires").with("option", m[1].str()).with("other", m[2].str());
    if (std::regex_match(what, m, excludes))
        return Message("cli.usage.excludes").with("option", m[1].str()).with("other", m[2].str());
    if (std::regex_match(what, m, invalid)) {
        const std::string option = m[1].str(), rest = m[2].str();
        std::smatch v;
        Message why =
            std::regex_match(rest, v, notWhole)
                ? Message("cli.usage.not_whole").with("value", v[1].str()).with("lo", v[2].str()).with("hi", v[3].str())
            : std::regex_match(rest, v, notNumber) ? Message("cli.usage.not_number")
                                                         .with("value", v[1].str())
                                                         .with("lo", v[2].str())
                                                         .with("hi", v[3].str())
            : std::regex_match(rest, v, outOfRange) ? Message("cli.usage.out_of_range")
                                                          .with("value", v[1].str())
                                                          .with("lo", v[2].str())
                                                          .with("hi", v[3].str())
            : std::regex_match(rest, v, notLanguage)
                ? Message("cli.usage.not_language").with("value", v[1].str()).with("en", "en").with("zh", "zh")
                : verbatim(rest);
        return Message("cli.usage.option").with("option", option).with("what", std::move(why));
    }
    return verbatim(what);
}

std::string wordedUsageError(const CLI::ParseError& error, Language language)
{
    return render(usageErrorMessage(error.what()), language);
}

} // namespace shardlab::cli

// Wording text that arrives in English from elsewhere (foreign_text.h): each family of catalogue
// entries as regular expressions of their English, built once, in catalogue order.
#include "shardlab/text/foreign_text.h"

#include "shardlab/text/catalogue.h"

#include <regex>
#include <vector>

namespace shardlab {
namespace {

using std::regex;
using std::smatch;

struct Template {
    std::string_view id;
    regex pattern;
    std::vector<std::string> names; // of the captures, in order
};

// Each entry of `family` as a regular expression of its English, every {placeholder} a capture.
std::vector<Template> compileTemplates(std::string_view family)
{
    std::vector<Template> out;
    for (const CatalogueEntry& e : catalogue()) {
        if (!e.id.starts_with(family))
            continue;
        Template t{e.id, {}, {}};
        std::string re;
        for (size_t i = 0; i < e.en.size();) {
            const size_t close = e.en[i] == '{' ? e.en.find('}', i) : std::string_view::npos;
            if (close != std::string_view::npos) {
                t.names.emplace_back(e.en.substr(i + 1, close - i - 1));
                re += "(.+?)";
                i = close + 1;
                continue;
            }
            const char c = e.en[i++];
            if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos)
                re += '\\';
            re += c;
        }
        t.pattern = regex(re);
        out.push_back(std::move(t));
    }
    return out;
}

const std::vector<Template>& templates(std::string_view family)
{
    static const std::vector<Template> sources = compileTemplates("topo.source.");
    static const std::vector<Template> whys = compileTemplates("error.why.");
    static const std::vector<Template> launches = compileTemplates("launch.");
    static const std::vector<Template> placements = compileTemplates("placement.launch.");
    static const std::vector<Template> parser = compileTemplates("error.parser.");
    return family == "error.why."          ? whys
           : family == "launch."           ? launches
           : family == "placement.launch." ? placements
           : family == "topo.source."      ? sources
                                           : parser;
}

// `text` worded by the first template of `family` it fits; empty when none fits. A value named
// {parser...} is worded by the error.parser.* entries, a {why} by the error.why.* entries; every
// other value stays as it was written.
Message fromTemplates(const std::string& text, std::string_view family)
{
    smatch m;
    for (const Template& t : templates(family)) {
        if (!std::regex_match(text, m, t.pattern))
            continue;
        Message out{std::string(t.id)};
        for (size_t k = 0; k < t.names.size(); ++k) {
            const std::string value = m[k + 1].str();
            if (t.names[k].starts_with("parser"))
                out.arg(t.names[k], parserMessage(value));
            else if (t.names[k] == "why")
                out.arg(t.names[k], systemWords(value));
            else
                out.arg(t.names[k], value);
        }
        return out;
    }
    return {};
}

// The first template of `family` that fits, else `text` as it is.
Message orVerbatim(const std::string& text, std::string_view family)
{
    Message m = fromTemplates(text, family);
    return m.empty() ? verbatim(text) : m;
}

} // namespace

Message parserMessage(const std::string& text) { return orVerbatim(text, "error.parser."); }

Message systemWords(const std::string& text) { return orVerbatim(text, "error.why."); }

Message machineSourceMessage(const std::string& englishPart) { return orVerbatim(englishPart, "topo.source."); }

Message launchMessageOf(const std::string& englishLaunch)
{
    // the launcher's first: "{processes} processes on 1 host" would take its launcher for a count
    Message m = fromTemplates(englishLaunch, "placement.launch.");
    if (m.empty())
        m = fromTemplates(englishLaunch, "launch.");
    return m.empty() ? verbatim(englishLaunch) : m;
}

} // namespace shardlab

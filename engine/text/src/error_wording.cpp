// Recognising the engine's error templates (error_wording.h). Each regular expression below is
// the English of one template in engine/base/src/json_reader.cpp, file_io.cpp,
// engine/io/src/scenario_io.cpp or engine/model/src/presets.cpp; the ids are in errors.inc.
#include "shardlab/text/error_wording.h"

#include "shardlab/text/catalogue.h"

#include <regex>
#include <sstream>
#include <vector>

namespace shardlab {
namespace {

using std::regex;
using std::smatch;

bool whole(const std::string& text, const regex& re, smatch& m) { return std::regex_match(text, m, re); }

Message expectedPhrase(const std::string& e);
Message foundPhrase(const std::string& t);
Message lineMessage(const std::string& line);
Message originMessage(const std::string& origin);
Message parserWords(const std::string& text);

// The catalogue's own templates (error_wording.h, "Templates the catalogue defines"): each entry of
// `family` ("error.says.", "error.line.", "error.expects.", "error.piece.") as a regular expression of its
// English, every {placeholder} a capture. Built once, in catalogue order.
struct Template {
    std::string_view id;
    regex pattern;
    std::vector<std::string> names; // of the captures, in order
};

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
    static const std::vector<Template> says = compileTemplates("error.says.");
    static const std::vector<Template> lines = compileTemplates("error.line.");
    static const std::vector<Template> expects = compileTemplates("error.expects.");
    static const std::vector<Template> pieces = compileTemplates("error.piece.");
    static const std::vector<Template> sources = compileTemplates("topo.source.");
    static const std::vector<Template> whys = compileTemplates("error.why.");
    static const std::vector<Template> launches = compileTemplates("launch.");
    static const std::vector<Template> placements = compileTemplates("placement.launch.");
    static const std::vector<Template> parser = compileTemplates("error.parser.");
    return family == "error.says."         ? says
           : family == "error.line."       ? lines
           : family == "error.piece."      ? pieces
           : family == "error.why."        ? whys
           : family == "launch."           ? launches
           : family == "placement.launch." ? placements
           : family == "topo.source."      ? sources
           : family == "error.parser."     ? parser
                                           : expects;
}

// `text` worded by the first template of `family` it fits; empty when none fits. What a value
// named {expected} or {found} says is worded too, a {reason...} as a line of its own, a {piece...}
// by the error.piece.* entries (parts of one message only), a {why} (the system's reason: strerror,
// dlerror) by the error.why.* entries, a {file} as originMessage() words it; every other value
// stays as the engine wrote it.
Message fromTemplates(const std::string& text, std::string_view family)
{
    smatch m;
    for (const Template& t : templates(family)) {
        if (!whole(text, t.pattern, m))
            continue;
        Message out{std::string(t.id)};
        for (size_t k = 0; k < t.names.size(); ++k) {
            const std::string value = m[k + 1].str();
            if (t.names[k] == "expected")
                out.arg(t.names[k], expectedPhrase(value));
            else if (t.names[k] == "found")
                out.arg(t.names[k], foundPhrase(value));
            else if (t.names[k] == "file")
                out.arg(t.names[k], originMessage(value));
            else if (t.names[k].starts_with("reason"))
                out.arg(t.names[k], lineMessage(value));
            else if (t.names[k].starts_with("piece")) {
                Message piece = fromTemplates(value, "error.piece.");
                out.arg(t.names[k], piece.empty() ? verbatim(value) : std::move(piece));
            } else if (t.names[k].starts_with("parser")) {
                out.arg(t.names[k], parserWords(value));
            } else if (t.names[k] == "why") {
                Message why = fromTemplates(value, "error.why.");
                out.arg(t.names[k], why.empty() ? verbatim(value) : std::move(why));
            } else
                out.arg(t.names[k], value);
        }
        return out;
    }
    return {};
}

// What the JSON parser said (nlohmann-json's words, "syntax error while parsing object key - unexpected
// '}'; expected string literal"), worded part by part by the error.parser.* entries; verbatim where
// a part fits none.
Message parserWords(const std::string& text)
{
    Message worded = fromTemplates(text, "error.parser.");
    return worded.empty() ? verbatim(text) : worded;
}

// "nvlink, pcie, cross-socket or network" -> its items; empty when `text` is no such list of
// identifiers (words the user types: lower case, digits, '_', '-').
std::vector<std::string> identifierChoices(const std::string& text)
{
    static const regex list(R"(([a-z0-9_\-]+(?:, [a-z0-9_\-]+)*) or ([a-z0-9_\-]+))");
    smatch m;
    if (!whole(text, list, m))
        return {};
    std::vector<std::string> items;
    std::stringstream ss(m[1].str());
    for (std::string item; std::getline(ss, item, ',');)
        items.push_back(item.substr(item.find_first_not_of(' ')));
    items.push_back(m[2].str());
    return items;
}

// What the engine expected: its common phrases worded, others verbatim.
Message expectedPhrase(const std::string& e)
{
    static const struct {
        const char* english;
        const char* id;
    } fixed[] = {
        {"a string", "error.expected.string"},
        {"an object", "error.expected.object"},
        {"an array", "error.expected.array"},
        {"true or false", "error.expected.boolean"},
        {"a size: a number of bytes or a string such as \"16 GB\" or \"512 MiB\"", "error.expected.size"},
        {"a size such as \"16 GB\"", "error.expected.size_short"},
        {"a bandwidth per direction: GB/s as a number, or a string such as \"25 GB/s\" or \"400 Gb/s\"",
         "error.expected.bandwidth"},
        {"a bandwidth per direction: GB/s as a number, or a string such as \"25 GB/s\" or \"400 Gb/s\", from 1 MB/s "
         "to 100 TB/s",
         "error.expected.bandwidth_range"},
        {"an amount of work: FLOP as a number, or a string such as \"4 TFLOP\"", "error.expected.flops"},
        {"an amount of work: FLOP as a number, or a string such as \"4 TFLOP\", from 0 to 1e24",
         "error.expected.flops_range"},
        {"a rank number", "error.expected.rank"},
        {"0 or more", "error.expected.zero_or_more"},
        {"at least one rank", "error.expected.one_rank"},
        {"a preset id", "error.expected.preset"},
        {"a non-empty array of GPUs", "error.expected.gpus"},
        {"an array of items", "error.expected.items"},
        {"an array of steps", "error.expected.steps"},
        {"an array of shards", "error.expected.shards"},
        {"a factor such as 1.5", "error.expected.factor"},
        {"the GPU's memory, e.g. \"16 GB\"", "error.expected.memory"},
        {"a scenario file", "error.expected.scenario_file"},
        {"a file name", "error.expected.file_name"},
    };
    for (const auto& f : fixed)
        if (e == f.english)
            return Message(f.id);
    // JSON the user types, the same in every language
    if (e == "an array of ranks or \"all\"")
        return Message("error.expected.ranks").with("all", "\"all\"");
    if (e == "an array of factors or {\"rank\": factor}")
        return Message("error.expected.factors").with("object", "{\"rank\": factor}");
    if (e == "{\"preset\": ID} or an explicit topology")
        return Message("error.expected.topology").with("preset", "{\"preset\": ID}");
    static const regex integerRange(R"(an integer from (-?[0-9]+) to (-?[0-9]+))");
    static const regex numberRange(R"(a number from (\S+) to (\S+))");
    static const regex rankRange(R"(([0-9]+)\.\.([0-9]+))");
    smatch m;
    if (whole(e, integerRange, m))
        return Message("error.expected.integer_range").with("lo", m[1].str()).with("hi", m[2].str());
    if (whole(e, numberRange, m))
        return Message("error.expected.number_range").with("lo", m[1].str()).with("hi", m[2].str());
    if (whole(e, rankRange, m))
        return Message("error.expected.rank_range").with("lo", m[1].str()).with("hi", m[2].str());
    if (std::vector<std::string> items = identifierChoices(e); !items.empty()) {
        const std::string last = items.back();
        items.pop_back();
        std::vector<Message> pieces;
        for (const std::string& item : items)
            pieces.push_back(verbatim(item));
        return Message("error.expected.choice").with("choices", listOf(std::move(pieces))).with("last", last);
    }
    if (Message worded = fromTemplates(e, "error.expects."); !worded.empty())
        return worded;
    return verbatim(e);
}

// What the engine found: describe()'s words (json_reader.cpp), or a value as it is.
Message foundPhrase(const std::string& t)
{
    static const struct {
        const char* english;
        const char* id;
    } fixed[] = {{"null", "error.found.null"},
                 {"an object", "error.found.object"},
                 {"an array", "error.found.array"},
                 {"a string", "error.found.string"},
                 {"a boolean", "error.found.boolean"},
                 {"a number", "error.found.number"},
                 {"an unsupported value", "error.found.unsupported"}};
    for (const auto& f : fixed)
        if (t == f.english)
            return Message(f.id);
    return verbatim(t);
}

// The part of a line after "ORIGIN: PATH: ".
Message whatMessage(const std::string& what)
{
    static const regex missing(R"(missing \(expected (.+)\))");
    static const regex found(R"(found (.+?) \(expected (.+)\))");
    static const regex outOfRange(R"((.+?) is out of range \(expected (.+)\))");
    static const regex bareOutOfRange(R"(out of range \(expected (.+)\))");
    static const regex negative(R"((.+?) is negative \(expected (.+)\))");
    static const regex notRank(R"((.+?) is not a rank \(expected (.+)\))");
    static const regex notTopologyRank(R"('(.*)' is not a rank of this topology \(expected (.+)\))");
    static const regex rankMissing(R"(rank (-?[0-9]+) does not exist \(expected (.+)\))");
    static const regex emptyList(R"(empty \(expected (.+)\))");
    static const regex unknownKey(R"(unknown key \(expected one of: (.+)\))");
    static const regex unknownValue(R"('(.*)' \(expected (.+)\))");
    static const regex notJson(R"(not a ShardLab file: it does not start like JSON \((.+)\))");
    static const regex firstByte(R"(its first byte is (0x[0-9a-f]{2}))");
    static const regex startsWith(R"(it starts with '(.)')");
    static const regex tooDeep(R"(nested more than ([0-9]+) levels deep \(a ShardLab file goes about 8 levels down\))");
    static const regex invalidJson(R"(not valid JSON at line ([0-9]+), column ([0-9]+) \((.*)\))");
    static const regex tooLarge(R"(the file is larger than ([0-9]+) MB \(expected (.+)\))");
    static const regex numberTooLarge(R"(a number in the file is out of range \((.*)\))");
    smatch m;
    if (what == "the file is empty")
        return Message("error.file.empty");
    if (what == "the file holds only white space")
        return Message("error.file.blank");
    if (whole(what, missing, m))
        return Message("error.json.missing").with("expected", expectedPhrase(m[1].str()));
    if (whole(what, found, m))
        return Message("error.json.found")
            .with("found", foundPhrase(m[1].str()))
            .with("expected", expectedPhrase(m[2].str()));
    if (whole(what, notTopologyRank, m))
        return Message("error.json.not_topology_rank")
            .with("value", m[1].str())
            .with("expected", expectedPhrase(m[2].str()));
    if (whole(what, rankMissing, m))
        return Message("error.json.rank_missing").with("rank", m[1].str()).with("expected", expectedPhrase(m[2].str()));
    if (whole(what, outOfRange, m))
        return Message("error.json.out_of_range")
            .with("value", m[1].str())
            .with("expected", expectedPhrase(m[2].str()));
    if (whole(what, bareOutOfRange, m))
        return Message("error.json.bare_out_of_range").with("expected", expectedPhrase(m[1].str()));
    if (whole(what, negative, m))
        return Message("error.json.negative").with("value", m[1].str()).with("expected", expectedPhrase(m[2].str()));
    if (whole(what, notRank, m))
        return Message("error.json.not_rank").with("value", m[1].str()).with("expected", expectedPhrase(m[2].str()));
    if (whole(what, emptyList, m))
        return Message("error.json.empty").with("expected", expectedPhrase(m[1].str()));
    if (whole(what, unknownKey, m))
        return Message("error.json.unknown_key").with("keys", m[1].str());
    if (whole(what, unknownValue, m))
        return Message("error.json.unknown_value")
            .with("value", m[1].str())
            .with("expected", expectedPhrase(m[2].str()));
    if (whole(what, notJson, m)) {
        const std::string inner = m[1].str();
        smatch k;
        Message how = whole(inner, firstByte, k)    ? Message("error.file.first_byte").with("byte", k[1].str())
                      : whole(inner, startsWith, k) ? Message("error.file.starts_with").with("character", k[1].str())
                                                    : verbatim(inner);
        return Message("error.file.not_json").with("how", std::move(how));
    }
    if (whole(what, tooDeep, m))
        return Message("error.file.too_deep").with("levels", m[1].str());
    if (whole(what, invalidJson, m))
        return Message("error.file.invalid_json")
            .with("line", m[1].str())
            .with("column", m[2].str())
            .with("parser", parserWords(m[3].str()));
    if (whole(what, tooLarge, m))
        return Message("error.file.too_large")
            .with("megabytes", m[1].str())
            .with("expected", expectedPhrase(m[2].str()));
    if (whole(what, numberTooLarge, m))
        return Message("error.file.number_too_large").with("parser", m[1].str());
    if (Message worded = fromTemplates(what, "error.says."); !worded.empty())
        return worded;
    // a message of a document inside another ("FILE: $.run: $.spans[2]: found ..."), or a cut short path
    static const regex nested(R"((\$[^ ]*): (.*))");
    if (whole(what, nested, m))
        if (Message inner = whatMessage(m[2].str()); inner.id != "verbatim")
            return Message("error.at_path").with("path", m[1].str()).with("what", std::move(inner));
    return verbatim(what);
}

// Where in a file: the file as it is, or "FILE, line N" of a reader of one record per line.
Message originMessage(const std::string& origin)
{
    static const regex atLine(R"((.+), line ([0-9]+))");
    smatch m;
    if (whole(origin, atLine, m))
        return Message("error.origin_line").with("file", m[1].str()).with("line", m[2].str());
    return verbatim(origin);
}

Message lineMessage(const std::string& line)
{
    // "ORIGIN: $.path: what" (the path starts with '$' and has no space)
    static const regex withPath(R"((.*?): (\$[^ ]*): (.*))");
    static const regex noFile(R"((.+): no such file)");
    static const regex folder(R"((.+): is a folder \(expected (.+)\))");
    static const regex unreadable(R"((.+): cannot be read \(check its permissions\))");
    static const regex unknownPreset(R"((.*)unknown preset '(.*)' \(expected one of: (.+)\))");
    smatch m;
    if (whole(line, withPath, m)) {
        const Message what = whatMessage(m[3].str());
        if (what.id == "verbatim")
            return verbatim(line);
        return Message("error.at")
            .with("origin", originMessage(m[1].str()))
            .with("path", m[2].str())
            .with("what", what);
    }
    if (whole(line, noFile, m))
        return Message("error.file.missing").with("file", m[1].str());
    if (whole(line, folder, m))
        return Message("error.file.folder").with("file", m[1].str()).with("expected", expectedPhrase(m[2].str()));
    if (whole(line, unreadable, m))
        return Message("error.file.unreadable").with("file", m[1].str());
    if (whole(line, unknownPreset, m))
        return Message("error.preset.unknown")
            .with("before", m[1].str())
            .with("preset", m[2].str())
            .with("known", m[3].str());
    if (Message worded = fromTemplates(line, "error.line."); !worded.empty())
        return worded;
    // "$.path: what", as the engine's checks of a scenario write it before a file name is put in front
    static const regex pathOnly(R"((\$[^ ]*): (.*))");
    if (whole(line, pathOnly, m))
        if (Message what = whatMessage(m[2].str()); what.id != "verbatim")
            return Message("error.at_path").with("path", m[1].str()).with("what", what);
    return verbatim(line);
}

} // namespace

Message errorMessage(const std::string& englishError)
{
    std::vector<Message> lines;
    std::stringstream ss(englishError);
    for (std::string line; std::getline(ss, line);)
        lines.push_back(lineMessage(line));
    if (lines.empty())
        return verbatim(englishError);
    return linesOf(std::move(lines));
}

Message parserMessage(const std::string& text) { return parserWords(text); }

Message systemWords(const std::string& text)
{
    Message why = fromTemplates(text, "error.why.");
    return why.empty() ? verbatim(text) : why;
}

Message machineSourceMessage(const std::string& englishPart)
{
    Message m = fromTemplates(englishPart, "topo.source.");
    return m.empty() ? verbatim(englishPart) : m;
}

Message launchMessageOf(const std::string& englishLaunch)
{
    // the launcher's first: "{processes} processes on 1 host" would take its launcher for a count
    Message m = fromTemplates(englishLaunch, "placement.launch.");
    if (m.empty())
        m = fromTemplates(englishLaunch, "launch.");
    return m.empty() ? verbatim(englishLaunch) : m;
}

std::string wordedError(const std::string& englishError, Language language)
{
    if (language == Language::English)
        return englishError;
    return render(errorMessage(englishError), language);
}

} // namespace shardlab

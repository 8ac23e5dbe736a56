#include "shardlab/base/json_reader.h"

#include "shardlab/base/physical_ranges.h"
#include "shardlab/text/foreign_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_set>

namespace shardlab::detail {

std::string describe(const json& v)
{
    switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "an unsupported value";
    }
}

Message foundWord(const json& v)
{
    switch (v.type()) {
    case json::value_t::null: return Message("error.found.null");
    case json::value_t::object: return Message("error.found.object");
    case json::value_t::array: return Message("error.found.array");
    case json::value_t::string: return Message("error.found.string");
    case json::value_t::boolean: return Message("error.found.boolean");
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return Message("error.found.number");
    default: return Message("error.found.unsupported");
    }
}

Message foundInstead(const json& v, Message expected)
{
    return Message("error.json.found").with("found", foundWord(v)).with("expected", std::move(expected));
}

Message expectedChoice(const std::vector<std::string>& words)
{
    if (words.size() < 2)
        return words.empty() ? Message() : verbatim(words.front());
    std::vector<Message> pieces;
    for (size_t i = 0; i + 1 < words.size(); ++i)
        pieces.push_back(verbatim(words[i]));
    return Message("error.expected.choice").with("choices", listOf(std::move(pieces))).with("last", words.back());
}

namespace {

Message expectedRange(long long lo, long long hi)
{
    return Message("error.expected.integer_range").with("lo", std::to_string(lo)).with("hi", std::to_string(hi));
}

// "LO to HI" (error.expects.range), what integerAt() expected.
Message expectedSpan(long long lo, long long hi)
{
    return Message("error.expects.range").with("lo", std::to_string(lo)).with("hi", std::to_string(hi));
}

Message expectedRange(double lo, double hi)
{
    char l[32], h[32];
    std::snprintf(l, sizeof l, "%g", lo);
    std::snprintf(h, sizeof h, "%g", hi);
    return Message("error.expected.number_range").with("lo", l).with("hi", h);
}

} // namespace

void JsonReader::fail(const std::string& path, Message what)
{
    if (m_errors.size() < 50)
        m_errors.push_back(
            Message("error.at").with("origin", m_origin).with("path", path).with("what", std::move(what)));
}

std::string JsonReader::message() const { return error().message; }

Error JsonReader::error() const
{
    if (m_errors.empty())
        return Error{};
    return badInput(linesOf(m_errors));
}

bool JsonReader::expectObject(const json& v, const std::string& path)
{
    if (v.is_object())
        return true;
    fail(path, foundInstead(v, Message("error.expected.object")));
    return false;
}

void JsonReader::onlyKeys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed)
{
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool ok = false;
        for (const char* a : allowed)
            ok = ok || it.key() == a;
        if (!ok) {
            std::string list;
            for (const char* a : allowed)
                list += std::string(list.empty() ? "" : ", ") + a;
            fail(key(path, it.key()), Message("error.json.unknown_key").with("keys", list));
        }
    }
}

const json* JsonReader::find(const json& obj, const char* k) const
{
    auto it = obj.find(k);
    return it == obj.end() ? nullptr : &*it;
}

std::optional<std::string> JsonReader::string(const json& obj, const std::string& path, const char* k, bool required)
{
    const json* v = find(obj, k);
    if (!v) {
        if (required)
            fail(key(path, k), Message("error.json.missing").with("expected", Message("error.expected.string")));
        return std::nullopt;
    }
    if (!v->is_string()) {
        fail(key(path, k), foundInstead(*v, Message("error.expected.string")));
        return std::nullopt;
    }
    return v->get<std::string>();
}

std::optional<long long> JsonReader::integer(const json& obj, const std::string& path, const char* k, bool required,
                                             long long lo, long long hi)
{
    const json* v = find(obj, k);
    if (!v) {
        if (required)
            fail(key(path, k), Message("error.json.missing").with("expected", expectedRange(lo, hi)));
        return std::nullopt;
    }
    long long value = 0;
    if (v->is_number_integer())
        value = v->get<long long>();
    else if (v->is_number_unsigned() && v->get<unsigned long long>() <= static_cast<unsigned long long>(hi))
        value = static_cast<long long>(v->get<unsigned long long>());
    else if (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>()
             && std::fabs(v->get<double>()) < 9e18)
        value = static_cast<long long>(v->get<double>());
    else {
        fail(key(path, k), Message("error.json.found")
                               .with("found", v->is_number() ? verbatim(v->dump()) : foundWord(*v))
                               .with("expected", expectedRange(lo, hi)));
        return std::nullopt;
    }
    if (value < lo || value > hi) {
        fail(key(path, k), Message("error.json.out_of_range")
                               .with("value", std::to_string(value))
                               .with("expected", expectedRange(lo, hi)));
        return std::nullopt;
    }
    return value;
}

std::optional<double> JsonReader::number(const json& obj, const std::string& path, const char* k, bool required,
                                         double lo, double hi)
{
    const json* v = find(obj, k);
    if (!v) {
        if (required)
            fail(key(path, k), Message("error.json.missing").with("expected", expectedRange(lo, hi)));
        return std::nullopt;
    }
    if (!v->is_number()) {
        fail(key(path, k), foundInstead(*v, expectedRange(lo, hi)));
        return std::nullopt;
    }
    const double d = v->get<double>();
    if (!(d >= lo && d <= hi)) {
        fail(key(path, k),
             Message("error.json.out_of_range").with("value", v->dump()).with("expected", expectedRange(lo, hi)));
        return std::nullopt;
    }
    return d;
}

std::optional<bool> JsonReader::boolean(const json& obj, const std::string& path, const char* k)
{
    const json* v = find(obj, k);
    if (!v)
        return std::nullopt;
    if (!v->is_boolean()) {
        fail(key(path, k), foundInstead(*v, Message("error.expected.boolean")));
        return std::nullopt;
    }
    return v->get<bool>();
}

std::optional<Bytes> JsonReader::sizeValue(const json& v, const std::string& path)
{
    const Message expected("error.expected.size");
    if (v.is_string()) {
        auto r = parseSize(v.get<std::string>());
        if (!r) {
            // parseSize's message says what it expected already: say it once
            if (r.error().message.find("(expected") != std::string::npos)
                fail(path, messageOf(r.error()));
            else
                fail(path,
                     Message("error.io.with_expected").with("what", messageOf(r.error())).with("expected", expected));
            return std::nullopt;
        }
        return *r;
    }
    if (v.is_number_unsigned()) {
        const auto b = v.get<unsigned long long>();
        if (b > kMaxBytes) {
            fail(path, Message("error.says.bytes_too_large").with("value", v.dump()).with("expected", expected));
            return std::nullopt;
        }
        return b;
    }
    if (v.is_number_integer()) {
        fail(path, Message("error.json.negative").with("value", v.dump()).with("expected", expected));
        return std::nullopt;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (d > static_cast<double>(kMaxBytes)) {
            fail(path, Message("error.says.bytes_too_large").with("value", v.dump()).with("expected", expected));
            return std::nullopt;
        }
        if (!(d >= 0) || std::floor(d) != d) {
            fail(path, Message("error.says.not_whole_bytes").with("value", v.dump()).with("expected", expected));
            return std::nullopt;
        }
        return static_cast<Bytes>(d);
    }
    fail(path, foundInstead(v, expected));
    return std::nullopt;
}

std::optional<Bytes> JsonReader::size(const json& obj, const std::string& path, const char* k, bool required)
{
    const json* v = find(obj, k);
    if (!v) {
        if (required)
            fail(key(path, k), Message("error.json.missing").with("expected", Message("error.expected.size_short")));
        return std::nullopt;
    }
    return sizeValue(*v, key(path, k));
}

std::optional<double> JsonReader::bandwidth(const json& obj, const std::string& path, const char* k, bool required)
{
    const json* v = find(obj, k);
    const Message expected("error.expected.bandwidth");
    if (!v) {
        if (required)
            fail(key(path, k), Message("error.json.missing").with("expected", expected));
        return std::nullopt;
    }
    double d = 0;
    if (v->is_number())
        d = v->get<double>();
    else if (v->is_string()) {
        auto r = parseBandwidth(v->get<std::string>());
        if (!r) {
            fail(key(path, k), messageOf(r.error()));
            return std::nullopt;
        }
        d = *r;
    } else {
        fail(key(path, k), foundInstead(*v, expected));
        return std::nullopt;
    }
    if (!(d >= kMinBandwidthGBps && d <= kMaxBandwidthGBps)) {
        fail(key(path, k),
             Message("error.json.bare_out_of_range").with("expected", Message("error.expected.bandwidth_range")));
        return std::nullopt;
    }
    return d;
}

std::optional<double> JsonReader::flops(const json& obj, const std::string& path, const char* k)
{
    const json* v = find(obj, k);
    if (!v)
        return std::nullopt;
    double d = -1;
    if (v->is_number())
        d = v->get<double>();
    else if (v->is_string()) {
        const std::string s = v->get<std::string>();
        auto parsed = parseFlops(s);
        if (!parsed) {
            fail(key(path, k), messageOf(parsed.error()));
            return std::nullopt;
        }
        d = *parsed;
    } else {
        fail(key(path, k), foundInstead(*v, Message("error.expected.flops")));
        return std::nullopt;
    }
    if (!(d >= 0 && d <= 1e24)) {
        fail(key(path, k),
             Message("error.json.bare_out_of_range").with("expected", Message("error.expected.flops_range")));
        return std::nullopt;
    }
    return d;
}

std::optional<std::vector<int>> JsonReader::ranks(const json& obj, const std::string& path, const char* k)
{
    const json* v = find(obj, k);
    if (!v)
        return std::nullopt;
    if (v->is_string() && v->get<std::string>() == "all")
        return std::vector<int>{};
    if (!v->is_array()) {
        fail(key(path, k), foundInstead(*v, Message("error.expected.ranks").with("all", "\"all\"")));
        return std::nullopt;
    }
    std::vector<int> out;
    for (size_t i = 0; i < v->size(); ++i) {
        const json& e = (*v)[i];
        if (!e.is_number_integer() && !e.is_number_unsigned()) {
            fail(index(key(path, k), i), foundInstead(e, Message("error.expected.rank")));
            return std::nullopt;
        }
        const long long r = e.get<long long>();
        if (r < 0 || r > 1'000'000) {
            fail(index(key(path, k), i), Message("error.json.not_rank")
                                             .with("value", std::to_string(r))
                                             .with("expected", Message("error.expected.zero_or_more")));
            return std::nullopt;
        }
        out.push_back(static_cast<int>(r));
    }
    if (out.empty())
        fail(key(path, k), Message("error.json.empty").with("expected", Message("error.expected.one_rank")));
    return out;
}

std::string jsonShapeProblem(const std::string& text, int maxDepth)
{
    return english(jsonShapeMessage(text, maxDepth));
}

Message jsonShapeMessage(const std::string& text, int maxDepth)
{
    size_t i = 0;
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) // a UTF-8 byte-order mark
        i = 3;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        ++i;
    if (i == text.size())
        return Message(text.empty() ? "error.file.empty" : "error.file.blank");
    if (text[i] != '{' && text[i] != '[') {
        const auto byte = static_cast<unsigned char>(text[i]);
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", byte);
        return Message("error.file.not_json")
            .with("how", byte >= 0x20 && byte < 0x7f
                             ? Message("error.file.starts_with").with("character", std::string(1, text[i]))
                             : Message("error.file.first_byte").with("byte", hex));
    }
    int depth = 0;
    bool inString = false, escaped = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > maxDepth)
                return Message("error.file.too_deep").with("levels", std::to_string(maxDepth));
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return {};
}

namespace {

// json::parse(text) with every object's keys checked as they arrive. A SAX handler around
// nlohmann-json's own DOM builder, not a parser callback: with a callback nlohmann-json 3.11 looks
// through every earlier element of an array each time an object in it ends (to drop a discarded
// one), so an array of n objects took n^2 steps (65,537 GPUs: 1.6 s, 45 s under AddressSanitizer;
// a hostile file of a few MB, minutes). Here each event costs what it costs json::parse.
class StrictSax {
public:
    explicit StrictSax(json& result) : m_dom(result, true) {}

    bool null() { return value(m_dom.null()); }
    bool boolean(bool b) { return value(m_dom.boolean(b)); }
    bool number_integer(json::number_integer_t v) { return value(m_dom.number_integer(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return value(m_dom.number_unsigned(v)); }
    bool number_float(json::number_float_t v, const json::string_t& s) { return value(m_dom.number_float(v, s)); }
    bool string(json::string_t& v) { return value(m_dom.string(v)); }
    bool binary(json::binary_t& v) { return value(m_dom.binary(v)); }
    bool start_object(std::size_t n)
    {
        m_open.push_back(Frame{false, 0, {}, {}, {}});
        return m_dom.start_object(n);
    }
    bool start_array(std::size_t n)
    {
        m_open.push_back(Frame{true, 0, {}, {}, {}});
        return m_dom.start_array(n);
    }
    bool end_object() { return closed(m_dom.end_object()); }
    bool end_array() { return closed(m_dom.end_array()); }
    bool key(json::string_t& k)
    {
        Frame& f = m_open.back();
        constexpr size_t kLinear = 32; // the keys so far: a list, a set past a few dozen
        bool seen = false;
        if (f.keys.size() < kLinear) {
            seen = std::find(f.keys.begin(), f.keys.end(), k) != f.keys.end();
            if (!seen) {
                f.keys.push_back(k);
                if (f.keys.size() == kLinear)
                    f.many.insert(f.keys.begin(), f.keys.end());
            }
        } else
            seen = !f.many.insert(k).second;
        if (seen)
            failAt(pathTo(k), Message("error.says.given_twice"));
        f.key = k;
        return m_dom.key(k);
    }
    // a template, as the DOM builder's: it throws the parser's own exception type (parse_error,
    // out_of_range), as json::parse does, not its base class
    template <class Exception>
    bool parse_error(std::size_t position, const std::string& token, const Exception& ex)
    {
        return m_dom.parse_error(position, token, ex);
    }

private:
    // Where the parser is: one frame per open object or array, with the key or index being read.
    struct Frame {
        bool array = false;
        size_t index = 0;              // arrays: the element being read
        std::string key;               // objects: the member being read
        std::vector<std::string> keys; // objects: the keys so far
        std::unordered_set<std::string> many;
    };
    std::string pathTo(const std::string& duplicate) const
    {
        std::string path = "$";
        for (size_t i = 0; i + 1 < m_open.size(); ++i)
            path += m_open[i].array ? "[" + std::to_string(m_open[i].index) + "]" : "." + m_open[i].key;
        return path + "." + duplicate;
    }
    bool value(bool ok)
    {
        if (!m_open.empty() && m_open.back().array)
            ++m_open.back().index;
        return ok;
    }
    bool closed(bool ok)
    {
        m_open.pop_back();
        return value(ok);
    }

    nlohmann::detail::json_sax_dom_parser<json> m_dom;
    std::vector<Frame> m_open;
};

} // namespace

json parseJsonStrict(const std::string& text)
{
    json result;
    StrictSax sax(result);
    json::sax_parse(text, &sax);
    return result;
}

Result<json> parseJsonText(const std::string& text, const std::string& origin)
{
    if (Message problem = jsonShapeMessage(text); !problem.empty())
        return badInput(Message("error.at").with("origin", origin).with("path", "$").with("what", std::move(problem)));
    try {
        return parseJsonStrict(text);
    } catch (const json::exception& e) {
        return badInput(
            Message("error.at")
                .with("origin", origin)
                .with("path", "$")
                .with("what", Message("error.says.not_valid_json").with("parser", parserMessage(e.what()))));
    } catch (const JsonPathError& e) {
        return errorAt(origin, e);
    }
}

JsonPathError::JsonPathError(const std::string& at, Message what)
    : std::runtime_error(at + ": " + english(what)), path(at), sentence(std::move(what))
{
}

Error errorAt(const std::string& origin, const JsonPathError& e)
{
    return badInput(Message("error.at").with("origin", origin).with("path", e.path).with("what", e.sentence));
}

Error errorAt(Message origin, const JsonPathError& e)
{
    return badInput(
        Message("error.at").with("origin", std::move(origin)).with("path", e.path).with("what", e.sentence));
}

void failAt(const std::string& path, Message what) { throw JsonPathError(path, std::move(what)); }

const json& member(const json& obj, const std::string& path, const char* key)
{
    if (!obj.is_object())
        failAt(path, foundInstead(obj, Message("error.expected.object")));
    auto it = obj.find(key);
    if (it == obj.end())
        failAt(path + "." + key, Message("error.says.missing"));
    return *it;
}

double numberAt(const json& v, const std::string& path)
{
    if (!v.is_number())
        failAt(path, foundInstead(v, Message("error.expects.number")));
    const double d = v.get<double>();
    if (!std::isfinite(d))
        failAt(path, Message("error.says.not_finite"));
    return d;
}

long long integerAt(const json& v, const std::string& path, long long lo, long long hi)
{
    if (!v.is_number_integer())
        failAt(path, foundInstead(v, Message("error.expects.whole_number")));
    // the value as the file gives it: 2^64-1 is "18446744073709551615", not the bound plus one
    if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi))
        failAt(path,
               Message("error.says.value_expected").with("value", v.dump()).with("expected", expectedSpan(lo, hi)));
    const long long n = v.get<long long>();
    if (n < lo || n > hi)
        failAt(path, Message("error.says.value_expected")
                         .with("value", std::to_string(n))
                         .with("expected", expectedSpan(lo, hi)));
    return n;
}

std::string stringAt(const json& v, const std::string& path)
{
    if (!v.is_string())
        failAt(path, foundInstead(v, Message("error.expected.string")));
    return v.get<std::string>();
}

const json& arrayAt(const json& v, const std::string& path)
{
    if (!v.is_array())
        failAt(path, foundInstead(v, Message("error.expected.array")));
    return v;
}

} // namespace shardlab::detail

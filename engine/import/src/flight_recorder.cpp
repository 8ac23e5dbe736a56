#include "shardlab/import/flight_recorder.h"

#include "shardlab/import/pickle_reader.h"

#include "shardlab/import/input_file.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>

namespace shardlab {

namespace {

using nlohmann::json;

// Versions 2.0 to 2.10 are the ones ShardLab was written against (PyTorch's fr_trace reads the
// same fields since 2.0); a later one is read where its fields are there, with a note.
constexpr int kKnownMajor = 2;
constexpr int kKnownMinor = 10;
// Ranks a dump may name (pg_config, "rank"): far beyond any job's, and small enough that a
// per-rank table of the job stays small.
constexpr int kMaxRanks = 1 << 16;

Error fail(Message m) { return badInput(std::move(m)); }

// pg_config's refusal of a process group (one keyed "" too: its name is what the dump says).
Error badGroup(const std::string& origin, const std::string& key)
{
    return fail(Message("error.line.fr_pg_config").with("file", origin).with("group", key));
}

std::optional<std::int64_t> integer(const json& v)
{
    if (v.is_number_integer())
        return v.get<std::int64_t>(); // unsigned beyond int64 wraps: checked by the caller's ranges
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        std::int64_t out = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        if (ec == std::errc() && end == s.data() + s.size())
            return out;
    }
    return std::nullopt;
}

struct EntryReader {
    const std::string& origin;
    const json& entry;
    size_t index;

    Error missing(const char* field) const
    {
        return fail(Message("error.line.fr_missing")
                        .with("file", origin)
                        .with("index", static_cast<int>(index))
                        .with("field", field));
    }
    Error wrong(const char* field) const
    {
        return fail(Message("error.line.fr_field")
                        .with("file", origin)
                        .with("index", static_cast<int>(index))
                        .with("field", field));
    }
    const json* find(const char* field) const
    {
        const auto it = entry.find(field);
        return it == entry.end() || it->is_null() ? nullptr : &*it;
    }
    Result<std::int64_t> requiredInt(const char* field) const
    {
        const json* v = find(field);
        if (!v)
            return missing(field);
        auto i = integer(*v);
        if (!i)
            return wrong(field);
        return *i;
    }
    Result<std::optional<std::int64_t>> optionalInt(const char* field) const
    {
        const json* v = find(field);
        if (!v)
            return std::optional<std::int64_t>{};
        auto i = integer(*v);
        if (!i)
            return wrong(field);
        return std::optional<std::int64_t>(*i);
    }
    Result<std::string> requiredString(const char* field) const
    {
        const json* v = find(field);
        if (!v)
            return missing(field);
        if (!v->is_string())
            return wrong(field);
        return v->get<std::string>();
    }
    Result<bool> optionalBool(const char* field) const
    {
        const json* v = find(field);
        if (!v)
            return false;
        if (!v->is_boolean())
            return wrong(field);
        return v->get<bool>();
    }
    Result<std::vector<std::vector<std::int64_t>>> shapes(const char* field) const
    {
        std::vector<std::vector<std::int64_t>> out;
        const json* v = find(field);
        if (!v)
            return out;
        if (!v->is_array())
            return wrong(field);
        for (const json& shape : *v) {
            if (!shape.is_array())
                return wrong(field);
            std::vector<std::int64_t> dims;
            for (const json& d : shape) {
                auto i = integer(d);
                if (!i || *i < 0 || *i > (std::int64_t{1} << 50))
                    return wrong(field);
                dims.push_back(*i);
            }
            out.push_back(std::move(dims));
        }
        return out;
    }
    Result<std::vector<std::string>> strings(const char* field) const
    {
        std::vector<std::string> out;
        const json* v = find(field);
        if (!v)
            return out;
        if (!v->is_array())
            return wrong(field);
        for (const json& s : *v) {
            if (!s.is_string())
                return wrong(field);
            out.push_back(s.get<std::string>());
        }
        return out;
    }
};

Result<FlightRecorderEntry> readEntry(const std::string& origin, const json& e, size_t index)
{
    if (!e.is_object())
        return fail(Message("error.line.fr_entry").with("file", origin).with("index", static_cast<int>(index)));
    const EntryReader r{origin, e, index};
    FlightRecorderEntry out;
#define SHARDLAB_FR_TAKE(target, call)                                                                                 \
    {                                                                                                                  \
        auto taken_ = call;                                                                                            \
        if (!taken_)                                                                                                   \
            return taken_.error();                                                                                     \
        target = std::move(*taken_);                                                                                   \
    }
    SHARDLAB_FR_TAKE(out.collectiveSeqId, r.requiredInt("collective_seq_id"))
    SHARDLAB_FR_TAKE(out.profilingName, r.requiredString("profiling_name"))
    SHARDLAB_FR_TAKE(out.state, r.requiredString("state"))
    SHARDLAB_FR_TAKE(out.timeCreatedNs, r.requiredInt("time_created_ns"))
    std::optional<std::int64_t> v;
    SHARDLAB_FR_TAKE(v, r.optionalInt("record_id"))
    out.recordId = v.value_or(static_cast<std::int64_t>(index));
    SHARDLAB_FR_TAKE(v, r.optionalInt("p2p_seq_id"))
    out.p2pSeqId = v.value_or(0);
    SHARDLAB_FR_TAKE(v, r.optionalInt("op_id"))
    out.opId = v.value_or(0);
    SHARDLAB_FR_TAKE(v, r.optionalInt("pg_id"))
    out.pgId = v.value_or(-1);
    SHARDLAB_FR_TAKE(out.timeDiscoveredStartedNs, r.optionalInt("time_discovered_started_ns"))
    SHARDLAB_FR_TAKE(out.timeDiscoveredCompletedNs, r.optionalInt("time_discovered_completed_ns"))
    SHARDLAB_FR_TAKE(out.timeoutMs, r.optionalInt("timeout_ms"))
    SHARDLAB_FR_TAKE(out.isP2p, r.optionalBool("is_p2p"))
    SHARDLAB_FR_TAKE(out.retired, r.optionalBool("retired"))
    SHARDLAB_FR_TAKE(out.inputSizes, r.shapes("input_sizes"))
    SHARDLAB_FR_TAKE(out.outputSizes, r.shapes("output_sizes"))
    SHARDLAB_FR_TAKE(out.inputDtypes, r.strings("input_dtypes"))
    SHARDLAB_FR_TAKE(out.outputDtypes, r.strings("output_dtypes"))
#undef SHARDLAB_FR_TAKE
    // The pickle has None where JSON has 0: both mean "not seen".
    if (out.timeDiscoveredStartedNs && *out.timeDiscoveredStartedNs == 0)
        out.timeDiscoveredStartedNs.reset();
    if (out.timeDiscoveredCompletedNs && *out.timeDiscoveredCompletedNs == 0)
        out.timeDiscoveredCompletedNs.reset();
    if (out.state != "scheduled" && out.state != "started" && out.state != "completed")
        return r.wrong("state");
    if (out.collectiveSeqId < 0 || out.timeCreatedNs < 0)
        return r.wrong(out.collectiveSeqId < 0 ? "collective_seq_id" : "time_created_ns");
    // Times are ns since 1970: a negative one is wrong (found by fuzz_import: the timeline took
    // completed - created and overflowed).
    if (out.timeDiscoveredStartedNs && *out.timeDiscoveredStartedNs < 0)
        return r.wrong("time_discovered_started_ns");
    if (out.timeDiscoveredCompletedNs && *out.timeDiscoveredCompletedNs < 0)
        return r.wrong("time_discovered_completed_ns");
    if (const json* pg = r.find("process_group")) {
        if (!pg->is_array() || pg->size() != 2 || !(*pg)[0].is_string() || !(*pg)[1].is_string())
            return r.wrong("process_group");
        out.pgName = (*pg)[0].get<std::string>();
        out.pgDesc = (*pg)[1].get<std::string>();
    } else if (out.pgId >= 0) {
        out.pgName = std::to_string(out.pgId);
    } else {
        return r.missing("process_group");
    }
    return out;
}

// pg_config's "ranks": "[0, 1]" (a string in 2.x) or a list.
std::optional<std::vector<int>> groupRanks(const json& v)
{
    std::vector<int> out;
    if (v.is_array()) {
        for (const json& r : v) {
            auto i = integer(r);
            if (!i || *i < 0 || *i >= kMaxRanks)
                return std::nullopt;
            out.push_back(static_cast<int>(*i));
        }
        return out;
    }
    if (!v.is_string())
        return std::nullopt;
    const std::string& s = v.get_ref<const std::string&>();
    size_t i = 0;
    auto skip = [&] {
        while (i < s.size() && (s[i] == ' ' || s[i] == ','))
            ++i;
    };
    skip();
    if (i >= s.size() || s[i] != '[')
        return std::nullopt;
    ++i;
    while (true) {
        skip();
        if (i < s.size() && s[i] == ']')
            break;
        int r = 0;
        const auto [end, ec] = std::from_chars(s.data() + i, s.data() + s.size(), r);
        if (ec != std::errc() || r < 0 || r >= kMaxRanks)
            return std::nullopt;
        out.push_back(r);
        i = static_cast<size_t>(end - s.data());
    }
    return out;
}

} // namespace

std::string FlightRecorderEntry::opName() const
{
    const size_t colon = profilingName.find(':');
    return colon == std::string::npos ? profilingName : profilingName.substr(colon + 1);
}

std::int64_t FlightRecorderEntry::inputElements() const
{
    std::int64_t total = 0;
    for (const auto& shape : inputSizes) {
        std::int64_t n = 1;
        for (std::int64_t d : shape)
            n = d == 0 ? 0 : (n > (std::int64_t{1} << 50) / d ? (std::int64_t{1} << 50) : n * d);
        total = std::min(total + n, std::int64_t{1} << 50);
    }
    return total;
}

std::optional<int> torchDtypeBytes(const std::string& dtype)
{
    static const std::map<std::string, int, std::less<>> sizes = {{"Float", 4},
                                                                  {"Double", 8},
                                                                  {"Half", 2},
                                                                  {"BFloat16", 2},
                                                                  {"Long", 8},
                                                                  {"Int", 4},
                                                                  {"Short", 2},
                                                                  {"Char", 1},
                                                                  {"Byte", 1},
                                                                  {"Bool", 1},
                                                                  {"UInt16", 2},
                                                                  {"UInt32", 4},
                                                                  {"UInt64", 8},
                                                                  {"ComplexFloat", 8},
                                                                  {"ComplexDouble", 16},
                                                                  {"ComplexHalf", 4},
                                                                  {"Float8_e4m3fn", 1},
                                                                  {"Float8_e5m2", 1},
                                                                  {"Float8_e4m3fnuz", 1},
                                                                  {"Float8_e5m2fnuz", 1}};
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? std::nullopt : std::optional<int>(it->second);
}

std::optional<int> rankFromDumpName(const std::string& path)
{
    std::string name = std::filesystem::path(path).filename().string();
    for (const char* suffix : {".gz", ".pkl", ".pickle", ".json"})
        if (name.size() > std::string_view(suffix).size() && name.ends_with(suffix))
            name.resize(name.size() - std::string_view(suffix).size());
    size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1])))
        --digits;
    if (digits == name.size() || name.size() - digits > 6)
        return std::nullopt;
    return std::stoi(name.substr(digits));
}

Result<FlightRecorderDump> parseFlightRecorder(std::string_view bytes, const std::string& origin)
{
    FlightRecorderDump dump;
    dump.origin = origin;
    json doc;
    if (!bytes.empty() && static_cast<unsigned char>(bytes.front()) == 0x80) {
        auto parsed = parsePickle(bytes, origin);
        if (!parsed)
            return parsed.error();
        doc = std::move(*parsed);
        dump.pickle = true;
    } else {
        doc = json::parse(bytes.begin(), bytes.end(), nullptr, false);
        if (doc.is_discarded())
            return fail(Message("error.line.fr_unreadable").with("file", origin));
    }
    if (!doc.is_object() || !doc.contains("entries") || !doc["entries"].is_array())
        return fail(Message("error.line.fr_not_dump").with("file", origin));

    // The version: "2.10". Another one is read where its fields are there.
    const auto version = doc.find("version");
    if (version != doc.end() && version->is_string()) {
        dump.version = version->get<std::string>();
        int major = -1, minor = -1;
        const std::string& v = dump.version;
        const size_t dot = v.find('.');
        const bool parsed = dot != std::string::npos
                            && std::from_chars(v.data(), v.data() + dot, major).ec == std::errc()
                            && std::from_chars(v.data() + dot + 1, v.data() + v.size(), minor).ec == std::errc();
        if (!parsed || major != kKnownMajor || minor > kKnownMinor)
            dump.notes.push_back(Message("flight_recorder.note.version")
                                     .with("file", origin)
                                     .with("version", dump.version)
                                     .with("known", std::to_string(kKnownMajor) + ".0-" + std::to_string(kKnownMajor)
                                                        + "." + std::to_string(kKnownMinor)));
    } else {
        dump.notes.push_back(Message("flight_recorder.note.no_version").with("file", origin));
    }
    if (const auto lib = doc.find("comm_lib_version"); lib != doc.end() && lib->is_string())
        dump.commLibVersion = lib->get<std::string>();

    if (const auto config = doc.find("pg_config"); config != doc.end()) {
        if (!config->is_object())
            return fail(Message("error.line.fr_pg_config").with("file", origin).with("group", "pg_config"));
        for (const auto& [key, g] : config->items()) {
            FlightRecorderGroup group;
            group.name = key;
            if (!g.is_object())
                return badGroup(origin, key);
            if (const auto name = g.find("name"); name != g.end() && name->is_string())
                group.name = name->get<std::string>();
            if (const auto desc = g.find("desc"); desc != g.end() && desc->is_string())
                group.desc = desc->get<std::string>();
            const auto ranks = g.find("ranks");
            auto list = ranks == g.end() ? std::nullopt : groupRanks(*ranks);
            if (!list)
                return badGroup(origin, key);
            group.ranks = std::move(*list);
            dump.groups[group.name] = std::move(group);
        }
    }

    if (const auto rank = doc.find("rank");
        rank != doc.end() && integer(*rank) && *integer(*rank) >= 0 && *integer(*rank) < kMaxRanks)
        dump.rank = static_cast<int>(*integer(*rank));
    else
        dump.rank = rankFromDumpName(origin);

    const json& entries = doc["entries"];
    for (size_t i = 0; i < entries.size(); ++i) {
        auto e = readEntry(origin, entries[i], i);
        if (!e)
            return e.error();
        dump.entries.push_back(std::move(*e));
    }
    return dump;
}

Result<FlightRecorderDump> readFlightRecorder(const std::filesystem::path& path)
{
    auto text = readInputText(path, std::uint64_t{1} << 30);
    if (!text)
        return text.error();
    return parseFlightRecorder(*text, path.string());
}

} // namespace shardlab

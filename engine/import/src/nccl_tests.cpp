// nccl-tests' JSON output read back (nccl_tests.h). The writer is nccl-tests' src/util.cu (an
// ad-hoc printf JSON writer): numbers with "%lf" (6 decimals), NaN as the string "nan", "root" as
// a right-aligned string ("    -1"), "nwrong" null when results were not checked (-c 0),
// "out_of_place" null when only in place ran, "cpu_time" instead of "time" under -C 1.
#include "shardlab/import/nccl_tests.h"

#include "shardlab/base/json_reader.h"
#include "shardlab/base/visible_text.h"
#include "shardlab/text/foreign_text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>

namespace shardlab {

namespace {

using detail::failAt;
using detail::json;
using detail::JsonPathError;

// The programs of nccl-tests whose collective ShardLab simulates. "size" is count x the type's
// bytes, times the ranks for the collectives whose count is per rank (nccl-tests'
// *GetCollByteCount: all-gather's count is what each rank sends, reduce-scatter's what each
// receives; its size is the full buffer).
struct ProgramInfo {
    const char* program;
    OpKind kind;
    bool countPerRank;
};
constexpr ProgramInfo kPrograms[] = {
    {"all_reduce_perf", OpKind::AllReduce, false},
    {"all_gather_perf", OpKind::AllGather, true},
    {"reduce_scatter_perf", OpKind::ReduceScatter, true},
    {"broadcast_perf", OpKind::Broadcast, false},
    {"reduce_perf", OpKind::Reduce, false},
    {"sendrecv_perf", OpKind::SendRecv, false},
};

// nccl-tests' test_typenames and their sizes.
struct TypeInfo {
    const char* name;
    unsigned bytes;
};
constexpr TypeInfo kTypes[] = {{"int8", 1}, {"uint8", 1}, {"int32", 4},  {"uint32", 4},   {"int64", 8},  {"uint64", 8},
                               {"half", 2}, {"float", 4}, {"double", 8}, {"bfloat16", 2}, {"f8e4m3", 1}, {"f8e5m2", 1}};

// nccl-tests' test_opnames, and "none" of the collectives that do not reduce.
constexpr const char* kRedops[] = {"sum", "prod", "max", "min", "avg", "mulsum", "none"};

constexpr double kMaxTimeUs = 1e12;         // 11.6 days for one call
constexpr double kMaxBandwidthGBps = 1e6;   // 1 PB/s
constexpr Bytes kMaxBytes = Bytes(1) << 50; // 1 PB, as the scenario reader's sizes
constexpr size_t kMaxRows = 100000;
constexpr long long kMaxRanks = 65536;

// A value of the file as a message quotes it: control characters escaped, at most 40 characters.
std::string shown(const std::string& text)
{
    std::string v = visibleText(text);
    return v.size() > 40 ? v.substr(0, 40) + "..." : v;
}

// "a, b or c" of a table's names, for "(expected ...)" (error.expected.choice).
template <class Table, class Name>
Message choices(const Table& table, Name name)
{
    std::vector<Message> items;
    const size_t n = std::size(table);
    for (size_t i = 0; i + 1 < n; ++i)
        items.push_back(verbatim(name(table[i])));
    return Message("error.expected.choice")
        .with("choices", listOf(std::move(items)))
        .with("last", std::string(name(table[n - 1])));
}

// "LO to HI", for "(expected ...)".
Message sweepRange(const std::string& lo, const std::string& hi)
{
    return Message("error.expects.range").with("lo", lo).with("hi", hi);
}

// "a positive number" or "0 or more", for "(expected ...)".
Message sweepAtLeast(bool positive)
{
    return positive ? Message("error.expects.positive_number") : Message("error.expected.zero_or_more");
}

std::string figure(double v) { return number("%.6g", v); }

// rounding: the file's figures have 6 decimals ("%lf"); a figure recomputed from rounded ones
// differs by a few units of the last place. 1e-5 absolute + 1e-5 relative is far above that and
// far below any real disagreement.
bool agrees(double fileValue, double expected)
{
    return std::fabs(fileValue - expected) <= 1e-5 + 1e-5 * std::fabs(expected);
}

// A figure the file must hold: a finite number in [0, hi] (above 0 when `positive`). nccl-tests
// writes a NaN as the string "nan".
double figureAt(const json& v, const std::string& path, double hi, bool positive)
{
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "nan" || s == "-nan" || s == "inf" || s == "-inf")
            failAt(path, Message("error.says.not_finite"));
    }
    const double d = detail::numberAt(v, path);
    if (d < 0)
        failAt(path, Message("error.json.negative").with("value", v.dump()).with("expected", sweepAtLeast(positive)));
    if (positive && d == 0)
        failAt(path, Message("error.says.zero").with("expected", sweepAtLeast(true)));
    if (d > hi)
        failAt(
            path,
            Message("error.json.out_of_range").with("value", v.dump()).with("expected", sweepRange("0", figure(hi))));
    return d;
}

// A whole number in [lo, hi] as the file writes it (an integer, or a float with no fraction).
std::uint64_t wholeAt(const json& v, const std::string& path, std::uint64_t lo, std::uint64_t hi)
{
    const double d = detail::numberAt(v, path);
    if (d < 0)
        failAt(path, Message("error.json.negative").with("value", v.dump()).with("expected", sweepAtLeast(lo > 0)));
    if (d == 0 && lo > 0)
        failAt(path, Message("error.says.zero").with("expected", sweepAtLeast(true)));
    if (v.is_number_float() && std::floor(d) != d)
        failAt(path, Message("error.says.nccl_tests_not_whole").with("value", v.dump()));
    if (d > static_cast<double>(hi) || (v.is_number_unsigned() && v.get<std::uint64_t>() > hi))
        failAt(path, Message("error.json.out_of_range")
                         .with("value", v.dump())
                         .with("expected", sweepRange(std::to_string(lo), std::to_string(hi))));
    return v.is_number_unsigned() ? v.get<std::uint64_t>() : static_cast<std::uint64_t>(d);
}

const json* optionalMember(const json& obj, const char* key)
{
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const ProgramInfo& programOf(const json& doc)
{
    const json& args = detail::arrayAt(detail::member(doc, "$", "args"), "$.args");
    if (args.empty())
        failAt("$.args", Message("error.json.empty").with("expected", Message("error.expects.nccl_tests_args")));
    std::string program = detail::stringAt(args[0], "$.args[0]");
    // only the program's own name: the folders before it are the user's business
    if (const auto slash = program.find_last_of('/'); slash != std::string::npos)
        program = program.substr(slash + 1);
    std::string base = program;
    if (base.ends_with("_mpi")) // some packages build the MPI variant under this name
        base.resize(base.size() - 4);
    for (const ProgramInfo& p : kPrograms)
        if (base == p.program)
            return p;
    failAt("$.args[0]", Message("error.json.unknown_value")
                            .with("value", shown(program))
                            .with("expected", choices(kPrograms, [](const ProgramInfo& p) { return p.program; })));
}

NcclTestsTiming timingAt(const json& t, const std::string& path, Bytes bytes, OpKind kind, int ranks)
{
    if (!t.is_object())
        failAt(path, detail::foundInstead(t, Message("error.expected.object")));
    if (t.contains("cpu_time"))
        failAt(path + ".cpu_time", Message("error.says.nccl_tests_cpu_time"));
    NcclTestsTiming out;
    out.timeUs = figureAt(detail::member(t, path, "time"), path + ".time", kMaxTimeUs, true);
    const json& alg = detail::member(t, path, "alg_bw");
    out.algbwGBps = figureAt(alg, path + ".alg_bw", kMaxBandwidthGBps, false);
    const json& bus = detail::member(t, path, "bus_bw");
    out.busbwGBps = figureAt(bus, path + ".bus_bw", kMaxBandwidthGBps, false);
    const json& wrong = detail::member(t, path, "nwrong");
    if (!wrong.is_null())
        out.wrong = wholeAt(wrong, path + ".nwrong", 0, std::uint64_t(1) << 62);
    // algbw = size / time (bytes per microsecond / 1e3 = GB/s)
    const double algbw = static_cast<double>(bytes) / out.timeUs / 1e3;
    if (!agrees(out.algbwGBps, algbw))
        failAt(path + ".alg_bw", Message("error.says.nccl_tests_algbw")
                                     .with("algbw", alg.dump())
                                     .with("size", std::to_string(bytes))
                                     .with("time", figure(out.timeUs))
                                     .with("computed", figure(algbw)));
    // busbw = algbw x busBandwidthFactor (nccl-tests doc/PERFORMANCE.md), of the file's own algbw
    const double factor = busBandwidthFactor(kind, ranks);
    const double busbw = out.algbwGBps * factor;
    if (!agrees(out.busbwGBps, busbw))
        failAt(path + ".bus_bw", Message("error.says.nccl_tests_busbw")
                                     .with("busbw", bus.dump())
                                     .with("algbw", figure(out.algbwGBps))
                                     .with("factor", figure(factor))
                                     .with("collective", std::string(opName(kind)))
                                     .with("ranks", ranks)
                                     .with("computed", figure(busbw)));
    return out;
}

int rootAt(const json& v, const std::string& path, int ranks)
{
    long long root = 0;
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        const size_t first = s.find_first_not_of(' ');
        const char* begin = s.c_str() + (first == std::string::npos ? s.size() : first);
        char* end = nullptr;
        root = std::strtoll(begin, &end, 10);
        if (end == begin || *end != '\0' || s.size() > 24)
            failAt(path, Message("error.json.unknown_value")
                             .with("value", shown(s))
                             .with("expected", Message("error.expected.rank")));
    } else if (v.is_number_integer()) {
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(ranks))
            failAt(path, Message("error.json.out_of_range")
                             .with("value", v.dump())
                             .with("expected", sweepRange("-1", std::to_string(ranks - 1))));
        root = v.get<long long>();
    } else {
        failAt(path, detail::foundInstead(v, Message("error.expected.rank")));
    }
    if (root < -1 || root >= ranks)
        failAt(path, Message("error.json.out_of_range")
                         .with("value", std::to_string(root))
                         .with("expected", sweepRange("-1", std::to_string(ranks - 1))));
    return static_cast<int>(root);
}

NcclTestsRow rowAt(const json& r, const std::string& path, const ProgramInfo& program, int ranks)
{
    if (!r.is_object())
        failAt(path, detail::foundInstead(r, Message("error.expected.object")));
    NcclTestsRow row;
    const json& size = detail::member(r, path, "size");
    row.bytes = wholeAt(size, path + ".size", 1, kMaxBytes);
    row.count = wholeAt(detail::member(r, path, "count"), path + ".count", 1, kMaxBytes);
    const std::string type = detail::stringAt(detail::member(r, path, "type"), path + ".type");
    const TypeInfo* info = nullptr;
    for (const TypeInfo& t : kTypes)
        if (type == t.name)
            info = &t;
    if (!info)
        failAt(path + ".type", Message("error.json.unknown_value")
                                   .with("value", shown(type))
                                   .with("expected", choices(kTypes, [](const TypeInfo& t) { return t.name; })));
    row.type = info->name;
    const Bytes perRank = row.count * info->bytes; // count <= 2^50, bytes <= 8: no overflow
    if (program.countPerRank && perRank > kMaxBytes / static_cast<Bytes>(ranks)) {
        const Bytes most = kMaxBytes / static_cast<Bytes>(ranks) / info->bytes;
        failAt(path + ".count", Message("error.json.out_of_range")
                                    .with("value", std::to_string(row.count))
                                    .with("expected", sweepRange("1", std::to_string(most))));
    }
    const Bytes expected = program.countPerRank ? perRank * static_cast<Bytes>(ranks) : perRank;
    if (row.bytes != expected) {
        Message made(program.countPerRank ? "error.says.nccl_tests_size_per_rank" : "error.says.nccl_tests_size");
        made.arg("size", std::to_string(row.bytes));
        made.arg("count", std::to_string(row.count));
        made.arg("type", row.type);
        made.arg("word", std::to_string(info->bytes));
        if (program.countPerRank)
            made.arg("ranks", ranks);
        made.arg("computed", std::to_string(expected));
        failAt(path + ".size", std::move(made));
    }
    const std::string redop = detail::stringAt(detail::member(r, path, "redop"), path + ".redop");
    bool known = false;
    for (const char* op : kRedops)
        known = known || redop == op;
    if (!known)
        failAt(path + ".redop", Message("error.json.unknown_value")
                                    .with("value", shown(redop))
                                    .with("expected", choices(kRedops, [](const char* op) { return op; })));
    row.redop = redop;
    row.root = rootAt(detail::member(r, path, "root"), path + ".root", ranks);
    const json& outOfPlace = detail::member(r, path, "out_of_place");
    if (!outOfPlace.is_null())
        row.outOfPlace = timingAt(outOfPlace, path + ".out_of_place", row.bytes, program.kind, ranks);
    row.inPlace = timingAt(detail::member(r, path, "in_place"), path + ".in_place", row.bytes, program.kind, ranks);
    return row;
}

int ranksOf(const json& doc, NcclTestsSweep& sweep)
{
    const json& config = detail::member(doc, "$", "config");
    const json& devices = detail::arrayAt(detail::member(config, "$.config", "devices"), "$.config.devices");
    if (devices.empty())
        failAt("$.config.devices", Message("error.json.empty").with("expected", Message("error.expected.one_rank")));
    if (devices.size() > static_cast<size_t>(kMaxRanks))
        failAt("$.config.devices", Message("error.json.out_of_range")
                                       .with("value", std::to_string(devices.size()) + " ranks")
                                       .with("expected", sweepRange("1", std::to_string(kMaxRanks))));
    for (size_t i = 0; i < devices.size(); ++i) {
        const std::string path = "$.config.devices[" + std::to_string(i) + "]";
        const long long rank =
            detail::integerAt(detail::member(devices[i], path, "rank"), path + ".rank", 0, kMaxRanks);
        if (rank != static_cast<long long>(i))
            failAt(path + ".rank", Message("error.says.nccl_tests_rank_order")
                                       .with("rank", std::to_string(rank))
                                       .with("index", std::to_string(i)));
        // NCCL_TESTS_SPLIT: several communicators, whose busbw factor is of their own size and whose
        // figures nccl-tests gathers across them; one sweep here is one communicator's
        if (const json* group = optionalMember(devices[i], "group"); group && !group->is_null()) {
            const long long g = detail::integerAt(*group, path + ".group", 0, kMaxRanks);
            if (g != 0)
                failAt(path + ".group", Message("error.says.nccl_tests_groups")
                                            .with("group", std::to_string(g))
                                            .with("variable", "NCCL_TESTS_SPLIT"));
        }
    }
    // the GPU model only: host names and process ids stay in the file
    if (const json* info = optionalMember(devices[0], "device_info"); info && info->is_string())
        sweep.gpu = shown(info->get<std::string>());
    if (const json* v = optionalMember(config, "iterations"))
        sweep.iterations = static_cast<int>(detail::integerAt(*v, "$.config.iterations", 0, 1000000000));
    if (const json* v = optionalMember(config, "warmup_iters"))
        sweep.warmupIterations = static_cast<int>(detail::integerAt(*v, "$.config.warmup_iters", 0, 1000000000));
    return static_cast<int>(devices.size());
}

NcclTestsSweep sweepOf(const json& doc, const std::string& origin)
{
    if (!doc.is_object())
        failAt("$", detail::foundInstead(doc, Message("error.expected.object")));
    const json& version = detail::member(doc, "$", "version");
    if (!version.is_number_integer() || version.get<long long>() != kNcclTestsJsonVersion)
        failAt("$.version", Message("error.says.version")
                                .with("version", shown(version.dump()))
                                .with("supported", std::to_string(kNcclTestsJsonVersion)));
    NcclTestsSweep sweep;
    sweep.origin = origin;
    const ProgramInfo& program = programOf(doc);
    sweep.program = program.program;
    sweep.kind = program.kind;
    sweep.ranks = ranksOf(doc, sweep);
    if (const json* v = optionalMember(doc, "nccl_version"))
        sweep.ncclVersion = static_cast<int>(detail::integerAt(*v, "$.nccl_version", 0, 99999999));
    const json& results = detail::arrayAt(detail::member(doc, "$", "results"), "$.results");
    if (results.empty())
        failAt("$.results", Message("error.json.empty").with("expected", Message("error.expects.nccl_tests_sizes")));
    if (results.size() > kMaxRows)
        failAt("$.results", Message("error.json.out_of_range")
                                .with("value", std::to_string(results.size()) + " rows")
                                .with("expected", sweepRange("1", std::to_string(kMaxRows))));
    for (size_t i = 0; i < results.size(); ++i)
        sweep.rows.push_back(rowAt(results[i], "$.results[" + std::to_string(i) + "]", program, sweep.ranks));
    if (const json* avg = optionalMember(doc, "average_bus_bandwidth"); avg && !avg->is_null()) {
        const json& bw = detail::member(*avg, "$.average_bus_bandwidth", "bandwidth");
        const double fileAvg = figureAt(bw, "$.average_bus_bandwidth.bandwidth", kMaxBandwidthGBps, false);
        const double mean = averageBusBandwidth(sweep);
        size_t figures = 0;
        for (const NcclTestsRow& r : sweep.rows)
            figures += r.outOfPlace ? 2 : 1;
        if (!agrees(fileAvg, mean))
            failAt("$.average_bus_bandwidth.bandwidth", Message("error.says.nccl_tests_average")
                                                            .with("value", bw.dump())
                                                            .with("figures", std::to_string(figures))
                                                            .with("computed", figure(mean)));
        sweep.fileAverageBusbwGBps = fileAvg;
    }
    return sweep;
}

// nlohmann's words for a syntax error, without the "last read: '...'" it quotes: that is text of
// the file, which may be a piece of the `env` array.
std::string parserWords(const std::string& what)
{
    std::string w = what;
    if (const auto p = w.find("syntax error"); p != std::string::npos)
        w = w.substr(p);
    if (const auto p = w.find("; last read"); p != std::string::npos)
        w.resize(p);
    return w;
}

// "ORIGIN: $: what" (error.at).
Message atRoot(const std::string& origin, Message what)
{
    return Message("error.at").with("origin", origin).with("path", "$").with("what", std::move(what));
}

} // namespace

Result<NcclTestsSweep> parseNcclTestsJson(std::string_view text, const std::string& origin)
{
    const std::string copy(text);
    if (Message problem = detail::jsonShapeMessage(copy); !problem.empty()) {
        if (problem.id == "error.file.not_json")
            return badInput(atRoot(origin, Message("error.says.nccl_tests_not_json")));
        return badInput(atRoot(origin, std::move(problem)));
    }
    json doc;
    try {
        doc = detail::parseJsonStrict(copy);
    } catch (const JsonPathError& e) {
        return detail::errorAt(origin, e);
    } catch (const json::out_of_range& e) {
        return badInput(atRoot(origin, Message("error.file.number_too_large").with("parser", std::string(e.what()))));
    } catch (const json::exception& e) {
        size_t line = 1, column = 1;
        const json::parse_error* pe = dynamic_cast<const json::parse_error*>(&e);
        const size_t upto = std::min<size_t>(pe && pe->byte > 0 ? pe->byte - 1 : 0, copy.size());
        for (size_t i = 0; i < upto; ++i) {
            if (copy[i] == '\n') {
                ++line;
                column = 1;
            } else
                ++column;
        }
        return badInput(atRoot(origin, Message("error.file.invalid_json")
                                           .with("line", std::to_string(line))
                                           .with("column", std::to_string(column))
                                           .with("parser", parserMessage(parserWords(e.what())))));
    }
    try {
        return sweepOf(doc, origin);
    } catch (const JsonPathError& e) {
        return detail::errorAt(origin, e);
    } catch (const json::exception& e) { // a number nlohmann cannot convert: refused, never shown
        return badInput(atRoot(origin, Message("error.file.number_too_large").with("parser", parserWords(e.what()))));
    }
}

double averageBusBandwidth(const NcclTestsSweep& sweep)
{
    double sum = 0;
    size_t n = 0;
    for (const NcclTestsRow& r : sweep.rows) {
        if (r.outOfPlace) {
            sum += r.outOfPlace->busbwGBps;
            ++n;
        }
        sum += r.inPlace.busbwGBps;
        ++n;
    }
    return n ? sum / static_cast<double>(n) : 0;
}

std::string ncclVersionText(int code)
{
    if (code <= 0)
        return {};
    // NCCL_VERSION(X,Y,Z): X*10000 + Y*100 + Z from 2.9, X*1000 + Y*100 + Z before
    const bool modern = code >= 20900;
    const int major = modern ? code / 10000 : code / 1000;
    const int minor = modern ? code / 100 % 100 : code / 100 % 10;
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

std::vector<Bytes> sweepSizes(const NcclTestsSweep& sweep)
{
    std::vector<Bytes> sizes;
    for (const NcclTestsRow& r : sweep.rows)
        sizes.push_back(r.bytes);
    return sizes;
}

} // namespace shardlab

// nccl-tests' JSON output read back (engine/import nccl_tests.h) on the two real files of
// tests/import/data/nccl_tests (all_reduce_perf -b 1M -e 64M -f 4 on 2 and 4 ranks sharing one
// H200 over sockets; README.md there), the sweep view beside a simulation, the `env` array kept out
// of everything, and every refusal of a damaged file, in English and Chinese.
#include "shardlab/analysis/sweep.h"
#include "shardlab/import/import_job.h"
#include "shardlab/import/input_file.h"
#include "shardlab/import/nccl_tests.h"
#include "shardlab/model/presets.h"
#include "shardlab/text/foreign_text.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

namespace shardlab {
namespace {

const std::filesystem::path kData = std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/import/data/nccl_tests";
constexpr Bytes MiB = 1024 * 1024;

std::string sampleText(int ranks)
{
    auto text = readInputText(kData / ("all_reduce_perf_" + std::to_string(ranks) + "ranks.json"));
    EXPECT_TRUE(text) << text.error().message;
    return text ? *text : std::string();
}

NcclTestsSweep sample(int ranks)
{
    auto sweep = parseNcclTestsJson(sampleText(ranks), "all_reduce_perf_" + std::to_string(ranks) + "ranks.json");
    EXPECT_TRUE(sweep) << sweep.error().message;
    return sweep ? *sweep : NcclTestsSweep{};
}

// The last refusal refusal() below saw, for expectWorded(text) and chineseOf(text).
Error g_lastRefusal;

// Chinese with no English but the file's own names, no placeholder or id left; English its Message's.
void expectWorded(const Error& error, const std::vector<std::string>& names = {})
{
    const std::string& english = error.message;
    SCOPED_TRACE(english);
    EXPECT_FALSE(error.what.empty());
    EXPECT_EQ(worded(error, Language::English), english);
    const std::string zh = worded(error, Language::Chinese);
    EXPECT_NE(zh, english);
    static const std::regex leftover(R"(\[[a-z_]+\.[a-z_.]+\]|\{[a-z_0-9]+\})");
    EXPECT_FALSE(std::regex_search(zh, leftover)) << zh;
    std::vector<std::string> allowed = {"f.json", "nccl-tests", "ShardLab", "GB/s", "us", "float", "all_reduce"};
    allowed.insert(allowed.end(), names.begin(), names.end());
    // the JSON path stays as the file spells it ("$.results[1].in_place.time")
    static const std::regex path(R"(\$[^ ：]*)");
    const auto left = untranslatedWords(std::regex_replace(zh, path, "$$"), allowed);
    EXPECT_TRUE(left.empty()) << zh << " has English: " << left.front();
}

// The same for the refusal refusal() returned last, given by its English.
void expectWorded(const std::string& english, const std::vector<std::string>& names = {})
{
    ASSERT_EQ(english, g_lastRefusal.message) << "expectWorded(text) is for the last refusal";
    expectWorded(g_lastRefusal, names);
}

// The last refusal, given by its English, in Chinese.
std::string chineseOf(const std::string& english)
{
    EXPECT_EQ(english, g_lastRefusal.message) << "chineseOf(text) is for the last refusal";
    return worded(g_lastRefusal, Language::Chinese);
}

// Issue 26: an error born a Message says in both languages exactly what the catalogue's templates
// made of its English.
void expectSaysItsEnglish(const Error& e)
{
    SCOPED_TRACE(e.message);
    EXPECT_EQ(english(e.what), e.message);
    EXPECT_FALSE(e.what.empty());
}

TEST(NcclTests, BothSamplesReadAsAllReduceSweepsOfFourSizes)
{
    for (int ranks : {2, 4}) {
        SCOPED_TRACE(ranks);
        const NcclTestsSweep s = sample(ranks);
        EXPECT_EQ(s.program, "all_reduce_perf");
        EXPECT_EQ(s.kind, OpKind::AllReduce);
        EXPECT_EQ(s.ranks, ranks); // config.devices lists one entry per rank
        EXPECT_EQ(s.gpu, "NVIDIA H200");
        EXPECT_EQ(s.ncclVersion, 22809);
        EXPECT_EQ(ncclVersionText(s.ncclVersion), "2.28.9");
        EXPECT_EQ(s.iterations, 20);
        EXPECT_EQ(s.warmupIterations, 1);
        ASSERT_EQ(s.rows.size(), 4u);
        const Bytes sizes[] = {1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB}; // -b 1M -e 64M -f 4
        for (size_t i = 0; i < 4; ++i) {
            const NcclTestsRow& r = s.rows[i];
            EXPECT_EQ(r.bytes, sizes[i]);
            EXPECT_EQ(r.count, sizes[i] / 4); // floats
            EXPECT_EQ(r.type, "float");
            EXPECT_EQ(r.redop, "sum");
            EXPECT_EQ(r.root, -1);
            ASSERT_TRUE(r.outOfPlace);
            ASSERT_TRUE(r.outOfPlace->wrong);
            ASSERT_TRUE(r.inPlace.wrong);
            EXPECT_EQ(*r.outOfPlace->wrong, 0u); // #wrong 0 in the tool's stdout (.txt)
            EXPECT_EQ(*r.inPlace.wrong, 0u);
        }
    }
    // two figures as the file has them: 2 ranks, 1 MiB out of place: 4521.434250 us, 0.231912 GB/s;
    // 4 ranks, 64 MiB in place: 108687.2488 us, busbw 0.926174 GB/s
    EXPECT_DOUBLE_EQ(sample(2).rows[0].outOfPlace->timeUs, 4521.434250);
    EXPECT_DOUBLE_EQ(sample(2).rows[0].outOfPlace->algbwGBps, 0.231912);
    EXPECT_DOUBLE_EQ(sample(4).rows[3].inPlace.timeUs, 108687.2488);
    EXPECT_DOUBLE_EQ(sample(4).rows[3].inPlace.busbwGBps, 0.926174);
}

TEST(NcclTests, TheToolsAverageBusBandwidthIsTheMeanOfEveryBusbw)
{
    // 2 ranks: (0.231912 + 0.231532 + 0.922590 + 0.922392 + 1.848386 + 1.848590 + 1.857599 + 1.840703) / 8
    //        = 9.703704 / 8 = 1.212963 (the file's average_bus_bandwidth; "1.21 GB/s" in README.md)
    // 4 ranks: (0.058109 + 0.058104 + 0.232311 + 0.232297 + 0.927362 + 0.927111 + 0.927978 + 0.926174) / 8
    //        = 4.289446 / 8 = 0.536181 (rounded; the file's 0.536181, "0.54 GB/s")
    const NcclTestsSweep two = sample(2), four = sample(4);
    EXPECT_NEAR(averageBusBandwidth(two), 1.212963, 1e-6);
    EXPECT_NEAR(averageBusBandwidth(four), 0.536181, 1e-6);
    ASSERT_TRUE(two.fileAverageBusbwGBps);
    ASSERT_TRUE(four.fileAverageBusbwGBps);
    EXPECT_DOUBLE_EQ(*two.fileAverageBusbwGBps, 1.212963);
    EXPECT_DOUBLE_EQ(*four.fileAverageBusbwGBps, 0.536181);
    EXPECT_EQ(number("%.2f", averageBusBandwidth(two)), "1.21");
    EXPECT_EQ(number("%.2f", averageBusBandwidth(four)), "0.54");
}

TEST(NcclTests, EachRowsBusbwIsItsAlgbwTimesOurAllReduceFactor)
{
    // all-reduce: busbw = algbw x 2(n-1)/n: n = 2 -> 2*1/2 = 1; n = 4 -> 2*3/4 = 1.5
    EXPECT_DOUBLE_EQ(busBandwidthFactor(OpKind::AllReduce, 2), 1.0);
    EXPECT_DOUBLE_EQ(busBandwidthFactor(OpKind::AllReduce, 4), 1.5);
    // e.g. 4 ranks, 16 MiB out of place: 0.618241 x 1.5 = 0.9273615, the file's 0.927362; and
    // algbw = size / time = 16777216 B / 27136.999625 us = 618.2414 B/us = 0.618241 GB/s.
    // The file's figures have 6 decimals and nccl-tests multiplies the unrounded algbw: within
    // 0.5e-6 + 1.5 x 0.5e-6 = 1.25e-6.
    for (int ranks : {2, 4}) {
        const NcclTestsSweep s = sample(ranks);
        const double factor = ranks == 2 ? 1.0 : 1.5;
        for (const NcclTestsRow& r : s.rows)
            for (const NcclTestsTiming& t : {*r.outOfPlace, r.inPlace}) {
                SCOPED_TRACE(std::to_string(ranks) + " ranks, " + std::to_string(r.bytes) + " B");
                EXPECT_NEAR(t.busbwGBps, t.algbwGBps * factor, 1.25e-6);
                EXPECT_NEAR(t.algbwGBps, static_cast<double>(r.bytes) / t.timeUs / 1e3, 1e-6);
            }
    }
}

TEST(NcclTests, ImportFilesReadsOneFileAsASweepAndRefusesTwo)
{
    auto job = importFiles({kData / "all_reduce_perf_4ranks.json"});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->format, ImportFormat::NcclTests);
    ASSERT_TRUE(job->sweep);
    EXPECT_EQ(job->sweep->ranks, 4);
    EXPECT_EQ(job->sweep->rows.size(), 4u);
    EXPECT_EQ(job->run.ranks, 0); // no run: a sweep
    const std::string first = (kData / "all_reduce_perf_2ranks.json").string();
    const std::string second = (kData / "all_reduce_perf_4ranks.json").string();
    auto two = importFiles({first, second});
    ASSERT_FALSE(two);
    EXPECT_EQ(two.error().message,
              second + ": an nccl-tests file holds one whole sweep; import " + first + " and this file one at a time");
    expectWorded(two.error(), {first, second});
    EXPECT_FALSE(two.error().what.empty());
    expectSaysItsEnglish(two.error());
}

// ---- the view ----

TEST(NcclTestsView, TheTableHoldsBothHalvesOfEveryRowAsNcclTestsPrintsThem)
{
    auto text = renderImportedSweep(sample(2), "", false);
    ASSERT_TRUE(text) << text.error().message;
    // 1 MiB: out of place 4521.43 us 0.23 0.23 GB/s 0 wrong, in place 4528.85 us (the .txt's row)
    EXPECT_NE(text->find("       1048576       262144  float    sum    -1    4521.43     0.23     0.23      0"
                         "    4528.85     0.23     0.23      0\n"),
              std::string::npos)
        << *text;
    EXPECT_NE(text->find("   67108864     16777216  float    sum    -1   36126.67     1.86     1.86      0"
                         "   36458.28     1.84     1.84      0\n"),
              std::string::npos)
        << *text;
    EXPECT_NE(text->find("# collective all_reduce (all_reduce_perf), 2 ranks; busbw = algbw x 1 "), std::string::npos)
        << *text;
    EXPECT_NE(text->find("# measured with NCCL 2.28.9, NVIDIA H200, 20 timed calls per size after 1 warm-up\n"),
              std::string::npos)
        << *text;
    EXPECT_NE(text->find("# avg bus bandwidth: 1.21 GB/s measured"), std::string::npos) << *text;
    EXPECT_EQ(text->find("simulated"), std::string::npos) << *text;
    EXPECT_EQ(text->find("wrong results"), std::string::npos) << *text;
    EXPECT_EQ(text->find(" \n"), std::string::npos) << "a line ends in a space:\n" << *text;
}

TEST(NcclTestsView, BesideAPresetEachRowHasTheSimulationOfTheSameSize)
{
    const NcclTestsSweep s = sample(4);
    auto text = renderImportedSweep(s, "h200-nv18-4", true);
    ASSERT_TRUE(text) << text.error().message;
    const auto doc = nlohmann::json::parse(*text);
    EXPECT_EQ(doc["collective"], "all_reduce");
    EXPECT_EQ(doc["ranks"], 4);
    EXPECT_EQ(doc["busbw_factor"], 1.5);
    ASSERT_EQ(doc["rows"].size(), 4u);
    EXPECT_DOUBLE_EQ(doc["rows"][3]["in_place"]["time_us"].get<double>(), 108687.2488);
    EXPECT_EQ(doc["rows"][3]["in_place"]["wrong"], 0);
    EXPECT_NEAR(doc["average_busbw_gbps"].get<double>(), 0.536181, 1e-6);
    // the simulation: simulateSweep on the preset's first 4 GPUs, the same sizes
    const std::vector<Bytes> sizes = {1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB};
    CostModel model(preset("h200-nv18-4")->firstGpus(4));
    const auto rows = simulateSweep(model, OpKind::AllReduce, 4, sizes);
    for (size_t i = 0; i < 4; ++i) {
        const auto& sim = doc["rows"][i]["simulated"];
        EXPECT_EQ(sim["size"], sizes[i]);
        EXPECT_DOUBLE_EQ(sim["time_us"].get<double>(), rows[i].timeUs);
        // NVLink: far faster than the file's sockets on the loopback
        EXPECT_LT(sim["time_us"].get<double>(), doc["rows"][i]["in_place"]["time_us"].get<double>() / 10);
        EXPECT_NEAR(sim["busbw_gbps"].get<double>(), sim["algbw_gbps"].get<double>() * 1.5, 1e-9);
    }
    auto table = renderImportedSweep(s, "h200-nv18-4", false);
    ASSERT_TRUE(table) << table.error().message;
    EXPECT_NE(table->find("beside ShardLab's simulation on"), std::string::npos) << *table;
    char row[128];
    std::snprintf(row, sizeof row, " %10.2f %8.2f %8.2f  ", rows[0].timeUs, rows[0].algbwGBps, rows[0].busbwGBps);
    EXPECT_NE(table->find(std::string("   27069.69     0.04     0.06      0") + row), std::string::npos) << *table;
}

TEST(NcclTestsView, ASizeTheSimulationRoundsIsMarked)
{
    // 1 MiB + 1 byte of int8: simulateSweep times whole 4-byte elements (roundBenchSize), so 1048576 B.
    // algbw = 1048577 B / 4521.43425 us = 0.2319125 GB/s: the file's 0.231912 still agrees.
    auto doc = nlohmann::json::parse(sampleText(2));
    doc["results"][0]["type"] = "int8";
    doc["results"][0]["count"] = 1048577;
    doc["results"][0]["size"] = 1048577;
    auto s = parseNcclTestsJson(doc.dump(), "r.json");
    ASSERT_TRUE(s) << s.error().message;
    auto text = renderImportedSweep(*s, "h200-nv18-4", false);
    ASSERT_TRUE(text) << text.error().message;
    const size_t first = text->find("\n       1048577");
    ASSERT_NE(first, std::string::npos) << *text;
    const std::string row = text->substr(first + 1, text->find('\n', first + 1) - first - 1);
    EXPECT_NE(row.find("(simulated at 1048576 B: whole 4-byte elements)"), std::string::npos) << row;
    EXPECT_EQ(text->find("simulated at 4194304"), std::string::npos) << *text;
}

TEST(NcclTestsView, TheEnvironmentAndTheCommandLineAreNowhere)
{
    // the file holds them (so this test can fail)...
    const std::string raw = sampleText(4);
    ASSERT_NE(raw.find("NCCL_HOSTID"), std::string::npos);
    ASSERT_NE(raw.find("LD_LIBRARY_PATH"), std::string::npos);
    // ...and no output of the sweep does
    const NcclTestsSweep s = sample(4);
    std::vector<std::string> outputs;
    for (const std::string& id : {std::string(), std::string("h200-nvswitch-8")})
        for (bool json : {false, true})
            for (Language language : {Language::English, Language::Chinese}) {
                auto text = renderImportedSweep(s, id, json, language);
                ASSERT_TRUE(text) << text.error().message;
                outputs.push_back(*text);
            }
    for (const std::string& out : outputs)
        for (const char* secret : {"NCCL_HOSTID", "LD_LIBRARY_PATH", "OMPI_COMM_WORLD", "site-packages",
                                   "/tmp/import_samples", "build-mpi", "\"env\"", "hostname"})
            EXPECT_EQ(out.find(secret), std::string::npos) << secret << " in\n" << out;
}

TEST(NcclTestsView, TheChineseTableKeepsOnlyNcclTestsOwnWords)
{
    auto zh = renderImportedSweep(sample(2), "h200-nvswitch-8", false, Language::Chinese);
    ASSERT_TRUE(zh) << zh.error().message;
    EXPECT_NE(zh->find("平均总线带宽"), std::string::npos) << *zh;
    std::vector<std::string> names = ncclTestsTableWords();
    for (const char* w : {"out-of-place", "in-place", "nccl-tests", "all_reduce_perf", "all_reduce_perf_2ranks.json",
                          "doc/PERFORMANCE.md", "NVIDIA", "H200", "ShardLab", "Ring/LL", "Ring/LL128", "Ring/Simple",
                          "NVLS/Simple", "Tree/LL", "Tree/Simple", "Tree/LL128", "default"})
        names.push_back(w);
    // the machine's name, as the preset gives it
    names.push_back(preset("h200-nvswitch-8")->firstGpus(2).name);
    const auto left = untranslatedWords(*zh, names);
    EXPECT_TRUE(left.empty()) << *zh << "\nhas English: " << left.front();
}

TEST(NcclTestsView, WrongResultsAreCounted)
{
    auto doc = nlohmann::json::parse(sampleText(2));
    doc["results"][2]["in_place"]["nwrong"] = 12.0;
    auto s = parseNcclTestsJson(doc.dump(), "w.json");
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(*s->rows[2].inPlace.wrong, 12u);
    auto text = renderImportedSweep(*s, "", false);
    ASSERT_TRUE(text);
    EXPECT_NE(text->find("# 1 of 4 sizes have wrong results (#wrong above 0)"), std::string::npos) << *text;
}

// ---- refusals: each names the file and the place, in English and in Chinese ----

// The refusal's English; where it was born a Message, checked to say the same in both languages.
std::string refusal(const std::string& text, bool* bornAsMessage = nullptr)
{
    auto s = parseNcclTestsJson(text, "f.json");
    EXPECT_FALSE(s);
    if (s)
        return std::string();
    if (!s.error().what.empty())
        expectSaysItsEnglish(s.error());
    if (bornAsMessage)
        *bornAsMessage = !s.error().what.empty();
    g_lastRefusal = s.error();
    return s.error().message;
}

// The 2-rank sample changed by `edit`, written back as JSON.
template <class Edit>
std::string edited(Edit edit)
{
    auto doc = nlohmann::ordered_json::parse(sampleText(2));
    edit(doc);
    return doc.dump();
}

TEST(NcclTestsRefusals, NotJsonAndBrokenJson)
{
    const std::string notJson = refusal("# nccl-tests version 2.19.6\n#  Rank  0 ...");
    EXPECT_EQ(notJson, "f.json: $: not nccl-tests JSON output (-J): it does not start like a JSON object");
    expectWorded(notJson, {"JSON", "-J"});
    EXPECT_EQ(refusal(""), "f.json: $: the file is empty");
    // cut short inside `env`: the parser's "last read" would quote the secret; it must not
    const std::string raw = sampleText(2);
    const std::string cut = raw.substr(0, raw.find("NCCL_SOCKET_IFNAME=lo") + 12);
    const std::string broken = refusal(cut);
    EXPECT_EQ(broken.rfind("f.json: $: not valid JSON at line 1, column ", 0), 0u) << broken;
    EXPECT_EQ(broken.find("NCCL_SOCKET"), std::string::npos) << broken;
    EXPECT_EQ(broken.find("last read"), std::string::npos) << broken;
    EXPECT_NE(chineseOf(broken).find("不是有效的 JSON"), std::string::npos) << chineseOf(broken);
    const std::string twice = refusal(R"({"version":3,"version":3})");
    EXPECT_EQ(twice, "f.json: $.version: given twice");
    expectWorded(twice);
}

TEST(NcclTestsRefusals, AnotherVersionSaysWhichOneIsRead)
{
    const std::string e = refusal(edited([](auto& d) { d["version"] = 2; }));
    EXPECT_EQ(e, "f.json: $.version: version 2 (this ShardLab reads version 3)");
    expectWorded(e);
}

TEST(NcclTestsRefusals, MissingFields)
{
    const std::string results = refusal(edited([](auto& d) { d.erase("results"); }));
    EXPECT_EQ(results, "f.json: $.results: missing");
    expectWorded(results);
    const std::string time = refusal(edited([](auto& d) { d["results"][1]["in_place"].erase("time"); }));
    EXPECT_EQ(time, "f.json: $.results[1].in_place.time: missing");
    expectWorded(time);
    const std::string devices = refusal(edited([](auto& d) { d["config"].erase("devices"); }));
    EXPECT_EQ(devices, "f.json: $.config.devices: missing");
    expectWorded(devices);
    const std::string none = refusal(edited([](auto& d) { d["results"] = nlohmann::ordered_json::array(); }));
    EXPECT_EQ(none, "f.json: $.results: empty (expected at least one measured size)");
    expectWorded(none);
    const std::string args = refusal(edited([](auto& d) { d["args"] = nlohmann::ordered_json::array(); }));
    EXPECT_EQ(args, "f.json: $.args: empty (expected the command line that ran the test)");
    expectWorded(args);
    const std::string type = refusal(edited([](auto& d) { d["results"][0]["size"] = "1M"; }));
    EXPECT_EQ(type, "f.json: $.results[0].size: found a string (expected a number)");
    expectWorded(type);
}

TEST(NcclTestsRefusals, ImpossibleFigures)
{
    const std::string negative = refusal(edited([](auto& d) { d["results"][1]["out_of_place"]["time"] = -4546.2; }));
    EXPECT_EQ(negative, "f.json: $.results[1].out_of_place.time: -4546.2 is negative (expected a positive number)");
    expectWorded(negative);
    const std::string nan = refusal(edited([](auto& d) { d["results"][0]["in_place"]["time"] = "nan"; }));
    EXPECT_EQ(nan, "f.json: $.results[0].in_place.time: not a finite number");
    expectWorded(nan);
    const std::string zero = refusal(edited([](auto& d) { d["results"][0]["size"] = 0; }));
    EXPECT_EQ(zero, "f.json: $.results[0].size: zero (expected a positive number)");
    expectWorded(zero);
    const std::string size = refusal(edited([](auto& d) { d["results"][0]["size"] = 1048580; }));
    EXPECT_EQ(
        size,
        "f.json: $.results[0].size: 1048580 bytes, but 262144 elements of float (4 bytes each) make 1048576 bytes");
    expectWorded(size);
    const std::string half = refusal(edited([](auto& d) { d["results"][0]["count"] = 131072.5; }));
    EXPECT_EQ(half, "f.json: $.results[0].count: 131072.5 is not a whole number");
    expectWorded(half);
    const std::string wrong = refusal(edited([](auto& d) { d["results"][3]["in_place"]["nwrong"] = -1.0; }));
    EXPECT_EQ(wrong, "f.json: $.results[3].in_place.nwrong: -1.0 is negative (expected 0 or more)");
    expectWorded(wrong);
    const std::string root = refusal(edited([](auto& d) { d["results"][0]["root"] = "     7"; }));
    EXPECT_EQ(root, "f.json: $.results[0].root: 7 is out of range (expected -1 to 1)");
    expectWorded(root);
    const std::string cpu = refusal(edited([](auto& d) {
        auto& t = d["results"][0]["out_of_place"];
        t["cpu_time"] = t["time"];
        t.erase("time");
    }));
    EXPECT_EQ(
        cpu,
        "f.json: $.results[0].out_of_place.cpu_time: a CPU time (nccl-tests -C 1): ShardLab reads the GPU times that "
        "nccl-tests writes by default");
    expectWorded(cpu, {"-C"});
    const std::string order = refusal(edited([](auto& d) { d["config"]["devices"][1]["rank"] = 0; }));
    EXPECT_EQ(
        order,
        "f.json: $.config.devices[1].rank: rank 0 where rank 1 belongs (nccl-tests lists the devices in rank order)");
    expectWorded(order);
    const std::string groups = refusal(edited([](auto& d) { d["config"]["devices"][1]["group"] = 1; }));
    EXPECT_EQ(groups,
              "f.json: $.config.devices[1].group: group 1: the ranks ran in several communicators (NCCL_TESTS_SPLIT); "
              "ShardLab reads a sweep of one communicator");
    expectWorded(groups, {"NCCL_TESTS_SPLIT"});
}

TEST(NcclTestsRefusals, FiguresThatDisagreeWithEachOther)
{
    // busbw: 2 ranks, factor 2(2-1)/2 = 1, so busbw must equal algbw 0.922590
    const std::string bus = refusal(edited([](auto& d) { d["results"][1]["in_place"]["bus_bw"] = 1.38; }));
    EXPECT_EQ(bus,
              "f.json: $.results[1].in_place.bus_bw: 1.38 GB/s, but algbw 0.922392 GB/s x 1 (all_reduce on 2 ranks) is "
              "0.922392 GB/s");
    expectWorded(bus);
    // algbw: 1048576 B / 4521.43425 us = 0.231912 GB/s, not 2.31912
    const std::string alg = refusal(edited([](auto& d) { d["results"][0]["out_of_place"]["alg_bw"] = 2.31912; }));
    EXPECT_EQ(alg, "f.json: $.results[0].out_of_place.alg_bw: 2.31912 GB/s, but size / time = 1048576 B / 4521.43 us "
                   "is 0.231912 GB/s");
    expectWorded(alg);
    const std::string avg = refusal(edited([](auto& d) { d["average_bus_bandwidth"]["bandwidth"] = 1.5; }));
    EXPECT_EQ(avg, "f.json: $.average_bus_bandwidth.bandwidth: 1.5 GB/s, but the mean of the file's 8 busbw figures is "
                   "1.21296 GB/s");
    expectWorded(avg);
}

TEST(NcclTestsRefusals, UnknownCollectiveOrType)
{
    const std::string coll = refusal(edited([](auto& d) { d["args"][0] = "/opt/nccl-tests/build/alltoall_perf"; }));
    EXPECT_EQ(coll,
              "f.json: $.args[0]: 'alltoall_perf' (expected all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
              "broadcast_perf, reduce_perf or sendrecv_perf)");
    expectWorded(coll, {"alltoall_perf", "all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "broadcast_perf",
                        "reduce_perf", "sendrecv_perf"});
    // the folders before the program's name are not shown
    EXPECT_EQ(coll.find("/opt"), std::string::npos);
    const std::string type = refusal(edited([](auto& d) { d["results"][2]["type"] = "float128"; }));
    EXPECT_EQ(type, "f.json: $.results[2].type: 'float128' (expected int8, uint8, int32, uint32, int64, uint64, half, "
                    "float, double, "
                    "bfloat16, f8e4m3 or f8e5m2)");
    expectWorded(type, {"float128", "int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "double", "bfloat16",
                        "f8e4m3", "f8e5m2"});
    const std::string op = refusal(edited([](auto& d) { d["results"][2]["redop"] = "xor"; }));
    EXPECT_EQ(op, "f.json: $.results[2].redop: 'xor' (expected sum, prod, max, min, avg, mulsum or none)");
    expectWorded(op, {"xor", "sum", "prod", "max", "min", "avg", "mulsum", "none"});
}

TEST(NcclTestsRefusals, HugeNumbers)
{
    const std::string time = refusal(edited([](auto& d) { d["results"][0]["in_place"]["time"] = 1e300; }));
    EXPECT_EQ(time, "f.json: $.results[0].in_place.time: 1e+300 is out of range (expected 0 to 1e+12)");
    expectWorded(time);
    const std::string size = refusal(edited([](auto& d) { d["results"][0]["size"] = 18446744073709551615ull; }));
    EXPECT_EQ(size, "f.json: $.results[0].size: 18446744073709551615 is out of range (expected 1 to 1125899906842624)");
    expectWorded(size);
    // beyond a double: the text as written, read as infinity by the parser
    std::string text = sampleText(2);
    const std::string from = "\"time\":4521.434250";
    ASSERT_NE(text.find(from), std::string::npos);
    text.replace(text.find(from), from.size(), "\"time\":1e999");
    const std::string inf = refusal(text);
    EXPECT_TRUE(inf == "f.json: $.results[0].out_of_place.time: not a finite number"
                || inf.rfind("f.json: $: not valid JSON", 0) == 0
                || inf.rfind("f.json: $: a number in the file is out of range", 0) == 0)
        << inf;
    EXPECT_NE(chineseOf(inf), inf);
}

// Issue 26: the reader's refusals are born Messages (the nested "(expected ...)" phrases too: a wrong
// id, or a phrase left as text, words the Chinese otherwise than the templates did).
TEST(NcclTestsRefusals, AreBornMessagesThatSayWhatTheTemplatesSaid)
{
    const std::vector<std::string> texts = {
        "# nccl-tests version 2.19.6\n#  Rank  0 ...",
        edited([](auto& d) { d["version"] = 2; }),
        edited([](auto& d) { d["results"] = nlohmann::ordered_json::array(); }),
        edited([](auto& d) { d["args"] = nlohmann::ordered_json::array(); }),
        edited([](auto& d) { d["args"][0] = "alltoall_perf"; }),
        edited([](auto& d) { d["results"][2]["type"] = "float128"; }),
        edited([](auto& d) { d["results"][2]["redop"] = ""; }),
        edited([](auto& d) { d["results"][1]["out_of_place"]["time"] = -4546.2; }),
        edited([](auto& d) { d["results"][3]["in_place"]["nwrong"] = -1.0; }),
        edited([](auto& d) { d["results"][0]["size"] = 0; }),
        edited([](auto& d) { d["results"][0]["in_place"]["time"] = "nan"; }),
        edited([](auto& d) { d["results"][0]["in_place"]["time"] = 1e300; }),
        edited([](auto& d) { d["results"][0]["size"] = 18446744073709551615ull; }),
        edited([](auto& d) { d["results"][0]["size"] = 1048580; }),
        edited([](auto& d) { d["results"][0]["count"] = 131072.5; }),
        edited([](auto& d) { d["results"][0]["root"] = "     7"; }),
        edited([](auto& d) { d["results"][0]["root"] = "x"; }),
        edited([](auto& d) { d["results"][0]["root"] = true; }),
        edited([](auto& d) { d["results"][0] = 5; }),
        edited([](auto& d) { d["config"]["devices"] = nlohmann::ordered_json::array(); }),
        edited([](auto& d) { d["config"]["devices"][1]["rank"] = 0; }),
        edited([](auto& d) { d["config"]["devices"][1]["group"] = 1; }),
        edited([](auto& d) { d["results"][1]["in_place"]["bus_bw"] = 1.38; }),
        edited([](auto& d) { d["results"][0]["out_of_place"]["alg_bw"] = 2.31912; }),
        edited([](auto& d) { d["average_bus_bandwidth"]["bandwidth"] = 1.5; }),
        "[1, 2",
    };
    for (const std::string& text : texts) {
        bool born = false;
        const std::string e = refusal(text, &born);
        EXPECT_TRUE(born) << e;
    }
    // all_gather: the size is of every rank's count
    bool born = false;
    const std::string gathered = refusal(edited([](auto& d) {
                                             d["args"][0] = "all_gather_perf";
                                             d["results"][0]["count"] = 1;
                                         }),
                                         &born);
    EXPECT_TRUE(born) << gathered;
    EXPECT_NE(gathered.find("on each of 2 ranks make"), std::string::npos) << gathered;
}

TEST(NcclTestsRefusals, APresetTooSmallOrUnknown)
{
    // the 2-rank file as if 8 ranks had run it: 8 devices, busbw = algbw x 2*7/8 = 1.75
    const std::string eight = edited([](auto& d) {
        auto devices = nlohmann::ordered_json::array();
        for (int r = 0; r < 8; ++r)
            devices.push_back({{"rank", r}, {"device_info", "NVIDIA H200"}});
        d["config"]["devices"] = devices;
        double sum = 0;
        for (auto& row : d["results"])
            for (const char* half : {"out_of_place", "in_place"}) {
                row[half]["bus_bw"] = row[half]["alg_bw"].template get<double>() * 1.75;
                sum += row[half]["bus_bw"].template get<double>();
            }
        d["average_bus_bandwidth"]["bandwidth"] = sum / 8;
    });
    auto sweep = parseNcclTestsJson(eight, "f.json");
    ASSERT_TRUE(sweep) << sweep.error().message;
    EXPECT_EQ(sweep->ranks, 8);
    auto small = renderImportedSweep(*sweep, "h200-nv18-4", false);
    ASSERT_FALSE(small);
    EXPECT_EQ(small.error().message, "f.json: the sweep ran on 8 ranks, but preset h200-nv18-4 has 4 GPUs");
    EXPECT_FALSE(small.error().what.empty());
    expectSaysItsEnglish(small.error());
    expectWorded(small.error(), {"h200-nv18-4"});
    EXPECT_TRUE(renderImportedSweep(*sweep, "h200-nvswitch-8", false));
    auto unknown = renderImportedSweep(*sweep, "h300-nvswitch-99", false);
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("unknown preset 'h300-nvswitch-99'"), std::string::npos)
        << unknown.error().message;
    EXPECT_NE(worded(unknown.error(), Language::Chinese), unknown.error().message);
    // two files: the one-line refusal of importFiles, worded too
}

TEST(NcclTestsRefusals, SendRecvIsSimulatedBetweenTwoGpusOnly)
{
    // the 4-rank file as if sendrecv_perf had written it: busbw = algbw (factor 1)
    auto doc = nlohmann::ordered_json::parse(sampleText(4));
    doc["args"][0] = "sendrecv_perf";
    double sum = 0;
    for (auto& row : doc["results"])
        for (const char* half : {"out_of_place", "in_place"}) {
            row[half]["bus_bw"] = row[half]["alg_bw"];
            sum += row[half]["bus_bw"].get<double>();
        }
    doc["average_bus_bandwidth"]["bandwidth"] = sum / 8;
    auto sweep = parseNcclTestsJson(doc.dump(), "f.json");
    ASSERT_TRUE(sweep) << sweep.error().message;
    EXPECT_EQ(sweep->kind, OpKind::SendRecv);
    EXPECT_TRUE(renderImportedSweep(*sweep, "", false)); // the measured rows alone are shown
    auto sim = renderImportedSweep(*sweep, "h200-nv18-4", false);
    ASSERT_FALSE(sim);
    EXPECT_EQ(sim.error().message,
              "f.json: sendrecv_perf ran on 4 ranks; ShardLab simulates send/recv between two GPUs only");
    EXPECT_FALSE(sim.error().what.empty());
    expectSaysItsEnglish(sim.error());
    expectWorded(sim.error(), {"sendrecv_perf"});
}

} // namespace
} // namespace shardlab

// The engine's errors in both languages (text/error_wording.h, the catalogue's error entries):
//  * every error the engine makes is born a Message: no statement that makes one is written as an
//    English sentence (a new one fails here, naming the file, line and text);
//  * bad files of every kind (scenario, topology, program, perturbations, result file, trace,
//    cost profile, NCCL profile) give Chinese with no English word left but the file's own paths,
//    keys and values, and English that reads back byte for byte as the engine wrote it;
//  * placeholders are filled: no {name} and no [id] left in either language.
#include "shardlab/io/result_file.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/io/trace_import.h"
#include "../../common/preset_source_terms.h"
#include "shardlab/analysis/scaling.h"
#include "shardlab/analysis/sweep.h"
#include "shardlab/base/file_io.h"
#include "shardlab/base/short_list.h"
#include "shardlab/base/units.h"
#include "shardlab/cluster/ssh_target.h"
#include "shardlab/lessons/lesson_check.h"
#include "shardlab/cluster/mpi_loader.h"
#include "shardlab/live/live.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/semantics.h"
#include "shardlab/model/verification.h"
#include "shardlab/report/lab_report.h"
#include "shardlab/profile/profile_reader.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/text/catalogue.h"
#include "shardlab/text/foreign_text.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <fstream>
#include <regex>
#include <sstream>

#include <dlfcn.h>
#include <unistd.h>

using namespace shardlab;

namespace {

std::string readSource(const std::string& relative)
{
    std::ifstream in(std::string(SHARDLAB_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Piece {
    int line;
    std::string text; // adjacent literals joined, escapes resolved
};

// The string literals of every statement that makes an error (fail(, failAt(, badInput(,
// runFailed(, JsonPathError(), adjacent literals joined as the compiler joins them; not those of a
// statement that makes a Message (its English is the catalogue's by construction).
std::vector<Piece> errorLiterals(const std::string& src)
{
    static const std::regex call(R"(\b(fail|failAt|badInput|runFailed|JsonPathError|Error)\s*[({])");
    std::vector<Piece> out;
    for (auto it = std::sregex_iterator(src.begin(), src.end(), call); it != std::sregex_iterator(); ++it) {
        const size_t start = static_cast<size_t>(it->position());
        const size_t lineStart = src.rfind('\n', start) + 1;
        if (src.compare(lineStart, src.find_first_not_of(" \t", lineStart) - lineStart, "") == 0
            && src.compare(src.find_first_not_of(" \t", lineStart), 2, "//") == 0)
            continue; // a comment
        const int line = static_cast<int>(std::count(src.begin(), src.begin() + static_cast<long>(start), '\n')) + 1;
        const size_t statementEnd = src.find(';', start);
        if (src.substr(start, statementEnd - start).find("Message(") != std::string::npos)
            continue; // born a Message: its literals are the catalogue's ids and the values it fills in
        bool joining = false;
        for (size_t j = start; j < src.size() && src[j] != ';';) {
            if (src[j] != '"') {
                if (src[j] != ' ' && src[j] != '\n' && src[j] != '\t')
                    joining = false;
                ++j;
                continue;
            }
            std::string literal;
            size_t k = j + 1;
            for (; k < src.size() && src[k] != '"'; ++k) {
                if (src[k] == '\\' && k + 1 < src.size())
                    ++k;
                literal += src[k];
            }
            if (joining)
                out.back().text += literal;
            else
                out.push_back({line, literal});
            joining = true;
            j = k + 1;
        }
    }
    return out;
}

// An English sentence in a literal: two words with a space between. A catalogue id
// ("error.line.pickle_int"), a JSON key or a value ("main", "compare") has none.
bool isEnglishSentence(const std::string& literal)
{
    static const std::regex sentence(R"([A-Za-z]+ [a-z]{2,})");
    return std::regex_search(literal, sentence);
}

std::string writeTemp(const std::string& name, const std::string& text)
{
    const auto path =
        std::filesystem::temp_directory_path() / ("shardlab-wording-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

// Chinese without English but what the input holds (`kept`: its paths, keys and values), no
// placeholder or id left, and not the English.
void checkChinese(const std::string& english, const std::string& zh, std::vector<std::string> kept)
{
    static const std::regex leftover(R"(\[error\.[a-z_.]+\]|\{[a-z_]+\})");
    EXPECT_NE(zh, english);
    EXPECT_FALSE(std::regex_search(zh, leftover)) << zh;
    // JSON paths ($.program[0].item) and quoted values stay as the file has them
    static const std::regex typed(R"(\$[^\s：（）]*|'[^']*'|“[^”]*”|`[^`]*`)");
    std::vector<std::string> words = untranslatedWords(std::regex_replace(zh, typed, " "), kept);
    std::string joined;
    for (const std::string& w : words)
        joined += (joined.empty() ? "" : ", ") + w;
    EXPECT_EQ(joined, "") << zh;
}

// An error as the engine returns it, in both languages: born a Message whose English is the
// error's, and whose Chinese passes checkChinese(). `bornAsMessage` counts it.
void checkBothLanguages(const Error& error, std::vector<std::string> kept, int* bornAsMessage = nullptr)
{
    SCOPED_TRACE(error.message);
    ASSERT_FALSE(error.what.empty()) << "written in English only";
    EXPECT_EQ(english(error.what), error.message);
    EXPECT_EQ(worded(error, Language::English), error.message);
    checkChinese(error.message, worded(error, Language::Chinese), std::move(kept));
    if (bornAsMessage)
        ++*bornAsMessage;
}

} // namespace

TEST(ErrorWording, EveryErrorTheEngineMakesIsBornAMessage)
{
    static const std::regex call(R"(\b(fail|failAt|badInput|runFailed|JsonPathError|Error)\s*[({])");
    const std::filesystem::path root = std::filesystem::path(SHARDLAB_SOURCE_DIR) / "engine";
    int statements = 0;
    std::string english;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        const std::string ext = entry.path().extension().string();
        if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".cu"))
            continue;
        const std::string relative = std::filesystem::relative(entry.path(), SHARDLAB_SOURCE_DIR).string();
        const std::string src = readSource(relative);
        statements +=
            static_cast<int>(std::distance(std::sregex_iterator(src.begin(), src.end(), call), std::sregex_iterator()));
        for (const Piece& p : errorLiterals(src))
            if (isEnglishSentence(p.text))
                english += relative + ":" + std::to_string(p.line) + ": \"" + p.text + "\"\n";
    }
    // the scan sees the engine's errors (about 900 statements)
    EXPECT_GT(statements, 500);
    EXPECT_EQ(english, "") << "errors written in English, which the Chinese interface would show in English: build "
                              "them as Message(\"error.…\") with a catalogue entry (docs/translations.md)";
    // and the check sees a sentence
    EXPECT_TRUE(isEnglishSentence(" is not a workload item"));
    EXPECT_FALSE(isEnglishSentence("error.line.pickle_int"));
    EXPECT_FALSE(isEnglishSentence("sum_on_one_rank"));
}

// The readers' lines keep the file's name, the JSON path and the values; what "(expected ...)"
// names is worded too.
TEST(ErrorWording, TheReadersLinesAreWordedWithTheirValues)
{
    const std::string head = R"({"shardlab": 1, "name": "x", "topology": {"preset": "h200-nv18-4"}, )";
    auto item = parseScenario(head + R"("program": [{"op": "all_reduce", "item": "nothing"}]})", "f.shardlab.json");
    ASSERT_FALSE(item);
    EXPECT_EQ(item.error().message, "f.shardlab.json: $.program[0].item: 'nothing' is not a workload item");
    EXPECT_EQ(worded(item.error(), Language::Chinese), "f.shardlab.json：$.program[0].item：“nothing”不是工作负载条目");
    auto iterations = parseScenario(head + R"("iterations": 0})", "x.json");
    ASSERT_FALSE(iterations);
    EXPECT_EQ(iterations.error().message,
              "x.json: $.iterations: 0 is out of range (expected an integer from 1 to 100000)");
    EXPECT_EQ(worded(iterations.error(), Language::Chinese),
              "x.json：$.iterations：0 超出范围（应为 1 到 100000 之间的整数）");
}

TEST(ErrorWording, EveryKindOfBadScenarioIsWordedInChineseAndReadsBackInEnglish)
{
    const std::string head = R"({"shardlab": 1, "name": "x", )";
    const std::string preset = R"("topology": {"preset": "h200-nv18-4"}, )";
    const std::string item = R"("workload": [{"name": "w", "kind": "gradients", "size": "1 GB"}], )";
    const std::vector<std::string> texts = {
        head + preset + R"("program": [{"op": "all_reduce", "item": "nothing"}]})",
        head + preset + item + R"("program": [{"op": "all_reduce", "item": "w", "buckets": 0}]})",
        head + preset + item + R"("program": [{"op": "send_recv", "item": "w", "from": 1, "to": 1}]})",
        head + preset + item + R"("program": [{"op": "broadcast", "item": "w", "group": [0, 1], "root": 3}]})",
        head + preset + item + R"("program": [{"op": "all_reduce", "item": "w", "group": [0, 0]}]})",
        head + preset + R"("program": [{"op": "all_gather_v", "bytes": "1 MB"}]})",
        head + preset + R"("program": [{"op": "all_reduce"}]})",
        head + preset
            + R"("workload": [{"name": "w", "kind": "gradients", "size": "1 GB"}, {"name": "w", "kind": "data", "size": "1 GB"}]})",
        head + preset + R"("workload": [{"name": "w", "kind": "gradients", "size": 0}]})",
        head + preset + R"("workload": [{"name": "w", "kind": "gradients", "size": 2e18}]})",
        head + preset + R"("workload": [{"name": "w", "kind": "gradients", "size": 1.5}]})",
        head + preset
            + R"("workload": [{"name": "w", "kind": "gradients", "size": "1 GB", "split_across": [0, 1], "split_sizes": ["1 GB"]}]})",
        head + preset + item
            + R"("program": [{"op": "all_reduce", "item": "w"}], "perturbations": {"slowdown": [1, 1, 1, 1, 1]}})",
        head + preset + item
            + R"("program": [{"op": "all_reduce", "item": "w"}], "perturbations": {"slowdown": [5000]}})",
        head + preset + item
            + R"("program": [{"op": "all_reduce", "item": "w"}], "perturbations": {"delays": [{"rank": 0, "op": 4, "ms": 1}]}})",
        head + preset + item
            + R"("program": [{"op": "all_reduce", "item": "w"}], "perturbations": {"mismatches": [{"rank": 0, "op": 0, "iteration": 5, "type": "skip"}]}})",
        head
            + R"("topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": 10}, {"id": "a", "memory": "16 GB", "tflops": 10}]}})",
        head
            + R"("topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": 10}], "links": [{"from": "a", "to": "a", "kind": "nvlink", "bandwidth": 100}]}})",
        head
            + R"("topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": 10}], "links": [{"from": "a", "to": "b", "kind": "nvlink", "bandwidth": 100}]}})",
        head + R"("topology": {"gpus": []}})",
        head + R"("topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": 0}]}})",
        R"({"shardlab": 7, "name": "x", "topology": {"preset": "h200-nv18-4"}})",
    };
    int worded = 0;
    for (size_t i = 0; i < texts.size(); ++i) {
        SCOPED_TRACE(texts[i]);
        auto s = parseScenario(texts[i], "bad.shardlab.json");
        ASSERT_FALSE(s) << "case " << i << " loaded";
        checkBothLanguages(s.error(), {"bad.shardlab.json", "nothing", "split_across"});
        ++worded;
    }
    EXPECT_EQ(worded, static_cast<int>(texts.size()));
}

// Issue 26: the JSON reader's own errors are born Messages (id + values), not English that the
// templates read back. Each getter's refusals, and the strict parser's.
TEST(ErrorWording, TheJsonReadersErrorsAreBornMessages)
{
    const std::string head = R"({"shardlab": 1, "name": "x", )";
    const std::string preset = R"("topology": {"preset": "h200-nv18-4"}, )";
    const std::vector<std::string> texts = {
        R"({"shardlab": 1})",                                                                  // a string missing
        R"({"shardlab": 1, "name": 5, "topology": {"preset": "h200-nv18-4"}})",                // found a number
        R"({"shardlab": 1, "name": "x", "nmae": "y", "topology": {"preset": "h200-nv18-4"}})", // unknown key
        R"({"shardlab": 1, "name": "x", "name": "y"})",                                        // given twice
        R"({"shardlab": "1", "name": "x"})",                                                   // found a string
        R"({"shardlab": 1.5, "name": "x"})",                                                   // not an integer
        R"({"shardlab": 99999999999, "name": "x"})",                                           // out of range
        head + preset + R"("workload": [{"name": "w", "kind": "gradients", "size": -4}]})",    // negative
        head + preset + R"("workload": [{"name": "w", "kind": "gradients", "size": true}]})",  // found a boolean
        head + preset + R"("workload": [{"name": "w", "kind": "gradients"}]})",                // size missing
        head + R"("topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": "x"}]}})",    // flops
        head + R"("topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": 1e30}]}})",   // flops out of range
        head
            + R"("topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": 10}, {"id": "b", "memory": "16 GB", "tflops": 10}], )"
              R"("links": [{"from": "a", "to": "b", "kind": "nvlink", "bandwidth": 1e12}]}})", // bandwidth out of range
        head
            + R"("topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": 10}, {"id": "b", "memory": "16 GB", "tflops": 10}], )"
              R"("links": [{"from": "a", "to": "b", "kind": "nvlink", "bandwidth": []}]}})", // bandwidth of the wrong
                                                                                             // type
        "{\"shardlab\": 1, \"name\": \"x}",                                                  // not valid JSON
    };
    int born = 0;
    for (const std::string& text : texts) {
        SCOPED_TRACE(text);
        auto s = parseScenario(text, "bad.shardlab.json");
        ASSERT_FALSE(s);
        checkBothLanguages(s.error(),
                           {"bad.shardlab.json", "nmae", "shardlab", "name", "preset", "ID", "name_zh", "description",
                            "description_zh", "topology", "workload", "program", "perturbations", "iterations",
                            "memory_mode", "strategy", "cost_profile", "mesh"},
                           &born);
    }
    EXPECT_EQ(born, static_cast<int>(texts.size()));
}

// Issue 26: reading and writing a user's files, and sizes, bandwidths and work as typed, give
// errors born as Messages. Where the templates already worded the English, the Message words it
// the same; what a file was expected to be is now worded too (it stayed English inside the Chinese).
TEST(ErrorWording, FilesAndTypedValuesGiveErrorsBornAsMessages)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("shardlab-born-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const Message scenarioFile = Message("error.file_kind.suffix").with("suffix", ".shardlab.json");
    int born = 0;
    auto missing = readUserFile(dir / "none.shardlab.json", scenarioFile);
    ASSERT_FALSE(missing);
    checkBothLanguages(missing.error(), {(dir / "none.shardlab.json").string()}, &born);
    Status unwritable = writeFileAtomically(dir / "no-such-folder" / "x.json", "{}");
    ASSERT_FALSE(unwritable);
    checkBothLanguages(unwritable.error(),
                       {(dir / "no-such-folder" / "x.json").string(), (dir / "no-such-folder").string()}, &born);
    for (const char* typed : {"-1 GB", "2 EB", "1.5 B", "lots"}) {
        auto size = parseSize(typed);
        ASSERT_FALSE(size) << typed;
        checkBothLanguages(size.error(), {typed, "EB", "\"16 GB\", \"512 MiB\""}, &born);
    }
    for (const char* typed : {"fast", "25 furlongs/s"}) {
        auto bw = parseBandwidth(typed);
        ASSERT_FALSE(bw) << typed;
        checkBothLanguages(bw.error(), {typed, "furlongs/s"}, &born);
    }
    EXPECT_EQ(born, 8);

    // a folder where a scenario was expected: the kind of file it should be is worded now
    auto folder = readUserFile(dir, scenarioFile);
    ASSERT_FALSE(folder);
    EXPECT_EQ(folder.error().message, dir.string() + ": is a folder (expected a .shardlab.json file)");
    EXPECT_EQ(worded(folder.error(), Language::Chinese), dir.string() + "：这是一个文件夹（应为 .shardlab.json 文件）");
    std::filesystem::remove_all(dir);
}

// Issue 26: the checks of a scenario, a topology and a collective (engine/model) and of a lesson and
// its answers (engine/lessons) are born Messages that say in both languages what the templates made
// of their English.
TEST(ErrorWording, TheModelsAndLessonsChecksAreBornMessages)
{
    int born = 0;
    const auto bornAsItsEnglish = [&born](const Error& e) {
        SCOPED_TRACE(e.message);
        ASSERT_FALSE(e.what.empty()) << "still English";
        EXPECT_EQ(english(e.what), e.message);
        EXPECT_NE(render(e.what, Language::Chinese), e.message);
        ++born;
    };
    auto base = parseScenario(R"({"shardlab": 1, "name": "x", "topology": {"preset": "h200-nv18-4"},
        "workload": [{"name": "w", "kind": "gradients", "size": "1 GB"}],
        "program": [{"op": "all_reduce", "item": "w"}], "iterations": 3})");
    ASSERT_TRUE(base) << base.error().message;
    const std::vector<std::function<void(Scenario&)>> badScenarios = {
        [](Scenario& s) { s.workload.items[0].name = ""; },
        [](Scenario& s) { s.workload.items.push_back(s.workload.items[0]); },
        [](Scenario& s) {
            s.workload.items.push_back(s.workload.items[0]);
            s.workload.items[1].name = "v";
            s.workload.items[1].nameZh = "w";
        },
        [](Scenario& s) { s.workload.items[0].size = 0; },
        [](Scenario& s) { s.workload.items[0].size = kMaxBytes + 1; },
        [](Scenario& s) {
            s.workload.items[0].shards = {{0, 100, {0}}, {50, 100, {1}}};
        },
        [](Scenario& s) {
            s.workload.items[0].shards = {{0, 0, {0}}};
        },
        [](Scenario& s) {
            s.workload.items[0].shards = {{0, s.workload.items[0].size, {0, 0}}};
        },
        [](Scenario& s) {
            s.workload.items[0].shards = {{0, s.workload.items[0].size, {9}}};
        },
        [](Scenario& s) {
            s.workload.items[0].shards = {{0, 100, {0}}};
        },
        [](Scenario& s) { s.program[0].buckets = 0; },
        [](Scenario& s) { s.program[0].item = "nothing"; },
        [](Scenario& s) {
            s.program[0].kind = OpKind::Compute;
            s.program[0].flops = -1;
        },
        [](Scenario& s) {
            s.program[0].kind = OpKind::SendRecv;
            s.program[0].root = s.program[0].peer = 1;
        },
        [](Scenario& s) {
            s.program[0].group = {0, 0};
        },
        [](Scenario& s) {
            s.program[0].kind = OpKind::Broadcast;
            s.program[0].group = {0, 1};
            s.program[0].root = 3;
        },
        [](Scenario& s) {
            s.program[0].kind = OpKind::AllGatherV;
            s.program[0].item = "";
            s.program[0].bytes = 1000;
        },
        [](Scenario& s) { s.program[0].item = ""; },
        [](Scenario& s) { s.program[0].bytes = 0; },
        [](Scenario& s) {
            s.mesh = ScenarioMesh{};
            s.mesh->dp = 0;
        },
        [](Scenario& s) {
            s.mesh = ScenarioMesh{};
            s.mesh->order = "tp,dp";
        },
        [](Scenario& s) { s.iterations = 0; },
        [](Scenario& s) {
            s.perturbations.slowdown = {1, 1, 1, 1, 1};
        },
        [](Scenario& s) { s.perturbations.slowdown = {5000}; },
        [](Scenario& s) { s.perturbations.jitterPct = 200; },
        [](Scenario& s) {
            s.perturbations.delays = {{0, 9, -1, 1}};
        },
        [](Scenario& s) {
            s.perturbations.delays = {{0, 0, -1, -1}};
        },
        [](Scenario& s) {
            s.perturbations.delays = {{0, 0, 7, 1}};
        },
        [](Scenario& s) {
            s.perturbations.delays = {{5, 0, -1, 1}};
        },
        [](Scenario& s) {
            s.perturbations.mismatches = {{Mismatch::Type::Skip, 0, 9, 0}};
        },
        [](Scenario& s) {
            s.perturbations.mismatches = {{Mismatch::Type::Skip, 0, 0, 7}};
        },
        // the topology's own checks
        [](Scenario& s) { s.topology.gpus.clear(); },
        [](Scenario& s) { s.topology.gpus[1].id = ""; },
        [](Scenario& s) { s.topology.gpus[1].id = s.topology.gpus[0].id; },
        [](Scenario& s) { s.topology.gpus[1].memory = 0; },
        [](Scenario& s) { s.topology.gpus[1].memory = 1000; },
        [](Scenario& s) { s.topology.gpus[1].tflops = 0; },
        [](Scenario& s) { s.topology.gpus[1].memBandwidthGBps = -1; },
        [](Scenario& s) { s.topology.gpus[1].memBandwidthGBps = 1e12; },
        [](Scenario& s) { s.topology.switches.push_back(SwitchNode{}); },
        [](Scenario& s) {
            s.topology.switches.push_back(SwitchNode{});
            s.topology.switches.back().id = s.topology.gpus[0].id;
        },
        [](Scenario& s) {
            s.topology.links.push_back(Link{"nothing", s.topology.gpus[0].id});
        },
        [](Scenario& s) {
            s.topology.links.push_back(Link{s.topology.gpus[0].id, "nothing"});
        },
        [](Scenario& s) {
            s.topology.links.push_back(Link{s.topology.gpus[0].id, s.topology.gpus[0].id});
        },
        [](Scenario& s) {
            s.topology.links.push_back(Link{s.topology.gpus[0].id, s.topology.gpus[1].id});
        },
        [](Scenario& s) { s.topology.links[0].latencyUs = -1; },
        [](Scenario& s) { s.topology.links[0].count = 0; },
        [](Scenario& s) {
            s.topology.switches.push_back(SwitchNode{});
            s.topology.switches.back().id = "far";
            s.topology.switches.back().node = 5;
        },
        [](Scenario& s) {
            s.topology.gpus[3].node = 1;
            s.topology.switches.push_back(SwitchNode{});
            s.topology.switches.back().id = "far";
            s.topology.switches.back().node = 1;
            s.topology.links.push_back(Link{s.topology.gpus[0].id, "far"});
            s.topology.links.back().bandwidthGBps = 100;
        },
    };
    for (size_t i = 0; i < badScenarios.size(); ++i) {
        SCOPED_TRACE(i);
        Scenario s = *base;
        badScenarios[i](s);
        const Status st = validateScenario(s);
        ASSERT_FALSE(st);
        bornAsItsEnglish(st.error());
    }
    EXPECT_EQ(born, static_cast<int>(badScenarios.size()));

    // a collective on values, and its verification
    for (const Error& e : {applyCollective(OpKind::AllReduce, RankValues{{1, 2}, {3}}).error(),
                           applyCollective(OpKind::AllReduce, RankValues{}).error(),
                           applyCollective(OpKind::Reduce, RankValues{{1}, {2}}, 5).error(),
                           applyCollective(OpKind::Compute, RankValues{{1}, {2}}).error(),
                           applyCollective(OpKind::ReduceScatter, RankValues{{1, 2, 3}, {4, 5, 6}}).error(),
                           applyCollective(OpKind::SendRecv, RankValues{{1}, {2}}, 1, 1).error(),
                           verifyCollective(OpKind::Compute, {0, 1}, 4, 0, 1).error(),
                           verifyCollective(OpKind::AllReduce, {}, 4, 0, 1).error(),
                           verifyCollective(OpKind::Reduce, {0, 1}, 4, 3, 1).error(),
                           verifyCollective(OpKind::SendRecv, {0, 1}, 4, 0, 7).error()})
        bornAsItsEnglish(e);

    // a lesson file that does not load: every line of its error
    const std::string text = R"({"en": "x", "zh": "x"})";
    const std::string head = R"({"shardlab_lesson": 1, "id": "t", "course": )" + text + R"(, "title": )" + text
                             + R"(, "summary": )" + text + R"(, "scenario": "default.shardlab.json", )";
    const std::string steps = R"("steps": [{"text": )" + text + R"(}], )";
    const std::string question = R"("prompt": )" + text + R"(, "right": )" + text + R"(, "wrong": )" + text;
    const std::string choices = R"(, "choices": [{"id": "a", "text": )" + text + R"(, "correct": true, "explanation": )"
                                + text + R"(}, {"id": "b", "text": )" + text
                                + R"(, "correct": CORRECT, "explanation": )" + text + "}]";
    const auto choiceQuestion = [&](const std::string& correct) {
        return R"("questions": [{"type": "choice", )" + question
               + std::regex_replace(choices, std::regex("CORRECT"), correct) + "}]}";
    };
    const std::vector<std::string> lessons = {
        R"({"shardlab_lesson": 2, "id": "t"})",
        R"({"shardlab_lesson": 1, "id": "t", "course": {"en": "", "zh": ""}, "title": )" + text + R"(, "summary": )"
            + text + R"(, "scenario": "s.json", )" + steps + choiceQuestion("false"),
        head + R"("steps": [{"text": )" + text + R"(, "view": "bogus", "scenario": "other"}, {"text": )" + text
            + R"(, "view": "plan", "scenario": "compare"}], )" + choiceQuestion("false"),
        head + R"("compare_plan": {"model": "m", "schedule": "bogus", "order": "bogus", "zero": "bogus"}, )" + steps
            + choiceQuestion("false"),
        head + R"("compare_scenario": "c.json", "steps": [{"text": )" + text
            + R"(, "view": "plan", "scenario": "compare"}], )" + choiceQuestion("false"),
        head + steps + choiceQuestion("true"),
        head + steps + R"("questions": [{"type": "choice", )" + question
            + std::regex_replace(choices, std::regex("true|CORRECT"), "false") + "}]}",
        head + steps + R"("questions": [{"type": "essay", )" + question + R"(}, {"type": "numeric", )" + question
            + R"(, "mistakes": "x"}, {"type": "numeric", )" + question
            + R"(, "answer": {"figure": "speedup", "scenario": "other"}, "mistakes": []}]})",
        head + steps + R"("questions": [{"type": "collective", )" + question
            + R"(, "need": "bogus", "also_accept": [5, {}], "example": [[1], [2], [3], [4], [5], [6], [7], [8], [9]]},)"
            + R"( {"type": "collective", )" + question + R"(, "need": "sum_on_every_rank", "also_accept": "x",)"
            + R"( "example": [[1, 2, 3, 4, 5, 6, 7, 8, 9]]}]})",
    };
    born = 0;
    for (const std::string& lesson : lessons) {
        SCOPED_TRACE(lesson);
        auto l = parseLesson(lesson, "t.lesson.json");
        ASSERT_FALSE(l);
        bornAsItsEnglish(l.error());
    }
    EXPECT_EQ(born, static_cast<int>(lessons.size()));

    // a lesson's figures and answers that cannot be checked
    ResolvedLesson r;
    r.lesson.id = "t";
    LessonQuestion choice;
    choice.choices = {LessonChoice{"a", {}, true, {}}, LessonChoice{"b", {}, false, {}}};
    LessonQuestion numeric;
    numeric.type = QuestionType::Numeric;
    LessonQuestion inMs = numeric;
    inMs.numeric.unit = "ms";
    LessonQuestion collective;
    collective.type = QuestionType::Collective;
    r.lesson.questions = {choice, numeric, inMs, collective};
    r.expected = {std::nullopt, 1.0, 1.0, std::nullopt};
    std::vector<Error> refused;
    for (const auto& [q, answer] : std::vector<std::pair<int, std::string>>{{7, "a"},
                                                                            {0, " "},
                                                                            {0, "zz"},
                                                                            {0, "a, b"},
                                                                            {0, ","},
                                                                            {1, "lots"},
                                                                            {1, "inf"},
                                                                            {1, "5 kg"},
                                                                            {2, "lots"},
                                                                            {2, "nan"},
                                                                            {2, "5 kg"},
                                                                            {3, "gather-all"}})
        if (auto check = checkAnswer(r, q, answer); !check)
            refused.push_back(check.error());
    for (const FigureRef& f :
         {FigureRef{"speedup", "compare"}, FigureRef{"compute_ms", "main", 7}, FigureRef{"straggler_rank"},
          FigureRef{"hang_rank"}, FigureRef{"collective_ms", "main", 3}, FigureRef{"bogus"}, FigureRef{"mfu_pct"}})
        if (auto v = evaluateFigure(r, f); !v)
            refused.push_back(v.error());
    ASSERT_EQ(refused.size(), 19u);
    // an answer without its value, and a figure that cannot divide, as a lesson resolves them
    Lesson unresolved;
    unresolved.id = "t";
    unresolved.file = std::filesystem::path(SHARDLAB_SCENARIO_DIR) / "t.lesson.json";
    unresolved.scenario = "default.shardlab.json";
    unresolved.questions = {numeric};
    auto noValue = resolveLesson(unresolved);
    ASSERT_FALSE(noValue);
    EXPECT_EQ(noValue.error().message, "lesson t: a numeric answer has neither a 'value' nor a 'figure'");
    refused.push_back(noValue.error());
    unresolved.questions[0].numeric.figure = FigureRef{"speedup"};
    unresolved.questions[0].numeric.combine = NumericAnswer::Combine::Over;
    unresolved.questions[0].numeric.other = FigureRef{"paging_ms", "main", 0};
    auto byZero = resolveLesson(unresolved);
    ASSERT_FALSE(byZero);
    EXPECT_EQ(byZero.error().message, "lesson t: figure paging_ms is zero and cannot divide");
    refused.push_back(byZero.error());
    // a folder of lessons that do not load: each file's error, a line each
    const auto folder = std::filesystem::temp_directory_path() / ("shardlab-bad-lessons-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "a.lesson.json") << lessons[1];
    std::ofstream(folder / "b.lesson.json") << lessons[0];
    auto none = loadLessons(folder);
    std::filesystem::remove_all(folder);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("\n"), std::string::npos) << none.error().message;
    refused.push_back(none.error());
    for (const Error& e : refused)
        bornAsItsEnglish(e);
}

// Issue 26: what bench and scale refuse had no Chinese (English inside a Chinese line); each is now
// born a Message with its own entry (sweep.inc), the options and sizes as the user typed them.
TEST(ErrorWording, WhatBenchAndScaleRefuseIsBornAMessageWithItsChinese)
{
    std::vector<Error> errors;
    for (const char* spec : {"", "64K,0", "64K,lots", "1M:64K", "64K:1M:1", "x:1M", "64K:y", "0:1M"}) {
        auto sizes = parseSizeRange(spec);
        ASSERT_FALSE(sizes) << spec;
        errors.push_back(sizes.error());
    }
    errors.push_back(checkSweepRequest(OpKind::Compute, 2, {1024}).error());
    errors.push_back(checkSweepRequest(OpKind::AllReduce, 2, {}).error());
    errors.push_back(checkSweepRequest(OpKind::SendRecv, 4, {1024}).error());
    auto s = parseScenario(R"({"shardlab": 1, "name": "x", "topology": {"preset": "h200-nv18-4"},
        "workload": [{"name": "g", "kind": "gradients", "size": "1 GB"}],
        "program": [{"op": "send_recv", "item": "g", "from": 0, "to": 1}]})",
                           "x.json");
    ASSERT_TRUE(s) << s.error().message;
    auto rescaled = rescaleScenario(*s, s->topology, 8, ScalingMode::Strong);
    ASSERT_FALSE(rescaled);
    errors.push_back(rescaled.error());
    errors.push_back(rescaleScenario(*s, s->topology, 0, ScalingMode::Strong).error());
    for (const Error& e : errors) {
        SCOPED_TRACE(e.message);
        ASSERT_FALSE(e.what.empty());
        EXPECT_EQ(english(e.what), e.message);
        const std::string zh = worded(e, Language::Chinese);
        EXPECT_NE(zh, e.message);
        static const std::regex typed(R"(\$[^\s：（）]*|'[^']*'|“[^”]*”|`[^`]*`)");
        EXPECT_EQ(untranslatedWords(std::regex_replace(zh, typed, " "),
                                    {"--sizes", "START", "END", "FACTOR", "64K,1M,16M", "bench", "send_recv", "--gpus",
                                     "lots", "x", "y", "1M", "64K"}),
                  std::vector<std::string>{})
            << zh;
    }
    EXPECT_EQ(worded(errors[3], Language::Chinese), "--sizes：END（64K）小于 START（1M）");
}

// Issue 29: a file that is not valid JSON is said in Chinese with its file, line and column, and
// what the JSON parser found is worded too (it was its English inside the Chinese sentence).
TEST(ErrorWording, BrokenJsonIsWordedInChineseWithItsFileLineAndColumn)
{
    const std::string file = "broken.shardlab.json";
    auto s = parseScenario("{\n  \"shardlab\": 1,\n  \"name\": \"x\",\n}\n", file);
    ASSERT_FALSE(s);
    EXPECT_EQ(worded(s.error(), Language::Chinese), "broken.shardlab.json：$：第 4 行第 1 列不是有效的 "
                                                    "JSON（解析对象的键时出现语法错误：遇到“}”，此处应为字符串）");
    const std::vector<std::string> texts = {
        "{\"shardlab\": 1, \"name\": \"x}", // a string never closed
        "{\"shardlab\": tru}",              // not a literal
        "{\"shardlab\": -x}",               // not a number
        "{\"shardlab\": 1",                 // cut short
        "{\"shardlab\" 1}",                 // no colon
        "{\"name\": \"a\tb\"}",             // a tab inside a string
        "[1, 2",                            // an array cut short
        "{\"shardlab\": 1e}",               // an exponent without digits
    };
    for (const std::string& text : texts) {
        auto bad = parseScenario(text, file);
        ASSERT_FALSE(bad) << text;
        checkBothLanguages(bad.error(), {file, "HT"}); // a control character's code (HT: a tab)
        const std::string zh = worded(bad.error(), Language::Chinese);
        EXPECT_NE(zh.find(file + "：$：第 1 行第 "), std::string::npos) << zh;
    }
}

TEST(ErrorWording, ResultFilesTracesAndProfilesSayWhatIsWrongInChinese)
{
    // a result file with the wrong version, a trace without ShardLab's spans, a cost profile with
    // a malformed field, a folder that is no NCCL profile
    const std::string result = writeTemp("r.result.json", R"({"shardlab_result": 9})");
    const std::string trace = writeTemp("t.trace.json", R"({"traceEvents": []})");
    const std::string record = writeTemp("p.ndjson", "this is not json\n");
    std::vector<Error> errors;
    if (auto r = loadResult(result); !r)
        errors.push_back(r.error());
    if (auto t = loadChromeTrace(trace); !t)
        errors.push_back(t.error());
    if (auto p = profileFromJson(R"({"shardlab_profile": 1, "name": "x", "ll_max_bus_gbps": [1]})", "c.json"); !p)
        errors.push_back(p.error());
    if (auto f = readProfileDirectory(std::filesystem::path(result)); !f)
        errors.push_back(f.error());
    if (auto f = parseProfileText("this is not json\n", record); !f)
        errors.push_back(f.error());
    ASSERT_EQ(errors.size(), 5u);
    for (const Error& e : errors)
        checkBothLanguages(e, {result, trace, record, "c.json", "shardlab profile --out"});
    for (const std::string& f : {result, trace, record})
        std::filesystem::remove(f);
}

// An error read back as English only (a run stream of another ShardLab, which sent no Message)
// is shown as it was written, in either language.
TEST(ErrorWording, AnErrorReadBackAsEnglishOnlyStaysAsWritten)
{
    Error odd;
    odd.message = "f.json: $.x: something this ShardLab never says";
    EXPECT_EQ(messageOf(odd).id, "verbatim");
    EXPECT_EQ(worded(odd, Language::Chinese), odd.message);
    EXPECT_EQ(worded(odd, Language::English), odd.message);
}

// Issue 26: a build without live mode says so with errors born as Messages, worded as the
// templates worded their English (the sanitizer build of CI is such a build).
TEST(ErrorWording, ABuildWithoutLiveModeSaysSoWithBornMessages)
{
    if (liveBuiltIn())
        GTEST_SKIP() << "live mode is built into this ShardLab";
    auto s = parseScenario(R"({"shardlab": 1, "name": "x", "topology": {"preset": "h200-nv18-4"}})", "x.json");
    ASSERT_TRUE(s) << s.error().message;
    int born = 0;
    auto run = runLive(*s);
    ASSERT_FALSE(run);
    checkBothLanguages(run.error(), {"shardlab sim", "README"}, &born);
    auto topology = discoverTopology();
    ASSERT_FALSE(topology);
    checkBothLanguages(topology.error(), {"--preset ID", "shardlab topo --list", "ID"}, &born);
    EXPECT_EQ(born, 2);
}

TEST(ErrorWording, RunsThatCannotStartSayWhyInChinese)
{
    // a collective whose ranks no links join, and a run too large to hold (the fuzz corpus's files)
    for (const char* file : {"no-route.json", "huge-buckets-100k-x-100k.json"}) {
        SCOPED_TRACE(file);
        auto s = loadScenario(std::string(SHARDLAB_SOURCE_DIR) + "/tests/fuzz/corpus/" + file);
        ASSERT_TRUE(s) << s.error().message;
        auto run = simulate(*s);
        ASSERT_FALSE(run) << "the run started";
        std::vector<std::string> kept;
        for (const Op& op : s->program)
            kept.push_back(op.name);
        checkBothLanguages(run.error(), kept);
    }
}

// A list of ranks cut short (base/short_list.h) is worded inside the line: "and 3 more" too.
TEST(ErrorWording, AListCutShortIsWordedInChinese)
{
    std::vector<std::string> ranks;
    for (int r = 1; r <= 11; ++r)
        ranks.push_back(std::to_string(r));
    EXPECT_EQ(shortList({"1", "2"}, 8), "1, 2");
    EXPECT_EQ(shortList(ranks, 8), "1, 2, 3, 4, 5, 6, 7, 8 and 3 more");
    EXPECT_EQ(english(shortListMessage(ranks, 8)), shortList(ranks, 8));
    EXPECT_EQ(render(shortListMessage(ranks, 8), Language::Chinese), "1, 2, 3, 4, 5, 6, 7, 8 等，另有 3 个");
    EXPECT_EQ(render(shortListMessage({"1", "2"}, 8), Language::Chinese), "1, 2");
}

// How a run was launched, as result files keep it, in either language (a reopened result file).
TEST(ErrorWording, TheLaunchOfARunIsWordedInChinese)
{
    const std::vector<std::pair<std::string, std::string>> launches{
        {"simulation", "模拟"},
        {"single process", "单进程"},
        {"1 process driving 2 GPUs", "1 个进程驱动 2 张 GPU"},
        {"3 processes on 2 hosts", "3 个进程，分布在 2 台主机上"},
        {"Open MPI (mpirun), 8 processes on 2 hosts", "Open MPI (mpirun)，8 个进程，分布在 2 台主机上"},
        {"Slurm (srun), 4 processes on 1 host", "Slurm (srun)，4 个进程，在 1 台主机上"},
        {"shardlab profile --live", "shardlab profile --live"}, // a command, as typed
    };
    for (const auto& [english, chinese] : launches) {
        EXPECT_EQ(render(launchMessageOf(english), Language::English), english);
        EXPECT_EQ(render(launchMessageOf(english), Language::Chinese), chinese);
    }
}

// The system's reasons inside a message (strerror, dlerror), as file_io.cpp, the profiler and the
// MPI loader put them: worded where glibc's English is known, else as the system wrote them.
TEST(ErrorWording, TheSystemsReasonsAreWordedInChinese)
{
    EXPECT_EQ(render(systemWords(std::strerror(ENOSPC)), Language::Chinese), "设备上没有空间");
    EXPECT_EQ(english(systemWords(std::strerror(ENOSPC))), std::strerror(ENOSPC));
    EXPECT_EQ(render(systemWords(std::strerror(EACCES)), Language::Chinese), "权限不够");
    ASSERT_EQ(dlopen("libshardlab-no-such-library.so", RTLD_NOW), nullptr);
    const std::string dl = dlerror();
    EXPECT_NE(render(systemWords(dl), Language::Chinese).find("无法打开共享库文件：没有那个文件或目录"),
              std::string::npos)
        << dl;
    // a file that cannot be written names its system reason, worded
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("shardlab-wording-" + std::to_string(::getpid()) + "-none");
    Status st = writeFileAtomically(folder / "x" / "out.csv", "a");
    ASSERT_FALSE(st);
    checkBothLanguages(st.error(), {(folder / "x" / "out.csv").string(), (folder / "x").string()});
    // a reason glibc words otherwise stays as it is
    EXPECT_EQ(render(systemWords("Stale file handle of a kind"), Language::Chinese), "Stale file handle of a kind");
}

// What the editors refuse as typed (the app's "Not changed: …" line words these): each message
// of units.cpp, semantics.cpp and verification.cpp, made by the call a user's input reaches.
TEST(ErrorWording, WhatTheEditorsRefuseIsWordedInChinese)
{
    std::vector<Error> refused;
    auto keep = [&](const auto& result) {
        ASSERT_FALSE(result) << "accepted";
        refused.push_back(result.error());
    };
    keep(parseSize("lots"));
    keep(parseSize("12 XB"));
    keep(parseSize("-3 GB"));
    keep(parseSize("2 PiB"));
    keep(parseSize("1.5 B"));
    keep(parseBenchSize("4 Q"));
    keep(parseBandwidth("fast"));
    keep(parseBandwidth("25 GB/h"));
    keep(parseFlops("much"));
    keep(parseFlops("4 ZFLOP"));
    keep(parseFlops("1e30"));
    keep(applyCollective(OpKind::AllReduce, RankValues{{1, 2}, {3}}));
    keep(applyCollective(OpKind::AllReduce, RankValues{}));
    keep(applyCollective(OpKind::Reduce, RankValues{{1}, {2}}, 5));
    keep(applyCollective(OpKind::Compute, RankValues{{1}, {2}}));
    keep(applyCollective(OpKind::ReduceScatter, RankValues{{1, 2, 3}, {4, 5, 6}}));
    keep(applyCollective(OpKind::SendRecv, RankValues{{1}, {2}}, 1, 1));
    keep(verifyCollective(OpKind::Compute, {0, 1}, 4, 0, 1));
    keep(verifyCollective(OpKind::AllReduce, {}, 4, 0, 1));
    keep(verifyCollective(OpKind::Reduce, {0, 1}, 4, 3, 1));
    keep(verifyCollective(OpKind::SendRecv, {0, 1}, 4, 0, 7));
    ASSERT_EQ(refused.size(), 21u);
    // the op's own names and units stay as the engine writes them
    for (const Error& error : refused)
        checkBothLanguages(error,
                           {"all_gather_v", "all_reduce", "reduce_scatter", "send_recv", "reduce", "nccl-tests", "FLOP",
                            "kB", "KiB", "MiB", "GiB", "TiB", "GB/s", "MB/s", "TB/s", "Gb/s", "PB", "TFLOP", "e24"});
}

// What a learner reads when an answer cannot be checked, and a lesson folder that does not load:
// every shipped lesson's every question given answers of the wrong form.
TEST(ErrorWording, AnswersThatCannotBeCheckedAndLessonFoldersAreWordedInChinese)
{
    const std::filesystem::path dir = std::filesystem::path(SHARDLAB_SCENARIO_DIR) / ".." / "lessons";
    auto lessons = loadLessons(dir);
    ASSERT_TRUE(lessons) << lessons.error().message;
    std::map<std::string, Error> refused; // by its English: each once
    std::vector<std::string> kept{"NAME.lesson.json"};
    for (const Lesson& lesson : *lessons) {
        auto r = resolveLesson(lesson);
        ASSERT_TRUE(r) << r.error().message;
        kept.push_back(lesson.id);
        const int n = static_cast<int>(lesson.questions.size());
        for (int q = 0; q <= n; ++q) // q == n: a question the lesson does not have
            for (const char* answer : {"lots", "7 parsec", " ", "zz", "a, b"}) {
                auto check = checkAnswer(*r, q, answer);
                if (!check)
                    refused.emplace(check.error().message, check.error());
            }
        for (const LessonQuestion& question : lesson.questions)
            for (const LessonChoice& c : question.choices)
                kept.push_back(c.id);
    }
    const std::filesystem::path empty =
        std::filesystem::temp_directory_path() / ("shardlab-no-lessons-" + std::to_string(::getpid()));
    std::filesystem::create_directories(empty);
    for (const std::filesystem::path& folder : {empty, dir / "missing-folder"}) {
        auto none = loadLessons(folder);
        ASSERT_FALSE(none);
        refused.emplace(none.error().message, none.error());
        kept.push_back(folder.string());
    }
    std::filesystem::remove_all(empty);
    // not a number, a unit not asked for, no answer, not a choice, two choices, no such question
    EXPECT_GE(refused.size(), 7u);
    for (const auto& [english, error] : refused)
        checkBothLanguages(error, kept);
}

TEST(ErrorWording, EveryPresetsSourceAndTheScaledMachinesNotesAreWordedInChinese)
{
    // product names, document titles, commands and figures stay; the prose around them is Chinese
    const std::vector<std::string> kept = test::presetSourceTerms();
    for (const PresetInfo& p : presetList()) {
        SCOPED_TRACE(p.id);
        const Topology t = *preset(p.id);
        const std::string zh = topoMatrixText(t, Language::Chinese);
        const size_t from = zh.find("来源：");
        ASSERT_NE(from, std::string::npos) << zh;
        const std::string source = zh.substr(from, zh.find('\n', from) - from);
        std::vector<std::string> names = kept;
        for (const PresetInfo& q : presetList())
            names.push_back(q.id);
        EXPECT_EQ(untranslatedWords(source, names), std::vector<std::string>{}) << source;
        EXPECT_NE(source, "来源：" + t.source); // worded, not shown as it is
    }
    for (const char* note : {"more of its nodes on the same non-blocking fabric",
                             "nodes joined by a non-blocking 400 Gb/s InfiniBand fabric (ConnectX-7 NDR)"}) {
        const Message m = machineSourceMessage(note);
        EXPECT_NE(m.id, "verbatim") << note;
        EXPECT_EQ(english(m), note);
        EXPECT_EQ(untranslatedWords(render(m, Language::Chinese), kept), std::vector<std::string>{})
            << render(m, Language::Chinese);
    }
    // this machine as live mode reads it (nvml_topology.cpp)
    Topology here = *preset("h200-nv18-4");
    here.name = "this machine (gpu-box)";
    here.source =
        "NVML and CUDA on this machine, driver 580.159.04; FP32 rate = SMs x FP32 lanes x 2 x boost clock; memory "
        "bandwidth = bus width x memory clock x 2";
    const std::string hereZh = topoMatrixText(here, Language::Chinese);
    EXPECT_EQ(hereZh.rfind("拓扑：本机（gpu-box）\n来源：本机的 NVML 和 CUDA，驱动版本 580.159.04；FP32 算力 = SM 数 × "
                           "FP32 通道数 × 2 × "
                           "加速频率；显存带宽 = 总线宽度 × 显存频率 × 2\n",
                           0),
              0u)
        << hereZh;
    // a user's own source stays as it is
    Topology own = *preset("h200-nv18-4");
    own.source = "our lab's cluster; measured by hand";
    EXPECT_NE(topoMatrixText(own, Language::Chinese).find("来源：our lab's cluster; measured by hand\n"),
              std::string::npos);
}

// What `shardlab --version` says of live mode and MPI (liveBuildInfo(), mpiBuildInfo()) as a CUDA
// build, a build without CUDA and the loader's failures make it: each a Message, in both languages.
TEST(ErrorWording, WhatVersionSaysAboutLiveModeAndMpiIsWordedInChinese)
{
    const Message runtime = runtimeVersionsMessage({13000, 22803});
    EXPECT_EQ(english(runtime), "driver for CUDA 13.0, NCCL 2.28.3 at run time");
    EXPECT_EQ(english(runtimeVersionsMessage({12040, 0})), "driver for CUDA 12.4");
    EXPECT_EQ(english(runtimeVersionsMessage({0, 22809})), "no NVIDIA driver found, NCCL 2.28.9 at run time");
    EXPECT_EQ(english(runtimeVersionsMessage({})), "no NVIDIA driver found");
    const std::string with = "CUDA 13.0, NCCL 2.28.3";
    const std::vector<Message> lines = {
        Message("error.line.live_loads")
            .with("with", with)
            .with("path", "/opt/shardlab/libshardlab_live.so")
            .with("piece_runtime", runtime),
        Message("error.line.live_loads")
            .with("with", with)
            .with("path", "/opt/shardlab/libshardlab_live.so")
            .with("piece_runtime", runtimeVersionsMessage({})),
        Message("error.line.live_does_not_load")
            .with("with", with)
            .with("reason", Message("error.line.live_library_missing")
                                .with("variable", "SHARDLAB_LIVE_LIBRARY")
                                .with("path", "/nonexistent/x.so")),
        Message("error.line.live_not_built"),
        Message("error.line.mpi_built")
            .with("library", "Open MPI v4.1.6")
            .with("module", "/opt/shardlab/libshardlab_mpi.so"),
        Message("error.line.mpi_no_module")
            .with("library", "Open MPI v4.1.6")
            .with("package", "shardlab-mpi")
            .with("variable", "SHARDLAB_MPI_MODULE"),
        Message("error.line.mpi_not_built").with("package", "libopenmpi-dev"),
    };
    EXPECT_EQ(english(lines[0]), "built in (CUDA 13.0, NCCL 2.28.3); loads here: yes "
                                 "(/opt/shardlab/libshardlab_live.so; driver for CUDA 13.0, NCCL 2.28.3 at run time)");
    EXPECT_EQ(english(lines[2]), "built in (CUDA 13.0, NCCL 2.28.3); loads here: no (SHARDLAB_LIVE_LIBRARY names "
                                 "/nonexistent/x.so, which does not exist)");
    for (const Message& m : lines)
        checkBothLanguages(runFailed(m), {"/opt/shardlab/libshardlab_live.so", "/opt/shardlab/libshardlab_mpi.so",
                                          "/nonexistent/x.so", "SHARDLAB_LIVE_LIBRARY", "SHARDLAB_MPI_MODULE",
                                          "Open MPI v4.1.6", "shardlab-mpi", "libopenmpi-dev"});
    // this build's own
    for (const Message& mine : {liveBuildInfo(), mpiBuildInfo()}) {
        EXPECT_FALSE(english(mine).empty());
        EXPECT_NE(render(mine, Language::Chinese), english(mine));
    }
}

TEST(ErrorWording, RefusedSshTargetsAreWordedWithTheirValues)
{
    const std::vector<Error> errors = {
        parseSshDestination("").error(),
        parseSshDestination("gpu1;touch x").error(),
        parseSshDestination("\xc2\xa0-oProxyCommand=x").error(),
        parseSshDestination("-E@gpu1").error(),
        parseSshDestination("gpu1:99999").error(),
        parseSshDestination("[fe80::g]", SshRole::Jump).error(),
        parseSshDestination("\xff").error(),
        checkRemoteCommand("-oProxyCommand=x").error(),
        checkRemoteCommand("shardlab live --stream - ").error(),
        checkRemoteCommand(std::string(5000, 'a')).error(),
        remoteCommandLine({"bin/shard\xe2\x80\xa8lab", ""}, {"sim"}).error(),
        remoteCommandLine({"shardlab", "-x"}, {"sim"}).error(),
    };
    int born = 0; // issue 26: each is a Message where it arises
    for (const Error& e : errors)
        checkBothLanguages(
            e, {"ssh", "UTF-8", "U+0020", "U+00A0", "U+2028", "U+003B", "U+0067", "~/.ssh/config", "IPv6"}, &born);
    EXPECT_EQ(born, static_cast<int>(errors.size()));
    EXPECT_EQ(worded(errors[3], Language::Chinese), "用户名“-E”以“-”开头，ssh 会把它当作选项");
}

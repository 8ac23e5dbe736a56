// A scenario's names in both languages (issue 29, "In Chinese"): the shipped examples carry the
// Chinese of their name, description, items and steps ("name_zh", "description_zh"); namedIn()
// opens them with those names in Chinese and as written in English, and leaves a user's own
// scenario as it is. The command line in Chinese shows them so.
#include "../../cli/cli_test_helpers.h"

#include "shardlab/io/scenario_io.h"
#include "shardlab/model/scenario.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <regex>

using namespace shardlab;

namespace {

std::vector<std::filesystem::path> shippedScenarios()
{
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(SHARDLAB_SCENARIO_DIR))
        if (e.path().string().ends_with(".shardlab.json"))
            out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

bool hasHan(const std::string& text)
{
    // a UTF-8 CJK ideograph (U+4E00..U+9FFF) begins with a byte from 0xE4 to 0xE9
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return b >= 0xE4 && b <= 0xE9;
    });
}

// What is left in English, command lines in `backquotes` aside.
std::string englishIn(const std::string& text)
{
    static const std::regex code("`[^`]*`");
    std::string left;
    for (const std::string& w : untranslatedWords(std::regex_replace(text, code, " ")))
        left += w + " ";
    return left;
}

const char* const kUserScenario = R"({
  "shardlab": 1,
  "name": "my run",
  "topology": { "preset": "teaching-4x16gb-pcie", "gpus": 2 },
  "workload": [ { "name": "gradients", "kind": "gradients", "size": "1 GB", "replicate_on": "all" } ],
  "program": [ { "op": "all_reduce", "name": "gradient all-reduce", "item": "gradients" } ]
})";

} // namespace

TEST(ScenarioNames, EveryShippedScenarioHasItsNamesInChinese)
{
    const auto files = shippedScenarios();
    ASSERT_GE(files.size(), 10u);
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        auto loaded = loadScenario(path);
        ASSERT_TRUE(loaded) << loaded.error().message;
        const Scenario zh = namedIn(*loaded, Language::Chinese);
        ASSERT_TRUE(validateScenario(zh)) << validateScenario(zh).error().message;
        std::vector<std::string> names{zh.name, zh.description};
        for (const WorkloadItem& item : zh.workload.items)
            names.push_back(item.name);
        for (const Op& op : zh.program) {
            if (!op.name.empty())
                names.push_back(op.name);
            // every step still names an item of the scenario
            EXPECT_TRUE(op.item.empty() || zh.workload.find(op.item)) << op.item;
        }
        // names the course keeps in English (an item "Batch") have no Chinese character but no English word either
        EXPECT_TRUE(hasHan(zh.name)) << zh.name;
        EXPECT_TRUE(hasHan(zh.description)) << zh.description;
        for (const std::string& name : names)
            EXPECT_EQ(englishIn(name), "") << name;
        // the figures are those of the scenario as written: only names differ
        Scenario renamed = zh;
        renamed.name = loaded->name;
        renamed.description = loaded->description;
        for (size_t i = 0; i < renamed.workload.items.size(); ++i)
            renamed.workload.items[i].name = loaded->workload.items[i].name;
        for (size_t i = 0; i < renamed.program.size(); ++i) {
            renamed.program[i].name = loaded->program[i].name;
            renamed.program[i].item = loaded->program[i].item;
        }
        EXPECT_EQ(renamed, namedIn(*loaded, Language::English));
    }
}

TEST(ScenarioNames, EnglishKeepsTheNamesAsWrittenAndBothDropTheTranslations)
{
    auto loaded = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/balance-12-12.shardlab.json");
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_EQ(loaded->program[1].nameZh, "梯度 All-Reduce");
    for (Language language : {Language::English, Language::Chinese}) {
        const Scenario s = namedIn(*loaded, language);
        EXPECT_EQ(s.nameZh, "");
        EXPECT_EQ(s.descriptionZh, "");
        EXPECT_EQ(s.workload.items[1].nameZh, "");
        EXPECT_EQ(s.program[1].nameZh, "");
        // saved as it shows: no Chinese left behind that an English rename would contradict
        EXPECT_EQ(serializeScenario(s).find("name_zh"), std::string::npos);
    }
    const Scenario en = namedIn(*loaded, Language::English);
    EXPECT_EQ(en.program[1].name, "gradient all-reduce");
    EXPECT_EQ(en.program[1].item, "gradients");
    const Scenario zh = namedIn(*loaded, Language::Chinese);
    EXPECT_EQ(zh.name, "均衡的所有权 12/12 GB");
    EXPECT_EQ(zh.program[1].name, "梯度 All-Reduce");
    EXPECT_EQ(zh.program[1].item, "梯度");
    EXPECT_EQ(zh.workload.items[1].name, "梯度");
}

TEST(ScenarioNames, AUsersScenarioKeepsItsNamesInChinese)
{
    auto parsed = parseScenario(kUserScenario);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(namedIn(*parsed, Language::Chinese), *parsed);
}

TEST(ScenarioNames, TheChineseNamesAreReadCheckedAndWrittenBack)
{
    std::string text = kUserScenario;
    text.replace(text.find(R"("name": "my run",)"), 17,
                 R"("name": "my run", "name_zh": "我的运行", "description_zh": "说明",)");
    text.replace(text.find(R"("name": "gradients",)"), 20, R"("name": "gradients", "name_zh": "梯度",)");
    auto parsed = parseScenario(text);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->nameZh, "我的运行");
    EXPECT_EQ(parsed->descriptionZh, "说明");
    EXPECT_EQ(parsed->workload.items[0].nameZh, "梯度");
    auto again = parseScenario(serializeScenario(*parsed));
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(*again, *parsed);
    // a Chinese name is a string, and two items do not share one
    std::string number = text;
    const std::string chinese = R"("name_zh": "梯度")";
    number.replace(number.find(chinese), chinese.size(), R"("name_zh": 7)");
    auto refused = parseScenario(number, "x.json");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("$.workload[0].name_zh"), std::string::npos) << refused.error().message;
    Scenario twice = *parsed;
    twice.workload.items.push_back(twice.workload.items[0]);
    twice.workload.items[1].name = "other";
    const Status st = validateScenario(twice);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("$.workload[1].name_zh: '梯度' is used twice"), std::string::npos)
        << st.error().message;
}

// The command line in Chinese: the table and the lab report of a shipped example name its
// scenario, items and steps in Chinese, and the report's scenario paragraph is its Chinese
// description; in English, and in --json, they are as the file writes them.
TEST(ScenarioNames, TheCommandLineInChineseShowsTheChineseNames)
{
    const std::string file = test::scenario("balance-12-12.shardlab.json");
    const test::CliRun zh = test::runCommand({"--lang", "zh", "sim", file});
    ASSERT_EQ(zh.status, 0) << zh.err;
    EXPECT_NE(zh.out.find("场景：均衡的所有权 12/12 GB"), std::string::npos) << zh.out;
    EXPECT_NE(zh.out.find("梯度 All-Reduce"), std::string::npos) << zh.out;
    EXPECT_EQ(zh.out.find("gradient all-reduce"), std::string::npos) << zh.out;
    const test::CliRun en = test::runCommand({"--lang", "en", "sim", file});
    ASSERT_EQ(en.status, 0) << en.err;
    EXPECT_NE(en.out.find("gradient all-reduce"), std::string::npos) << en.out;
    EXPECT_EQ(en.out.find("梯度"), std::string::npos) << en.out;
    // --json stays English, names too: scripts read it
    const test::CliRun json = test::runCommand({"--lang", "zh", "sim", file, "--json"});
    ASSERT_EQ(json.status, 0) << json.err;
    EXPECT_NE(json.out.find("\"gradient all-reduce\""), std::string::npos) << json.out;

    const auto html = std::filesystem::temp_directory_path() / "shardlab-scenario-names-report.html";
    const test::CliRun report = test::runCommand({"--lang", "zh", "report", file, "-o", html.string()});
    ASSERT_EQ(report.status, 0) << report.err;
    std::ifstream in(html);
    std::stringstream page;
    page << in.rdbuf();
    std::filesystem::remove(html);
    EXPECT_NE(page.str().find("<p>同样 24 GB 的工作平均分给两张 16 GB 的 GPU"), std::string::npos);
    EXPECT_EQ(page.str().find("The same 24 GB of work"), std::string::npos);
}

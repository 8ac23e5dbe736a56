// The lab report in Chinese (issue 13): every shipped scenario's report written in Chinese leaves
// no English in what a reader sees, apart from the scenario's own names and the sentences the
// analysis still writes in English on this branch (marked below, in one place).
#include "shardlab/io/scenario_io.h"
#include "shardlab/report/lab_report.h"
#include "shardlab/report/report_html.h"
#include "shardlab/report/report_svg.h"
#include "shardlab/text/catalogue.h"
#include "shardlab/text/untranslated.h"
#include "../test_helpers.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace shardlab;

namespace {

// What a browser shows: the HTML without <style> and <script> elements and without tags, its
// entities decoded. SVG <title> text stays: it is the figures' tooltip text, which readers see too.
std::string reportVisibleText(std::string html)
{
    for (const char* element : {"style", "script"}) {
        const std::string open = std::string("<") + element, close = std::string("</") + element + ">";
        for (size_t at = html.find(open); at != std::string::npos; at = html.find(open, at)) {
            const size_t end = html.find(close, at);
            html.erase(at, end == std::string::npos ? std::string::npos : end + close.size() - at);
        }
    }
    std::string text;
    bool inTag = false;
    for (char c : html) {
        if (c == '<')
            inTag = true;
        else if (c == '>') {
            inTag = false;
            text += ' ';
        } else if (!inTag)
            text += c;
    }
    for (const auto& [entity, ch] : std::vector<std::pair<std::string, std::string>>{{"&lt;", "<"},
                                                                                     {"&gt;", ">"},
                                                                                     {"&quot;", "\""},
                                                                                     {"&#39;", "'"},
                                                                                     {"&middot;", "·"},
                                                                                     {"&hellip;", "…"},
                                                                                     {"&mdash;", "—"},
                                                                                     {"&amp;", "&"}})
        for (size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at))
            text.replace(at, entity.size(), ch);
    return text;
}

// The scenario's own words, which no translation changes: its name, file name and description
// (written by the scenario's author), its items, operations, devices, topology and switches, its
// cost profile.
std::vector<std::string> reportScenarioNames(const Scenario& s, const std::string& file)
{
    std::vector<std::string> names = {s.name, file, s.description, s.topology.name, s.topology.source, s.costProfile};
    for (const WorkloadItem& item : s.workload.items)
        names.push_back(item.name);
    for (const Op& op : s.program) {
        names.push_back(op.name);
        names.push_back(opName(op.kind));
    }
    for (const Gpu& g : s.topology.gpus)
        names.push_back(g.name);
    for (const SwitchNode& sw : s.topology.switches)
        names.push_back(sw.id);
    // and the command a learner types to see the same matrix on a machine (code, not prose)
    names.push_back("nvidia-smi topo -m");
    std::erase_if(names, [](const std::string& n) { return n.empty(); });
    return names;
}

std::vector<std::filesystem::path> shippedScenarioFiles()
{
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(SHARDLAB_SCENARIO_DIR))
        if (entry.path().string().ends_with(".shardlab.json"))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST(LabReportChinese, EveryShippedScenarioHasNoEnglishLeft)
{
    const auto files = shippedScenarioFiles();
    ASSERT_GE(files.size(), 10u);
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        auto scenario = loadScenario(path.string());
        ASSERT_TRUE(scenario.ok()) << scenario.error().message;
        LabReportOptions options;
        options.language = Language::Chinese;
        options.scenarioFile = path.filename().string();
        auto report = buildLabReport(*scenario, options);
        ASSERT_TRUE(report.ok()) << report.error().message;
        const std::string html = labReportHtml(*report);
        EXPECT_NE(html.find("<html lang=\"zh-CN\">"), std::string::npos);
        EXPECT_NE(html.find("实验报告"), std::string::npos);
        std::string text = reportVisibleText(html);

        EXPECT_EQ(untranslatedWords(text, reportScenarioNames(*scenario, path.filename().string())),
                  std::vector<std::string>{});
        EXPECT_EQ(text.find("[report."), std::string::npos) << "a wording missing from the catalogue";
    }
}

TEST(LabReportChinese, FiguresAreWordedInChineseAndKeepThePaletteColours)
{
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    LabReportOptions options;
    options.language = Language::Chinese;
    auto zh = buildLabReport(s, options);
    auto en = buildLabReport(s);
    ASSERT_TRUE(zh.ok() && en.ok());
    const auto zhFigures = labReportFigures(*zh), enFigures = labReportFigures(*en);
    ASSERT_EQ(zhFigures.size(), enFigures.size());
    for (size_t i = 0; i < zhFigures.size(); ++i) {
        SCOPED_TRACE(zhFigures[i].id);
        EXPECT_EQ(zhFigures[i].id, enFigures[i].id);
        EXPECT_NE(zhFigures[i].title, enFigures[i].title);
        // the same colours in the same number in both languages
        for (palette::Category c : palette::kCategories) {
            const std::string fill = std::string("fill=\"") + palette::hex(c) + "\"";
            size_t zhCount = 0, enCount = 0;
            for (size_t at = zhFigures[i].svg.find(fill); at != std::string::npos;
                 at = zhFigures[i].svg.find(fill, at + 1))
                ++zhCount;
            for (size_t at = enFigures[i].svg.find(fill); at != std::string::npos;
                 at = enFigures[i].svg.find(fill, at + 1))
                ++enCount;
            EXPECT_EQ(zhCount, enCount) << palette::name(c);
        }
    }
    const std::string timeline = zhFigures.front().svg;
    EXPECT_NE(timeline.find(">Rank 0（Straggler）<"), std::string::npos);
    EXPECT_NE(timeline.find(">第 1 次迭代<"), std::string::npos);
    EXPECT_NE(timeline.find(">时间 (ms)<"), std::string::npos);
    EXPECT_NE(timeline.find(">在同步点等待<"), std::string::npos);
}

TEST(LabReportChinese, LegendNamesInEnglishAreThePalettesNames)
{
    for (palette::Category c : palette::kCategories)
        EXPECT_EQ(categoryName(c, Language::English), palette::name(c));
}

TEST(LabReportChinese, TheTopologyMatrixIsWordedInChinese)
{
    const Scenario s = test::loadExample("straggler-12-6-4-2.shardlab.json");
    const std::string zh = topoMatrixText(s.topology, Language::Chinese);
    EXPECT_NE(zh.find("图例："), std::string::npos);
    EXPECT_NE(zh.find("PHB  = 经过 PCIe 以及一个 PCIe 主桥（通常是 CPU）的连接"), std::string::npos) << zh;
    EXPECT_NE(zh.find("GPU0 <-> GPU1"), std::string::npos);
    EXPECT_EQ(zh.find("Legend"), std::string::npos);
}

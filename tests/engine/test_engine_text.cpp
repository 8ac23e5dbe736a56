// Everything the engine says about every shipped scenario and every lesson's scenarios, worded in
// Chinese (no English word left but technical terms, units and the scenario's own names) and in
// English (no catalogue id and no placeholder left): the summary and its table, the diagnosis,
// the scaling notes, the hang report, and `shardlab sim` / `shardlab diagnose` with --lang and
// with LC_ALL (docs/translations.md, "The engine's sentences").
#include "../cli/cli_test_helpers.h"

#include "shardlab/analysis/collective_choice.h"
#include "shardlab/analysis/collective_comparison.h"
#include "shardlab/analysis/diagnosis.h"
#include "shardlab/analysis/diagnosis_format.h"
#include "shardlab/analysis/scaling.h"
#include "shardlab/analysis/scaling_format.h"
#include "shardlab/base/resources.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/lessons/lessons.h"
#include "shardlab/model/capacity.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>

using namespace shardlab;
using namespace shardlab::test;

namespace {

std::vector<std::string> shippedScenarioFiles()
{
    std::set<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(SHARDLAB_SCENARIO_DIR))
        if (entry.path().string().ends_with(".shardlab.json"))
            files.insert(std::filesystem::weakly_canonical(entry.path()).string());
    auto lessons = loadLessons(lessonDirectory());
    EXPECT_TRUE(lessons) << (lessons ? "" : lessons.error().message);
    if (lessons)
        for (const Lesson& lesson : *lessons) {
            files.insert(std::filesystem::weakly_canonical(lesson.scenarioPath()).string());
            if (!lesson.compareScenario.empty())
                files.insert(std::filesystem::weakly_canonical(lesson.compareScenarioPath()).string());
        }
    return {files.begin(), files.end()};
}

// The names the user chose, which stay as they are in every language.
std::vector<std::string> namesOf(const Scenario& s)
{
    std::vector<std::string> names{s.name, s.topology.name};
    for (const WorkloadItem& item : s.workload.items)
        names.push_back(item.name);
    for (const Op& op : s.program)
        names.push_back(op.name);
    for (const Gpu& g : s.topology.gpus) {
        names.push_back(g.id);
        names.push_back(g.name);
    }
    for (const SwitchNode& sw : s.topology.switches)
        names.push_back(sw.id);
    // the machines of the scaling curve: the scenario's widened to more GPUs and nodes, with the
    // switches and NICs its preset names ("n0/n0-nic6", "fabric")
    const Topology tpl = scalingTemplate(s.topology);
    for (int gpus : {2 * s.ranks(), 2 * s.ranks() + 1})
        if (auto bigger = rescaleScenario(s, tpl, gpus, ScalingMode::Strong, nullptr))
            for (const SwitchNode& sw : bigger->topology.switches)
                names.push_back(sw.id);
    std::erase(names, std::string());
    return names;
}

// Every sentence the engine has about one run of `s`, in `language`.
std::string everythingSaid(const Scenario& s, Language language)
{
    auto run = simulate(s);
    EXPECT_TRUE(run) << (run ? "" : run.error().message);
    if (!run)
        return {};
    const Summary summary = summarize(s, *run);
    DiagnosisContext ctx;
    Result<ScalingCurve> curve = Error{ErrorKind::Cancelled, "not asked for"};
    if (!run->hang) {
        ScalingOptions o;
        o.maxGpus = 2 * s.ranks();
        curve = scalingCurve(s, o);
        if (curve)
            ctx.scaling = &*curve;
    }
    const std::vector<Finding> findings = wordedIn(diagnose(s, *run, summary, ctx), language);
    std::string text = formatSummaryTable(s, summary, language) + "\n" + wordedSentence(summary, language) + "\n"
                       + formatFindings(findings, language);
    for (const Finding& f : findings)
        for (const std::string& e : f.evidenceNeeded)
            text += e + "\n";
    for (const Message& w : capacityOf(s).warningMessages)
        text += render(w, language) + "\n";
    for (const Message& g : ownershipGaps(s).wordings)
        text += render(g, language) + "\n";
    if (curve) {
        for (const ScalingNote& note : curve->notes)
            text += render(note.message(), language) + "\n";
        ScalingCurve worded = *curve;
        worded.rescaleNotes.clear(); // English by design (formatScalingTable says so)
        text += formatScalingTable(worded, language); // `shardlab scale`'s table
    }
    if (run->hang) {
        text += render(run->hang->explanationMessage(), language) + "\n";
        for (size_t r = 0; r < run->hang->pending.size(); ++r)
            text += render(run->hang->pendingMessage(r), language) + "\n";
    }
    return text;
}

std::string joined(const std::vector<std::string>& words)
{
    std::string out;
    for (const std::string& w : words)
        out += (out.empty() ? "" : ", ") + w;
    return out;
}

// "[summary.hung]" (an id the catalogue lacks) or "{rank}" (a placeholder without a value).
bool hasLeftovers(const std::string& text)
{
    static const std::regex leftover(R"(\[[a-z_]+(\.[a-z_0-9]+)+\]|\{[a-z_]+\})");
    return std::regex_search(text, leftover);
}

} // namespace

TEST(EngineText, EveryShippedScenarioAndLessonIsWordedInChineseWithoutEnglishLeft)
{
    const std::vector<std::string> files = shippedScenarioFiles();
    ASSERT_GE(files.size(), 16u);
    for (const std::string& file : files) {
        SCOPED_TRACE(file);
        auto s = loadScenario(file);
        ASSERT_TRUE(s) << s.error().message;
        const std::string zh = everythingSaid(*s, Language::Chinese);
        EXPECT_EQ(joined(untranslatedWords(zh, namesOf(*s))), "") << zh;
        EXPECT_FALSE(hasLeftovers(zh)) << zh;
        EXPECT_NE(zh.find("单步时间"), std::string::npos) << zh; // the table is Chinese too
    }
}

TEST(EngineText, EveryShippedScenarioAndLessonIsWordedInEnglishWithNoIdOrPlaceholderLeft)
{
    for (const std::string& file : shippedScenarioFiles()) {
        SCOPED_TRACE(file);
        auto s = loadScenario(file);
        ASSERT_TRUE(s) << s.error().message;
        const std::string en = everythingSaid(*s, Language::English);
        EXPECT_FALSE(hasLeftovers(en)) << en;
        EXPECT_NE(en.find("step time"), std::string::npos) << en;
        // English is what it was: the summary's sentence as summarize() keeps it
        auto run = simulate(*s);
        ASSERT_TRUE(run);
        const Summary summary = summarize(*s, *run);
        EXPECT_EQ(summary.sentence, wordedSentence(summary, Language::English));
        EXPECT_EQ(wordedIn(summary, Language::English).speedupNote, summary.speedupNote);
    }
}

TEST(EngineText, TheStragglerSentenceInChineseSaysWhoWaits)
{
    auto s = loadScenario(scenario("straggler-12-6-4-2.shardlab.json"));
    ASSERT_TRUE(s) << s.error().message;
    auto run = simulate(*s);
    ASSERT_TRUE(run);
    const Summary summary = summarize(*s, *run);
    const std::string zh = wordedSentence(summary, Language::Chinese);
    EXPECT_NE(zh.find("Rank 0"), std::string::npos) << zh;
    EXPECT_NE(zh.find("等待"), std::string::npos) << zh;
    EXPECT_NE(summary.sentence.find("the others wait"), std::string::npos) << summary.sentence;
    const std::vector<Finding> findings = wordedIn(diagnose(*s, *run, summary), Language::Chinese);
    ASSERT_FALSE(findings.empty());
    bool waitedFor = false;
    for (const Finding& f : findings)
        waitedFor = waitedFor || f.title == "每个同步点都在等待 Rank 0";
    EXPECT_TRUE(waitedFor);
}

TEST(EngineText, TheCommandLineSpeaksTheLanguageOfLangOrOfTheEnvironment)
{
    for (const std::string& file : shippedScenarioFiles()) {
        SCOPED_TRACE(file);
        auto s = loadScenario(file);
        ASSERT_TRUE(s) << s.error().message;
        const std::vector<std::string> names = namesOf(*s);
        for (const char* command : {"sim", "diagnose"}) {
            SCOPED_TRACE(command);
            std::vector<std::string> args{command, file, "--lang", "zh"};
            if (std::string(command) == "diagnose")
                args.push_back("--no-scaling");
            const CliRun zh = runCommand(args);
            EXPECT_TRUE(zh.status == 0 || zh.status == 3) << zh.err;
            EXPECT_EQ(joined(untranslatedWords(zh.out + zh.err, names)), "") << zh.out << zh.err;
            EXPECT_FALSE(hasLeftovers(zh.out + zh.err)) << zh.out << zh.err;
            args[3] = "en";
            const CliRun en = runCommand(args);
            EXPECT_EQ(en.status, zh.status);
            EXPECT_FALSE(hasLeftovers(en.out + en.err)) << en.out << en.err;
            EXPECT_EQ(en.out.find("单步"), std::string::npos);
        }
    }
}

TEST(EngineText, LangIsAnOptionOfEveryCommandAndTheEnvironmentIsTheDefault)
{
    const std::string file = scenario("straggler-12-6-4-2.shardlab.json");
    // before the command's name, after it, and from LC_ALL / LANG
    EXPECT_NE(runCommand({"--lang", "zh", "sim", file}).out.find("单步时间"), std::string::npos);
    EXPECT_NE(runCommand({"sim", file, "--lang", "zh"}).out.find("单步时间"), std::string::npos);
    EXPECT_EQ(runCommand({"sim", file, "--lang", "fr"}).status, shardlab::cli::kExitBadInput);
    ::setenv("LC_ALL", "zh_CN.UTF-8", 1);
    const CliRun fromEnvironment = runCommand({"diagnose", file, "--no-scaling"});
    const CliRun asked = runCommand({"diagnose", file, "--no-scaling", "--lang", "en"});
    ::unsetenv("LC_ALL");
    EXPECT_NE(fromEnvironment.out.find("每个同步点都在等待 Rank 0"), std::string::npos) << fromEnvironment.out;
    EXPECT_NE(asked.out.find("Every sync point waits for rank 0"), std::string::npos) << asked.out;
    // --json stays English for scripts
    ::setenv("LC_ALL", "zh_CN.UTF-8", 1);
    const CliRun json = runCommand({"diagnose", file, "--no-scaling", "--json"});
    ::unsetenv("LC_ALL");
    EXPECT_NE(json.out.find("Every sync point waits for rank 0"), std::string::npos) << json.out;
}

TEST(EngineText, AHungRunReadBackFromAResultFileIsWordedAgainAndOldFilesStillRead)
{
    auto s = loadScenario(scenario("hang-mismatched-collective.shardlab.json"));
    ASSERT_TRUE(s) << s.error().message;
    auto run = simulate(*s);
    ASSERT_TRUE(run);
    ASSERT_TRUE(run->hang);
    auto back = parseRunResult(serializeRunResult(*run));
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_TRUE(back->hang);
    EXPECT_EQ(back->hang->explanation, run->hang->explanation); // the English, as before
    const std::string zh = render(back->hang->explanationMessage(), Language::Chinese);
    EXPECT_EQ(zh, render(run->hang->explanationMessage(), Language::Chinese));
    EXPECT_NE(zh.find("各 Rank 停在第"), std::string::npos) << zh;
    EXPECT_EQ(render(back->hang->pendingMessage(0), Language::Chinese), render(run->hang->pendingMessage(0), Language::Chinese));
    // a file written before the messages: its English is shown as it is
    RunResult old = *run;
    old.hang->explanationWording = {};
    old.hang->pendingMessages.clear();
    auto oldBack = parseRunResult(serializeRunResult(old));
    ASSERT_TRUE(oldBack) << oldBack.error().message;
    EXPECT_EQ(render(oldBack->hang->explanationMessage(), Language::Chinese), run->hang->explanation);
}

TEST(EngineText, TheCollectiveComparisonAndEveryChoiceAreWordedInChinese)
{
    auto s = loadScenario(scenario("lab-two-gpu-all-reduce.shardlab.json"));
    ASSERT_TRUE(s) << s.error().message;
    CostModel model(s->topology);
    const CollectiveComparison c = compareAllReduceWithRsAg(model, {0, 1}, 256 << 20);
    const std::string zh = render(comparisonMessage(c), Language::Chinese);
    EXPECT_EQ(joined(untranslatedWords(zh)), "") << zh;
    EXPECT_EQ(describeComparison(c), english(comparisonMessage(c)));
    int worded = 0;
    for (Need need : {Need::SumOnOneRank, Need::SumOnEveryRank, Need::SliceOfSumOnEveryRank,
                      Need::ConcatenationOnEveryRank, Need::CopyOfOneRanksData})
        for (OpKind chosen : {OpKind::AllReduce, OpKind::Reduce, OpKind::Broadcast, OpKind::AllGather, OpKind::AllGatherV,
                              OpKind::ReduceScatter, OpKind::ReduceScatterAllGather})
            for (bool unequal : {false, true}) {
                if (unequal && need != Need::ConcatenationOnEveryRank)
                    continue; // unequal pieces are a concatenation's (All-Gather (unequal sizes))
                const ChoiceConsequence choice = consequenceOfChoosing(chosen, need, 4, 1 << 20, unequal);
                EXPECT_EQ(choice.sentence, english(choice.sentenceMessage));
                EXPECT_FALSE(hasLeftovers(choice.sentence)) << choice.sentence;
                if (!choice.rejected.empty())
                    continue; // the engine's reason for refusing the inputs stays as it wrote it
                const std::string text = render(choice.sentenceMessage, Language::Chinese);
                EXPECT_EQ(joined(untranslatedWords(text)), "") << text;
                ++worded;
            }
    EXPECT_GT(worded, 25);
}

// Everything the engine says about every shipped scenario and every lesson's scenarios, worded in
// Chinese (no English word left but technical terms, units and the scenario's own names) and in
// English (no catalogue id and no placeholder left): the summary and its table, the diagnosis,
// the scaling notes, the hang report, and `shardlab sim` / `shardlab diagnose` with --lang and
// with LC_ALL (docs/translations.md, "The engine's sentences").
#include "../../cli/cli_test_helpers.h"

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
#include "shardlab/live/live.h"
#include "shardlab/model/capacity.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/analysis/sweep.h"
#include "shardlab/model/presets.h"
#include "shardlab/text/catalogue.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include <unistd.h>

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
    Result<ScalingCurve> curve = Error(ErrorKind::Cancelled, verbatim("not asked for"));
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
        text += formatScalingTable(*curve, language); // `shardlab scale`'s table, with how the scenario was rescaled
        EXPECT_EQ(curve->rescaleMessages.size(), curve->rescaleNotes.size());
        for (size_t i = 0; i < curve->rescaleNotes.size() && i < curve->rescaleMessages.size(); ++i)
            EXPECT_EQ(english(curve->rescaleMessages[i]), curve->rescaleNotes[i]);
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
    EXPECT_EQ(render(back->hang->pendingMessage(0), Language::Chinese),
              render(run->hang->pendingMessage(0), Language::Chinese));
    // a file written before the messages: its English is shown as it is
    RunResult old = *run;
    old.hang->explanationWording = {};
    old.hang->pendingMessages.clear();
    auto oldBack = parseRunResult(serializeRunResult(old));
    ASSERT_TRUE(oldBack) << oldBack.error().message;
    EXPECT_EQ(render(oldBack->hang->explanationMessage(), Language::Chinese), run->hang->explanation);
}

TEST(EngineText, ALiveRunsClockNoteTravelsInItsResultFileAndOldFilesShowTheirEnglish)
{
    auto s = loadScenario(scenario("straggler-12-6-4-2.shardlab.json"));
    ASSERT_TRUE(s) << s.error().message;
    auto run = simulate(*s);
    ASSERT_TRUE(run);
    run->mode = RunMode::Live;
    run->clockNote = Message("live.clock.no_timeline").with("error", "0.50");
    run->notes.push_back(Message("live.note.no_paging"));
    auto back = parseRunResult(serializeRunResult(*run));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->clockNote.id, "live.clock.no_timeline");
    EXPECT_EQ(english(back->clockNote), english(run->clockNote));
    EXPECT_EQ(render(back->clockNote, Language::Chinese),
              "实机，未捕获时间线：只记录了迭代边界（对齐误差至多 0.50 us）");
    EXPECT_EQ(render(run->notes[0], Language::Chinese).find("实机模式不对统一内存分页"), 0u);
    // a file written before the message: its English, as it was
    nlohmann::json old = nlohmann::json::parse(serializeRunResult(*run));
    old.erase("clock_message");
    auto oldBack = parseRunResult(old.dump());
    ASSERT_TRUE(oldBack) << oldBack.error().message;
    EXPECT_EQ(render(oldBack->clockNote, Language::Chinese), english(run->clockNote));
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
        for (OpKind chosen : {OpKind::AllReduce, OpKind::Reduce, OpKind::Broadcast, OpKind::AllGather,
                              OpKind::AllGatherV, OpKind::ReduceScatter, OpKind::ReduceScatterAllGather})
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

// ---- the command line's own tables, errors and help (docs/translations.md, "The command line") ----

namespace {

// The names a topology's table shows as they are: its name, source, GPUs, switches.
std::vector<std::string> topologyNames(const Topology& t)
{
    std::vector<std::string> names{t.name, t.source};
    for (const Gpu& g : t.gpus) {
        names.push_back(g.id);
        names.push_back(g.name);
    }
    for (const SwitchNode& sw : t.switches)
        names.push_back(sw.id);
    std::erase(names, std::string());
    return names;
}

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// What a user types on the command line stays as they type it in every language: options ("--gpus"),
// "shardlab <command>", ANSWER, FILE.json... Taken out before looking for English.
std::string withoutCommandLine(const std::string& text)
{
    // options, "shardlab <command>", JSON paths ($.program[2].bytes)
    static const std::regex typed(R"((^|[^A-Za-z0-9_.-])(--?[a-z][a-z0-9-]*|shardlab( [a-z]+)*|\$[^\s：]*))");
    return std::regex_replace(text, typed, "$1 ");
}

// A Chinese and an English run of `args`: the Chinese without English words but `names`, both
// without a catalogue id or placeholder left; returns the Chinese run.
CliRun bothLanguages(std::vector<std::string> args, const std::vector<std::string>& names)
{
    SCOPED_TRACE(joined(args));
    args.push_back("--lang");
    args.push_back("zh");
    const CliRun zh = runCommand(args);
    const std::string zhText = zh.out + zh.err;
    EXPECT_EQ(joined(untranslatedWords(withoutCommandLine(zhText), names)), "") << zhText;
    EXPECT_FALSE(hasLeftovers(zhText)) << zhText;
    args.back() = "en";
    const CliRun en = runCommand(args);
    EXPECT_EQ(en.status, zh.status);
    EXPECT_FALSE(hasLeftovers(en.out + en.err)) << en.out << en.err;
    EXPECT_NE(en.out + en.err, zhText);
    return zh;
}

std::string writeTemp(const std::string& name, const std::string& text)
{
    const auto path =
        std::filesystem::temp_directory_path() / ("shardlab-text-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

} // namespace

TEST(CommandLineText, CompareTopoAndBenchPrintTheirTablesInChinese)
{
    const Topology t = *preset("h200-nv18-4");
    const std::vector<std::string> names = plus(topologyNames(t), {"h200-nv18-4", "default"});
    const CliRun compare =
        bothLanguages({"compare", "--gpus", "4", "--preset", "h200-nv18-4", "--bytes", "64M"}, names);
    EXPECT_EQ(compare.status, 0) << compare.err;
    EXPECT_NE(compare.out.find("每个 Rank 的显存峰值"), std::string::npos) << compare.out;
    EXPECT_NE(compare.out.find("仅 Reduce-Scatter"), std::string::npos) << compare.out;

    for (const char* collective : {"all_reduce", "broadcast", "all_gather"}) {
        const CliRun bench = bothLanguages({"bench", "--sim", "--preset", "h200-nv18-4", "--gpus", "4", "--collective",
                                            collective, "--sizes", "8:1G:16"},
                                           plus(names, ncclTestsTableWords()));
        EXPECT_EQ(bench.status, 0) << bench.err;
        EXPECT_NE(bench.out.find("模拟扫描"), std::string::npos) << bench.out;
        EXPECT_NE(bench.out.find("busbw"), std::string::npos) << bench.out;
    }

    for (const PresetInfo& p : presetList()) {
        const CliRun topo = bothLanguages({"topo", "--preset", p.id}, plus(topologyNames(*preset(p.id)), {p.id}));
        EXPECT_EQ(topo.status, 0) << topo.err;
    }
    // the English tables are what they were
    const CliRun en =
        runCommand({"compare", "--gpus", "4", "--preset", "h200-nv18-4", "--bytes", "64M", "--lang", "en"});
    EXPECT_NE(en.out.find("peak memory per rank"), std::string::npos) << en.out;
    EXPECT_NE(en.out.find("# All-reduce against reduce-scatter + all-gather: "), std::string::npos) << en.out;
}

TEST(CommandLineText, CalibratePrintsItsAccuracyTableInChinese)
{
    // measurements "made elsewhere": simulated sweeps written as `bench --json` writes them
    std::vector<std::string> files;
    for (const char* collective : {"all_reduce", "all_gather", "broadcast"})
        for (const char* gpus : {"2", "4"}) {
            const CliRun sweep = runCommand({"bench", "--sim", "--json", "--preset", "h200-nv18-4", "--gpus", gpus,
                                             "--collective", collective, "--sizes", "8:1G:8"});
            ASSERT_EQ(sweep.status, 0) << sweep.err;
            files.push_back(writeTemp(std::string(collective) + "-" + gpus + ".json", sweep.out));
        }
    std::vector<std::string> args{"calibrate", "--no-save", "--preset", "h200-nv18-4", "--measured"};
    args.insert(args.end(), files.begin(), files.end());
    std::vector<std::string> names = plus(topologyNames(*preset("h200-nv18-4")), {"calibrated", "default"});
    const CliRun zh = bothLanguages(args, names);
    EXPECT_EQ(zh.status, 0) << zh.err;
    EXPECT_NE(zh.out.find("校准后 us"), std::string::npos) << zh.out;
    EXPECT_NE(zh.out.find("个样本的 |误差|"), std::string::npos) << zh.out;
    for (const std::string& f : files)
        std::filesystem::remove(f);
}

TEST(CommandLineText, LessonsAreListedAndShownInChinese)
{
    auto lessons = loadLessons(lessonDirectory());
    ASSERT_TRUE(lessons) << lessons.error().message;
    std::vector<std::string> names;
    for (const Lesson& l : *lessons) {
        // the lesson's own texts come from its file (docs/lessons.md), not from the command line
        for (const LocalizedText* t : {&l.title, &l.course, &l.summary})
            names.push_back(t->in(Language::Chinese));
        for (const LessonStep& step : l.steps)
            names.push_back(step.text.in(Language::Chinese));
        for (const LessonQuestion& q : l.questions) {
            names.push_back(q.prompt.in(Language::Chinese));
            names.push_back(q.hint.in(Language::Chinese));
            for (const LessonChoice& c : q.choices)
                names.push_back(c.text.in(Language::Chinese));
        }
        names.push_back(l.id);
        names.push_back(l.scenarioPath().lexically_normal().string());
        names.push_back(l.compareScenarioPath().lexically_normal().string());
        for (const LessonQuestion& q : l.questions) {
            names.push_back(q.numeric.unit);
            for (const LessonChoice& c : q.choices)
                names.push_back(c.id);
        }
    }
    names.push_back("ANSWER");
    std::erase(names, std::string());
    EXPECT_EQ(bothLanguages({"lessons"}, names).status, 0);
    for (const Lesson& l : *lessons) {
        const CliRun zh = bothLanguages({"lessons", "show", l.id}, names);
        EXPECT_EQ(zh.status, 0) << zh.err;
        EXPECT_NE(zh.out.find("问题 1（"), std::string::npos) << zh.out;
    }
}

TEST(CommandLineText, EveryHelpTextHasItsChinese)
{
    CLI::App app{"", "shardlab"};
    std::ostringstream out, err;
    Language language = Language::English;
    shardlab::cli::Io io{out, err, &language};
    shardlab::cli::Action action;
    std::string lang;
    bool version = false;
    shardlab::cli::buildApp(app, io, action, lang, version);
    const std::vector<shardlab::cli::HelpText> texts = shardlab::cli::helpTexts(app);
    ASSERT_GT(texts.size(), 70u);
    for (const shardlab::cli::HelpText& h : texts) {
        SCOPED_TRACE(h.app->get_name() + " " + (h.option ? h.option->get_name() : std::string("(description)")));
        EXPECT_FALSE(shardlab::cli::helpInChinese(h.english).empty())
            << "no help.inc entry whose English is: " << h.english;
    }
}

TEST(CommandLineText, HelpOfEveryCommandIsInChinese)
{
    // Latin words that help.inc's Chinese keeps on purpose (what users type: START:END:FACTOR, OUT.pdf...)
    // and the names of commands and positionals, what users type
    std::vector<std::string> kept{"shardlab", "topo",     "sim",     "bench",     "live",   "report", "lessons",
                                  "scale",    "diagnose", "compare", "calibrate", "show",   "check",  "plan",
                                  "import",   "profile",  "FILE",    "ID",        "ANSWER", "MODEL"};
    for (const CatalogueEntry& e : catalogue())
        if (e.id.starts_with("help."))
            for (const std::string& w : untranslatedWords(e.zh))
                kept.push_back(w);
    std::vector<std::vector<std::string>> commands = {{}, {"lessons", "show"}, {"lessons", "check"}};
    for (const char* c :
         {"topo", "sim", "bench", "live", "report", "lessons", "scale", "diagnose", "compare", "calibrate", "plan"})
        commands.push_back({c});
    for (std::vector<std::string> args : commands) {
        args.push_back("--help");
        const CliRun zh = bothLanguages(args, kept);
        EXPECT_EQ(zh.status, 0);
        EXPECT_NE(zh.out.find("用法"), std::string::npos) << zh.out;
        if (args.size() <= 2) { // the footer of the app and its commands (not of `lessons show`)
            EXPECT_NE(zh.out.find("大小：命令行上"), std::string::npos) << zh.out;
        }
        // without --lang the environment decides
        ::setenv("LC_ALL", "zh_CN.UTF-8", 1);
        const CliRun fromLang = runCommand(args);
        ::unsetenv("LC_ALL");
        EXPECT_EQ(fromLang.out, zh.out);
    }
}

TEST(CommandLineText, ABrokenScenarioFileSaysWhatIsWrongInChineseWithItsPathAndValues)
{
    struct Case {
        const char* name;
        std::string text;
        const char* zh; // a piece of the Chinese message
        const char* en; // the same piece of the English (unchanged)
    };
    const std::string good = R"({"shardlab": 1, "name": "x", "topology": {"preset": "h200-nv18-4"}, )";
    const Case cases[] = {
        {"png.shardlab.json", std::string("\x89PNG\r\n\x1a\n", 8),
         "不是 ShardLab 文件：它的开头不像 JSON（第一个字节是 0x89）",
         "not a ShardLab file: it does not start like JSON (its first byte is 0x89)"},
        {"empty.shardlab.json", "", "：$：文件是空的", ": $: the file is empty"},
        {"broken.shardlab.json", "{\"shardlab\": 1,", "第 1 行第 ", "not valid JSON at line 1, column "},
        {"type.shardlab.json", good + R"("iterations": "ten"})", "：$.iterations：这里是字符串（应为 1 到 ",
         ": $.iterations: found a string (expected an integer from 1 to "},
        {"range.shardlab.json", good + R"("iterations": 0})", "：$.iterations：0 超出范围（应为 1 到 ",
         ": $.iterations: 0 is out of range (expected an integer from 1 to "},
        {"key.shardlab.json", good + R"("iteratoins": 3})", "：$.iteratoins：未知的键（应为以下之一：shardlab, name",
         ": $.iteratoins: unknown key (expected one of: shardlab, name"},
        {"value.shardlab.json", good + R"("memory_mode": "paged"})",
         "：$.memory_mode：无法识别“paged”（应为 strict 或 unified）",
         ": $.memory_mode: 'paged' (expected strict or unified)"},
        {"missing.shardlab.json", R"({"shardlab": 1, "name": "x"})",
         "：$.topology：缺少此项（应为 {\"preset\": ID} 或显式给出的拓扑）",
         ": $.topology: missing (expected {\"preset\": ID} or an explicit topology)"},
        // the readers' other messages, worded from readers.inc
        {"item.shardlab.json", good + R"("program": [{"op": "all_reduce", "item": "nothing"}]})",
         "：$.program[0].item：“nothing”不是工作负载条目", ": $.program[0].item: 'nothing' is not a workload item"},
        {"root.shardlab.json",
         good + R"("program": [{"op": "broadcast", "bytes": "1 MB", "group": [0, 1], "root": 3}]})",
         "：$.program[0].root：Rank 3 不在组内", ": $.program[0].root: rank 3 is not in the group"},
        {"self.shardlab.json",
         R"({"shardlab": 1, "name": "x", "topology": {"gpus": [{"id": "a", "memory": "16 GB", "tflops": 10}], "links": [{"from": "a", "to": "a", "kind": "nvlink", "bandwidth": 100}]}})",
         "：$.topology.links[0]：把“a”连到了它自己", ": $.topology.links[0]: joins 'a' to itself"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const std::string file = writeTemp(c.name, c.text);
        const std::vector<std::string> names{file,         "iteratoins",  "preset",    "key",
                                             "paged",      "strict",      "unified",   "shardlab",
                                             "name",       "description", "name_zh",   "description_zh",
                                             "topology",   "workload",    "program",   "perturbations",
                                             "iterations", "memory_mode", "strategy",  "cost_profile",
                                             "mesh",       "ID",          "syntax",    "error",
                                             "while",      "parsing",     "object",    "unexpected",
                                             "end",        "of",          "input",     "expected",
                                             "string",     "literal",     "separator", "nothing"};
        const CliRun zh = bothLanguages({"sim", file}, names);
        EXPECT_EQ(zh.status, shardlab::cli::kExitBadInput);
        EXPECT_NE(zh.err.find(c.zh), std::string::npos) << zh.err;
        EXPECT_NE(zh.err.find(file), std::string::npos) << zh.err;
        const CliRun en = runCommand({"sim", file, "--lang", "en"});
        EXPECT_NE(en.err.find(c.en), std::string::npos) << en.err;
        std::filesystem::remove(file);
    }
    const CliRun missing = bothLanguages({"sim", "/no/such/file.shardlab.json"}, {"/no/such/file.shardlab.json"});
    EXPECT_NE(missing.err.find("/no/such/file.shardlab.json：文件不存在"), std::string::npos) << missing.err;
}

TEST(CommandLineText, UsageErrorsAreWordedInChinese)
{
    const CliRun required = bothLanguages({"compare", "--preset", "h200-nv18-4"}, {});
    EXPECT_EQ(required.status, shardlab::cli::kExitBadInput);
    EXPECT_NE(required.err.find("缺少必需的 --gpus"), std::string::npos) << required.err;
    const CliRun range = bothLanguages({"sim", scenario("straggler-12-6-4-2.shardlab.json"), "--iterations", "0"}, {});
    EXPECT_NE(range.err.find("--iterations：0 超出范围（应为 1 到 100000）"), std::string::npos) << range.err;
    const CliRun extra = bothLanguages({"topo", "--list", "surplus"}, {"surplus"});
    EXPECT_NE(extra.err.find("以下参数无法识别：surplus"), std::string::npos) << extra.err;
    const CliRun collective = bothLanguages(
        {"bench", "--sim", "--gpus", "2", "--preset", "h200-nv18-4", "--collective", "alltoall"}, {"alltoall"});
    EXPECT_NE(collective.err.find("“alltoall”不是 Collective"), std::string::npos) << collective.err;
    const CliRun output =
        bothLanguages({"report", scenario("straggler-12-6-4-2.shardlab.json"), "-o", "out.txt"}, {"out.txt"});
    EXPECT_NE(output.err.find("-o out.txt：文件名应以 .html 或 .pdf 结尾"), std::string::npos) << output.err;
    if (!liveBuiltIn()) { // where this ShardLab has no live mode, as here without CUDA
        const CliRun bench = bothLanguages({"bench", "--gpus", "2"}, {"ID"});
        EXPECT_NE(bench.err.find("此 ShardLab 未内置实机模式；加上 --sim --preset ID 来模拟这次扫描"),
                  std::string::npos)
            << bench.err;
    }
    // the command line's own errors, born as Messages
    const CliRun profile = bothLanguages({"profile"}, {"profile", "./prog", "DIR", "RESULT"}); // the command, as typed
    EXPECT_NE(profile.err.find("profile：请在 -- 之后给出要运行的程序"), std::string::npos) << profile.err;
    std::vector<std::string> lessonIds{"nope"};
    if (auto lessons = loadLessons(lessonDirectory()))
        for (const Lesson& l : *lessons)
            lessonIds.push_back(l.id);
    const CliRun lesson = bothLanguages({"lessons", "show", "nope"}, lessonIds);
    EXPECT_NE(lesson.err.find("没有课程“nope”（已有："), std::string::npos) << lesson.err;
    if (!liveBuiltIn()) {
        const std::string out = writeTemp("live-report.html", "");
        const CliRun live =
            bothLanguages({"report", scenario("straggler-12-6-4-2.shardlab.json"), "--live", "-o", out}, {out});
        EXPECT_NE(live.err.find("--live：实机模式未内置（"), std::string::npos) << live.err;
        const CliRun run = bothLanguages({"live", scenario("straggler-12-6-4-2.shardlab.json")}, {"README"});
        EXPECT_NE(run.err.find("此 ShardLab 未内置实机模式（构建时没有 CUDA/NCCL）"), std::string::npos) << run.err;
        std::filesystem::remove(out);
    }
    const CliRun bytes =
        bothLanguages({"compare", "--gpus", "2", "--preset", "h200-nv18-4", "--bytes", "abc"}, {"abc", "8B", "64K"});
    EXPECT_NE(bytes.err.find("--bytes：“abc”不是大小（应为例如 8, 8B, 64K, 1M, 4G）"), std::string::npos) << bytes.err;
    if (!liveBuiltIn()) {
        const CliRun measured = bothLanguages({"calibrate", "--measured", "x.json"}, {"ID", "shardlab topo --list"});
        EXPECT_NE(measured.err.find("--measured 需要测量时所用的拓扑：请加上 --preset ID（此 ShardLab 构建时没有 CUDA"),
                  std::string::npos)
            << measured.err;
    }
    std::vector<std::string> ids{"h200"};
    for (const PresetInfo& p : presetList())
        ids.push_back(p.id);
    const CliRun preset = bothLanguages({"topo", "--preset", "h200"}, ids);
    EXPECT_NE(preset.err.find("未知的预设“h200”"), std::string::npos) << preset.err;
}

TEST(CommandLineText, VersionPresetListAndReportLinesAreWordedInChinese)
{
    // --version: what the engine says about live mode and MPI, worded; the library names and paths stay
    const CliRun en = runCommand({"--version", "--lang", "en"});
    ASSERT_EQ(en.status, 0);
    std::vector<std::string> names{"0.1.0"};
    static const std::regex mpiBuilt(R"(built in \(([^;]*); module (.*)\)\n)");
    static const std::regex liveBuilt(R"(built in \((.*)\); loads here: (?:yes|no) \((.*)\)\n)");
    std::smatch m;
    if (std::regex_search(en.out, m, mpiBuilt))
        names.insert(names.end(), {m[1].str(), m[2].str()});
    if (std::regex_search(en.out, m, liveBuilt))
        names.insert(names.end(), {m[1].str(), m[2].str()});
    const CliRun version = bothLanguages({"--version"}, names);
    EXPECT_NE(version.out.find("实机模式："), std::string::npos) << version.out;
    EXPECT_NE(version.out.find("多进程（mpirun/srun）："), std::string::npos) << version.out;
    if (!liveBuiltIn()) {
        EXPECT_NE(version.out.find("实机模式：未内置（构建此 ShardLab 时没有找到带 NCCL 的 CUDA 工具包；只能模拟）"),
                  std::string::npos)
            << version.out;
    }
    EXPECT_NE(en.out.find("live mode: "), std::string::npos) << en.out; // the English as it was

    // topo --list: every preset's description (the ids stay)
    std::vector<std::string> ids;
    for (const PresetInfo& p : presetList())
        ids.push_back(p.id);
    const CliRun list = bothLanguages({"topo", "--list"}, ids);
    EXPECT_NE(list.out.find("2x8-h100-ib\t2 个节点，每个节点 8 张经 NVSwitch 互连的 H100"), std::string::npos)
        << list.out;

    // report: the line that says what was written
    const std::string out = writeTemp("report.html", "");
    const CliRun report = bothLanguages({"report", scenario("straggler-12-6-4-2.shardlab.json"), "-o", out}, {out});
    EXPECT_EQ(report.status, 0) << report.err;
    EXPECT_NE(report.out.find("已写出 " + out + "（模拟报告，"), std::string::npos) << report.out;
    std::filesystem::remove(out);
}

#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"
#include "shardlab/lessons/lessons.h"

#include "lesson_plan.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace shardlab {

using detail::json;
using detail::JsonReader;

const char* questionTypeName(QuestionType type)
{
    switch (type) {
    case QuestionType::Choice: return "choice";
    case QuestionType::Numeric: return "numeric";
    case QuestionType::Collective: return "collective";
    }
    return "?";
}

namespace {
// The largest example a collective question may give (LessonQuestion::example): a learner reads it,
// and what an all-gather leaves on every rank grows as the square of the ranks, so a 29 KB lesson
// of 6,000 one-value ranks once printed 216 MB. A larger example is refused when the file loads.
constexpr size_t kMaxExampleRanks = 8;
constexpr size_t kMaxExampleValuesPerRank = 8;

constexpr std::string_view kLessonSuffix = ".lesson.json"; // a lesson file's name ends so

struct NeedInfo {
    Need need;
    const char* name;
};
constexpr NeedInfo kNeeds[] = {
    {Need::SumOnOneRank, "sum_on_one_rank"},
    {Need::SumOnEveryRank, "sum_on_every_rank"},
    {Need::SliceOfSumOnEveryRank, "slice_of_sum_on_every_rank"},
    {Need::ConcatenationOnEveryRank, "concatenation_on_every_rank"},
    {Need::CopyOfOneRanksData, "copy_of_one_ranks_data"},
};

// "a, b or c" as a value's expected choices (error.expected.choice): names the user types, the same in every language.
Message choiceOf(std::vector<std::string> names)
{
    const std::string last = names.back();
    names.pop_back();
    std::vector<Message> pieces;
    for (const std::string& name : names)
        pieces.push_back(verbatim(name));
    return Message("error.expected.choice").with("choices", listOf(std::move(pieces))).with("last", last);
}

// "'VALUE' (expected a, b or c)" (error.json.unknown_value)
Message unknownValue(const std::string& value, std::vector<std::string> names)
{
    return Message("error.json.unknown_value").with("value", value).with("expected", choiceOf(std::move(names)));
}

const std::set<std::string>& lessonViewSet()
{
    static const std::set<std::string> views(lessonViews().begin(), lessonViews().end());
    return views;
}

LocalizedText localized(JsonReader& rd, const json& obj, const std::string& path, const char* k, bool required)
{
    LocalizedText t;
    const json* v = rd.find(obj, k);
    if (!v) {
        if (required)
            rd.fail(JsonReader::key(path, k),
                    Message("error.json.missing").with("expected", verbatim("{\"en\": \"...\", \"zh\": \"...\"}")));
        return t;
    }
    const std::string p = JsonReader::key(path, k);
    if (!rd.expectObject(*v, p))
        return t;
    rd.onlyKeys(*v, p, {"en", "zh"});
    t.en = rd.string(*v, p, "en", true).value_or("");
    t.zh = rd.string(*v, p, "zh", true).value_or("");
    if (rd.find(*v, "en") && t.en.empty())
        rd.fail(JsonReader::key(p, "en"), Message("error.says.lesson_text_en"));
    if (rd.find(*v, "zh") && t.zh.empty())
        rd.fail(JsonReader::key(p, "zh"), Message("error.says.lesson_text_zh"));
    return t;
}

std::optional<FigureRef> figureRef(JsonReader& rd, const json& v, const std::string& path)
{
    if (!rd.expectObject(v, path))
        return std::nullopt;
    FigureRef f;
    f.figure = rd.string(v, path, "figure", true).value_or("");
    f.scenario = rd.string(v, path, "scenario", false).value_or("main");
    if (f.scenario != "main" && f.scenario != "compare")
        rd.fail(JsonReader::key(path, "scenario"), unknownValue(f.scenario, {"main", "compare"}));
    if (rd.find(v, "rank") && rd.find(v, "index"))
        rd.fail(path, Message("error.says.both_keys").with("key", "rank").with("other", "index"));
    f.index =
        static_cast<int>(rd.integer(v, path, rd.find(v, "rank") ? "rank" : "index", false, 0, 1'000'000).value_or(-1));
    return f;
}

// {"value": 3} or {"figure": ..., "minus"|"over": {...}} plus tolerance, unit and decimals from `q`.
void readNumeric(JsonReader& rd, const json& v, const std::string& path, NumericAnswer& a)
{
    if (!rd.expectObject(v, path))
        return;
    rd.onlyKeys(v, path,
                {"value", "figure", "scenario", "rank", "index", "minus", "over", "tolerance", "tolerance_pct"});
    if (rd.find(v, "value")) {
        a.value = rd.number(v, path, "value", true, -1e300, 1e300);
        if (rd.find(v, "figure"))
            rd.fail(path, Message("error.says.both_keys").with("key", "value").with("other", "figure"));
    } else if (rd.find(v, "figure")) {
        a.figure = figureRef(rd, v, path);
    } else {
        rd.fail(path, Message("error.lesson.value_or_figure")
                          .with("value", "value")
                          .with("figure", "figure")
                          .with("figure_form", "{\"figure\": NAME}")
                          .with("value_form", "{\"value\": NUMBER}"));
    }
    for (const char* op : {"minus", "over"})
        if (const json* o = rd.find(v, op)) {
            if (a.combine != NumericAnswer::Combine::None)
                rd.fail(path, Message("error.says.both_keys_at_most").with("key", "minus").with("other", "over"));
            a.combine = std::string(op) == "minus" ? NumericAnswer::Combine::Minus : NumericAnswer::Combine::Over;
            a.other = figureRef(rd, *o, JsonReader::key(path, op));
        }
    a.tolerance = rd.number(v, path, "tolerance", false, 0, 1e300).value_or(a.tolerance);
    a.tolerancePct = rd.number(v, path, "tolerance_pct", false, 0, 100).value_or(a.tolerancePct);
}

std::optional<OpKind> collectiveName(JsonReader& rd, const json& v, const std::string& path)
{
    if (!v.is_string()) {
        rd.fail(path, detail::foundInstead(v, Message("error.expects.collective_name")));
        return std::nullopt;
    }
    auto k = opFromName(v.get<std::string>());
    if (!k || !isCollective(*k)) {
        rd.fail(path,
                Message("error.json.unknown_value")
                    .with("value", v.get<std::string>())
                    .with("expected", Message("error.lesson.expected_collective")
                                          .with("names", "all_reduce, reduce, broadcast, all_gather, "
                                                         "all_gather_v, reduce_scatter, reduce_scatter_all_gather, "
                                                         "send_recv")));
        return std::nullopt;
    }
    return k;
}

void readQuestion(JsonReader& rd, const json& v, const std::string& path, LessonQuestion& q)
{
    if (!rd.expectObject(v, path))
        return;
    rd.onlyKeys(v, path,
                {"type", "prompt", "hint", "right", "wrong", "choices", "multiple", "answer", "tolerance",
                 "tolerance_pct", "unit", "decimals", "mistakes", "need", "unequal_pieces", "also_accept", "example",
                 "feedback"});
    const std::string type = rd.string(v, path, "type", true).value_or("");
    if (type == "choice")
        q.type = QuestionType::Choice;
    else if (type == "numeric")
        q.type = QuestionType::Numeric;
    else if (type == "collective")
        q.type = QuestionType::Collective;
    else if (!type.empty())
        rd.fail(JsonReader::key(path, "type"), unknownValue(type, {"choice", "numeric", "collective"}));
    q.prompt = localized(rd, v, path, "prompt", true);
    q.hint = localized(rd, v, path, "hint", false);
    q.right = localized(rd, v, path, "right", true);
    q.wrong = localized(rd, v, path, "wrong", true);

    if (q.type == QuestionType::Choice) {
        q.multiple = rd.boolean(v, path, "multiple").value_or(false);
        const json* cs = rd.find(v, "choices");
        if (!cs || !cs->is_array() || cs->size() < 2) {
            rd.fail(JsonReader::key(path, "choices"), Message("error.says.choices_short"));
            return;
        }
        int right = 0;
        std::set<std::string> ids;
        for (size_t i = 0; i < cs->size(); ++i) {
            const std::string cp = JsonReader::index(JsonReader::key(path, "choices"), i);
            const json& c = (*cs)[i];
            if (!rd.expectObject(c, cp))
                continue;
            rd.onlyKeys(c, cp, {"id", "text", "correct", "explanation"});
            LessonChoice choice;
            choice.id = rd.string(c, cp, "id", true).value_or("");
            if (!choice.id.empty() && !ids.insert(choice.id).second)
                rd.fail(JsonReader::key(cp, "id"), Message("error.lesson.id_twice").with("value", choice.id));
            choice.text = localized(rd, c, cp, "text", true);
            choice.correct = rd.boolean(c, cp, "correct").value_or(false);
            choice.explanation = localized(rd, c, cp, "explanation", true);
            right += choice.correct ? 1 : 0;
            q.choices.push_back(choice);
        }
        if (right == 0)
            rd.fail(JsonReader::key(path, "choices"), Message("error.says.no_correct_choice"));
        if (right > 1 && !q.multiple)
            rd.fail(JsonReader::key(path, "choices"),
                    Message("error.says.several_correct").with("setting", "\"multiple\": true"));
    } else if (q.type == QuestionType::Numeric) {
        if (const json* a = rd.find(v, "answer"))
            readNumeric(rd, *a, JsonReader::key(path, "answer"), q.numeric);
        else
            rd.fail(JsonReader::key(path, "answer"),
                    Message("error.json.missing").with("expected", verbatim("{\"figure\": NAME, ...}")));
        q.numeric.tolerance = rd.number(v, path, "tolerance", false, 0, 1e300).value_or(q.numeric.tolerance);
        q.numeric.tolerancePct = rd.number(v, path, "tolerance_pct", false, 0, 100).value_or(q.numeric.tolerancePct);
        q.numeric.unit = rd.string(v, path, "unit", false).value_or("");
        q.numeric.decimals = static_cast<int>(rd.integer(v, path, "decimals", false, 0, 6).value_or(2));
        if (const json* ms = rd.find(v, "mistakes")) {
            if (!ms->is_array())
                rd.fail(JsonReader::key(path, "mistakes"), detail::foundInstead(*ms, Message("error.expected.array")));
            else
                for (size_t i = 0; i < ms->size(); ++i) {
                    const std::string mp = JsonReader::index(JsonReader::key(path, "mistakes"), i);
                    if (!rd.expectObject((*ms)[i], mp))
                        continue;
                    NumericMistake m;
                    m.answer.tolerance = q.numeric.tolerance;
                    m.answer.tolerancePct = q.numeric.tolerancePct;
                    json answerPart = (*ms)[i];
                    answerPart.erase("explanation");
                    readNumeric(rd, answerPart, mp, m.answer);
                    m.explanation = localized(rd, (*ms)[i], mp, "explanation", true);
                    q.mistakes.push_back(m);
                }
        }
    } else {
        const std::string need = rd.string(v, path, "need", true).value_or("");
        if (auto n = needFromName(need))
            q.need = *n;
        else if (!need.empty())
            rd.fail(JsonReader::key(path, "need"),
                    unknownValue(need, {"sum_on_one_rank", "sum_on_every_rank", "slice_of_sum_on_every_rank",
                                        "concatenation_on_every_rank", "copy_of_one_ranks_data"}));
        q.unequalPieces = rd.boolean(v, path, "unequal_pieces").value_or(false);
        if (const json* aa = rd.find(v, "also_accept")) {
            if (!aa->is_array())
                rd.fail(JsonReader::key(path, "also_accept"),
                        detail::foundInstead(*aa, Message("error.expected.array")));
            else
                for (size_t i = 0; i < aa->size(); ++i)
                    if (auto k =
                            collectiveName(rd, (*aa)[i], JsonReader::index(JsonReader::key(path, "also_accept"), i)))
                        q.alsoAccept.push_back(*k);
        }
        if (const json* ex = rd.find(v, "example")) {
            const std::string ep = JsonReader::key(path, "example");
            bool ok = ex->is_array() && !ex->empty();
            bool bounded = true;
            if (ok && ex->size() > kMaxExampleRanks) {
                rd.fail(ep, Message("error.says.example_ranks")
                                .with("count", std::to_string(ex->size()))
                                .with("max", std::to_string(kMaxExampleRanks))
                                .with("values", std::to_string(kMaxExampleValuesPerRank)));
                bounded = false;
            }
            for (size_t i = 0; ok && bounded && i < ex->size(); ++i)
                if ((*ex)[i].is_array() && (*ex)[i].size() > kMaxExampleValuesPerRank) {
                    rd.fail(JsonReader::index(ep, i), Message("error.says.example_values")
                                                          .with("count", std::to_string((*ex)[i].size()))
                                                          .with("max", std::to_string(kMaxExampleValuesPerRank)));
                    bounded = false;
                }
            for (size_t i = 0; ok && bounded && i < ex->size(); ++i) {
                ok = (*ex)[i].is_array();
                std::vector<double> values;
                for (size_t j = 0; ok && j < (*ex)[i].size(); ++j) {
                    ok = (*ex)[i][j].is_number();
                    if (ok)
                        values.push_back((*ex)[i][j].get<double>());
                }
                q.example.push_back(values);
            }
            if (!ok)
                rd.fail(ep, Message("error.says.values_per_rank"));
        }
        if (const json* fb = rd.find(v, "feedback")) {
            const std::string fp = JsonReader::key(path, "feedback");
            if (rd.expectObject(*fb, fp))
                for (auto it = fb->begin(); it != fb->end(); ++it)
                    if (auto k = collectiveName(rd, json(it.key()), JsonReader::key(fp, it.key())))
                        q.feedback.emplace_back(*k, localized(rd, *fb, fp, it.key().c_str(), true));
        }
    }
}

} // namespace

const std::vector<std::string>& lessonViews()
{
    // `workload` is the editor's workload tab, where the placement strategies are applied
    static const std::vector<std::string> views = {"program",  "workload", "memory",      "topology",
                                                   "timeline", "summary",  "collectives", "comparison",
                                                   "report",   "scaling",  "plan"};
    return views;
}

std::optional<Need> needFromName(std::string_view name)
{
    for (const NeedInfo& n : kNeeds)
        if (name == n.name)
            return n.need;
    return std::nullopt;
}

std::filesystem::path Lesson::scenarioPath() const { return file.parent_path() / scenario; }

std::filesystem::path Lesson::compareScenarioPath() const
{
    return compareScenario.empty() ? std::filesystem::path() : file.parent_path() / compareScenario;
}

Result<Lesson> parseLesson(const std::string& text, const std::string& origin, const std::filesystem::path& file)
{
    auto parsed = detail::parseJsonText(text, origin);
    if (!parsed)
        return parsed.error();
    json doc = std::move(parsed).value();
    JsonReader rd(origin);
    if (!rd.expectObject(doc, "$"))
        return rd.error();
    rd.onlyKeys(doc, "$",
                {"shardlab_lesson", "id", "order", "course", "title", "summary", "scenario", "compare_scenario", "plan",
                 "compare_plan", "steps", "questions"});
    const auto version = rd.integer(doc, "$", "shardlab_lesson", true, 1, 1000);
    if (version && *version != kLessonFormatVersion)
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$.shardlab_lesson")
                            .with("what", Message("error.says.format_version")
                                              .with("version", std::to_string(*version))
                                              .with("supported", std::to_string(kLessonFormatVersion))));
    Lesson l;
    l.file = file;
    l.id = rd.string(doc, "$", "id", true).value_or("");
    l.order = static_cast<int>(rd.integer(doc, "$", "order", false, 0, 100000).value_or(0));
    l.course = localized(rd, doc, "$", "course", true);
    l.title = localized(rd, doc, "$", "title", true);
    l.summary = localized(rd, doc, "$", "summary", true);
    l.scenario = rd.string(doc, "$", "scenario", true).value_or("");
    l.compareScenario = rd.string(doc, "$", "compare_scenario", false).value_or("");
    l.plan = detail::readLessonPlan(rd, doc, "$", "plan");
    l.comparePlan = detail::readLessonPlan(rd, doc, "$", "compare_plan");
    if (l.comparePlan && l.compareScenario.empty())
        rd.fail("$.compare_plan", Message("error.says.compare_plan_alone").with("key", "compare_scenario"));
    if (const json* steps = rd.find(doc, "steps"); steps && steps->is_array() && !steps->empty()) {
        for (size_t i = 0; i < steps->size(); ++i) {
            const std::string sp = JsonReader::index("$.steps", i);
            const json& s = (*steps)[i];
            if (!rd.expectObject(s, sp))
                continue;
            rd.onlyKeys(s, sp, {"text", "view", "scenario"});
            LessonStep step;
            step.text = localized(rd, s, sp, "text", true);
            step.view = rd.string(s, sp, "view", false).value_or("");
            if (!step.view.empty() && !lessonViewSet().count(step.view))
                rd.fail(JsonReader::key(sp, "view"),
                        unknownValue(step.view, {"program", "workload", "memory", "topology", "timeline", "summary",
                                                 "collectives", "comparison", "report", "scaling", "plan"}));
            if (step.view == "plan" && !l.plan)
                rd.fail(JsonReader::key(sp, "view"),
                        Message("error.says.no_compare_scenario").with("value", "plan").with("key", "plan"));
            step.scenario = rd.string(s, sp, "scenario", false).value_or("main");
            if (step.scenario != "main" && step.scenario != "compare")
                rd.fail(JsonReader::key(sp, "scenario"), unknownValue(step.scenario, {"main", "compare"}));
            if (step.scenario == "compare" && l.compareScenario.empty())
                rd.fail(
                    JsonReader::key(sp, "scenario"),
                    Message("error.says.no_compare_scenario").with("value", "compare").with("key", "compare_scenario"));
            if (step.view == "plan" && step.scenario == "compare" && l.compareScenario.size() && !l.comparePlan)
                rd.fail(
                    JsonReader::key(sp, "view"),
                    Message("error.says.plan_view_no_compare_plan").with("value", "plan").with("key", "compare_plan"));
            l.steps.push_back(step);
        }
    } else {
        rd.fail("$.steps", Message("error.lesson.missing_or_empty").with("expected", Message("error.expected.steps")));
    }
    if (const json* qs = rd.find(doc, "questions"); qs && qs->is_array() && !qs->empty()) {
        for (size_t i = 0; i < qs->size(); ++i) {
            LessonQuestion q;
            readQuestion(rd, (*qs)[i], JsonReader::index("$.questions", i), q);
            l.questions.push_back(q);
        }
    } else {
        rd.fail("$.questions", Message("error.says.no_questions"));
    }
    if (rd.failed())
        return rd.error();
    return l;
}

Result<Lesson> loadLesson(const std::filesystem::path& path)
{
    auto text = readUserFile(path, Message("error.file_kind.lesson"));
    if (!text)
        return text.error();
    return parseLesson(*text, path.string(), std::filesystem::absolute(path));
}

Result<std::vector<Lesson>> loadLessons(const std::filesystem::path& dir)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        return badInput(Message("error.line.not_lesson_folder").with("folder", dir.string()));
    std::vector<Lesson> lessons;
    std::vector<Message> errors; // of the files that do not load, one line each
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.ends_with(kLessonSuffix))
            continue;
        auto l = loadLesson(entry.path());
        if (!l)
            errors.push_back(messageOf(l.error()));
        else
            lessons.push_back(std::move(*l));
    }
    if (!errors.empty())
        return badInput(linesOf(std::move(errors)));
    if (lessons.empty())
        return badInput(Message("error.line.no_lessons")
                            .with("folder", dir.string())
                            .with("pattern", "NAME" + std::string(kLessonSuffix)));
    std::sort(lessons.begin(), lessons.end(),
              [](const Lesson& a, const Lesson& b) { return a.order != b.order ? a.order < b.order : a.id < b.id; });
    std::map<std::string, std::filesystem::path> seen;
    for (const Lesson& l : lessons)
        if (auto [it, fresh] = seen.emplace(l.id, l.file); !fresh)
            return badInput(Message("error.line.lesson_id_twice")
                                .with("file", l.file.string())
                                .with("id", l.id)
                                .with("other", it->second.string()));
    return lessons;
}

} // namespace shardlab

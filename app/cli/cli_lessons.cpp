#include "cli.h"
#include "shardlab/base/resources.h"
#include "shardlab/lessons/lesson_check.h"
#include "shardlab/lessons/lessons.h"
#include "shardlab/text/catalogue.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <ostream>

namespace shardlab::cli {

namespace {

// The lessons folder (shardlab/base/resources.h says where it is looked for).
std::filesystem::path defaultLessonDir() { return lessonDirectory(); }

struct LessonArgs {
    std::string dir;
    bool json = false;
    std::string id;
    std::string answer;
    int question = 1;
};

void addCommon(CLI::App* cmd, LessonArgs& a)
{
    cmd->add_option("--dir", a.dir, "Folder of *.lesson.json files (default: the built-in lessons)");
}

struct Loaded {
    std::vector<Lesson> lessons;
    Language language = Language::English;
};

Result<Loaded> loadAll(const LessonArgs& a, Language language)
{
    Loaded l;
    l.language = language; // the global --lang, else the environment's (cli_main.cpp)
    auto lessons = loadLessons(a.dir.empty() ? defaultLessonDir() : std::filesystem::path(a.dir));
    if (!lessons)
        return lessons.error();
    l.lessons = std::move(*lessons);
    return l;
}

Result<Lesson> findLesson(const Loaded& l, const std::string& id)
{
    std::vector<Message> ids;
    for (const Lesson& lesson : l.lessons) {
        if (lesson.id == id)
            return lesson;
        ids.push_back(verbatim(lesson.id));
    }
    return badInput(Message("error.line.no_lesson").with("id", id).with("known", listOf(std::move(ids))));
}

void printLesson(const Lesson& lesson, Language lang, std::ostream& out)
{
    auto say = [lang](const Message& m) { return render(m, lang); };
    out << say(Message("lessons.show.title")
                   .with("order", lesson.order)
                   .with("title", lesson.title.in(lang))
                   .with("course", lesson.course.in(lang)))
        << "\n";
    out << say(Message("lessons.show.scenario").with("path", lesson.scenarioPath().lexically_normal().string()))
        << "\n";
    if (!lesson.compareScenario.empty())
        out << say(
            Message("lessons.show.compare").with("path", lesson.compareScenarioPath().lexically_normal().string()))
            << "\n";
    out << "\n" << lesson.summary.in(lang) << "\n\n" << say(Message("lessons.show.steps")) << "\n";
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& s = lesson.steps[i];
        // the view a step names, worded where the catalogue knows it ("[timeline]", "[时间线]")
        const std::string viewId = "lessons.view." + s.view;
        const std::string view = s.view.empty() ? "" : wording(viewId, lang) ? say(Message(viewId)) : s.view;
        out << "  " << i + 1 << ". " << (view.empty() ? "" : "[" + view + "] ") << s.text.in(lang) << "\n";
    }
    out << "\n" << say(Message("lessons.show.questions")) << "\n";
    for (size_t i = 0; i < lesson.questions.size(); ++i) {
        const LessonQuestion& q = lesson.questions[i];
        Message kind(std::string("lessons.question.") + questionTypeName(q.type));
        if (q.type == QuestionType::Numeric && !q.numeric.unit.empty())
            kind = Message("lessons.question.with_unit").with("kind", std::move(kind)).with("unit", q.numeric.unit);
        if (q.type == QuestionType::Choice && q.multiple)
            kind = Message("lessons.question.multiple").with("kind", std::move(kind));
        out << "  "
            << say(Message("lessons.show.question")
                       .with("number", static_cast<int>(i + 1))
                       .with("kind", std::move(kind))
                       .with("prompt", q.prompt.in(lang)))
            << "\n";
        for (const LessonChoice& c : q.choices)
            out << "      (" << c.id << ") " << c.text.in(lang) << "\n";
        if (!q.hint.empty())
            out << "      " << say(Message("lessons.show.hint").with("hint", q.hint.in(lang))) << "\n";
    }
    out << "\n"
        << say(Message("lessons.show.answer_with")
                   .with("command", "shardlab lessons check " + lesson.id + " ANSWER --question N"))
        << "\n";
}

} // namespace

void addLessons(CLI::App& app, Io io, Action& action)
{
    auto* cmd = app.add_subcommand("lessons", "List the guided lessons; show one; check an answer");
    cmd->require_subcommand(0, 1);
    auto a = std::make_shared<LessonArgs>();
    addCommon(cmd, *a);
    cmd->add_flag("--json", a->json, "List as JSON");
    auto* show = cmd->add_subcommand("show", "Print a lesson's steps and questions");
    addCommon(show, *a);
    show->add_option("ID", a->id, "Lesson id (shardlab lessons lists them)")->required();
    auto* check = cmd->add_subcommand("check", "Check an answer; exit status 0 when right, 1 when wrong");
    addCommon(check, *a);
    check->add_option("ID", a->id, "Lesson id")->required();
    check->add_option("ANSWER", a->answer, "A choice id (a), a number (1.6, 250 ms) or a collective (all_gather)")
        ->required();
    check->add_option("--question,-q", a->question, "Question number, from 1")->check(wholeNumber(1, 1LL << 20));

    cmd->callback([=, &action] {
        action = [=]() -> int {
            auto loaded = loadAll(*a, io.language());
            if (!loaded)
                return reportError(loaded.error(), io);
            const Language lang = loaded->language;
            if (show->parsed() || check->parsed()) {
                auto lesson = findLesson(*loaded, a->id);
                if (!lesson)
                    return reportError(lesson.error(), io);
                if (show->parsed()) {
                    printLesson(*lesson, lang, io.out);
                    return kExitOk;
                }
                auto resolved = resolveLesson(*lesson);
                if (!resolved)
                    return reportError(resolved.error(), io);
                auto result = checkAnswer(*resolved, a->question - 1, a->answer);
                if (!result)
                    return reportError(result.error(), io);
                io.out << result->verdict.in(lang) << "\n" << result->explanation.in(lang) << "\n";
                return result->correct ? kExitOk : 1;
            }
            if (a->json) {
                nlohmann::json list = nlohmann::json::array();
                for (const Lesson& l : loaded->lessons)
                    list.push_back({{"id", l.id},
                                    {"order", l.order},
                                    {"title", l.title.in(lang)},
                                    {"course", l.course.in(lang)},
                                    {"scenario", l.scenarioPath().lexically_normal().string()},
                                    {"questions", l.questions.size()}});
                io.out << list.dump(2) << "\n";
                return kExitOk;
            }
            for (const Lesson& l : loaded->lessons)
                io.out << (l.order < 10 ? " " : "") << l.order << "  " << l.id << "\n    " << l.title.in(lang) << " ("
                       << l.course.in(lang) << ")\n";
            return kExitOk;
        };
    });
}

} // namespace shardlab::cli

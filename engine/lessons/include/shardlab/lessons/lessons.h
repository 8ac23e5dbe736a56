// Guided lessons: a scenario to open, steps that say what to look at, and questions whose answers
// are checked, each with an explanation for right and wrong answers, in English and Simplified
// Chinese. Files: resources/lessons/*.lesson.json; the format is in docs/lessons.md.
// Checking answers (numbers derived from the engine, not written in the file) is in lesson_check.h.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/semantics.h"
#include "shardlab/plan/plan_request.h"
#include "shardlab/text/language.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

struct LocalizedText {
    std::string en;
    std::string zh;
    // The text in `language`, falling back to English where a translation is missing.
    const std::string& in(Language language) const { return language == Language::Chinese && !zh.empty() ? zh : en; }
    bool empty() const { return en.empty() && zh.empty(); }
};

struct LessonStep {
    LocalizedText text;
    std::string view;     // where to look in the app (docs/lessons.md lists them); may be empty
    std::string scenario; // "main" (the lesson's scenario) or "compare" (its second scenario)
};

enum class QuestionType {
    Choice,     // pick one (or, with `multiple`, every right one) of the listed choices by id
    Numeric,    // a number, checked against the engine's figure within a tolerance
    Collective, // the name of a collective, checked against what the next step needs
};
const char* questionTypeName(QuestionType type); // "choice", "numeric", "collective"

struct LessonChoice {
    std::string id; // "a", "b", ...
    LocalizedText text;
    bool correct = false;
    LocalizedText explanation; // why this choice is right or wrong
};

// A figure the engine computes on one of the lesson's scenarios (docs/lessons.md lists them),
// for instance {"figure": "wait_ms", "rank": 1}.
struct FigureRef {
    std::string figure;
    std::string scenario = "main"; // or "compare"
    int index = -1;                // rank or collective index where the figure needs one
};

struct NumericAnswer {
    std::optional<double> value;     // a fixed answer, for numbers no run produces
    std::optional<FigureRef> figure; // or the engine's figure
    enum class Combine { None, Minus, Over } combine = Combine::None;
    std::optional<FigureRef> other; // figure - other, or figure / other
    double tolerance = 0;           // absolute
    double tolerancePct = 0;        // relative to the expected value; the larger of the two applies
    std::string unit;               // "ms", "GB", "x", "%", "" (a rank number)
    int decimals = 2;               // how the expected value is printed
};

// A wrong number that learners often give, with what it means.
struct NumericMistake {
    NumericAnswer answer; // the mistaken value (fixed or a figure), with its tolerance
    LocalizedText explanation;
};

struct LessonQuestion {
    QuestionType type = QuestionType::Choice;
    LocalizedText prompt;
    LocalizedText hint;
    LocalizedText right; // shown with every right answer
    LocalizedText wrong; // shown with every wrong answer

    // Choice
    std::vector<LessonChoice> choices;
    bool multiple = false;

    // Numeric
    NumericAnswer numeric;
    std::vector<NumericMistake> mistakes;

    // Collective: the answer is collectiveFor(need, unequalPieces); alsoAccept lists collectives
    // that are acceptable too. `example` holds small per-rank inputs on which the learner's choice
    // is run (semantics.h) to show what it would have produced.
    Need need = Need::SumOnEveryRank;
    bool unequalPieces = false;
    std::vector<OpKind> alsoAccept;
    RankValues example;
    std::vector<std::pair<OpKind, LocalizedText>> feedback; // what to say about a particular choice
};

struct Lesson {
    std::string id;
    int order = 0;
    LocalizedText course; // the part of the course it covers: "Objective 1", "Worked example", "Exercise 3"
    LocalizedText title;
    LocalizedText summary;
    std::string scenario;        // relative to the lesson file's folder
    std::string compareScenario; // optional second scenario
    // A transformer plan the scenario is written from (`shardlab plan --scenario`): its figures
    // (MFU, bubble, memory per stage) are the estimate's, and the "plan" view opens it in the plan
    // dialog. The shipped scenario must be the plan as planScenario() writes it (a test checks).
    std::optional<PlanRequest> plan;
    std::optional<PlanRequest> comparePlan; // the plan of the compare scenario
    std::vector<LessonStep> steps;
    std::vector<LessonQuestion> questions;
    std::filesystem::path file; // where it was loaded from

    std::filesystem::path scenarioPath() const;        // absolute or relative to the working directory
    std::filesystem::path compareScenarioPath() const; // empty when there is none
};

inline constexpr int kLessonFormatVersion = 1;

// Parses a lesson. `origin` names the source in messages; `file` anchors its scenario paths.
// Every user-visible text needs both "en" and "zh". Errors read "ORIGIN: $.json.path: what".
Result<Lesson> parseLesson(const std::string& text, const std::string& origin, const std::filesystem::path& file = {});
Result<Lesson> loadLesson(const std::filesystem::path& path);
// Every *.lesson.json in `dir`, by order then id. Ids must be unique.
Result<std::vector<Lesson>> loadLessons(const std::filesystem::path& dir);

// Need names as the files spell them: "sum_on_one_rank", "sum_on_every_rank",
// "slice_of_sum_on_every_rank", "concatenation_on_every_rank", "copy_of_one_ranks_data".
std::optional<Need> needFromName(std::string_view name);

// The views a step may point at (docs/lessons.md); the GUI maps each to a page and a tab, and its
// test fails when one is missing.
const std::vector<std::string>& lessonViews();

} // namespace shardlab

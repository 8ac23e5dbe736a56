// Checking a learner's answer to a lesson's question. The numbers come from the engine: a lesson
// is resolved by loading its scenarios, running them (simulate()) and summarising them
// (summarize(), capacityOf(), the hang report, the semantics of a collective), and each numeric
// answer is a figure of those results, never a value typed into the lesson file.
#pragma once

#include "shardlab/analysis/summary.h"
#include "shardlab/lessons/lessons.h"
#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct LessonScenario {
    std::filesystem::path path;
    Scenario scenario;
    RunResult run;
    Summary summary;
    std::optional<PricedPlan> plan; // the lesson's plan for this scenario, priced
};

struct ResolvedLesson {
    Lesson lesson;
    LessonScenario main;
    std::optional<LessonScenario> compare;
    std::vector<std::optional<double>> expected; // per question: the numeric answer (numeric questions)
};

// Loads and simulates the lesson's scenarios and computes every numeric answer. Errors: a
// scenario that does not load, a run that fails, a figure the runs cannot give (e.g. a straggler
// where there is none).
Result<ResolvedLesson> resolveLesson(const Lesson& lesson);

// The value of one figure on a resolved lesson's runs (docs/lessons.md lists the names).
Result<double> evaluateFigure(const ResolvedLesson& lesson, const FigureRef& figure);

struct AnswerCheck {
    bool correct = false;
    LocalizedText verdict;     // "Right." / "Not quite." with the answer in a few words
    LocalizedText explanation; // why, for right and wrong answers alike
    std::string expected;      // the right answer, printed ("1.60 x", "b", "all_gather_v"), for "show answer"
};

// Checks `answer` to question `question`. Answers: choice ids ("b", or "a, c" where several are
// right); a number with an optional unit ("1.6", "1.6x", "250 ms", "45 %"); a collective by
// name ("all_gather_v", "All-Gather", "allgather", "reduce scatter"). Errors (BadInput): no such
// question, an answer that cannot be read (not a number, unknown choice or collective).
Result<AnswerCheck> checkAnswer(const ResolvedLesson& lesson, int question, const std::string& answer);

// The right answer in the form checkAnswer() accepts.
std::string correctAnswer(const ResolvedLesson& lesson, int question);

} // namespace shardlab

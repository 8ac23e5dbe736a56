#include "shardlab/lessons/lesson_check.h"

#include "shardlab/io/scenario_io.h"
#include "shardlab/model/capacity.h"
#include "shardlab/model/verification.h"
#include "shardlab/plan/plan_format.h"
#include "shardlab/plan/plan_scenario.h"
#include "shardlab/sim/simulator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace shardlab {

namespace {

// The lesson's plan priced, and its scenario checked to be that plan as ShardLab writes it now
// (so the figures of the plan and of the run are of one plan).
Result<PricedPlan> pricedPlan(const Lesson& lesson, const PlanRequest& request, const Scenario& shipped,
                              const std::filesystem::path& path)
{
    // "lesson ID: FILE: what" (error.lesson.in_file)
    const auto refusal = [&](const Error& e) {
        return badInput(Message("error.lesson.in_file")
                            .with("id", lesson.id)
                            .with("file", path.filename().string())
                            .with("what", messageOf(e)));
    };
    auto pricing = pricePlan(request);
    if (!pricing)
        return refusal(pricing.error());
    if (!pricing->priced) {
        // the problems one after another, "; " between them (error.piece.notes)
        Message why;
        for (auto it = pricing->problems.rbegin(); it != pricing->problems.rend(); ++it)
            why = why.empty() ? *it : Message("error.piece.notes").with("piece_first", *it).with("piece_rest", why);
        return badInput(Message("error.line.lesson_plan_refused")
                            .with("id", lesson.id)
                            .with("file", verbatim(path.filename().string()))
                            .with("why", std::move(why)));
    }
    const PricedPlan& p = *pricing->priced;
    auto written = planScenario(p.model, p.settings, p.estimate, p.topology);
    if (!written)
        return refusal(written.error());
    // both through the file format, so that printing the numbers is all they may differ by
    auto reread = parseScenario(serializeScenario(*written));
    if (!reread || serializeScenario(*reread) != serializeScenario(shipped)) {
        const std::string command = "shardlab plan ... --scenario"; // or tests/plan/write_plan_scenarios.py
        return badInput(Message("error.line.lesson_plan_stale")
                            .with("id", lesson.id)
                            .with("file", verbatim(path.filename().string()))
                            .with("plan", planText(p.estimate.plan))
                            .with("command", command));
    }
    return std::move(*pricing->priced);
}

Result<LessonScenario> runScenario(const Lesson& lesson, const std::filesystem::path& path,
                                   const std::optional<PlanRequest>& plan)
{
    auto s = loadScenario(path);
    if (!s)
        return badInput(Message("error.lesson.in").with("id", lesson.id).with("what", messageOf(s.error())));
    LessonScenario ls;
    if (plan) {
        auto priced = pricedPlan(lesson, *plan, *s, path);
        if (!priced)
            return priced.error();
        ls.plan = std::move(*priced);
    }
    auto run = simulate(*s);
    if (!run)
        return Error(run.error().kind, Message("error.lesson.in_file")
                                           .with("id", lesson.id)
                                           .with("file", path.string())
                                           .with("what", messageOf(run.error())));
    ls.path = path;
    ls.scenario = std::move(*s);
    ls.run = std::move(*run);
    ls.summary = summarize(ls.scenario, ls.run);
    return ls;
}

// A refusal of figure `f` of lesson `lessonId` whose sentence `id` (error.line.figure_*) has no other value.
Error figureError(const std::string& lessonId, const FigureRef& f, const char* id)
{
    return badInput(Message(id).with("id", lessonId).with("figure", f.figure));
}

// The figures of a lesson's plan (docs/lessons.md): the estimate's, as `shardlab plan` prints them.
std::optional<Result<double>> planFigure(const LessonScenario& ls, const FigureRef& f, const std::string& lessonId)
{
    static const std::set<std::string> names = {
        "mfu_pct",       "bubble_pct",          "plan_step_ms",  "tokens_per_s_per_gpu", "model_tflops_per_gpu",
        "plan_peak_gb",  "plan_activations_gb", "exposed_tp_ms", "exposed_cp_ms",        "exposed_pp_ms",
        "exposed_dp_ms", "exposed_ep_ms"};
    if (!names.count(f.figure))
        return std::nullopt;
    if (!ls.plan)
        return Result<double>(badInput(Message("error.line.figure_no_plan")
                                           .with("id", lessonId)
                                           .with("figure", f.figure)
                                           .with("plan", "plan")
                                           .with("compare", "compare_plan")));
    const PlanEstimate& e = ls.plan->estimate;
    if (f.figure == "mfu_pct")
        return e.mfu * 100;
    if (f.figure == "bubble_pct")
        return e.bubbleFraction * 100;
    if (f.figure == "plan_step_ms")
        return e.stepUs / 1e3;
    if (f.figure == "tokens_per_s_per_gpu")
        return e.tokensPerSecPerGpu;
    if (f.figure == "model_tflops_per_gpu")
        return e.modelTflopsPerGpu;
    if (f.figure.starts_with("exposed_")) {
        const auto axis = valueIn(kMeshAxisNames, f.figure.substr(8, 2));
        double us = 0;
        for (const PlanCollective& c : e.collectives)
            if (c.axis == *axis)
                us += c.exposedUs;
        return us / 1e3;
    }
    // per pipeline stage (index), or the largest over the stages
    if (f.index >= static_cast<int>(e.stages.size()))
        return Result<double>(badInput(Message("error.line.figure_stage")
                                           .with("id", lessonId)
                                           .with("figure", f.figure)
                                           .with("count", std::to_string(e.stages.size()))
                                           .with("index", std::to_string(f.index))));
    double most = 0;
    for (const StageEstimate& s : e.stages)
        if (f.index < 0 || s.stage == f.index)
            most = std::max(most, f.figure == "plan_peak_gb" ? s.memory.peak() : s.memory.activations);
    return most / kGB;
}

Result<double> evaluateAnswer(const ResolvedLesson& l, const NumericAnswer& a)
{
    if (a.value)
        return *a.value;
    if (!a.figure)
        return badInput(Message("error.line.answer_without_value")
                            .with("id", l.lesson.id)
                            .with("value", "value")
                            .with("figure", "figure"));
    auto v = evaluateFigure(l, *a.figure);
    if (!v || a.combine == NumericAnswer::Combine::None || !a.other)
        return v;
    auto w = evaluateFigure(l, *a.other);
    if (!w)
        return w;
    if (a.combine == NumericAnswer::Combine::Minus)
        return *v - *w;
    if (*w == 0)
        return figureError(l.lesson.id, *a.other, "error.line.figure_zero");
    return *v / *w;
}

std::string lower(std::string_view s)
{
    std::string out;
    for (char c : s)
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string trim(std::string_view s)
{
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return std::string(s.substr(a, b - a));
}

std::string number(double v, int decimals)
{
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

std::string withUnit(double v, const NumericAnswer& a)
{
    if (a.unit.empty())
        return number(v, a.decimals);
    return number(v, a.decimals) + (a.unit == "%" ? "" : " ") + a.unit;
}

// "1.6", "1.6x", "1.6 ×", "250 ms", "45%": the number, and the unit (if any) must be the question's.
Result<double> parseNumber(const std::string& answer, const NumericAnswer& a)
{
    const std::string t = trim(answer);
    const char* begin = t.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    // the same refusal, with "(expected a number in UNIT)" where the question has a unit
    const auto refused = [&](const char* id, const char* idWithUnit) {
        if (a.unit.empty())
            return badInput(Message(id).with("answer", answer));
        return badInput(Message(idWithUnit).with("answer", answer).with("unit", a.unit));
    };
    if (end == begin)
        return refused("error.line.answer_not_number", "error.line.answer_not_number_in");
    if (!std::isfinite(v)) // "inf", "-inf", "nan", "1e999"
        return refused("error.line.answer_not_finite", "error.line.answer_not_finite_in");
    const std::string unit = lower(trim(end));
    const std::string want = lower(a.unit);
    const bool ok =
        unit.empty() || unit == want || (want == "x" && unit == "\xc3\x97") || (want == "%" && unit == "\xef\xbc\x85");
    if (!ok && a.unit.empty())
        return badInput(Message("error.line.answer_unit").with("answer", answer).with("unit", unit));
    if (!ok)
        return badInput(Message("error.line.answer_unit_in")
                            .with("answer", answer)
                            .with("unit", unit)
                            .with("want", a.unit)
                            .with("in", a.unit));
    return v;
}

// Collective names as learners type them: "all_gather_v", "All-Gather", "allgather", "Reduce Scatter".
std::optional<OpKind> parseCollective(const std::string& answer)
{
    std::string key;
    for (char c : lower(answer))
        if (std::isalnum(static_cast<unsigned char>(c)))
            key += c;
    static const std::pair<const char*, OpKind> names[] = {
        {"allreduce", OpKind::AllReduce},
        {"reduce", OpKind::Reduce},
        {"broadcast", OpKind::Broadcast},
        {"bcast", OpKind::Broadcast},
        {"allgather", OpKind::AllGather},
        {"allgatherv", OpKind::AllGatherV},
        {"allgatherunequalsizes", OpKind::AllGatherV},
        {"reducescatter", OpKind::ReduceScatter},
        {"reducescatterallgather", OpKind::ReduceScatterAllGather},
        {"sendrecv", OpKind::SendRecv},
    };
    for (const auto& [name, kind] : names)
        if (key == name)
            return kind;
    return std::nullopt;
}

std::string valuesText(const RankValues& values)
{
    std::string out;
    for (size_t r = 0; r < values.size(); ++r) {
        out += (r ? "; " : "") + std::string("rank ") + std::to_string(r) + ": [";
        for (size_t i = 0; i < values[r].size(); ++i) {
            char b[32];
            std::snprintf(b, sizeof b, "%s%g", i ? ", " : "", values[r][i]);
            out += b;
        }
        out += "]";
    }
    return out;
}

// What `kind` does to the question's example, in both languages (semantics.h computes it).
LocalizedText demonstrate(const LessonQuestion& q, OpKind kind)
{
    LocalizedText t;
    if (q.example.empty())
        return t;
    const std::string inputs = valuesText(q.example);
    auto out = applyCollective(kind, q.example);
    if (!out) {
        t.en = std::string("On this lesson's example (") + inputs + "), " + opDisplayName(kind)
               + " cannot even run: " + out.error().message + ".";
        t.zh = std::string("在本课的示例输入（") + inputs + "）上，" + opDisplayName(kind) + " 根本无法执行："
               + worded(out.error(), Language::Chinese) + "。";
        return t;
    }
    t.en = std::string("On this lesson's example (") + inputs + "), " + opDisplayName(kind) + " leaves "
           + valuesText(*out) + ".";
    t.zh = std::string("在本课的示例输入（") + inputs + "）上，" + opDisplayName(kind) + " 的结果是："
           + valuesText(*out) + "。";
    return t;
}

void append(LocalizedText& to, const LocalizedText& more)
{
    if (more.empty())
        return;
    to.en += (to.en.empty() ? "" : " ") + more.en;
    to.zh += more.zh;
}

LocalizedText verdict(bool correct, const std::string& detailEn = {}, const std::string& detailZh = {})
{
    if (correct)
        return {"Right." + (detailEn.empty() ? "" : " " + detailEn), "答对了。" + detailZh};
    return {"Not quite." + (detailEn.empty() ? "" : " " + detailEn), "还不对。" + detailZh};
}

Result<AnswerCheck> checkChoice(const LessonQuestion& q, const std::string& answer)
{
    std::set<std::string> chosen;
    std::string token;
    const auto flush = [&]() -> Status {
        if (token.empty())
            return {};
        const auto it = std::find_if(q.choices.begin(), q.choices.end(),
                                     [&](const LessonChoice& c) { return lower(c.id) == token; });
        if (it == q.choices.end()) {
            std::string ids;
            for (const LessonChoice& c : q.choices)
                ids += (ids.empty() ? "" : ", ") + c.id;
            return badInput(Message("error.line.not_a_choice").with("answer", token).with("choices", ids));
        }
        chosen.insert(it->id);
        token.clear();
        return {};
    };
    for (char c : lower(answer)) {
        if (c == ',' || c == ';' || std::isspace(static_cast<unsigned char>(c))) {
            if (Status st = flush(); !st)
                return st.error();
        } else {
            token += c;
        }
    }
    if (Status st = flush(); !st)
        return st.error();
    if (chosen.empty())
        return badInput(Message("error.line.no_choice"));
    if (!q.multiple && chosen.size() > 1)
        return badInput(Message("error.line.one_choice").with("count", std::to_string(chosen.size())));

    AnswerCheck check;
    bool allRight = true;
    for (const LessonChoice& c : q.choices)
        allRight = allRight && (c.correct == (chosen.count(c.id) > 0));
    check.correct = allRight;
    check.verdict = verdict(allRight);
    append(check.explanation, allRight ? q.right : q.wrong);
    for (const LessonChoice& c : q.choices) {
        const bool picked = chosen.count(c.id) > 0;
        // Explain every choice the learner picked, and, when wrong, the right ones left out.
        if (picked && c.correct)
            append(check.explanation, {"(" + c.id + ") " + c.explanation.en, "（" + c.id + "）" + c.explanation.zh});
        else if (picked)
            append(check.explanation,
                   {"(" + c.id + ") Not this one: " + c.explanation.en, "（" + c.id + "）不该选：" + c.explanation.zh});
        else if (!allRight && c.correct && q.multiple)
            append(check.explanation,
                   {"(" + c.id + ") Also right: " + c.explanation.en, "（" + c.id + "）也应选：" + c.explanation.zh});
        if (c.correct)
            check.expected += (check.expected.empty() ? "" : ", ") + c.id;
    }
    return check;
}

} // namespace

Result<double> evaluateFigure(const ResolvedLesson& l, const FigureRef& f)
{
    const LessonScenario* ls = &l.main;
    if (f.scenario == "compare") {
        if (!l.compare)
            return figureError(l.lesson.id, f, "error.line.figure_no_compare");
        ls = &*l.compare;
    }
    const Summary& s = ls->summary;
    const int n = ls->scenario.ranks();
    const auto rankIndex = [&]() -> Result<size_t> {
        if (f.index < 0 || f.index >= n)
            return badInput(Message("error.line.figure_rank")
                                .with("id", l.lesson.id)
                                .with("figure", f.figure)
                                .with("last", std::to_string(n - 1))
                                .with("rank", std::to_string(f.index)));
        return static_cast<size_t>(f.index);
    };
    if (auto fromPlan = planFigure(*ls, f, l.lesson.id))
        return *fromPlan;
    if (f.figure == "speedup")
        return s.speedup;
    if (f.figure == "efficiency_pct")
        return s.efficiency * 100;
    if (f.figure == "step_time_ms")
        return s.stepTimeMs;
    if (f.figure == "one_gpu_ms")
        return s.oneGpuMs;
    if (f.figure == "ranks")
        return static_cast<double>(n);
    if (f.figure == "straggler_rank") {
        if (!s.straggler)
            return figureError(l.lesson.id, f, "error.line.figure_no_straggler");
        return static_cast<double>(*s.straggler);
    }
    if (f.figure == "compute_ms" || f.figure == "comm_ms" || f.figure == "wait_ms") {
        auto r = rankIndex();
        if (!r)
            return r.error();
        const RankBreakdown& rb = s.perRank[*r];
        return f.figure == "compute_ms" ? rb.computeMs : f.figure == "comm_ms" ? rb.commMs : rb.waitMs;
    }
    if (f.figure == "owned_gb" || f.figure == "peak_gb" || f.figure == "capacity_gb") {
        auto r = rankIndex();
        if (!r)
            return r.error();
        const RankMemory rm = capacityOf(ls->scenario).ranks[*r];
        const Bytes b = f.figure == "owned_gb" ? rm.owned : f.figure == "peak_gb" ? rm.peak() : rm.capacity;
        return static_cast<double>(b) / kGB;
    }
    if (f.figure == "paging_ms") {
        auto r = rankIndex();
        if (!r)
            return r.error();
        return *r < ls->run.pagingUs.size() ? ls->run.pagingUs[*r] / 1e3 : 0.0;
    }
    if (f.figure == "hang_rank" || f.figure == "hang_last_completed") {
        if (!ls->run.hang)
            return figureError(l.lesson.id, f, "error.line.figure_no_hang");
        if (f.figure == "hang_rank") {
            if (ls->run.hang->firstMismatchRank < 0)
                return figureError(l.lesson.id, f, "error.line.figure_no_mismatch");
            return static_cast<double>(ls->run.hang->firstMismatchRank);
        }
        auto r = rankIndex();
        if (!r)
            return r.error();
        return static_cast<double>(ls->run.hang->lastCompleted.at(*r));
    }
    if (f.figure == "collective_ms" || f.figure == "busbw_gbps") {
        const int i = std::max(0, f.index);
        if (i >= static_cast<int>(s.collectives.size()))
            return badInput(Message("error.line.figure_collective")
                                .with("id", l.lesson.id)
                                .with("figure", f.figure)
                                .with("count", std::to_string(s.collectives.size()))
                                .with("index", std::to_string(i)));
        const CollectiveFigures& c = s.collectives[static_cast<size_t>(i)];
        return f.figure == "collective_ms" ? c.timeMs : c.busbwGBps;
    }
    if (f.figure == "allreduce_element") {
        // Element j of every rank's buffer after an all-reduce of the practical's fill pattern.
        const std::uint64_t j = static_cast<std::uint64_t>(std::max(0, f.index));
        std::vector<int> group(static_cast<size_t>(n));
        for (int r = 0; r < n; ++r)
            group[static_cast<size_t>(r)] = r;
        auto v = verifyCollective(OpKind::AllReduce, group, j + 1);
        if (!v)
            return v.error();
        return v->front().result[j];
    }
    return badInput(Message("error.line.figure_unknown")
                        .with("id", l.lesson.id)
                        .with("figure", f.figure)
                        .with("list", "speedup, efficiency_pct, step_time_ms, one_gpu_ms, ranks, "
                                      "straggler_rank, compute_ms, comm_ms, wait_ms, owned_gb, peak_gb, capacity_gb, "
                                      "paging_ms, hang_rank, hang_last_completed, collective_ms, busbw_gbps, "
                                      "allreduce_element, mfu_pct, bubble_pct, plan_step_ms, tokens_per_s_per_gpu, "
                                      "model_tflops_per_gpu, plan_peak_gb, plan_activations_gb, exposed_tp_ms, "
                                      "exposed_cp_ms, exposed_pp_ms, exposed_dp_ms or exposed_ep_ms"));
}

Result<ResolvedLesson> resolveLesson(const Lesson& lesson)
{
    ResolvedLesson r;
    r.lesson = lesson;
    auto main = runScenario(lesson, lesson.scenarioPath(), lesson.plan);
    if (!main)
        return main.error();
    r.main = std::move(*main);
    if (!lesson.compareScenario.empty()) {
        auto cmp = runScenario(lesson, lesson.compareScenarioPath(), lesson.comparePlan);
        if (!cmp)
            return cmp.error();
        r.compare = std::move(*cmp);
    }
    for (const LessonQuestion& q : lesson.questions) {
        if (q.type != QuestionType::Numeric) {
            r.expected.emplace_back();
            continue;
        }
        auto v = evaluateAnswer(r, q.numeric);
        if (!v)
            return v.error();
        r.expected.emplace_back(*v);
        for (const NumericMistake& m : q.mistakes)
            if (auto mv = evaluateAnswer(r, m.answer); !mv)
                return mv.error();
    }
    return r;
}

Result<AnswerCheck> checkAnswer(const ResolvedLesson& l, int question, const std::string& answer)
{
    if (question < 0 || question >= static_cast<int>(l.lesson.questions.size()))
        return badInput(Message("error.line.no_question")
                            .with("id", l.lesson.id)
                            .with("count", std::to_string(l.lesson.questions.size()))
                            .with("number", std::to_string(question + 1)));
    const LessonQuestion& q = l.lesson.questions[static_cast<size_t>(question)];
    if (trim(answer).empty())
        return badInput(Message("error.line.no_answer"));
    if (q.type == QuestionType::Choice)
        return checkChoice(q, answer);

    AnswerCheck check;
    if (q.type == QuestionType::Numeric) {
        auto given = parseNumber(answer, q.numeric);
        if (!given)
            return given.error();
        const double expected = l.expected[static_cast<size_t>(question)].value_or(0);
        // Right within the larger of the absolute and the relative tolerance (and rounding noise).
        const auto within = [](double x, double e, const NumericAnswer& a) {
            return std::fabs(x - e)
                   <= std::max({a.tolerance, a.tolerancePct / 100 * std::fabs(e), 1e-9 * std::fabs(e)});
        };
        check.correct = within(*given, expected, q.numeric);
        check.expected = withUnit(expected, q.numeric);
        if (check.correct) {
            check.verdict =
                verdict(true, "The engine gives " + check.expected + ".", "引擎算出的值是 " + check.expected + "。");
            append(check.explanation, q.right);
        } else {
            const bool high = *given > expected;
            check.verdict = verdict(false, high ? "Your answer is too high." : "Your answer is too low.",
                                    high ? "你的答案偏大。" : "你的答案偏小。");
            for (const NumericMistake& m : q.mistakes)
                if (auto mv = evaluateAnswer(l, m.answer); mv && within(*given, *mv, m.answer)) {
                    append(check.explanation, m.explanation);
                    break;
                }
            append(check.explanation, q.wrong);
        }
        return check;
    }

    const auto kind = parseCollective(answer);
    if (!kind)
        return badInput(Message("error.line.answer_not_collective")
                            .with("answer", answer)
                            .with("list", "all_reduce, reduce, broadcast, all_gather, all_gather_v, reduce_scatter, "
                                          "reduce_scatter_all_gather")
                            .with("last", "send_recv"));
    const OpKind best = collectiveFor(q.need, q.unequalPieces);
    check.correct = *kind == best || std::find(q.alsoAccept.begin(), q.alsoAccept.end(), *kind) != q.alsoAccept.end();
    check.expected = opName(best);
    check.verdict = verdict(check.correct, std::string("You chose ") + opDisplayName(*kind) + ".",
                            std::string("你选择了 ") + opDisplayName(*kind) + "。");
    for (const auto& [k, text] : q.feedback)
        if (k == *kind)
            append(check.explanation, text);
    append(check.explanation, check.correct ? q.right : q.wrong);
    // Show what the learner's choice does to the example; where it is wrong, or right only with
    // care (an all-gather of unequal pieces), also what the best choice does.
    append(check.explanation, demonstrate(q, *kind));
    if (*kind != best)
        append(check.explanation, demonstrate(q, best));
    return check;
}

std::string correctAnswer(const ResolvedLesson& l, int question)
{
    if (question < 0 || question >= static_cast<int>(l.lesson.questions.size()))
        return {};
    const LessonQuestion& q = l.lesson.questions[static_cast<size_t>(question)];
    switch (q.type) {
    case QuestionType::Choice: {
        std::string ids;
        for (const LessonChoice& c : q.choices)
            if (c.correct)
                ids += (ids.empty() ? "" : ", ") + c.id;
        return ids;
    }
    case QuestionType::Numeric: return withUnit(l.expected[static_cast<size_t>(question)].value_or(0), q.numeric);
    case QuestionType::Collective: return opName(collectiveFor(q.need, q.unequalPieces));
    }
    return {};
}

} // namespace shardlab

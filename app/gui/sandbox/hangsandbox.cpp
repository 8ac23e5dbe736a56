#include "sandbox/hangsandbox.h"

#include "i18n/language.h"

#include "sandbox/hanggridmodel.h"
#include "common/labels.h"

#include "shardlab/base/units.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {
// The collectives a rank can call instead: NCCL's own.
const OpKind kReplacements[] = {OpKind::AllReduce, OpKind::AllGather, OpKind::ReduceScatter, OpKind::Broadcast,
                                OpKind::Reduce};
} // namespace

HangSandbox::HangSandbox(QWidget* parent) : QWidget(parent)
{
    auto* intro = new QLabel(tr("Make one rank call a collective wrongly, on purpose, and watch the watchdog catch the "
                                "hang. Your scenario is not changed: the run uses a copy with the mistake."),
                             this);
    intro->setWordWrap(true);

    m_type = new QComboBox(this);
    m_type->addItem(tr("Call a different collective"), static_cast<int>(Mismatch::Type::WrongOp));
    m_type->addItem(tr("Call it with a different size"), static_cast<int>(Mismatch::Type::WrongCount));
    m_type->addItem(tr("Skip the call"), static_cast<int>(Mismatch::Type::Skip));
    m_type->setToolTip(tr("What the rank does wrong. NCCL matches the calls on a communicator by their order, so "
                          "any of these leaves the other ranks waiting"));
    m_rank = new QSpinBox(this);
    m_rank->setToolTip(tr("The rank that makes the mistake"));
    m_op = new QComboBox(this);
    m_op->setToolTip(tr("The step of the program whose call goes wrong"));
    m_iteration = new QSpinBox(this);
    m_iteration->setToolTip(
        tr("The iteration in which it goes wrong (counted from 1, as on the timeline); the ones before complete"));
    m_replacement = new QComboBox(this);
    for (OpKind k : kReplacements)
        m_replacement->addItem(Labels::op(k), static_cast<int>(k));
    m_replacement->setToolTip(tr("The collective the rank calls instead"));
    m_megabytes = new QDoubleSpinBox(this);
    m_megabytes->setRange(0.001, 1e7);
    m_megabytes->setDecimals(3);
    m_megabytes->setSuffix(tr(" MB"));
    m_megabytes->setToolTip(tr("The size the rank passes instead (1 MB = 10^6 bytes)"));
    m_deadline = new QDoubleSpinBox(this);
    m_deadline->setRange(0.1, 600);
    m_deadline->setDecimals(1);
    m_deadline->setSingleStep(0.5);
    m_deadline->setSuffix(tr(" s"));
    m_deadline->setValue(10);
    m_deadline->setToolTip(tr("The watchdog aborts a collective that makes no progress for this long. Live runs "
                              "measure it on the clock; simulations on the simulated clock. It applies to every run"));
    m_run = new QPushButton(tr("Run with this mistake"), this);
    m_run->setToolTip(tr("Run a copy of the scenario with the mistake, in the mode chosen above (Simulate or Live)"));
    m_reason = new QLabel(this);
    m_reason->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("Mistake:"), m_type);
    form->addRow(tr("Rank:"), m_rank);
    form->addRow(tr("Collective:"), m_op);
    form->addRow(tr("Iteration:"), m_iteration);
    form->addRow(tr("Calls instead:"), m_replacement);
    form->addRow(tr("Size instead:"), m_megabytes);
    form->addRow(tr("Watchdog deadline:"), m_deadline);
    auto* box = new QGroupBox(tr("Inject a mistake"), this);
    auto* boxLayout = new QVBoxLayout(box);
    boxLayout->addLayout(form);
    boxLayout->addWidget(m_run);
    boxLayout->addWidget(m_reason);

    m_grid = new HangGridModel(this);
    m_view = new QTableView(this);
    m_view->setModel(m_grid);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(true);
    m_view->horizontalHeader()->setMinimumSectionSize(40);
    // the last column (what each rank is blocked in) wraps: rows grow when it narrows
    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, m_view,
            [this] { m_view->resizeRowsToContents(); });
    m_view->setToolTip(
        tr("The flight recorder: each rank's collectives by sequence number, its last completed one, and "
           "the first rank whose call differs"));
    m_sentence = new QLabel(tr("No hang yet: inject a mistake and run."), this);
    m_sentence->setWordWrap(true);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* recorder = new QLabel(tr("<b>Flight recorder</b>"), this);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(box);
    layout->addWidget(recorder);
    layout->addWidget(m_sentence);
    layout->addWidget(m_view, 1);

    connect(m_type, &QComboBox::currentIndexChanged, this, &HangSandbox::updateControls);
    connect(m_op, &QComboBox::currentIndexChanged, this, &HangSandbox::suggestForStep);
    connect(m_run, &QPushButton::clicked, this, &HangSandbox::requestRun);
    connect(m_deadline, &QDoubleSpinBox::valueChanged, this, [this](double s) { emit deadlineChanged(s * 1e3); });
    refreshChoices();
}

void HangSandbox::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    m_hasScenario = true;
    refreshChoices();
}

void HangSandbox::refreshChoices()
{
    const int previousOp = m_op->currentData().isValid() ? m_op->currentData().toInt() : -1;
    const bool firstTime = m_op->count() == 0;
    m_op->blockSignals(true);
    m_op->clear();
    for (size_t i = 0; i < m_scenario.program.size(); ++i) {
        const Op& op = m_scenario.program[i];
        if (!isCollective(op.kind))
            continue;
        const QString name = op.name.empty() ? Labels::op(op.kind) : QString::fromStdString(op.name);
        m_op->addItem(tr("step %1: %2").arg(i + 1).arg(name), static_cast<int>(i));
    }
    const int keep = m_op->findData(previousOp);
    m_op->setCurrentIndex(keep >= 0 ? keep : 0);
    m_op->blockSignals(false);
    suggestForStep();
    const int ranks = std::max(1, m_scenario.ranks());
    m_rank->setRange(0, ranks - 1);
    m_iteration->setRange(1, std::max(1, m_scenario.iterations));
    if (firstTime && m_op->count() > 0) {
        // a mistake in the second iteration, on the last rank: the first iteration shows the program working
        m_rank->setValue(ranks - 1);
        m_iteration->setValue(std::min(2, std::max(1, m_scenario.iterations)));
    }
    updateControls();
}

void HangSandbox::suggestForStep()
{
    if (m_op->count() == 0)
        return;
    // the natural mistakes for this step: another collective than the program's, half its size
    const Op& op = m_scenario.program[static_cast<size_t>(m_op->currentData().toInt())];
    if (m_replacement->currentData().toInt() == static_cast<int>(op.kind) || !m_op->property("suggestedFor").isValid()
        || m_op->property("suggestedFor").toInt() != m_op->currentData().toInt()) {
        const OpKind other = op.kind == OpKind::AllGather ? OpKind::AllReduce : OpKind::AllGather;
        m_replacement->setCurrentIndex(m_replacement->findData(static_cast<int>(other)));
        m_megabytes->setValue(std::max(0.001, static_cast<double>(m_scenario.bytesOf(op)) / 2e6));
        m_op->setProperty("suggestedFor", m_op->currentData().toInt());
    }
}

void HangSandbox::updateControls()
{
    const auto type = static_cast<Mismatch::Type>(m_type->currentData().toInt());
    m_replacement->setEnabled(type == Mismatch::Type::WrongOp);
    m_megabytes->setEnabled(type == Mismatch::Type::WrongCount);
    const bool haveOp = m_op->count() > 0;
    m_run->setEnabled(m_hasScenario && haveOp);
    m_reason->setText(!m_hasScenario ? tr("No scenario is open.")
                      : haveOp       ? QString()
                                     : tr("The step program has no collective to get wrong: add one in the editor."));
    m_reason->setVisible(!m_reason->text().isEmpty());
}

std::optional<Mismatch> HangSandbox::mistake() const
{
    if (m_op->count() == 0)
        return std::nullopt;
    Mismatch m;
    m.type = static_cast<Mismatch::Type>(m_type->currentData().toInt());
    m.rank = m_rank->value();
    m.op = m_op->currentData().toInt();
    m.iteration = m_iteration->value() - 1; // shown from 1, stored from 0
    m.replacement = static_cast<OpKind>(m_replacement->currentData().toInt());
    m.bytes = static_cast<Bytes>(m_megabytes->value() * 1e6);
    return m;
}

Result<Scenario> HangSandbox::scenarioWithMistake() const
{
    const auto m = mistake();
    if (!m)
        return badInput(i18n::appWorded(tr("The step program has no collective to get wrong.")));
    Scenario s = m_scenario;
    s.perturbations.mismatches = {*m};
    if (Status st = validateScenario(s); !st)
        return st.error();
    return s;
}

void HangSandbox::choose(Mismatch::Type type, int rank, int collectiveOp, int iteration)
{
    m_type->setCurrentIndex(m_type->findData(static_cast<int>(type)));
    m_rank->setValue(rank);
    const int index = m_op->findData(collectiveOp);
    if (index >= 0)
        m_op->setCurrentIndex(index);
    m_iteration->setValue(iteration + 1);
}

void HangSandbox::setDeadlineMs(double ms) { m_deadline->setValue(ms / 1e3); }

double HangSandbox::deadlineMs() const { return m_deadline->value() * 1e3; }

QString HangSandbox::sentence() const { return m_sentence->text(); }

void HangSandbox::requestRun()
{
    auto s = scenarioWithMistake();
    if (!s) {
        m_reason->setText(tr("This mistake cannot run: %1").arg(i18n::engineError(s.error())));
        m_reason->setVisible(true);
        return;
    }
    m_reason->clear();
    m_reason->setVisible(false);
    m_sentence->setText(tr("Running with the mistake\u2026"));
    emit runRequested(*s);
}

void HangSandbox::showOutcome(const RunOutcomePtr& outcome)
{
    if (!outcome || !outcome->run) {
        m_grid->setReport(std::nullopt, 0);
        return;
    }
    const RunResult& run = *outcome->run;
    m_grid->setReport(run.hang, run.ranks);
    if (!run.hang) {
        m_sentence->setText(
            outcome->scenario.perturbations.mismatches.empty()
                ? tr("No hang: every rank made the same calls in the same order.")
                : tr("No hang: the mistake never happened (the rank is not in that collective's group, or "
                     "the iteration is not run), so every collective completed."));
        return;
    }
    const HangReport& h = *run.hang;
    QString text = QStringLiteral("<b>%1</b> ").arg(tr("The run hung and the watchdog aborted it."));
    const int first = h.firstMismatchRank;
    if (first >= 0 && first < static_cast<int>(h.pending.size())) {
        text += tr("Rank %1 is the first whose call differs from its group's: %2.")
                    .arg(first)
                    .arg(i18n::engineText(h.pendingMessage(static_cast<size_t>(first))).toHtmlEscaped())
                + QLatin1Char(' ');
        // the others, when they all stopped at the same place (the usual case)
        int last = -2;
        bool same = true;
        for (int r = 0; r < static_cast<int>(h.lastCompleted.size()); ++r)
            if (r != first) {
                same = same && (last == -2 || last == h.lastCompleted[static_cast<size_t>(r)]);
                last = h.lastCompleted[static_cast<size_t>(r)];
            }
        if (same && last >= 0)
            text += tr("The others completed collective #%1 and are stuck in #%2, waiting for a matching call that "
                       "never comes.")
                        .arg(last)
                        .arg(last + 1)
                    + QLatin1Char(' ');
        text += tr("NCCL matches calls by their order on the communicator and raises no error: only the watchdog "
                   "ends the wait. The fix is in the program (every rank calls the same collectives in the same "
                   "order, with the same sizes), not in the deadline.");
    } else {
        text += i18n::engineText(h.explanationMessage()).toHtmlEscaped() + QStringLiteral(". ")
                + tr("Every rank made the same call, so a rank or a link stopped making progress.");
    }
    m_sentence->setText(text);
    m_view->resizeColumnsToContents();
    m_view->resizeRowsToContents();
}

} // namespace shardlab::gui

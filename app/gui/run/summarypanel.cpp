#include "run/summarypanel.h"

#include "style/numbers.h"
#include "i18n/language.h"

#include "run/summarymodels.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent)
{
    auto* v = new QTableView(parent);
    v->setModel(model);
    v->verticalHeader()->hide();
    v->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    v->horizontalHeader()->setStretchLastSection(false);
    v->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    v->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    v->setSelectionMode(QAbstractItemView::NoSelection);
    v->setEditTriggers(QAbstractItemView::NoEditTriggers);
    v->setAlternatingRowColors(true);
    v->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    return v;
}

QString percent(double share) { return numbers::percent(share); }

} // namespace

SummaryPanel::SummaryPanel(QWidget* parent) : QWidget(parent)
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 4, 6, 4);
    m_figures = new QWidget(this);
    auto* form = new QFormLayout(m_figures);
    form->setContentsMargins(0, 0, 0, 0);
    form->setLabelAlignment(Qt::AlignLeft);
    column->addWidget(m_figures);
    addFigure(QStringLiteral("step"), tr("Step time"),
              tr("Mean time of one iteration, from its start to the last rank finishing"));
    addFigure(QStringLiteral("speedup"), tr("Speed-up vs 1 GPU"),
              tr("Time of the same total work on one GPU (rank 0's), without communication, divided by the step time"));
    addFigure(QStringLiteral("efficiency"), tr("Efficiency"),
              tr("Speed-up divided by the number of GPUs: 100% is perfect scaling"));
    addFigure(QStringLiteral("comm"), tr("Communication"),
              tr("Share of all ranks' time spent in exposed communication (not hidden behind compute)"));
    addFigure(QStringLiteral("wait"), tr("Waiting"),
              tr("Share of all ranks' time spent idle at synchronisation points"));
    addFigure(QStringLiteral("straggler"), tr("Straggler"),
              tr("The rank that arrives last at collectives most often, when the waiting it causes matters"));

    auto* title = new QLabel(tr("Bottleneck"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    column->addWidget(title);
    m_sentence = new QLabel(this);
    m_sentence->setWordWrap(true);
    m_sentence->setTextFormat(Qt::PlainText); // names from the scenario file
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_sentence->font();
    big.setPointSizeF(big.pointSizeF() * 1.1);
    m_sentence->setFont(big);
    m_sentence->setStyleSheet(
        QStringLiteral("QLabel { background: #FFF8D6; color: black; border-left: 4px solid #E69F00; padding: 6px; }"));
    column->addWidget(m_sentence);

    auto* perRank = new QLabel(tr("Per rank, ms per iteration"), this);
    perRank->setFont(bold);
    column->addWidget(perRank);
    m_ranks = new RankTableModel(this);
    m_rankView = makeTable(m_ranks, this);
    m_rankView->setColumnHidden(RankTableModel::Device, true); // the lanes name the devices
    column->addWidget(m_rankView);

    m_comparisonTitle = new QLabel(tr("Simulated vs measured"), this);
    m_comparisonTitle->setFont(bold);
    m_comparisonTitle->setToolTip(
        tr("How far the model's prediction of each phase is from what this machine measured"));
    column->addWidget(m_comparisonTitle);
    m_comparison = new ComparisonModel(this);
    m_comparisonView = makeTable(m_comparison, this);
    column->addWidget(m_comparisonView);
    m_notesTitle = new QLabel(tr("Notes on this run"), this);
    m_notesTitle->setFont(bold);
    m_notesTitle->setToolTip(tr("What the run changed or could not do, and how its clocks were aligned"));
    column->addWidget(m_notesTitle);
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_notes);
    column->addStretch(1);
    clear(tr("Press Run to simulate the scenario."));
}

QLabel* SummaryPanel::addFigure(const QString& key, const QString& title, const QString& tooltip)
{
    auto* caption = new QLabel(title, m_figures);
    caption->setToolTip(tooltip);
    auto* value = new QLabel(m_figures);
    QFont f = value->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    value->setFont(f);
    value->setToolTip(tooltip);
    static_cast<QFormLayout*>(m_figures->layout())->addRow(caption, value);
    m_values.push_back({key, value});
    return value;
}

QString SummaryPanel::figure(const QString& key) const
{
    for (const auto& [k, label] : m_values)
        if (k == key)
            return label->text();
    return {};
}

QString SummaryPanel::sentence() const { return m_sentence->text(); }

QString SummaryPanel::notes() const { return m_noteLines.join(QLatin1Char('\n')); }

void SummaryPanel::clear(const QString& why)
{
    for (const auto& [k, label] : m_values)
        label->setText(QStringLiteral("\u2013"));
    m_sentence->setText(why);
    m_ranks->setSummary({});
    m_comparison->clear();
    m_comparisonTitle->hide();
    m_comparisonView->hide();
    m_notesTitle->hide();
    m_notes->hide();
    m_notes->clear();
    m_noteLines.clear();
}

void SummaryPanel::setOutcome(const RunOutcomePtr& outcome)
{
    if (!outcome) {
        clear(tr("No run yet."));
        return;
    }
    // the engine's sentences in the interface language
    const Summary s = wordedIn(outcome->summary, i18n::engineLanguage());
    auto set = [this](const QString& key, const QString& text) {
        for (const auto& [k, label] : m_values)
            if (k == key)
                label->setText(text);
    };
    set(QStringLiteral("step"), numbers::msWithUnit(s.stepTimeMs));
    // no speed-up (a hang, no compute, one GPU): a dash, with the engine's reason as the tooltip
    set(QStringLiteral("speedup"), !s.hasSpeedup  ? QStringLiteral("\u2013")
                                   : s.ranks == 1 ? tr("%1 on 1 GPU").arg(numbers::speedup(s.speedup))
                                                  : tr("%1 on %2 GPUs").arg(numbers::speedup(s.speedup)).arg(s.ranks));
    set(QStringLiteral("efficiency"), s.hasSpeedup ? percent(s.efficiency) : QStringLiteral("\u2013"));
    for (const auto& [k, label] : m_values)
        if (k == QLatin1String("speedup") || k == QLatin1String("efficiency"))
            label->setToolTip(QString::fromStdString(s.speedupNote));
    set(QStringLiteral("comm"), tr("%1 of rank time").arg(percent(s.commShare)));
    set(QStringLiteral("wait"), tr("%1 of rank time").arg(percent(s.waitShare)));
    if (s.straggler) {
        const RankBreakdown& r = s.perRank[static_cast<size_t>(*s.straggler)];
        set(QStringLiteral("straggler"), tr("rank %1 (last %2 times)").arg(*s.straggler).arg(r.timesLast));
    } else {
        set(QStringLiteral("straggler"), tr("none"));
    }
    m_sentence->setText(QString::fromStdString(s.sentence));
    m_ranks->setSummary(s);
    if (outcome->comparison) {
        m_comparison->setComparison(*outcome->comparison);
        m_comparisonTitle->show();
        m_comparisonView->show();
    } else {
        m_comparison->clear();
        m_comparisonTitle->setVisible(outcome->kind == RunKind::Live);
        m_comparisonView->hide();
        if (outcome->kind == RunKind::Live)
            m_comparisonTitle->setText(tr("Simulated vs measured: not available (%1)").arg(outcome->referenceError));
    }
    // The run's notes and, for a measured run, its clock alignment (a simulation's one clock
    // needs no note), each worded in the interface language where the run carries it as data.
    QStringList lines;
    if (const RunResult* run = outcome->run.get()) {
        for (const Message& note : run->notes)
            lines << i18n::engineText(note);
        if (outcome->kind == RunKind::Live && !run->clockNote.empty())
            lines << i18n::engineText(run->clockNote);
    }
    QString html;
    for (const QString& line : lines)
        html += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
    m_notes->setText(lines.isEmpty() ? QString()
                                     : QStringLiteral("<ul style=\"margin-left: -20px\">%1</ul>").arg(html));
    m_noteLines = lines;
    m_notesTitle->setVisible(!lines.isEmpty());
    m_notes->setVisible(!lines.isEmpty());
}

} // namespace shardlab::gui

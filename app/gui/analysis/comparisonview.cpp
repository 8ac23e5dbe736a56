#include "analysis/comparisonview.h"

#include "i18n/language.h"

#include "i18n/engineterms.h"
#include "style/plotstyle.h"

#include "shardlab/live/live.h"
#include "shardlab/live/live_measure.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include "timeline/qcustomplot_include.h"

#include <algorithm>
#include <numeric>

namespace shardlab::gui {

namespace {

QString valuesText(const std::vector<double>& v)
{
    QStringList parts;
    for (size_t i = 0; i < v.size() && i < 8; ++i)
        parts << QString::number(v[i]);
    if (v.size() > 8)
        parts << QStringLiteral("…");
    return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

QString examples(const RankValues& values)
{
    QStringList lines;
    for (size_t r = 0; r < values.size() && r < 4; ++r)
        lines << QObject::tr("rank %1: %2").arg(r).arg(valuesText(values[r]));
    if (values.size() > 4)
        lines << QObject::tr("… %n more rank(s)", nullptr, static_cast<int>(values.size() - 4));
    return lines.join(QLatin1Char('\n'));
}

// Three bars, one per side, in the side-by-side order; a second series (measured) next to them.
QCustomPlot* barPlot(const QString& title)
{
    auto* plot = new QCustomPlot;
    stylePlot(plot);
    plot->setMinimumHeight(200);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(0, QObject::tr("All-Reduce"));
    ticker->addTick(1, QObject::tr("RS + AG"));
    ticker->addTick(2, QObject::tr("RS only"));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(-0.6, 2.6);
    plot->yAxis->setLabel(title);
    plot->yAxis->setRangeLower(0);
    return plot;
}

QLabel* bigLabel()
{
    auto* l = new QLabel;
    QFont f = l->font();
    f.setPointSizeF(13);
    l->setFont(f);
    l->setAlignment(Qt::AlignCenter);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

const Need kNeeds[] = {Need::SumOnEveryRank, Need::SumOnOneRank, Need::SliceOfSumOnEveryRank,
                       Need::ConcatenationOnEveryRank, Need::CopyOfOneRanksData};
const OpKind kChoices[] = {OpKind::AllReduce, OpKind::Reduce, OpKind::ReduceScatter, OpKind::AllGather,
                           OpKind::Broadcast};

} // namespace

ComparisonView::ComparisonView(QWidget* parent) : QWidget(parent)
{
    m_gpus = new QSpinBox;
    m_gpus->setRange(2, 2);
    m_bytes = new QComboBox;
    m_bytes->setEditable(true);
    for (const char* s : {"64 MB", "256 MB", "1 GB", "4 GB"})
        m_bytes->addItem(QString::fromLatin1(s));
    m_bytes->setCurrentIndex(2);
    m_bytes->setToolTip(tr("The buffer each rank contributes: 1 GB = 10^9 bytes, 1 GiB = 2^30"));
    m_measure = new QPushButton(tr("Measure on this machine"));
    if (!liveBuiltIn()) {
        m_measure->setEnabled(false);
        m_measure->setToolTip(
            tr("Live mode is not built into this ShardLab: %1").arg(i18n::engineText(liveBuildInfo())));
    }
    auto* controls = new QHBoxLayout;
    auto* form = new QFormLayout;
    form->addRow(tr("GPUs"), m_gpus);
    form->addRow(tr("Buffer"), m_bytes);
    controls->addLayout(form);
    controls->addWidget(m_measure);
    controls->addStretch(1);

    auto* grid = new QGridLayout;
    const QString heads[3] = {tr("All-Reduce"), tr("Reduce-Scatter + All-Gather"), tr("Reduce-Scatter only")};
    const QString rows[5] = {tr("each rank holds afterwards"), tr("peak memory per rank"), tr("each rank sends"),
                             tr("time (simulated)"), tr("time (measured)")};
    const QString tips[5] = {
        tr("Bytes of the result each rank keeps"),
        tr("Buffers alive at once, out of place: all-reduce needs input and output of the full size; "
           "reduce-scatter needs the input and one slice, and its input is freed before the all-gather"),
        tr("Ring traffic per rank: 2(n-1)/n of the buffer for all-reduce, (n-1)/n for each half"),
        tr("From the cost model on this machine"), tr("Measured with NCCL on this machine's GPUs")};
    QFont headFont = font();
    headFont.setPointSizeF(13);
    headFont.setBold(true);
    for (int c = 0; c < 3; ++c) {
        auto* h = new QLabel(heads[c]);
        h->setFont(headFont);
        h->setAlignment(Qt::AlignCenter);
        grid->addWidget(h, 0, c + 1);
    }
    for (int r = 0; r < 5; ++r) {
        auto* label = new QLabel(rows[r]);
        label->setToolTip(tips[r]);
        QFont f = label->font();
        f.setPointSizeF(12);
        label->setFont(f);
        grid->addWidget(label, r + 1, 0);
        for (int c = 0; c < 3; ++c) {
            m_cells[r][c] = bigLabel();
            grid->addWidget(m_cells[r][c], r + 1, c + 1);
        }
    }
    auto* exampleHead = new QLabel(tr("example values afterwards"));
    QFont rowFont = exampleHead->font();
    rowFont.setPointSizeF(12);
    exampleHead->setFont(rowFont);
    exampleHead->setToolTip(
        tr("Rank r starts with 10(r+1), 10(r+1)+1, …: sums and concatenations are easy to tell apart"));
    grid->addWidget(exampleHead, 7, 0);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(11);
    for (int c = 0; c < 3; ++c) {
        m_examples[c] = new QLabel;
        m_examples[c]->setFont(mono);
        m_examples[c]->setAlignment(Qt::AlignTop | Qt::AlignHCenter);
        grid->addWidget(m_examples[c], 7, c + 1);
    }
    auto* sideBySide = new QGroupBox(tr("Side by side"));
    sideBySide->setLayout(grid);

    m_inputs = new QLabel;
    m_inputs->setFont(mono);
    m_inputs->setWordWrap(true);
    auto* inputsHead = new QLabel(tr("example inputs"));
    inputsHead->setFont(rowFont);
    grid->addWidget(inputsHead, 6, 0);
    grid->addWidget(m_inputs, 6, 1, 1, 3);
    m_memoryPlot = barPlot(tr("peak memory per rank (GB)"));
    m_timePlot = barPlot(tr("time (ms)"));
    auto* plots = new QHBoxLayout;
    plots->addWidget(m_memoryPlot);
    plots->addWidget(m_timePlot);

    m_sentence = new QLabel;
    m_sentence->setWordWrap(true);
    QFont sf = m_sentence->font();
    sf.setPointSizeF(11.5);
    m_sentence->setFont(sf);
    m_status = new QLabel;
    m_status->setWordWrap(true);

    m_need = new QComboBox;
    for (Need n : kNeeds)
        m_need->addItem(EngineTerms::need(n), static_cast<int>(n));
    m_need->setCurrentIndex(3);
    m_chosen = new QComboBox;
    for (OpKind k : kChoices)
        m_chosen->addItem(EngineTerms::op(k), static_cast<int>(k));
    m_choiceText = new QLabel;
    m_choiceText->setWordWrap(true);
    QFont cf = m_choiceText->font();
    cf.setPointSizeF(12);
    m_choiceText->setFont(cf);
    auto* choiceForm = new QFormLayout;
    choiceForm->addRow(tr("The next step needs"), m_need);
    choiceForm->addRow(tr("The program calls"), m_chosen);
    auto* choice = new QGroupBox(tr("Choosing the collective from what the next step needs"));
    auto* choiceLayout = new QVBoxLayout(choice);
    choiceLayout->addLayout(choiceForm);
    choiceLayout->addWidget(m_choiceText);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(sideBySide);
    layout->addLayout(plots, 1);
    layout->addWidget(m_sentence);
    layout->addWidget(choice);
    layout->addWidget(m_status);

    connect(m_gpus, &QSpinBox::valueChanged, this, &ComparisonView::refresh);
    connect(m_bytes, &QComboBox::currentTextChanged, this, &ComparisonView::refresh);
    connect(m_measure, &QPushButton::clicked, this, &ComparisonView::measure);
    connect(m_need, &QComboBox::currentIndexChanged, this, &ComparisonView::updateChoice);
    connect(m_chosen, &QComboBox::currentIndexChanged, this, &ComparisonView::updateChoice);
}

void ComparisonView::setTopology(const Topology& topology, const CostProfile& profile)
{
    m_topology = topology;
    m_profile = profile;
    const QSignalBlocker block(m_gpus);
    m_gpus->setRange(2, std::max(2, topology.rankCount()));
    m_gpus->setValue(std::max(2, topology.rankCount()));
    refresh();
}

void ComparisonView::setGpus(int gpus) { m_gpus->setValue(gpus); }
void ComparisonView::setBytesText(const QString& text) { m_bytes->setCurrentText(text); }

QString ComparisonView::cellText(int row, int column) const
{
    return row >= 0 && row < 5 && column >= 0 && column < 3 ? m_cells[row][column]->text() : QString();
}

void ComparisonView::refresh()
{
    auto bytes = parseSize(m_bytes->currentText().toStdString());
    if (!bytes || *bytes == 0 || m_topology.rankCount() < 2) {
        m_status->setText(bytes ? tr("Choose a size above zero on a machine with two or more GPUs.")
                                : i18n::engineError(bytes.error()));
        return;
    }
    m_status->clear();
    const Topology topology = m_topology.firstGpus(m_gpus->value());
    const CostProfile profile = m_profile;
    const Bytes size = *bytes;
    const int n = m_gpus->value();
    m_jobs.start(
        [topology, profile, size, n](const std::atomic<bool>&) {
            CostModel model(topology, profile);
            std::vector<int> group(static_cast<size_t>(n));
            std::iota(group.begin(), group.end(), 0);
            return compareAllReduceWithRsAg(model, group, size);
        },
        [this](CollectiveComparison c) {
            m_comparison = std::move(c);
            showComparison();
            updateChoice();
            emit comparisonAvailable();
        });
}

void ComparisonView::measure()
{
    m_measure->setEnabled(false);
    m_status->setText(tr("Measuring the three on this machine's GPUs…"));
    CollectiveComparison c = m_comparison;
    m_jobs.start(
        [c](const std::atomic<bool>&) mutable {
            const Status st = fillMeasuredTimes(c, liveSweepMeasure());
            return std::make_pair(c, st);
        },
        [this](std::pair<CollectiveComparison, Status> result) {
            m_measure->setEnabled(true);
            if (!result.second) {
                m_status->setText(i18n::engineError(result.second.error()));
                emit failed(m_status->text());
                return;
            }
            m_status->clear();
            m_comparison = std::move(result.first);
            showComparison();
        });
}

void ComparisonView::showComparison()
{
    const ComparisonSide* sides[3] = {&m_comparison.allReduce, &m_comparison.reduceScatterAllGather,
                                      &m_comparison.reduceScatterOnly};
    auto bytes = [](Bytes b) { return QString::fromStdString(formatBytes(b)); };
    for (int c = 0; c < 3; ++c) {
        const ComparisonSide& s = *sides[c];
        m_cells[0][c]->setText(bytes(s.heldAfterPerRank));
        m_cells[1][c]->setText(bytes(s.peakPerRank));
        m_cells[2][c]->setText(bytes(s.sentPerRank));
        m_cells[3][c]->setText(QString::fromStdString(formatMicros(s.timeUs)));
        m_cells[4][c]->setText(s.measuredUs ? QString::fromStdString(formatMicros(*s.measuredUs)) : tr("—"));
        m_examples[c]->setText(examples(s.exampleResult));
    }
    // the smaller peak memory stands out
    for (int c = 0; c < 3; ++c)
        m_cells[1][c]->setStyleSheet(sides[c]->peakPerRank < m_comparison.allReduce.peakPerRank
                                         ? QStringLiteral("color: #009E73; font-weight: bold")
                                         : QString());
    m_inputs->setText(examples(m_comparison.allReduce.exampleInputs).replace(QLatin1Char('\n'), QStringLiteral("   ")));
    m_sentence->setText(i18n::engineText(comparisonMessage(m_comparison)));
    plotBars();
}

void ComparisonView::plotBars()
{
    const ComparisonSide* sides[3] = {&m_comparison.allReduce, &m_comparison.reduceScatterAllGather,
                                      &m_comparison.reduceScatterOnly};
    auto fill = [&](QCustomPlot* plot, auto value, auto measured) {
        plot->clearPlottables();
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setBrush(colors::simulated);
        bars->setPen(Qt::NoPen);
        bars->setWidth(0.35);
        QVector<double> x{0, 1, 2}, y, m;
        for (const ComparisonSide* s : sides) {
            y.push_back(value(*s));
            if (measured(*s) > 0)
                m.push_back(measured(*s));
        }
        double top = *std::max_element(y.begin(), y.end());
        if (m.size() == 3) {
            // measured bars beside the simulated ones
            bars->setName(tr("simulated"));
            auto* mb = new QCPBars(plot->xAxis, plot->yAxis);
            mb->setName(tr("measured"));
            mb->setBrush(colors::measured);
            mb->setPen(Qt::NoPen);
            mb->setWidth(0.35);
            auto* group = new QCPBarsGroup(plot);
            bars->setBarsGroup(group);
            mb->setBarsGroup(group);
            mb->setData(x, m, true);
            top = std::max(top, *std::max_element(m.begin(), m.end()));
        }
        bars->setData(x, y, true);
        plot->yAxis->setRange(0, top * 1.15);
        plot->replot(QCustomPlot::rpQueuedReplot);
    };
    fill(
        m_memoryPlot, [](const ComparisonSide& s) { return static_cast<double>(s.peakPerRank) / 1e9; },
        [](const ComparisonSide&) { return 0.0; });
    fill(
        m_timePlot, [](const ComparisonSide& s) { return s.timeUs / 1e3; },
        [](const ComparisonSide& s) { return s.measuredUs ? *s.measuredUs / 1e3 : 0.0; });
}

void ComparisonView::updateChoice()
{
    const Need need = static_cast<Need>(m_need->currentData().toInt());
    const OpKind chosen = static_cast<OpKind>(m_chosen->currentData().toInt());
    const int n = std::max(2, m_comparison.ranks);
    m_choice = consequenceOfChoosing(chosen, need, n, m_comparison.bytes / static_cast<Bytes>(n));
    const QString color = m_choice.correct
                              ? (chosen == m_choice.right ? QStringLiteral("#009E73") : QStringLiteral("#E69F00"))
                              : QStringLiteral("#D55E00");
    m_choiceText->setText(QStringLiteral("<span style='color:%1; font-weight:bold'>%2</span>")
                              .arg(color, i18n::engineText(m_choice.sentenceMessage).toHtmlEscaped()));
}

} // namespace shardlab::gui

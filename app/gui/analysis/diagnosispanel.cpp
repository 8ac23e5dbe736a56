#include "analysis/diagnosispanel.h"

#include "style/numbers.h"
#include "analysis/findingsmodel.h"
#include "style/plotstyle.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "timeline/qcustomplot_include.h"

namespace shardlab::gui {

DiagnosisPanel::DiagnosisPanel(QWidget* parent) : QWidget(parent)
{
    m_findings = new FindingsModel(this);
    m_evidence = new RankEvidenceModel(this);
    m_headline = new QLabel;
    m_headline->setWordWrap(true);
    QFont hf = m_headline->font();
    hf.setPointSizeF(12);
    m_headline->setFont(hf);
    m_list = new QListView;
    m_list->setModel(m_findings);
    QFont lf = m_list->font();
    lf.setPointSizeF(12);
    lf.setBold(true);
    m_list->setFont(lf);
    m_list->setMaximumHeight(3 * m_list->fontMetrics().height() + 16); // at most three findings
    m_detail = new QTextBrowser;
    QFont df = m_detail->font();
    df.setPointSizeF(11.5);
    m_detail->setFont(df);
    m_table = new QTableView;
    m_table->setModel(m_evidence);
    styleTable(m_table);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // the handbook's evidence: each rank's compute, communication and wait, not the mean
    m_ranks = new QCustomPlot;
    stylePlot(m_ranks);
    legendOnTop(m_ranks);
    m_ranks->xAxis->setLabel(tr("rank"));
    m_ranks->yAxis->setLabel(tr("per step (ms)"));
    QCPBars* compute = addStackedBars(m_ranks, tr("compute"), colors::compute, nullptr);
    QCPBars* comm = addStackedBars(m_ranks, tr("communication"), colors::comm, compute);
    addStackedBars(m_ranks, tr("wait"), colors::wait, comm);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_detail);
    split->addWidget(m_ranks);
    split->addWidget(m_table);
    split->setSizes({380, 260, 200});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_list);
    layout->addWidget(split, 1);

    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showFinding(current.row()); });
}

QString DiagnosisPanel::detailText() const { return m_detail->toPlainText(); }

void DiagnosisPanel::setBusy(const QString& message) { m_headline->setText(message); }

void DiagnosisPanel::setFindings(std::vector<Finding> findings, const QString& runSentence)
{
    m_findings->setFindings(std::move(findings));
    // nothing found: the sentence alone, without an empty list, an empty plot and an empty table
    const bool none = m_findings->findings().empty();
    m_list->setVisible(!none);
    m_detail->parentWidget()->setVisible(!none); // the splitter of detail, plot and table
    if (none) {
        m_headline->setText(runSentence + QStringLiteral("<br><b>")
                            + tr("No finding: the run scales, nobody is waited for, and every collective completes.")
                            + QStringLiteral("</b>"));
        m_detail->clear();
        m_evidence->setEvidence({}, false, -1);
        plotRanks({}, -1);
        return;
    }
    m_headline->setText(runSentence);
    selectFinding(0);
}

void DiagnosisPanel::selectFinding(int row)
{
    m_list->setCurrentIndex(m_findings->index(row));
    showFinding(row);
}

void DiagnosisPanel::showFinding(int row)
{
    const auto& all = m_findings->findings();
    if (row < 0 || row >= static_cast<int>(all.size()))
        return;
    const Finding& f = all[static_cast<size_t>(row)];
    auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
    QString html = QStringLiteral("<p style='font-size:13pt'><b>%1</b></p>").arg(esc(f.sentence));
    html += QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("What the handbook says to check first"));
    for (const Check& c : f.checks)
        html += QStringLiteral("<li><b>%1</b>: %2</li>").arg(esc(c.what), esc(c.shows));
    html += QStringLiteral("</ul><p><b>%1</b> ").arg(tr("Evidence it asks for:"));
    QStringList needed;
    for (const std::string& e : f.evidenceNeeded)
        needed << esc(e);
    html += tr("%1 (below).").arg(needed.join(QStringLiteral("; "))) + QStringLiteral("</p>");
    if (!f.collectives.empty()) {
        html += QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("Communication bandwidth"));
        for (const CollectiveEvidence& c : f.collectives)
            html += QStringLiteral("<li>%1</li>")
                        .arg(tr("%1, %2 on %3 GPUs: %4 ms, bus bandwidth %5 GB/s, %6%7")
                                 .arg(esc(c.name), esc(formatBytes(c.bytes)))
                                 .arg(c.ranks)
                                 .arg(numbers::ms(c.timeMs))
                                 .arg(numbers::gbps(c.busbwGBps))
                                 .arg(c.latencyBound ? tr("latency-bound") : tr("bandwidth-bound"))
                                 .arg(c.bottleneckLink.empty() ? QString()
                                                               : tr(", limited by %1").arg(esc(c.bottleneckLink))));
        html += QStringLiteral("</ul>");
    }
    if (!f.scaling.empty()) {
        html += QStringLiteral(
                    "<p><b>%1</b></p><table cellpadding='3'><tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>")
                    .arg(tr("Strong-scaling curve"), tr("GPUs"), tr("step (ms)"), tr("speed-up"), tr("efficiency"));
        for (const ScalingPoint& p : f.scaling)
            html += QStringLiteral("<tr><td align='right'>%1</td><td align='right'>%2</td><td align='right'>%3</td>"
                                   "<td align='right'>%4</td></tr>")
                        .arg(p.gpus)
                        .arg(numbers::ms(p.stepTimeMs), numbers::speedup(p.speedup), numbers::percent(p.efficiency));
        html += QStringLiteral("</table>");
    }
    m_detail->setHtml(html);
    m_evidence->setEvidence(f.ranks, f.rule == FindingRule::CollectiveHang, f.rank.value_or(-1));
    plotRanks(f.ranks, f.rank.value_or(-1));
}

void DiagnosisPanel::plotRanks(const std::vector<RankEvidence>& ranks, int highlight)
{
    QVector<double> x, parts[3];
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top = 0;
    for (const RankEvidence& e : ranks) {
        x.push_back(e.rank);
        parts[0].push_back(e.computeMs);
        parts[1].push_back(e.commMs);
        parts[2].push_back(e.waitMs);
        top = std::max(top, e.computeMs + e.commMs + e.waitMs);
        if (ranks.size() <= 32 || e.rank % 8 == 0)
            ticker->addTick(e.rank, e.rank == highlight ? tr("%1 (this one)").arg(e.rank) : QString::number(e.rank));
    }
    for (int k = 0; k < 3; ++k)
        qobject_cast<QCPBars*>(m_ranks->plottable(k))->setData(x, parts[k], true);
    m_ranks->xAxis->setTicker(ticker);
    m_ranks->xAxis->setRange(-0.6, static_cast<double>(ranks.size()) - 0.4);
    m_ranks->yAxis->setRange(0, std::max(1e-3, top * 1.1));
    m_ranks->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace shardlab::gui

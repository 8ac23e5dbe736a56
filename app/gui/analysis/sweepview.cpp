#include "analysis/sweepview.h"

#include "i18n/engineterms.h"
#include "i18n/language.h"
#include "style/plotstyle.h"
#include "analysis/sweepmodel.h"

#include "shardlab/analysis/calibration.h"
#include "shardlab/analysis/calibration_report.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/live/live.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "timeline/qcustomplot_include.h"

#include <cmath>

namespace shardlab::gui {

namespace {
const OpKind kCollectives[] = {OpKind::AllReduce, OpKind::AllGather, OpKind::ReduceScatter,
                               OpKind::Broadcast, OpKind::Reduce,    OpKind::ReduceScatterAllGather};
enum Metric { Time, Algbw, Busbw };

double metricOf(const SweepRow& r, int metric)
{
    return metric == Time ? r.timeUs : metric == Algbw ? r.algbwGBps : r.busbwGBps;
}
} // namespace

SweepView::SweepView(QWidget* parent) : QWidget(parent)
{
    m_model = new SweepModel(this);
    m_collective = new QComboBox;
    for (OpKind k : kCollectives)
        m_collective->addItem(EngineTerms::op(k), static_cast<int>(k));
    m_gpus = new QSpinBox;
    m_gpus->setRange(2, 2);
    m_gpus->setToolTip(tr("The first N GPUs of the scenario's machine"));
    m_sizes = new QLineEdit(QStringLiteral("8B:1GB:4"));
    m_sizes->setToolTip(
        tr("START:END:FACTOR as in nccl-tests (binary: 1M = 1,048,576 bytes), or a list such as 64K,1M,16M"));
    m_metric = new QComboBox;
    m_metric->addItem(tr("Time (µs)"), Time);
    m_metric->addItem(tr("Algorithm bandwidth (GB/s)"), Algbw);
    m_metric->addItem(tr("Bus bandwidth (GB/s)"), Busbw);
    m_metric->setCurrentIndex(Busbw);
    m_metric->setToolTip(tr("Bus bandwidth is comparable with the link speed whatever the number of GPUs"));
    m_measure = new QPushButton(tr("Measure on this machine"));
    if (!liveBuiltIn()) {
        m_measure->setEnabled(false);
        m_measure->setToolTip(
            tr("Live mode is not built into this ShardLab: %1").arg(i18n::engineText(liveBuildInfo())));
    } else {
        m_measure->setToolTip(tr("Run the same sweep with NCCL on this machine's GPUs and overlay it"));
    }
    m_load = new QPushButton(tr("Load measured sweep…"));
    m_load->setToolTip(tr("Overlay a sweep measured elsewhere (the output of shardlab bench --json)"));
    m_fit = new QLabel;
    m_fit->setWordWrap(true);
    QFont ff = m_fit->font();
    ff.setPointSizeF(11.5);
    m_fit->setFont(ff);
    m_status = new QLabel;
    m_status->setWordWrap(true);

    auto* controls = new QHBoxLayout;
    auto* form = new QFormLayout;
    form->addRow(tr("Collective"), m_collective);
    form->addRow(tr("GPUs"), m_gpus);
    auto* form2 = new QFormLayout;
    form2->addRow(tr("Sizes"), m_sizes);
    form2->addRow(tr("Plot"), m_metric);
    controls->addLayout(form);
    controls->addLayout(form2);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_measure);
    buttons->addWidget(m_load);
    controls->addLayout(buttons);
    controls->addStretch(1);

    m_plot = new QCustomPlot;
    stylePlot(m_plot);
    setLogAxis(m_plot->xAxis, 2);
    m_plot->xAxis->setLabel(tr("message size"));
    legendOnTop(m_plot);
    QCPGraph* sim = m_plot->addGraph();
    sim->setName(tr("simulated"));
    sim->setPen(QPen(colors::simulated, 3));
    sim->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    QCPGraph* meas = m_plot->addGraph();
    meas->setName(tr("measured"));
    meas->setPen(QPen(colors::measured, 2.5, Qt::DashLine));
    meas->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(colors::measured, 3), Qt::NoBrush, 11));

    m_table = new QTableView;
    m_table->setModel(m_model);
    styleTable(m_table);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_plot);
    split->addWidget(m_table);
    split->setSizes({560, 300});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_fit);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_collective, &QComboBox::currentIndexChanged, this, [this] {
        m_measured.clear();
        refresh();
    });
    connect(m_gpus, &QSpinBox::valueChanged, this, [this] {
        m_measured.clear();
        refresh();
    });
    connect(m_sizes, &QLineEdit::editingFinished, this, &SweepView::refresh);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &SweepView::replot);
    connect(m_measure, &QPushButton::clicked, this, &SweepView::measure);
    connect(m_load, &QPushButton::clicked, this, &SweepView::loadMeasured);
}

OpKind SweepView::collective() const { return static_cast<OpKind>(m_collective->currentData().toInt()); }
int SweepView::gpus() const { return m_gpus->value(); }
QString SweepView::fitText() const { return m_fit->text(); }

void SweepView::setTopology(const Topology& topology, const CostProfile& profile)
{
    m_topology = topology;
    m_profile = profile;
    const QSignalBlocker block(m_gpus);
    m_gpus->setRange(2, std::max(2, topology.rankCount()));
    m_gpus->setValue(std::max(2, topology.rankCount()));
    m_measured.clear();
    refresh();
}

void SweepView::refresh()
{
    auto sizes = parseSizeRange(m_sizes->text().toStdString());
    if (!sizes) {
        m_status->setText(i18n::engineError(sizes.error()));
        emit failed(m_status->text());
        return;
    }
    if (m_topology.rankCount() < 2) {
        m_status->setText(tr("A sweep needs a machine with two or more GPUs."));
        return;
    }
    m_status->setText(tr("Simulating…"));
    const Topology topology = m_topology.firstGpus(gpus());
    const CostProfile profile = m_profile;
    const OpKind kind = collective();
    const int n = gpus();
    const std::vector<Bytes> list = *sizes;
    m_jobs.start(
        [topology, profile, kind, n, list](const std::atomic<bool>&) {
            CostModel model(topology, profile);
            return simulateSweep(model, kind, n, list);
        },
        [this](std::vector<SweepRow> rows) {
            m_simulated = std::move(rows);
            m_status->clear();
            rebuild();
            emit simulationAvailable();
        });
}

void SweepView::setMeasuredRows(std::vector<SweepRow> rows)
{
    m_measured = std::move(rows);
    rebuild();
}

void SweepView::measure()
{
    auto sizes = parseSizeRange(m_sizes->text().toStdString());
    if (!sizes)
        return;
    m_measure->setEnabled(false);
    m_status->setText(tr("Measuring on this machine's GPUs…"));
    const OpKind kind = collective();
    const int n = gpus();
    const std::vector<Bytes> list = *sizes;
    m_measureJobs.start(
        [kind, n, list](const std::atomic<bool>& cancel) {
            LiveBenchOptions o;
            o.cancel = &cancel;
            return benchLive(kind, n, list, o);
        },
        [this](Result<std::vector<SweepRow>> rows) {
            m_measure->setEnabled(true);
            if (!rows) {
                m_status->setText(i18n::engineError(rows.error()));
                emit failed(m_status->text());
                return;
            }
            m_status->clear();
            setMeasuredRows(*rows);
        });
}

void SweepView::loadMeasured()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Measured sweep"), QString(), tr("JSON (*.json)"));
    if (file.isEmpty())
        return;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        m_status->setText(tr("%1 cannot be read").arg(file));
        return;
    }
    auto samples = samplesFromSweepJson(f.readAll().toStdString(), file.toStdString());
    if (!samples) {
        m_status->setText(i18n::engineError(samples.error()));
        emit failed(m_status->text());
        return;
    }
    std::vector<SweepRow> rows;
    for (const CalibrationSample& s : *samples) {
        if (s.kind != collective() || s.ranks != gpus())
            continue;
        SweepRow r;
        r.bytes = s.bytes;
        r.count = s.bytes / 4;
        r.timeUs = s.measuredUs;
        // algbw = bytes / time; busbw = algbw x the collective's factor (nccl-tests)
        r.algbwGBps = static_cast<double>(s.bytes) / s.measuredUs / 1e3;
        r.busbwGBps = r.algbwGBps * busBandwidthFactor(s.kind, s.ranks);
        rows.push_back(r);
    }
    if (rows.empty())
        m_status->setText(tr("%1 holds no %2 on %3 GPUs; choose that collective and GPU count first")
                              .arg(file, EngineTerms::op(collective()))
                              .arg(gpus()));
    setMeasuredRows(rows);
}

void SweepView::rebuild()
{
    const AlphaBeta ab = fitAlphaBeta(m_simulated);
    const int cross = latencyBandwidthCrossover(m_simulated);
    const Bytes crossBytes = cross >= 0 ? m_simulated[static_cast<size_t>(cross)].bytes : 0;
    m_model->setRows(collective(), overlaySweeps(m_simulated, m_measured), crossBytes);
    if (ab.valid)
        m_fit->setText(
            tr("Simulated: latency α ≈ %1 µs, bandwidth β ≈ %2 GB/s (algbw); the bandwidth term reaches the "
               "latency at α·β ≈ %3, so from %4 on the sweep is bandwidth-bound.")
                .arg(ab.alphaUs, 0, 'f', 1)
                .arg(ab.betaGBps, 0, 'f', 1)
                .arg(QString::fromStdString(formatBytes(static_cast<Bytes>(std::max(0.0, ab.crossoverBytes())))))
                .arg(crossBytes ? binarySizeLabel(static_cast<double>(crossBytes)) : tr("beyond the last size")));
    else
        m_fit->clear();
    replot();
}

void SweepView::replot()
{
    const int metric = m_metric->currentData().toInt();
    auto fill = [metric](QCPGraph* g, const std::vector<SweepRow>& rows) {
        QVector<double> x, y;
        for (const SweepRow& r : rows)
            if (metricOf(r, metric) > 0) {
                x.push_back(static_cast<double>(r.bytes));
                y.push_back(metricOf(r, metric));
            }
        g->setData(x, y, true);
    };
    fill(m_plot->graph(0), m_simulated);
    fill(m_plot->graph(1), m_measured);
    m_plot->graph(1)->setVisible(!m_measured.empty());
    m_plot->graph(1)->removeFromLegend();
    if (!m_measured.empty())
        m_plot->graph(1)->addToLegend();
    if (metric == Time) {
        setLogAxis(m_plot->yAxis, 10);
        m_plot->yAxis->setLabel(tr("time (µs)"));
    } else {
        m_plot->yAxis->setScaleType(QCPAxis::stLinear);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plot->yAxis->setNumberFormat(QStringLiteral("g"));
        m_plot->yAxis->setLabel(metric == Algbw ? tr("algbw (GB/s)") : tr("busbw (GB/s)"));
    }
    m_plot->rescaleAxes();
    if (metric != Time)
        m_plot->yAxis->setRangeLower(0);
    m_plot->yAxis->scaleRange(1.1, m_plot->yAxis->range().center());
    if (metric != Time)
        m_plot->yAxis->setRangeLower(0);
    m_plot->xAxis->scaleRange(1.3, std::sqrt(m_plot->xAxis->range().lower * m_plot->xAxis->range().upper));
    // the crossover: a vertical line and its label
    m_plot->clearItems();
    const int cross = latencyBandwidthCrossover(m_simulated);
    if (cross >= 0) {
        const double x = static_cast<double>(m_simulated[static_cast<size_t>(cross)].bytes);
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(x, 1);
        line->point2->setCoords(x, 2);
        line->setPen(QPen(colors::marker, 2, Qt::DashDotLine));
        auto* label = new QCPItemText(m_plot);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(x, 0.78); // below the curve, which rises to the right
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setText(tr(" bandwidth-bound from %1").arg(binarySizeLabel(x)));
        QFont f = font();
        f.setPointSizeF(11);
        f.setBold(true);
        label->setFont(f);
        label->setColor(colors::marker);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace shardlab::gui

#include "analysis/scalingview.h"

#include "i18n/language.h"

#include "i18n/engineterms.h"
#include "style/plotstyle.h"
#include "analysis/scalingmodel.h"

#include "shardlab/analysis/collective_path.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "timeline/qcustomplot_include.h"

namespace shardlab::gui {

namespace {

// Points are placed at their index, labelled with their GPU count: 1..16 one by one and then
// four points per doubling stay evenly readable (the labels say where the spacing changes).
QSharedPointer<QCPAxisTickerText> gpuTicker(const ScalingCurve& c)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int n = static_cast<int>(c.points.size());
    const int every = std::max(1, (n + 19) / 20);
    for (int i = 0; i < n; ++i)
        if (i % every == 0 || i == n - 1)
            ticker->addTick(i, QString::number(c.points[static_cast<size_t>(i)].gpus));
    return ticker;
}

} // namespace

ScalingView::ScalingView(QWidget* parent) : QWidget(parent)
{
    m_model = new ScalingModel(this);
    m_mode = new QComboBox;
    m_mode->addItem(tr("Strong scaling (same total work)"), static_cast<int>(ScalingMode::Strong));
    m_mode->addItem(tr("Weak scaling (same work per GPU)"), static_cast<int>(ScalingMode::Weak));
    m_mode->setToolTip(tr("Strong: the job is split over more GPUs. Weak: the job grows with the GPUs, so each keeps "
                          "the same share"));
    m_maxGpus = new QSpinBox;
    m_maxGpus->setRange(1, 4096);
    m_maxGpus->setValue(16);
    m_maxGpus->setToolTip(tr("Simulated up to this many GPUs; beyond one machine, copies of its first node are joined "
                             "by a 400 Gb/s InfiniBand network"));
    m_counts = new QLineEdit;
    m_counts->setObjectName(QStringLiteral("gpuCounts"));
    m_counts->setPlaceholderText(tr("every step up to the maximum"));
    m_counts->setToolTip(tr("The GPU counts to simulate, e.g. 1, 8, 16, 32 (one GPU is always included); "
                            "empty: every step up to \"Up to GPUs\""));
    m_counts->setClearButtonEnabled(true);
    m_axis = new QComboBox;
    m_axis->setObjectName(QStringLiteral("gpuAxis"));
    m_axis->addItem(tr("Points evenly spaced"), static_cast<int>(GpuAxis::Points));
    m_axis->addItem(tr("GPUs, linear"), static_cast<int>(GpuAxis::Linear));
    m_axis->addItem(tr("GPUs, logarithmic"), static_cast<int>(GpuAxis::Log));
    m_axis->setToolTip(tr("Evenly spaced: every point readable. Linear: distances as GPU counts. Logarithmic: "
                          "both axes, so that perfect scaling is the diagonal"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar;
    m_progress->setVisible(false);
    m_status = new QLabel;
    m_status->setWordWrap(true);

    auto* controls = new QHBoxLayout;
    auto* form = new QFormLayout;
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Up to GPUs"), m_maxGpus);
    auto* form2 = new QFormLayout;
    form2->addRow(tr("GPU counts"), m_counts);
    form2->addRow(tr("GPU axis"), m_axis);
    controls->addLayout(form);
    controls->addLayout(form2);
    controls->addWidget(m_progress, 1);
    controls->addWidget(m_cancel);
    controls->addStretch(0);

    m_curve = new QCustomPlot;
    m_curve->xAxis->setLabel(tr("GPUs"));
    m_curve->yAxis->setLabel(tr("speed-up"));
    m_curve->yAxis2->setVisible(true);
    m_curve->yAxis2->setLabel(tr("efficiency (%)"));
    stylePlot(m_curve);
    legendOnTop(m_curve);
    QCPGraph* speedup = m_curve->addGraph();
    speedup->setName(tr("speed-up"));
    speedup->setPen(QPen(colors::simulated, 3));
    speedup->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    QCPGraph* ideal = m_curve->addGraph();
    ideal->setName(tr("ideal speed-up"));
    ideal->setPen(QPen(colors::ideal, 1.5, Qt::DashLine));
    QCPGraph* eff = m_curve->addGraph(m_curve->xAxis, m_curve->yAxis2);
    eff->setName(tr("efficiency"));
    eff->setPen(QPen(colors::efficiency, 3));
    eff->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 7));

    m_split = new QCustomPlot;
    stylePlot(m_split);
    legendOnTop(m_split);
    m_split->xAxis->setLabel(tr("GPUs"));
    m_split->yAxis->setLabel(tr("per rank and step (ms)"));
    QCPBars* compute = addStackedBars(m_split, tr("compute"), colors::compute, nullptr);
    QCPBars* comm = addStackedBars(m_split, tr("communication"), colors::comm, compute);
    QCPBars* wait = addStackedBars(m_split, tr("wait"), colors::wait, comm);
    addStackedBars(m_split, tr("idle"), colors::idle, wait);

    m_notes = new QTextBrowser;
    m_notes->setMinimumHeight(80);
    QFont nf = m_notes->font();
    nf.setPointSizeF(11.5);
    m_notes->setFont(nf);
    m_table = new QTableView;
    m_table->setModel(m_model);
    styleTable(m_table);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto* plots = new QSplitter(Qt::Vertical);
    plots->addWidget(m_curve);
    plots->addWidget(m_split);
    plots->addWidget(m_notes);
    plots->addWidget(m_table);
    plots->setSizes({300, 280, 130, 150});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(plots, 1);

    connect(m_mode, &QComboBox::currentIndexChanged, this, &ScalingView::compute);
    connect(m_maxGpus, &QSpinBox::editingFinished, this, &ScalingView::compute);
    connect(m_counts, &QLineEdit::editingFinished, this, [this] {
        if (m_counts->isModified()) {
            m_counts->setModified(false);
            this->compute(); // (a local `compute` holds the bars)
        }
    });
    // a list of counts makes the maximum moot: its largest entry is the maximum
    connect(m_counts, &QLineEdit::textChanged, this,
            [this](const QString& text) { m_maxGpus->setEnabled(text.trimmed().isEmpty()); });
    connect(m_axis, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_model->curve().points.empty())
            draw();
    });
    connect(m_cancel, &QPushButton::clicked, this, &ScalingView::cancel);
}

QString ScalingView::notesText() const { return m_notes->toPlainText(); }

void ScalingView::setScenario(const Scenario& scenario, const CostProfile& profile)
{
    m_scenario = scenario;
    m_profile = profile;
    m_hasScenario = true;
    // far enough to see where the machine's boundaries are crossed: twice its GPUs, 16 at least
    const QSignalBlocker block(m_maxGpus);
    m_maxGpus->setValue(std::max(16, 2 * scalingTemplate(scenario.topology).rankCount()));
    compute();
}

void ScalingView::setMaxGpus(int gpus)
{
    m_maxGpus->setValue(gpus);
    compute();
}

void ScalingView::setGpuCounts(const QString& counts)
{
    m_counts->setText(counts);
    compute();
}

void ScalingView::setGpuAxis(GpuAxis axis)
{
    m_axis->setCurrentIndex(m_axis->findData(static_cast<int>(axis))); // emits, which redraws
}

QString ScalingView::statusText() const { return m_status->text(); }

std::vector<int> ScalingView::parseGpuCounts(const QString& text, QString* error)
{
    std::vector<int> counts;
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    for (const QString& entry : text.split(separators, Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = entry.toInt(&ok);
        if (!ok || n < 1 || n > kMaxTopologyGpus) {
            if (error)
                *error = tr("\"%1\" is not a GPU count: the counts are whole numbers from 1 to %2, separated by commas")
                             .arg(entry)
                             .arg(kMaxTopologyGpus);
            return {};
        }
        counts.push_back(n);
    }
    return counts;
}

void ScalingView::setMode(ScalingMode mode)
{
    m_mode->setCurrentIndex(mode == ScalingMode::Strong ? 0 : 1); // emits, which computes
}

void ScalingView::compute()
{
    if (!m_hasScenario)
        return;
    const Scenario scenario = m_scenario;
    ScalingOptions options;
    options.mode = static_cast<ScalingMode>(m_mode->currentData().toInt());
    options.maxGpus = m_maxGpus->value();
    QString wrong;
    options.gpuCounts = parseGpuCounts(m_counts->text(), &wrong);
    if (!wrong.isEmpty()) {
        m_status->setText(wrong);
        emit failed(wrong);
        return;
    }
    if (!options.gpuCounts.empty())
        options.maxGpus = *std::max_element(options.gpuCounts.begin(), options.gpuCounts.end());
    options.profile = m_profile;
    auto report = m_jobs.reporter<int, int>([bar = m_progress](int done, int total) {
        bar->setRange(0, total);
        bar->setValue(done);
    });
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    m_cancel->setEnabled(true);
    m_status->setText(tr("Simulating up to %1 GPUs…").arg(options.maxGpus));
    m_jobs.start(
        [scenario, options, report](const std::atomic<bool>& cancel) mutable {
            options.cancel = &cancel;
            options.progress = [report](int done, int total) {
                report(done, total);
                return true;
            };
            return scalingCurve(scenario, options);
        },
        [this](Result<ScalingCurve> curve) {
            m_progress->setVisible(false);
            m_cancel->setEnabled(false);
            if (!curve) {
                m_status->setText(i18n::engineError(curve.error()));
                emit failed(m_status->text());
                return;
            }
            m_status->clear();
            show(*curve);
            emit curveAvailable(*curve);
        });
}

void ScalingView::cancel()
{
    m_jobs.cancel();
    m_progress->setVisible(false);
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelled."));
}

void ScalingView::show(const ScalingCurve& curve)
{
    m_model->setCurve(curve);
    draw();
}

void ScalingView::draw()
{
    const ScalingCurve& c = m_model->curve(); // the curve shown: the table's
    const auto axis = static_cast<GpuAxis>(m_axis->currentData().toInt());
    QVector<double> x, at, speed, ideal, eff;
    QVector<double> parts[4];
    for (size_t i = 0; i < c.points.size(); ++i) {
        const ScalingPoint& p = c.points[i];
        x.push_back(static_cast<double>(i));
        at.push_back(axis == GpuAxis::Points ? static_cast<double>(i) : static_cast<double>(p.gpus));
        speed.push_back(p.speedup);
        ideal.push_back(p.gpus); // perfect scaling: n times one GPU (strong), or n times the work (weak)
        eff.push_back(p.efficiency * 100);
        parts[0].push_back(p.computeMs);
        parts[1].push_back(p.commMs);
        parts[2].push_back(p.waitMs);
        parts[3].push_back(p.idleMs);
    }
    m_curve->graph(0)->setData(at, speed, true);
    m_curve->graph(1)->setData(at, ideal, true);
    m_curve->graph(2)->setData(at, eff, true);
    // the ideal line whole: the range reaches the larger of the ideal and the speed-up
    double top = 1, bottom = 1;
    for (int i = 0; i < speed.size(); ++i) {
        top = std::max({top, speed[i], ideal[i]});
        bottom = std::min({bottom, speed[i], ideal[i]});
    }
    const double most = c.points.empty() ? 1.0 : static_cast<double>(c.points.back().gpus);
    if (axis == GpuAxis::Log) {
        // both axes: perfect scaling is the diagonal, each doubling the same distance
        m_curve->xAxis->setScaleType(QCPAxis::stLogarithmic);
        m_curve->yAxis->setScaleType(QCPAxis::stLogarithmic);
        auto xTicks = QSharedPointer<QCPAxisTickerLog>::create();
        xTicks->setLogBase(2);
        m_curve->xAxis->setTicker(xTicks);
        auto yTicks = QSharedPointer<QCPAxisTickerLog>::create();
        yTicks->setLogBase(2);
        m_curve->yAxis->setTicker(yTicks);
        m_curve->xAxis->setRange(1 / 1.3, most * 1.3);
        m_curve->yAxis->setRange(std::max(1e-3, bottom) / 1.3, top * 1.3);
    } else {
        m_curve->xAxis->setScaleType(QCPAxis::stLinear);
        m_curve->yAxis->setScaleType(QCPAxis::stLinear);
        m_curve->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        if (axis == GpuAxis::Points) {
            m_curve->xAxis->setTicker(gpuTicker(c));
            m_curve->xAxis->setRange(-0.5, static_cast<double>(c.points.size()) - 0.5);
        } else {
            m_curve->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
            m_curve->xAxis->setRange(0, most * 1.04);
        }
        m_curve->yAxis->setRange(0, top * 1.08);
    }
    m_curve->yAxis2->setRange(0, 110);
    for (int k = 0; k < 4; ++k)
        qobject_cast<QCPBars*>(m_split->plottable(k))->setData(x, parts[k], true);
    m_split->xAxis->setTicker(gpuTicker(c));
    m_split->xAxis->setRange(-0.5, static_cast<double>(c.points.size()) - 0.5);
    double tallest = 0;
    for (const ScalingPoint& p : c.points)
        tallest = std::max(tallest, p.stepTimeMs);
    m_split->yAxis->setRange(0, tallest * 1.25);
    // where the dominant collective starts crossing a slower class of link, say so above the bar
    m_split->clearItems();
    auto rank = [](const ScalingPoint& p) { return p.linkKind ? static_cast<int>(*p.linkKind) : -1; };
    for (size_t i = 1; i < c.points.size(); ++i) {
        const ScalingPoint& a = c.points[i - 1];
        const ScalingPoint& b = c.points[i];
        if (!b.linkKind || !a.linkKind || rank(b) <= rank(a))
            continue;
        auto* text = new QCPItemText(m_split);
        text->position->setCoords(static_cast<double>(i), b.stepTimeMs + tallest * 0.04);
        text->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        text->setText(i18n::tidySpaces(tr("crosses %1").arg(EngineTerms::linkKindWords(*b.linkKind))));
        QFont f = font();
        f.setPointSizeF(11);
        f.setBold(true);
        text->setFont(f);
        text->setColor(colors::marker);
        text->setBrush(QColor(255, 255, 255, 220));
    }
    m_curve->replot(QCustomPlot::rpQueuedReplot);
    m_split->replot(QCustomPlot::rpQueuedReplot);

    QString html = QStringLiteral("<b>%1</b>")
                       .arg(c.mode == ScalingMode::Strong
                                ? tr("Strong scaling: speed-up = T(1) / T(n), efficiency = speed-up / n.")
                                : tr("Weak scaling: efficiency = T(1) / T(n), speed-up = n × efficiency."));
    html += QStringLiteral("<ul>");
    // notes where the collective starts crossing a slower class of link first, in bold: they are
    // the course's cases (the fifth GPU on the other socket, the sixteenth across the network)
    auto crossing = [&c](const ScalingNote& n) {
        const ScalingPoint* a = c.find(n.fromGpus);
        const ScalingPoint* b = c.find(n.toGpus);
        return a && b && a->linkKind && b->linkKind && static_cast<int>(*b->linkKind) > static_cast<int>(*a->linkKind);
    };
    for (int pass = 0; pass < 2; ++pass)
        for (const ScalingNote& n : c.notes)
            if (crossing(n) == (pass == 0))
                html += (pass == 0 ? QStringLiteral("<li><b>%1</b></li>") : QStringLiteral("<li>%1</li>"))
                            .arg(i18n::engineText(n.message()).toHtmlEscaped());
    // how the scenario was rescaled: worded in the interface language where the curve carries the
    // notes as data (a curve made by hand may have only the English)
    for (size_t i = 0; i < c.rescaleNotes.size(); ++i) {
        const QString note = c.rescaleMessages.size() == c.rescaleNotes.size()
                                 ? i18n::engineText(c.rescaleMessages[i])
                                 : QString::fromStdString(c.rescaleNotes[i]);
        html += QStringLiteral("<li><i>%1</i></li>").arg(note.toHtmlEscaped());
    }
    html += QStringLiteral("</ul>");
    if (c.notes.empty() && c.rescaleNotes.empty())
        html += tr("Nothing along the curve stands out: each step adds GPUs without crossing a slower link.");
    m_notes->setHtml(html);
}

} // namespace shardlab::gui

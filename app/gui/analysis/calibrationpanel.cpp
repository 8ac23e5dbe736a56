#include "analysis/calibrationpanel.h"

#include "analysis/accuracymodel.h"
#include "i18n/language.h"
#include "style/plotstyle.h"

#include "shardlab/analysis/calibration_report.h"
#include "shardlab/analysis/calibration_run.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_measure.h"
#include "shardlab/sim/profiles.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "timeline/qcustomplot_include.h"

namespace shardlab::gui {

CalibrationPanel::CalibrationPanel(QWidget* parent) : QWidget(parent)
{
    m_model = new AccuracyModel(this);
    m_explanation = new QLabel;
    m_explanation->setWordWrap(true);
    QString text =
        tr("Calibration runs a short sweep of all-reduce, all-gather, reduce-scatter, broadcast and reduce on "
           "this machine's GPUs and measures their compute rate, then fits the cost model's latency and "
           "bandwidth per link class to it and saves a named profile that simulations can use.");
    if (!liveBuiltIn())
        text += QStringLiteral("<br><br><b>")
                + tr("Not available here: %1.").arg(i18n::engineText(liveBuildInfo()).toHtmlEscaped())
                + QStringLiteral("</b> ")
                + tr("You can still fit sweeps measured on another machine (files written by shardlab bench --json) "
                     "against the scenario's topology.");
    m_explanation->setText(text);
    QFont ef = m_explanation->font();
    ef.setPointSizeF(12);
    m_explanation->setFont(ef);
    m_gpus = new QSpinBox;
    m_gpus->setRange(0, 1024);
    m_gpus->setSpecialValueText(tr("all"));
    m_gpus->setValue(0);
    m_name = new QLineEdit(QStringLiteral("calibrated"));
    m_name->setToolTip(tr("Simulate with it: choose this profile, or shardlab sim --profile NAME"));
    m_calibrate = new QPushButton(tr("Calibrate on this machine's GPUs"));
    m_calibrateWhy = new QLabel;
    m_calibrateWhy->setWordWrap(true);
    m_files = new QPushButton(tr("Fit measured sweep files…"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    // Until the run page's probe has looked for GPUs: disabled, and saying so.
    setLiveAvailability(false, liveBuiltIn() ? QString() : i18n::engineText(liveBuildInfo()));
    m_progress = new QProgressBar;
    m_progress->setVisible(false);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    QFont sf = m_summary->font();
    sf.setPointSizeF(12);
    m_summary->setFont(sf);
    m_table = new QTableView;
    m_table->setModel(m_model);
    styleTable(m_table);
    m_plot = new QCustomPlot;
    stylePlot(m_plot);
    legendOnTop(m_plot);
    setLogAxis(m_plot->xAxis, 2);
    m_plot->xAxis->setLabel(tr("message size"));
    m_plot->yAxis->setLabel(tr("error (%)"));
    QCPGraph* before = m_plot->addGraph();
    before->setName(tr("before calibration"));
    before->setLineStyle(QCPGraph::lsNone);
    before->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colors::idle, 2), Qt::NoBrush, 9));
    QCPGraph* after = m_plot->addGraph();
    after->setName(tr("calibrated"));
    after->setLineStyle(QCPGraph::lsNone);
    after->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(colors::efficiency, 2), colors::efficiency, 8));

    // Empty until a calibration: the sizes a calibration sweeps (1 KiB to 1 GiB) and a note where
    // the points will be, instead of the log axis's "0 B 0 B" over an empty range.
    m_plot->xAxis->setRange(1024, 1024.0 * 1024 * 1024);
    m_plot->yAxis->setRange(-25, 25);
    showEmptyPlot();

    m_gpus->setMaximumWidth(120);
    m_name->setMaximumWidth(260);
    auto* form = new QFormLayout;
    form->addRow(tr("GPUs"), m_gpus);
    form->addRow(tr("Profile name"), m_name);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_calibrate);
    buttons->addWidget(m_files);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_explanation);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_calibrateWhy);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_plot);
    split->addWidget(m_table);
    split->setSizes({380, 300});
    layout->addWidget(split, 1);

    connect(m_calibrate, &QPushButton::clicked, this, [this] { startCalibration(liveCalibrationHooks()); });
    connect(m_files, &QPushButton::clicked, this, &CalibrationPanel::fitFiles);
    connect(m_cancel, &QPushButton::clicked, this, &CalibrationPanel::cancel);
}

void CalibrationPanel::setLiveAvailability(bool available, const QString& explanation)
{
    m_liveAvailable = available;
    const QString reason = explanation.isEmpty() ? tr("looking for GPUs on this machine…") : explanation;
    const bool busy = m_cancel->isEnabled();
    m_calibrate->setEnabled(available && !busy);
    const QString why = available ? QString() : tr("Calibrate needs this machine's GPUs: %1").arg(reason);
    m_calibrate->setToolTip(available ? tr("Measure this machine's GPUs: %1").arg(explanation) : why);
    m_calibrateWhy->setText(why);
    m_calibrateWhy->setVisible(!available);
}

QString CalibrationPanel::calibrateReason() const { return m_calibrateWhy->text(); }
bool CalibrationPanel::calibrateEnabled() const { return m_calibrate->isEnabled(); }
QString CalibrationPanel::explanation() const { return m_explanation->text(); }
QString CalibrationPanel::summaryText() const { return m_summary->text(); }

void CalibrationPanel::setTopology(const Topology& topology) { m_topology = topology; }

void CalibrationPanel::startCalibration(const CalibrationHooks& given)
{
    CalibrationPlan plan;
    plan.gpus = m_gpus->value();
    CalibrationOptions options;
    options.name = m_name->text().trimmed().toStdString();
    CalibrationHooks hooks = given;
    auto report = m_jobs.reporter<int, int, std::string>([this](int done, int total, const std::string& what) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        m_progress->setFormat(QString::fromStdString(what) + QStringLiteral(" (%v/%m)"));
        emit progress(done, total);
    });
    hooks.progress = [report](int done, int total, const std::string& what) {
        report(done, total, what);
        return true;
    };
    m_calibrate->setEnabled(false);
    m_files->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    m_summary->setText(tr("Measuring…"));
    m_jobs.start(
        [plan, options, hooks](const std::atomic<bool>& cancel) mutable {
            hooks.cancel = &cancel;
            return runCalibration(plan, options, hooks);
        },
        [this](Result<CalibrationResult> r) { finish(std::move(r)); });
}

void CalibrationPanel::fitSamples(std::vector<CalibrationSample> samples)
{
    CalibrationData data;
    data.topology = m_topology;
    data.samples = std::move(samples);
    data.host = "measured sweep files";
    CalibrationOptions options;
    options.name = m_name->text().trimmed().toStdString();
    m_calibrate->setEnabled(false);
    m_files->setEnabled(false);
    m_summary->setText(tr("Fitting…"));
    m_jobs.start([data, options](const std::atomic<bool>&) { return fitProfile(data, options); },
                 [this](Result<CalibrationResult> r) { finish(std::move(r)); });
}

void CalibrationPanel::fitFiles()
{
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Measured sweeps"), QString(), tr("JSON (*.json)"));
    std::vector<std::string> paths;
    for (const QString& file : files)
        paths.push_back(file.toStdString());
    auto samples = samplesFromSweepFiles(paths);
    if (!samples) {
        m_summary->setText(i18n::engineError(samples.error()));
        emit failed(m_summary->text());
        return;
    }
    if (!samples->empty())
        fitSamples(std::move(*samples));
}

void CalibrationPanel::cancel()
{
    m_jobs.cancel();
    m_progress->setVisible(false);
    m_cancel->setEnabled(false);
    m_calibrate->setEnabled(m_liveAvailable);
    m_files->setEnabled(true);
    m_summary->setText(tr("Cancelled."));
}

void CalibrationPanel::finish(Result<CalibrationResult> r)
{
    m_progress->setVisible(false);
    m_cancel->setEnabled(false);
    m_calibrate->setEnabled(m_liveAvailable);
    m_files->setEnabled(true);
    if (!r) {
        m_summary->setText(i18n::engineError(r.error()));
        emit failed(m_summary->text());
        return;
    }
    m_model->setRows(r->rows);
    plotErrors(*r);
    QString text =
        tr("Median error %1 % before, %2 % calibrated; worst %3 % before, %4 % calibrated (%5 measurements).")
            .arg(r->start.medianAbsPct, 0, 'f', 1)
            .arg(r->calibrated.medianAbsPct, 0, 'f', 1)
            .arg(r->start.worstAbsPct, 0, 'f', 1)
            .arg(r->calibrated.worstAbsPct, 0, 'f', 1)
            .arg(r->calibrated.count);
    if (Status st = saveProfile(r->profile); !st) {
        text += QLatin1Char(' ') + i18n::engineError(st.error());
    } else {
        text +=
            QLatin1Char(' ')
            + tr("Saved as profile '%1' in %2.")
                  .arg(QString::fromStdString(r->profile.name), QString::fromStdString(profileDirectory().string()));
        emit profileSaved(QString::fromStdString(r->profile.name));
    }
    m_summary->setText(text);
    emit calibrationAvailable(*r);
}

} // namespace shardlab::gui

namespace shardlab::gui {

void CalibrationPanel::showEmptyPlot()
{
    m_plot->clearItems();
    auto* note = new QCPItemText(m_plot);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.5, 0.5);
    note->setText(tr("The model's error per message size appears here after a calibration."));
    note->setColor(palette().color(QPalette::PlaceholderText));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CalibrationPanel::plotErrors(const CalibrationResult& r)
{
    if (r.rows.empty()) {
        m_plot->graph(0)->data()->clear();
        m_plot->graph(1)->data()->clear();
        showEmptyPlot();
        return;
    }
    QVector<double> x, before, after;
    double spread = 5;
    for (const AccuracyRow& a : r.rows) {
        x.push_back(static_cast<double>(a.bytes));
        before.push_back(a.startErrorPct);
        after.push_back(a.calibratedErrorPct);
        spread = std::max({spread, std::fabs(a.startErrorPct), std::fabs(a.calibratedErrorPct)});
    }
    m_plot->graph(0)->setData(x, before);
    m_plot->graph(1)->setData(x, after);
    m_plot->xAxis->rescale();
    m_plot->xAxis->scaleRange(1.3, std::sqrt(m_plot->xAxis->range().lower * m_plot->xAxis->range().upper));
    m_plot->yAxis->setRange(-spread * 1.15, spread * 1.15);
    // the goal: within 5 % (shaded)
    m_plot->clearItems();
    auto* band = new QCPItemRect(m_plot);
    band->topLeft->setTypeX(QCPItemPosition::ptAxisRectRatio);
    band->bottomRight->setTypeX(QCPItemPosition::ptAxisRectRatio);
    band->topLeft->setCoords(0, 5);
    band->bottomRight->setCoords(1, -5);
    band->setPen(Qt::NoPen);
    band->setBrush(QColor(0, 158, 115, 40));
    band->setLayer(QStringLiteral("background"));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace shardlab::gui

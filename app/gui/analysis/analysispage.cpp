#include "analysis/analysispage.h"

#include "i18n/language.h"

#include "analysis/calibrationpanel.h"
#include "analysis/comparisonview.h"
#include "analysis/diagnosispanel.h"
#include "analysis/scalingview.h"
#include "analysis/sweepview.h"

#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include "style/scrollpage.h"

#include <QLabel>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace shardlab::gui {

AnalysisPage::AnalysisPage(QWidget* parent) : QWidget(parent)
{
    m_sweep = new SweepView;
    m_scaling = new ScalingView;
    m_comparison = new ComparisonView;
    m_calibration = new CalibrationPanel;
    m_diagnosis = new DiagnosisPanel;
    m_tabs = new QTabWidget;
    // Every tab scrolls rather than making the window taller than the screen (scrollpage.h).
    m_tabs->addTab(scrollPage(m_sweep), tr("Message sizes"));
    m_tabs->setTabToolTip(SweepTab,
                          tr("Time and bandwidth of one collective against message size, as nccl-tests measures"));
    m_tabs->addTab(scrollPage(m_scaling), tr("Scaling"));
    m_tabs->setTabToolTip(ScalingTab, tr("Speed-up and efficiency from 1 to N GPUs, and where the time goes"));
    m_tabs->addTab(scrollPage(m_comparison), tr("All-reduce vs reduce-scatter"));
    m_tabs->setTabToolTip(ComparisonTab,
                          tr("What each rank holds, memory, traffic and time; and what a wrong choice does"));
    m_tabs->addTab(scrollPage(m_calibration), tr("Calibration"));
    m_tabs->setTabToolTip(CalibrationTab, tr("Fit the cost model to this machine's measurements"));
    m_tabs->addTab(scrollPage(m_diagnosis), tr("Diagnosis"));
    m_tabs->setTabToolTip(DiagnosisTab, tr("The course's diagnostic handbook applied to the run"));
    QFont tf = m_tabs->tabBar()->font();
    tf.setPointSizeF(12);
    m_tabs->tabBar()->setFont(tf);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);

    connect(m_calibration, &CalibrationPanel::profileSaved, this, &AnalysisPage::profileSaved);
    connect(m_sweep, &SweepView::failed, this, &AnalysisPage::failed);
    connect(m_scaling, &ScalingView::failed, this, &AnalysisPage::failed);
    connect(m_comparison, &ComparisonView::failed, this, &AnalysisPage::failed);
    connect(m_calibration, &CalibrationPanel::failed, this, &AnalysisPage::failed);
}

void AnalysisPage::setLiveAvailability(bool available, const QString& explanation)
{
    m_calibration->setLiveAvailability(available, explanation);
}

void AnalysisPage::showTab(Tab tab) { m_tabs->setCurrentIndex(tab); }

void AnalysisPage::setScenario(const Scenario& scenario)
{
    m_profile = CostProfile::defaults();
    m_status->clear();
    if (!scenario.costProfile.empty()) {
        if (auto p = loadProfile(scenario.costProfile))
            m_profile = *p;
        else
            m_status->setText(tr("%1; the built-in profile is used instead.").arg(i18n::engineError(p.error())));
    }
    m_sweep->setTopology(scenario.topology, m_profile);
    m_comparison->setTopology(scenario.topology, m_profile);
    m_calibration->setTopology(scenario.topology);
    m_scaling->setScenario(scenario, m_profile);
    diagnoseLater(scenario, std::nullopt, std::nullopt);
}

void AnalysisPage::showRun(const Scenario& scenario, const RunResult& run, const Summary& summary)
{
    diagnoseLater(scenario, run, summary);
}

void AnalysisPage::diagnoseLater(const Scenario& scenario, std::optional<RunResult> run, std::optional<Summary> summary)
{
    m_diagnosis->setBusy(tr("Diagnosing…"));
    m_diagnosing = true;
    const CostProfile profile = m_profile;
    const Language language = i18n::engineLanguage(); // read on the GUI thread
    m_jobs.start(
        [scenario, run, summary, profile, language](const std::atomic<bool>& cancel) mutable {
            Diagnosed d;
            if (!run) {
                SimulationOptions so;
                so.profile = profile;
                so.cancel = &cancel;
                auto simulated = simulate(scenario, so);
                if (!simulated) {
                    d.error = simulated.error().message;
                    return d;
                }
                run = *simulated;
                summary = summarize(scenario, *run);
            }
            DiagnosisContext ctx;
            ctx.profile = profile;
            // the handbook's scaling curve: strong scaling up to twice the run's GPUs
            Result<ScalingCurve> curve = Error{};
            if (!run->hang) {
                ScalingOptions o;
                o.maxGpus = 2 * scenario.ranks();
                o.profile = profile;
                o.cancel = &cancel;
                curve = scalingCurve(scenario, o);
                if (curve)
                    ctx.scaling = &*curve;
            }
            // worded in the interface language (the panel and the model show the texts as they are)
            d.findings = wordedIn(diagnose(scenario, *run, *summary, ctx), language);
            d.sentence = wordedSentence(*summary, language);
            return d;
        },
        [this](Diagnosed d) {
            m_diagnosing = false;
            if (!d.error.empty()) {
                m_diagnosis->setBusy(QString::fromStdString(d.error));
                emit failed(QString::fromStdString(d.error));
                return;
            }
            m_diagnosis->setFindings(d.findings, QString::fromStdString(d.sentence));
            emit diagnosisAvailable(d.findings);
        });
}

} // namespace shardlab::gui

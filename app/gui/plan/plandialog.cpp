#include "plan/plandialog.h"

#include "plan/memorybars.h"
#include "plan/plancomparison.h"

#include "i18n/language.h"
#include "shardlab/model/presets.h"
#include "shardlab/plan/plan_scenario.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {

QSpinBox* spin(QWidget* parent, int lo, int hi, int value, const QString& tip)
{
    auto* box = new QSpinBox(parent);
    box->setRange(lo, hi);
    box->setValue(value);
    box->setToolTip(tip);
    box->setFocusPolicy(Qt::StrongFocus); // the wheel edits it only once it has focus
    return box;
}

} // namespace

PlanDialog::PlanDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("New from a transformer plan"));
    auto* form = new QFormLayout;
    m_model = new QComboBox(this);
    for (const ModelPresetInfo& m : modelPresetList())
        m_model->addItem(QString::fromStdString(m.id), QString::fromStdString(m.id));
    m_model->setCurrentIndex(m_model->findData(QStringLiteral("llama3-8b")));
    m_model->setToolTip(tr("The transformer: a shipped model (shapes from its paper or model card)"));
    form->addRow(tr("&Model:"), m_model);
    m_machine = new QComboBox(this);
    for (const PresetInfo& p : presetList())
        m_machine->addItem(QString::fromStdString(p.id), QString::fromStdString(p.id));
    m_machine->setCurrentIndex(m_machine->findData(QStringLiteral("h200-nvswitch-8")));
    m_machine->setToolTip(tr("The machine; more GPUs than it has repeat its first node, joined by a network switch"));
    form->addRow(tr("M&achine:"), m_machine);
    m_gpus = spin(this, 1, kMaxTopologyGpus, 8, tr("GPUs in all: TP x CP x PP x DP"));
    form->addRow(tr("&GPUs:"), m_gpus);
    auto* axes = new QHBoxLayout;
    m_tp = spin(this, 1, 1024, 8,
                tr("Tensor parallel: each layer's matrices split over this many GPUs (keep it inside a node)"));
    m_pp = spin(this, 1, 4096, 1, tr("Pipeline parallel: the layers split into this many stages"));
    m_cp = spin(this, 1, 1024, 1, tr("Context parallel: each sequence split over this many GPUs (ring attention)"));
    m_ep = spin(this, 1, 1024, 1,
                tr("Expert parallel (mixtures of experts): the experts split over this many data-parallel replicas"));
    m_dp = new QLabel(this);
    m_dp->setToolTip(tr("Data parallel: the replicas the GPUs leave, GPUs / (TP x CP x PP)"));
    for (auto [label, widget] :
         {std::pair{tr("TP"), static_cast<QWidget*>(m_tp)}, {tr("PP"), m_pp}, {tr("CP"), m_cp}, {tr("EP"), m_ep}}) {
        axes->addWidget(new QLabel(label, this));
        axes->addWidget(widget);
    }
    axes->addWidget(m_dp);
    form->addRow(tr("Parallel sizes:"), axes);
    m_zero = new QComboBox(this);
    m_zero->addItem(tr("none (every replica holds everything)"), QStringLiteral("0"));
    m_zero->addItem(tr("ZeRO-1 (optimizer state sharded)"), QStringLiteral("1"));
    m_zero->addItem(tr("ZeRO-2 (also the gradients)"), QStringLiteral("2"));
    m_zero->addItem(tr("ZeRO-3 (also the weights)"), QStringLiteral("3"));
    m_zero->addItem(tr("FSDP (as ZeRO-3, with pipeline stages allowed)"), QStringLiteral("fsdp"));
    m_zero->setToolTip(tr("What data parallelism shards over its replicas"));
    form->addRow(tr("&Sharding:"), m_zero);
    m_seq = spin(this, 128, 1'048'576, 4096, tr("Tokens per sequence"));
    m_seq->setSingleStep(1024);
    form->addRow(tr("Se&quence length:"), m_seq);
    m_microBatch = spin(this, 1, 1024, 1, tr("Sequences per micro-batch"));
    form->addRow(tr("M&icro-batch:"), m_microBatch);
    m_globalBatch = spin(this, 0, 10'000'000, 0, tr("Sequences per step; 0: one per GPU"));
    m_globalBatch->setSpecialValueText(tr("one per GPU"));
    form->addRow(tr("Global &batch:"), m_globalBatch);
    m_recompute = new QComboBox(this);
    m_recompute->addItem(tr("selective (the attention core)"), QStringLiteral("selective"));
    m_recompute->addItem(tr("none (keep every activation)"), QStringLiteral("none"));
    m_recompute->addItem(tr("full (keep each layer's input only)"), QStringLiteral("full"));
    m_recompute->setToolTip(tr("Activation recomputation: memory saved for compute spent again in the backward pass"));
    form->addRow(tr("&Recomputation:"), m_recompute);
    auto* schedule = new QHBoxLayout;
    m_schedule = new QComboBox(this);
    m_schedule->addItem(tr("1F1B"), QStringLiteral("1f1b"));
    m_schedule->addItem(tr("GPipe"), QStringLiteral("gpipe"));
    m_schedule->addItem(tr("interleaved 1F1B"), QStringLiteral("interleaved"));
    m_schedule->setToolTip(
        tr("The order of each stage's forward and backward passes; interleaving divides the bubble by V"));
    m_virtualStages = spin(this, 2, 64, 2, tr("V: chunks of layers per stage for the interleaved schedule"));
    schedule->addWidget(m_schedule);
    schedule->addWidget(new QLabel(tr("V"), this));
    schedule->addWidget(m_virtualStages);
    form->addRow(tr("Schedule:"), schedule);
    m_flash = new QCheckBox(tr("FlashAttention (no score matrix kept)"), this);
    m_flash->setChecked(true);
    form->addRow(QString(), m_flash);
    auto* compute = new QHBoxLayout;
    m_computeLabel = new QLabel(this);
    m_computeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* browse = new QPushButton(tr("Measured &file..."), this);
    browse->setToolTip(tr("GEMM and copy rates measured on the plan's GPU with `shardlab calibrate --compute`"));
    m_computeShipped = new QPushButton(tr("As s&hipped"), this);
    m_computeShipped->setToolTip(tr("Price compute with what ShardLab ships for this GPU (or its datasheet)"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Compute calibration measured on the plan's GPU"),
                                                          m_computeFile, tr("Compute calibration (*.json)"));
        if (!path.isEmpty())
            setComputeFile(path);
    });
    connect(m_computeShipped, &QPushButton::clicked, this, [this] { setComputeFile(QString()); });
    compute->addWidget(m_computeLabel, 1);
    compute->addWidget(browse);
    compute->addWidget(m_computeShipped);
    form->addRow(tr("Compute rates:"), compute);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems = new QLabel(this);
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #D55E00;"));
    m_bars = new MemoryBars(this);
    m_comparison = new PlanComparison(this);
    m_comparison->hide();
    m_keep = new QPushButton(tr("&Keep as A"), this);
    m_keep->setToolTip(tr("Keep this plan, then change the boxes: a table sets the new plan (B) against it"));
    m_forget = new QPushButton(tr("&Forget A"), this);
    m_forget->setToolTip(tr("Stop comparing with the kept plan"));
    m_sideBySide = new QPushButton(tr("Side &by side"), this);
    m_sideBySide->setToolTip(tr("Run both plans and show their timelines one above the other"));
    connect(m_keep, &QPushButton::clicked, this, &PlanDialog::keepAsA);
    connect(m_forget, &QPushButton::clicked, this, &PlanDialog::forgetA);
    connect(m_sideBySide, &QPushButton::clicked, this, [this] {
        if (!m_kept || !m_priced)
            return;
        auto a = planScenario(m_kept->model, m_kept->settings, m_kept->estimate, m_kept->topology);
        auto b = scenario();
        if (a && b)
            emit sideBySideRequested(*a, *b);
        else
            m_problems->setText(i18n::engineError((!a ? a : b).error()));
    });
    auto* compareRow = new QHBoxLayout;
    compareRow->addWidget(m_keep);
    compareRow->addWidget(m_forget);
    compareRow->addWidget(m_sideBySide);
    compareRow->addStretch(1);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Open as scenario"));
    m_buttons->button(QDialogButtonBox::Ok)
        ->setToolTip(tr("Open the plan as a new scenario: each stage's passes in the schedule's order, its collectives "
                        "and its memory per GPU"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_problems);
    layout->addWidget(m_bars, 1);
    layout->addLayout(compareRow);
    layout->addWidget(m_comparison);
    layout->addWidget(m_buttons);

    for (QComboBox* box : {m_model, m_machine, m_zero, m_recompute, m_schedule}) {
        box->setFocusPolicy(Qt::StrongFocus);
        connect(box, &QComboBox::currentIndexChanged, this, &PlanDialog::recompute);
    }
    for (QSpinBox* box : {m_gpus, m_tp, m_pp, m_cp, m_ep, m_seq, m_microBatch, m_globalBatch, m_virtualStages})
        connect(box, &QSpinBox::valueChanged, this, &PlanDialog::recompute);
    connect(m_flash, &QCheckBox::toggled, this, &PlanDialog::recompute);
    recompute();
}

PlanRequest PlanDialog::request() const
{
    PlanRequest r;
    r.model = m_model->currentData().toString().toStdString();
    r.machine = m_machine->currentData().toString().toStdString();
    r.gpus = m_gpus->value();
    TrainingSettings& st = r.settings;
    st.seq = m_seq->value();
    st.microBatch = m_microBatch->value();
    st.globalBatch = m_globalBatch->value();
    st.recompute =
        valueIn(kRecomputeNames, m_recompute->currentData().toString().toStdString()).value_or(Recompute::Selective);
    st.flashAttention = m_flash->isChecked();
    ParallelPlan& plan = r.plan;
    plan.tp = m_tp->value();
    plan.pp = m_pp->value();
    plan.cp = m_cp->value();
    plan.ep = m_ep->value();
    plan.dp = 0; // what the GPUs leave
    plan.zero = valueIn(kZeroStageNames, m_zero->currentData().toString().toStdString()).value_or(ZeroStage::None);
    const auto kind =
        valueIn(kScheduleNames, m_schedule->currentData().toString().toStdString()).value_or(ScheduleKind::OneFOneB);
    plan.schedule = {kind, kind == ScheduleKind::Interleaved ? m_virtualStages->value() : 1};
    r.computeFile = m_computeFile.toStdString();
    return r;
}

void PlanDialog::setRequest(const PlanRequest& r)
{
    // one recomputation for the whole request, not one per box
    m_settingRequest = true;
    const auto choose = [](QComboBox* box, const std::string& value) {
        if (const int at = box->findData(QString::fromStdString(value)); at >= 0)
            box->setCurrentIndex(at);
    };
    choose(m_model, r.model);
    choose(m_machine, r.machine);
    m_gpus->setValue(static_cast<int>(std::min<long long>(r.gpuCount(), m_gpus->maximum())));
    m_tp->setValue(r.plan.tp);
    m_pp->setValue(r.plan.pp);
    m_cp->setValue(r.plan.cp);
    m_ep->setValue(r.plan.ep);
    choose(m_zero, nameIn(kZeroStageNames, r.plan.zero));
    m_seq->setValue(r.settings.seq);
    m_microBatch->setValue(r.settings.microBatch);
    m_globalBatch->setValue(r.settings.globalBatch);
    choose(m_recompute, nameIn(kRecomputeNames, r.settings.recompute));
    choose(m_schedule, nameIn(kScheduleNames, r.plan.schedule.kind));
    if (r.plan.schedule.kind == ScheduleKind::Interleaved)
        m_virtualStages->setValue(r.plan.schedule.virtualStages);
    m_flash->setChecked(r.settings.flashAttention);
    m_computeFile = QString::fromStdString(r.computeFile);
    m_settingRequest = false;
    recompute();
}

void PlanDialog::recompute()
{
    if (m_settingRequest)
        return;
    m_virtualStages->setEnabled(m_schedule->currentData().toString() == QStringLiteral("interleaved"));
    m_computeLabel->setText(m_computeFile.isEmpty() ? tr("as shipped for this GPU")
                                                    : tr("measured: %1").arg(QFileInfo(m_computeFile).fileName()));
    m_computeLabel->setToolTip(m_computeFile);
    m_computeShipped->setVisible(!m_computeFile.isEmpty());
    m_priced.reset();
    QStringList problems;
    const PlanRequest r = request();
    const int fixed = r.plan.tp * r.plan.pp * r.plan.cp;
    m_dp->setText(r.gpus % fixed == 0 ? tr("DP %1").arg(r.gpus / fixed) : tr("DP: GPUs not divisible"));
    if (auto pricing = pricePlan(r); !pricing) {
        problems << i18n::engineError(pricing.error());
    } else if (!pricing->priced) {
        for (const Message& problem : pricing->problems)
            problems << i18n::engineText(problem);
    } else {
        m_priced = std::move(pricing->priced);
    }
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_priced.has_value());
    refreshComparison();
    if (!m_priced) {
        m_summary->clear();
        m_bars->setStages({}, 0);
        return;
    }
    const PlanEstimate& e = m_priced->estimate;
    m_summary->setText(summaryText());
    std::vector<PlanMemory> stages;
    for (const StageEstimate& s : e.stages)
        stages.push_back(s.memory);
    m_bars->setStages(std::move(stages), e.gpuMemory);
}

void PlanDialog::keepAsA()
{
    if (!m_priced)
        return;
    m_kept = m_priced;
    refreshComparison();
}

void PlanDialog::forgetA()
{
    m_kept.reset();
    refreshComparison();
}

void PlanDialog::refreshComparison()
{
    m_keep->setEnabled(m_priced.has_value());
    m_forget->setVisible(m_kept.has_value());
    m_sideBySide->setVisible(m_kept.has_value());
    m_sideBySide->setEnabled(m_kept && m_priced);
    m_comparison->setVisible(m_kept.has_value());
    if (m_kept)
        m_comparison->setPlans(m_kept->estimate,
                               m_priced ? std::optional<PlanEstimate>(m_priced->estimate) : std::nullopt);
}

QString PlanDialog::summaryText() const
{
    if (!m_priced)
        return {};
    const PlanEstimate& e = m_priced->estimate;
    return tr("Step %1 s, %2 tokens/s per GPU, %3 model TFLOP/s per GPU (MFU %4 %), pipeline bubble %5 %.")
               .arg(e.stepUs / 1e6, 0, 'f', 2)
               .arg(e.tokensPerSecPerGpu, 0, 'f', 0)
               .arg(e.modelTflopsPerGpu, 0, 'f', 0)
               .arg(e.mfu * 100, 0, 'f', 1)
               .arg(e.bubbleFraction * 100, 0, 'f', 1)
           + QLatin1Char('\n') + i18n::engineText(Message("plan.out.limits").with("what", e.bottleneck));
}

QString PlanDialog::problemText() const { return m_problems->text(); }

Result<Scenario> PlanDialog::scenario() const
{
    if (!m_priced)
        return badInput(Message("cli.error.no_plan"));
    return planScenario(m_priced->model, m_priced->settings, m_priced->estimate, m_priced->topology);
}

void PlanDialog::setModel(const QString& presetId) { m_model->setCurrentIndex(m_model->findData(presetId)); }

void PlanDialog::setMachine(const QString& presetId, int gpus)
{
    m_machine->setCurrentIndex(m_machine->findData(presetId));
    m_gpus->setValue(gpus);
}

void PlanDialog::setComputeFile(const QString& path)
{
    m_computeFile = path;
    recompute();
}

void PlanDialog::setAxes(int tp, int pp, int cp)
{
    m_tp->setValue(tp);
    m_pp->setValue(pp);
    m_cp->setValue(cp);
}

} // namespace shardlab::gui

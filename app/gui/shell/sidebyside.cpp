#include "shell/sidebyside.h"

#include "i18n/language.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/sim/simulator.h"

#include "timeline/qcustomplot_include.h"

#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {

// One side's run, made on the pool thread.
struct Side {
    Scenario scenario;
    std::shared_ptr<const RunResult> run;
    Summary summary;
    std::shared_ptr<const TimelineData> timeline;
};

struct Pair {
    Side a, b;
    RunDifference difference;
};

struct Outcome {
    std::optional<Pair> pair;
    QString failed; // the scenario that could not be simulated, and why
    Error error;
};

Result<Side> runSide(const Scenario& scenario)
{
    auto run = simulate(scenario);
    if (!run)
        return run.error();
    Side side;
    side.scenario = scenario;
    side.run = std::make_shared<const RunResult>(std::move(*run));
    side.summary = summarize(scenario, *side.run);
    side.timeline = TimelineData::build(side.run);
    return side;
}

QLabel* headerLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    label->setFont(f);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

SideBySideView::SideBySideView(QWidget* parent) : QWidget(parent, Qt::Window)
{
    setObjectName(QStringLiteral("sideBySide"));
    setWindowTitle(tr("ShardLab: two runs side by side"));
    setAttribute(Qt::WA_DeleteOnClose);
    m_sentence = new QLabel(this);
    m_sentence->setObjectName(QStringLiteral("difference"));
    m_sentence->setWordWrap(true);
    m_sentence->setTextFormat(Qt::PlainText);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_sentence->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_sentence->setFont(big);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0); // busy: two simulations, each one step
    m_progress->setVisible(false);
    m_headerA = headerLabel(this);
    m_headerB = headerLabel(this);
    m_a = new TimelineView(this);
    m_b = new TimelineView(this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_sentence);
    layout->addWidget(m_progress);
    layout->addWidget(m_headerA);
    layout->addWidget(m_a, 1);
    layout->addWidget(m_headerB);
    layout->addWidget(m_b, 1);
    // one time axis: what one shows, the other shows
    connect(m_a->plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { syncRange(m_a, m_b); });
    connect(m_b->plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { syncRange(m_b, m_a); });
    resize(1200, 760);
}

QString SideBySideView::differenceText() const { return m_sentence->text(); }

QString SideBySideView::headerA() const { return m_headerA->text(); }

QString SideBySideView::headerB() const { return m_headerB->text(); }

void SideBySideView::syncRange(TimelineView* from, TimelineView* to)
{
    if (m_syncing || !from->data() || !to->data())
        return;
    m_syncing = true;
    const TimeScale shown = from->timeScale();
    to->setTimeRange(shown.beginUs, shown.endUs);
    m_syncing = false;
}

void SideBySideView::compare(const Scenario& a, const Scenario& b)
{
    const Language language = i18n::engineLanguage();
    const Scenario namedA = namedIn(a, language), namedB = namedIn(b, language);
    m_progress->setVisible(true);
    m_sentence->setText(tr("Simulating \u201c%1\u201d and \u201c%2\u201d\u2026")
                            .arg(QString::fromStdString(namedA.name), QString::fromStdString(namedB.name)));
    m_jobs.start(
        [namedA, namedB](const std::atomic<bool>&) {
            Outcome out;
            auto sideA = runSide(namedA);
            auto sideB = sideA ? runSide(namedB) : Result<Side>(sideA.error());
            if (!sideA || !sideB) {
                out.failed = QString::fromStdString(!sideA ? namedA.name : namedB.name);
                out.error = !sideA ? sideA.error() : sideB.error();
                return out;
            }
            out.pair = Pair{std::move(*sideA), std::move(*sideB), {}};
            out.pair->difference = runDifference(out.pair->a.scenario, out.pair->a.summary, out.pair->b.scenario,
                                                 out.pair->b.summary, namedA.name, namedB.name);
            return out;
        },
        [this](Outcome out) {
            m_progress->setVisible(false);
            if (!out.pair) {
                const QString message =
                    tr("\u201c%1\u201d cannot be simulated: %2").arg(out.failed, i18n::engineError(out.error));
                m_sentence->setText(message);
                Q_EMIT failed(message);
                return;
            }
            const Pair* pair = &*out.pair;
            m_difference = pair->difference;
            m_sentence->setText(i18n::engineText(m_difference.message));
            const auto header = [](const Side& s) {
                return tr("%1: step %2 ms on %n GPU(s)", nullptr, s.scenario.ranks())
                    .arg(QString::fromStdString(s.scenario.name))
                    .arg(s.summary.stepTimeMs, 0, 'f', 2);
            };
            m_headerA->setText(header(pair->a));
            m_headerB->setText(header(pair->b));
            m_a->setData(pair->a.timeline);
            m_a->setStraggler(pair->a.summary.straggler);
            m_b->setData(pair->b.timeline);
            m_b->setStraggler(pair->b.summary.straggler);
            // one axis for both: the longer run whole
            const double end = std::max(pair->a.timeline->endUs(), pair->b.timeline->endUs());
            m_syncing = true;
            m_a->setTimeRange(0, end);
            m_b->setTimeRange(0, end);
            m_syncing = false;
            Q_EMIT shown();
        });
}

} // namespace shardlab::gui

#include "plan/plancomparison.h"

#include "i18n/language.h"

#include <QHeaderView>

#include <algorithm>

namespace shardlab::gui {

namespace {

double peakBytes(const PlanEstimate& e)
{
    double most = 0;
    for (const StageEstimate& s : e.stages)
        most = std::max(most, s.memory.peak());
    return most;
}

} // namespace

PlanComparison::PlanComparison(QWidget* parent) : QTableWidget(parent)
{
    setColumnCount(3);
    setHorizontalHeaderLabels({tr("A (kept)"), tr("B (the boxes)"), tr("B / A")});
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    setTextElideMode(Qt::ElideMiddle);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void PlanComparison::setPlans(const PlanEstimate& a, const std::optional<PlanEstimate>& b)
{
    struct Row {
        QString label;
        QString (*text)(const PlanEstimate&);
        double (*value)(const PlanEstimate&); // nullptr: no ratio
    };
    const Row rows[] = {
        {tr("Plan"), [](const PlanEstimate& e) { return QString::fromStdString(planText(e.plan)); }, nullptr},
        {tr("Step time"), [](const PlanEstimate& e) { return tr("%1 ms").arg(e.stepUs / 1e3, 0, 'f', 1); },
         [](const PlanEstimate& e) { return e.stepUs; }},
        {tr("Tokens/s per GPU"), [](const PlanEstimate& e) { return QString::number(e.tokensPerSecPerGpu, 'f', 0); },
         [](const PlanEstimate& e) { return e.tokensPerSecPerGpu; }},
        {tr("Model TFLOP/s per GPU"),
         [](const PlanEstimate& e) { return QString::number(e.modelTflopsPerGpu, 'f', 1); },
         [](const PlanEstimate& e) { return e.modelTflopsPerGpu; }},
        {tr("MFU"), [](const PlanEstimate& e) { return tr("%1 %").arg(e.mfu * 100, 0, 'f', 1); }, nullptr},
        {tr("Pipeline bubble"), [](const PlanEstimate& e) { return tr("%1 %").arg(e.bubbleFraction * 100, 0, 'f', 1); },
         nullptr},
        {tr("Peak memory per GPU"),
         [](const PlanEstimate& e) { return tr("%1 GB").arg(peakBytes(e) / 1e9, 0, 'f', 1); },
         [](const PlanEstimate& e) { return peakBytes(e); }},
        {tr("Fits"), [](const PlanEstimate& e) { return e.fits ? tr("yes") : tr("no"); }, nullptr},
    };
    setRowCount(static_cast<int>(std::size(rows)));
    for (int r = 0; r < rowCount(); ++r) {
        const Row& row = rows[r];
        setVerticalHeaderItem(r, new QTableWidgetItem(row.label));
        const auto cell = [](const QString& text) {
            auto* item = new QTableWidgetItem(text);
            item->setToolTip(text); // in full where the column is too narrow
            return item;
        };
        setItem(r, 0, cell(row.text(a)));
        setItem(r, 1, cell(b ? row.text(*b) : tr("refused")));
        QString ratio;
        if (b && row.value && row.value(a) > 0)
            ratio = QStringLiteral("%1x").arg(row.value(*b) / row.value(a), 0, 'f', 2);
        setItem(r, 2, new QTableWidgetItem(ratio));
    }
    resizeRowsToContents();
    setToolTip(tr("The planner's estimate of each plan; B / A above 1 means B is larger (a longer step, more tokens/s)")
               + QStringLiteral("\n\nA: ") + i18n::engineText(Message("plan.out.limits").with("what", a.bottleneck))
               + (b ? QStringLiteral("\nB: ") + i18n::engineText(Message("plan.out.limits").with("what", b->bottleneck))
                    : QString()));
    updateGeometry();
}

QSize PlanComparison::sizeHint() const
{
    int h = horizontalHeader()->height() + 2 * frameWidth();
    for (int r = 0; r < rowCount(); ++r)
        h += rowHeight(r);
    return {QTableWidget::sizeHint().width(), h};
}

QSize PlanComparison::minimumSizeHint() const { return {QTableWidget::minimumSizeHint().width(), sizeHint().height()}; }

} // namespace shardlab::gui

// Two plans side by side in the plan dialog: the plan kept as A against the one the boxes now say
// (B), row by row (step, tokens/s and model TFLOP/s per GPU, MFU, bubble, peak memory per GPU, fits;
// what limits each step in the tooltip) with B / A for the figures where a ratio means something. Every figure is
// the planner's estimate (PlanEstimate), as `shardlab plan` prints it.
#pragma once

#include "shardlab/plan/plan_estimate.h"

#include <QTableWidget>

#include <optional>

namespace shardlab::gui {

class PlanComparison : public QTableWidget {
    Q_OBJECT
public:
    explicit PlanComparison(QWidget* parent = nullptr);
    // B absent (the boxes say a plan that is refused): A's column only.
    void setPlans(const PlanEstimate& a, const std::optional<PlanEstimate>& b);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
};

} // namespace shardlab::gui

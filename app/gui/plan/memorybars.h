// Memory per GPU of each pipeline stage of a plan, as stacked bars (weights, gradients, optimizer
// state, activations, temporary buffers) against the GPU's capacity, drawn as a line. Shades of the
// palette's memory colour, so that memory is never drawn in a kind of time's colour.
#pragma once

#include "shardlab/plan/plan_memory.h"

#include <QWidget>

#include <vector>

namespace shardlab::gui {

class MemoryBars : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBars(QWidget* parent = nullptr);
    void setStages(std::vector<PlanMemory> stages, double capacityBytes);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<PlanMemory> m_stages;
    double m_capacity = 0;
};

} // namespace shardlab::gui

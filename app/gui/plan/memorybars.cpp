#include "plan/memorybars.h"

#include "shardlab/model/palette.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <array>

namespace shardlab::gui {

MemoryBars::MemoryBars(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(120);
    setToolTip(tr("Memory per GPU of each pipeline stage: weights, gradients, optimizer state, activations and "
                  "temporary buffers, darkest first; the line is the GPU's memory"));
}

void MemoryBars::setStages(std::vector<PlanMemory> stages, double capacityBytes)
{
    m_stages = std::move(stages);
    m_capacity = capacityBytes;
    update();
}

QSize MemoryBars::sizeHint() const { return {420, 160}; }

void MemoryBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF area = QRectF(rect()).adjusted(40, 18, -8, -22);
    if (m_stages.empty() || area.width() <= 0 || area.height() <= 0)
        return;
    double top = m_capacity;
    for (const PlanMemory& m : m_stages)
        top = std::max(top, m.peak());
    if (top <= 0)
        return;
    const palette::Rgb base = palette::rgb(palette::Category::Memory);
    const QColor memory(base.r, base.g, base.b);
    const std::array<QColor, 5> shades{memory.darker(170), memory.darker(130), memory, memory.lighter(135),
                                       memory.lighter(170)};
    const double slot = area.width() / static_cast<double>(m_stages.size());
    const double width = std::max(2.0, slot * 0.7);
    for (size_t i = 0; i < m_stages.size(); ++i) {
        const PlanMemory& m = m_stages[i];
        const std::array<double, 5> parts{m.params, m.grads, m.optimizer, m.activations, m.temporary};
        double y = area.bottom();
        const double x = area.left() + slot * static_cast<double>(i) + (slot - width) / 2;
        for (size_t k = 0; k < parts.size(); ++k) {
            const double h = parts[k] / top * area.height();
            p.fillRect(QRectF(x, y - h, width, h), shades[k]);
            y -= h;
        }
    }
    p.setPen(palette().color(QPalette::WindowText));
    if (m_capacity > 0) {
        const double y = area.bottom() - m_capacity / top * area.height();
        QPen line(palette().color(QPalette::WindowText), 1.5, Qt::DashLine);
        p.setPen(line);
        p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
        p.drawText(QRectF(0, y - 10, 38, 20), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(m_capacity / 1e9, 'f', 0));
    }
    // the legend, top left: a swatch and a name per kind, darkest first
    const QStringList names{tr("weights"), tr("gradients"), tr("optimizer"), tr("activations"), tr("temporary")};
    double x = area.left();
    const QFontMetricsF metrics(font());
    for (size_t k = 0; k < shades.size(); ++k) {
        p.fillRect(QRectF(x, 2, 10, 10), shades[k]);
        p.setPen(palette().color(QPalette::WindowText));
        const QString name = names[static_cast<int>(k)];
        p.drawText(QPointF(x + 13, 11), name);
        x += 13 + metrics.horizontalAdvance(name) + 10;
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRectF(area.left(), area.bottom() + 2, area.width(), 18), Qt::AlignCenter,
               tr("GB per GPU, by pipeline stage (%n stage(s))", nullptr, static_cast<int>(m_stages.size())));
}

} // namespace shardlab::gui

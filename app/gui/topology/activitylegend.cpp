#include "topology/activitylegend.h"

#include "style/theme.h"

#include <QEvent>
#include <QPainter>

namespace shardlab::gui {

namespace {
constexpr int kLegendPad = 6, kLegendSwatch = 14, kLegendGap = 6, kLegendSpacing = 14;
} // namespace

ActivityLegend::ActivityLegend(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setObjectName(QStringLiteral("activityLegend"));
    rebuild();
}

void ActivityLegend::rebuild()
{
    m_entries = {
        {ActivityState::Compute, tr("computing"), theme::activityColour(ActivityState::Compute)},
        {ActivityState::Communicate, tr("communicating"), theme::activityColour(ActivityState::Communicate)},
        {ActivityState::Wait, tr("waiting"), theme::activityColour(ActivityState::Wait)},
        {ActivityState::Paging, tr("paging"), theme::activityColour(ActivityState::Paging)},
    };
    setFont(theme::diagramFont(10));
    updateGeometry();
    resize(sizeHint());
    update();
}

void ActivityLegend::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        rebuild();
    else if (event->type() == QEvent::FontChange) // presenter mode's larger font: grow with it
        resize(sizeHint());
}

QSize ActivityLegend::sizeHint() const
{
    const QFontMetrics fm(font());
    int w = kLegendPad;
    for (const Entry& e : m_entries)
        w += kLegendSwatch + kLegendGap + fm.horizontalAdvance(e.text) + kLegendSpacing;
    return {w - kLegendSpacing + kLegendPad, std::max(kLegendSwatch, fm.height()) + 2 * kLegendPad};
}

void ActivityLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor(0x90, 0x98, 0xa4), 1));
    p.setBrush(QColor(255, 255, 255, 230));
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    const QFontMetrics fm(font());
    int x = kLegendPad;
    const int mid = height() / 2;
    for (const Entry& e : m_entries) {
        p.setPen(e.colour.darker(130));
        p.setBrush(e.colour);
        p.drawRect(QRect(x, mid - kLegendSwatch / 2, kLegendSwatch, kLegendSwatch));
        x += kLegendSwatch + kLegendGap;
        p.setPen(theme::ink());
        const int w = fm.horizontalAdvance(e.text);
        p.drawText(QRect(x, 0, w + 2, height()), Qt::AlignLeft | Qt::AlignVCenter, e.text);
        x += w + kLegendSpacing;
    }
}

} // namespace shardlab::gui

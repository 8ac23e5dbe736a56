#include "topology/switchitem.h"

#include "common/glossary.h"
#include "common/labels.h"
#include "style/theme.h"
#include "style/timelinestyle.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace shardlab::gui {

namespace {
QColor fillFor(SwitchKind kind)
{
    switch (kind) {
    case SwitchKind::NvSwitch: return QColor(0xdc, 0xef, 0xd0);
    case SwitchKind::PcieSwitch: return QColor(0xdb, 0xe7, 0xf8);
    case SwitchKind::Cpu: return QColor(0xec, 0xe6, 0xdc);
    case SwitchKind::Nic: return QColor(0xe8, 0xde, 0xf3);
    case SwitchKind::NetworkSwitch: return QColor(0xe8, 0xde, 0xf3);
    }
    return Qt::white;
}

QColor strokeFor(SwitchKind kind)
{
    switch (kind) {
    case SwitchKind::NvSwitch: return theme::linkColour(LinkKind::NvLink);
    case SwitchKind::PcieSwitch: return theme::linkColour(LinkKind::Pcie);
    case SwitchKind::Cpu: return theme::linkColour(LinkKind::CrossSocket);
    case SwitchKind::Nic:
    case SwitchKind::NetworkSwitch: return theme::linkColour(LinkKind::Network);
    }
    return theme::ink();
}
} // namespace

SwitchItem::SwitchItem(const SwitchNode& node, const VertexPlace& place, const QString& pairClass)
    : m_kind(node.kind), m_shape(place.shape), m_rect(0, 0, place.rect.width(), place.rect.height())
{
    setPos(place.rect.topLeft());
    setZValue(2);
    switch (node.kind) {
    case SwitchKind::Cpu: m_title = tr("CPU %1").arg(node.socket); break;
    case SwitchKind::PcieSwitch: m_title = tr("PCIe switch"); break;
    case SwitchKind::Nic: m_title = tr("NIC"); break;
    case SwitchKind::NvSwitch: m_title = tr("NVSwitch"); break;
    case SwitchKind::NetworkSwitch: m_title = tr("Network switch (InfiniBand)"); break;
    }
    m_sub = pairClass;
    if (place.shape == VertexShape::Bar && !m_sub.isEmpty()) {
        m_title = tr("%1  \u00b7  %2").arg(m_title, m_sub);
        m_sub.clear();
    }
    setToolTip(
        tr("<b>%1</b> (%2)<br>%3").arg(Labels::switchKind(node.kind), qs(node.id), Glossary::switchKind(node.kind)));
}

QRectF SwitchItem::boundingRect() const { return m_rect.adjusted(-2, -2, 2, 2); }

void SwitchItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(strokeFor(m_kind), 1.6));
    p->setBrush(fillFor(m_kind));
    p->drawRoundedRect(m_rect, 7, 7);
    if (lod < 0.35)
        return;
    p->setPen(theme::ink());
    const bool small = m_shape == VertexShape::SmallBox;
    QFont font = theme::diagramFont(small ? 9 : 10.5, true);
    if (lod < 1.0) // zoomed out: grow the text towards 12 screen pixels, as far as the box allows
        font.setPixelSize(static_cast<int>(std::clamp(12.0 / lod, font.pointSizeF() * 1.33, m_rect.height() * 0.5)));
    const double advance = QFontMetricsF(font).horizontalAdvance(m_title);
    if (font.pixelSize() > 0 && advance > m_rect.width() - 10)
        font.setPixelSize(std::max(6, static_cast<int>(font.pixelSize() * (m_rect.width() - 10) / advance)));
    else if (advance > m_rect.width() - 10) // presenter mode's larger text in a box of the plain size
        font.setPointSizeF(font.pointSizeF() * std::max(0.75, (m_rect.width() - 10) / advance));
    p->setFont(font);
    QRectF text = m_rect.adjusted(4, 2, -4, -2);
    if (!m_sub.isEmpty() && !small && m_shape != VertexShape::Bar) {
        p->drawText(text.adjusted(0, 0, 0, -text.height() * 0.45), Qt::AlignHCenter | Qt::AlignBottom, m_title);
        // the small print: shrunk to the box's width (presenter mode's larger text), then elided
        QFont subFont = theme::diagramFont(9);
        const double subAdvance = QFontMetricsF(subFont).horizontalAdvance(m_sub);
        if (subAdvance > text.width())
            subFont.setPointSizeF(subFont.pointSizeF() * std::max(0.75, text.width() / subAdvance));
        p->setFont(subFont);
        p->setPen(theme::mutedInk());
        p->drawText(text.adjusted(0, text.height() * 0.55, 0, 0), Qt::AlignHCenter | Qt::AlignTop,
                    p->fontMetrics().elidedText(m_sub, Qt::ElideRight, int(text.width())));
        return;
    }
    p->drawText(text, Qt::AlignCenter, p->fontMetrics().elidedText(m_title, Qt::ElideRight, int(text.width())));
}

NodeFrameItem::NodeFrameItem(const QRectF& rect, const QString& title, const QString& shortTitle)
    : m_rect(0, 0, rect.width(), rect.height()), m_title(title), m_shortTitle(shortTitle)
{
    setPos(rect.topLeft());
    setZValue(-1);
}

QRectF NodeFrameItem::boundingRect() const { return m_rect.adjusted(-2, -2, 2, 2); }

void NodeFrameItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    p->setRenderHint(QPainter::Antialiasing);
    const bool dark = timelinestyle::darkBackground();
    p->setPen(QPen(QColor(0xb0, 0xb8, 0xc4), 2));
    p->setBrush(dark ? theme::frameFillDark() : theme::frameFill());
    p->drawRoundedRect(m_rect, 16, 16);
    QFont f = theme::diagramFont(12, true);
    QString title = m_title;
    if (lod < 0.55) {
        // zoomed out: a bigger "Node 3" alone, so that it does not run into the CPU boxes
        f.setPixelSize(std::max(10, static_cast<int>(14 / lod)));
        title = m_shortTitle;
    }
    p->setFont(f);
    p->setPen(dark ? QColor(0xd0, 0xd4, 0xda) : theme::mutedInk());
    const QRectF box(16, 6, m_rect.width() / 2 - 80, std::max(layout::kFrameTitle, 16 / lod));
    p->drawText(box, Qt::AlignLeft | Qt::AlignVCenter,
                p->fontMetrics().elidedText(title, Qt::ElideRight, int(box.width())));
}

} // namespace shardlab::gui

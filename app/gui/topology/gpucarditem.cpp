#include "topology/gpucarditem.h"

#include "document/shardref.h"
#include "common/labels.h"
#include "style/theme.h"
#include "topology/itemdrag.h"
#include "topology/shardtileitem.h"
#include "topology/topologyscene.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneMouseEvent>
#include <QMimeData>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

#include <cmath>
#include <optional>
#include <utility>

namespace shardlab::gui {

namespace {
constexpr double kPad = 10;
constexpr double kHeaderH = 28;
constexpr double kGaugeTop = 38, kGaugeH = 24;
constexpr double kInfoTop = 66, kInfoH = 18, kSpeedTop = 84;
constexpr double kTilesTop = 106;
constexpr double kCompactGaugeTop = 58;
} // namespace

bool GpuCardItem::drawsCompactAt(double lod)
{
    return lod < kCompactLod || !theme::diagramTextReadable(theme::kDiagramSmallestPt, lod);
}

GpuCardItem::GpuCardItem(TopologyScene* scene, int rank, const QRectF& rect)
    : m_scene(scene), m_rank(rank), m_rect(0, 0, rect.width(), rect.height())
{
    setPos(rect.topLeft());
    setAcceptDrops(true);
    setZValue(2);
}

void GpuCardItem::setDevice(const QString& name, double tflops, int)
{
    m_device = name;
    m_tflops = tflops;
    update();
}

void GpuCardItem::setMesh(const QString& label, const QColor& stageColour)
{
    m_meshLabel = label;
    m_meshColour = stageColour;
    update();
}

void GpuCardItem::setMemory(Bytes owned, Bytes transient, Bytes capacity, std::vector<GaugeSegment> segments)
{
    m_owned = owned;
    m_transient = owned == 0 ? 0 : transient;
    m_capacity = capacity;
    m_segments = std::move(segments);
    const Bytes peak = m_owned + m_transient;
    const double peakPct = capacity == 0 ? 0.0 : static_cast<double>(peak) / static_cast<double>(capacity) * 100.0;
    m_state = owned == 0        ? GaugeState::Empty
              : peak > capacity ? GaugeState::Overflow
              : peakPct > 90.0  ? GaugeState::NearlyFull
                                : GaugeState::Fits;
    m_gaugeText = tr("%1 / %2").arg(bytesText(owned), bytesText(capacity));
    if (owned > capacity)
        m_excessText = tr("%1 too much").arg(bytesText(owned - capacity));
    else if (peak > capacity)
        m_excessText = tr("peak %1: %2 too much").arg(bytesText(peak), bytesText(peak - capacity));
    else
        m_excessText.clear();
    m_usageText = m_transient == 0
                      ? tr("%1 % used").arg(peakPct, 0, 'f', peakPct < 10 ? 1 : 0)
                      : tr("peak %1, %2 % used").arg(bytesText(peak)).arg(peakPct, 0, 'f', peakPct < 10 ? 1 : 0);
    update();
}

void GpuCardItem::setTiles(const std::vector<TileInfo>& tiles)
{
    if (tiles == m_tiles)
        return;
    m_tiles = tiles;
    layoutTiles();
    update();
}

void GpuCardItem::layoutTiles()
{
    for (ShardTileItem* t : m_tileItems)
        m_scene->retire(t);
    m_tileItems.clear();
    const int shown = static_cast<int>(m_tiles.size()) > kMaxTiles ? kMaxTiles - 1 : static_cast<int>(m_tiles.size());
    const int perRow = static_cast<int>((m_rect.width() - 2 * kPad + ShardTileItem::kGap)
                                        / (ShardTileItem::kWidth + ShardTileItem::kGap));
    for (int i = 0; i < shown; ++i) {
        auto* tile = new ShardTileItem(this, m_tiles[static_cast<size_t>(i)]);
        tile->setPos(kPad + (i % perRow) * (ShardTileItem::kWidth + ShardTileItem::kGap),
                     kTilesTop + (i / perRow) * (ShardTileItem::kHeight + ShardTileItem::kGap));
        m_tileItems << tile;
    }
}

void GpuCardItem::setActivity(ActivityState state, int waitingFor)
{
    m_showActivity = true;
    m_activity = state;
    m_waitingFor = waitingFor;
    update();
}

void GpuCardItem::clearActivity()
{
    m_showActivity = false;
    m_activity = ActivityState::Idle;
    m_waitingFor = -1;
    update();
}

QString GpuCardItem::activityText() const
{
    if (!m_showActivity)
        return {};
    switch (m_activity) {
    case ActivityState::Idle: return tr("idle");
    case ActivityState::Compute: return tr("computing");
    case ActivityState::Communicate: return tr("communicating");
    case ActivityState::Wait:
        return m_waitingFor >= 0 ? tr("waits for %1").arg(Labels::gpu(m_waitingFor)) : tr("waiting");
    case ActivityState::Paging: return tr("paging");
    }
    return {};
}

GpuCardItem::HeaderRight GpuCardItem::headerRight() const
{
    // right of the title as drawn (wider in presenter mode, or for GPU 10 and up)
    const QFontMetricsF titleMetrics(theme::diagramFont(13, true));
    const double rightFrom = kPad + titleMetrics.horizontalAdvance(Labels::gpu(m_rank)) + 8;
    HeaderRight out;
    out.box = QRectF(rightFrom, 6, std::max(0.0, m_rect.width() - kPad - rightFrom), kHeaderH);
    const QString whole = m_showActivity ? activityText() : m_device;
    const QFont wanted = theme::diagramFont(9.5, m_showActivity);
    auto fit = [&](const QRectF& box) {
        for (double scale : {1.0, 0.9, 0.8, 0.75}) {
            out.font = wanted;
            out.font.setPointSizeF(wanted.pointSizeF() * scale);
            if (QFontMetricsF(out.font).horizontalAdvance(whole) <= box.width())
                return true;
        }
        return false;
    };
    if (!fit(out.box) && m_showActivity) {
        out.box = QRectF(kPad, kSpeedTop, std::max(0.0, m_rect.width() - 2 * kPad), kInfoH);
        out.onSpeedLine = true;
        fit(out.box);
    }
    out.text = QFontMetricsF(out.font).elidedText(whole, Qt::ElideRight, out.box.width());
    return out;
}

QColor GpuCardItem::gaugeColour() const
{
    switch (m_state) {
    case GaugeState::Overflow: return theme::overflow();
    case GaugeState::NearlyFull: return theme::warn();
    case GaugeState::Fits:
    case GaugeState::Empty: return theme::ok();
    }
    return theme::ok();
}

QRectF GpuCardItem::boundingRect() const { return m_rect.adjusted(-4, -4, 4, 4); }

void GpuCardItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    p->setRenderHint(QPainter::Antialiasing);
    // the card
    QColor border = m_state == GaugeState::Overflow ? theme::overflow() : QColor(0x90, 0x98, 0xa4);
    double borderW = m_state == GaugeState::Overflow ? 3 : 1.5;
    if (m_showActivity && m_activity != ActivityState::Idle) {
        border = theme::activityColour(m_activity);
        borderW = 5;
    }
    p->setPen(QPen(border, borderW));
    QColor fill = theme::cardFill();
    if (m_showActivity && m_activity != ActivityState::Idle) {
        // a pale tint of the state's colour: the gauge and text stay readable on it
        const QColor c = theme::activityColour(m_activity);
        fill = QColor::fromRgbF(0.78f + 0.22f * c.redF(), 0.78f + 0.22f * c.greenF(), 0.78f + 0.22f * c.blueF());
    }
    p->setBrush(fill);
    p->drawRoundedRect(m_rect, 10, 10);
    if (!m_meshLabel.isEmpty()) { // the pipeline stage's stripe along the top, inside the card
        QPainterPath card;
        card.addRoundedRect(m_rect, 10, 10);
        p->save();
        p->setClipPath(card);
        p->fillRect(QRectF(m_rect.left(), m_rect.top(), m_rect.width(), 6), m_meshColour);
        p->restore();
    }
    if (drawsCompactAt(lod))
        paintCompact(p, lod);
    else
        paintFull(p);
    if (m_dropTarget) {
        QPen pen(m_dropCopy ? theme::ok() : QColor(0x15, 0x65, 0xc0), 4, Qt::DashLine);
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        p->drawRoundedRect(m_rect.adjusted(-2, -2, 2, 2), 12, 12);
    }
}

void GpuCardItem::paintFull(QPainter* p)
{
    const double w = m_rect.width();
    p->setPen(theme::ink());
    p->setFont(theme::diagramFont(13, true));
    const QRectF header(kPad, 6, w - 2 * kPad, kHeaderH);
    const QString title = Labels::gpu(m_rank);
    p->drawText(header, Qt::AlignLeft | Qt::AlignVCenter, title);
    const HeaderRight right = headerRight();
    p->setFont(right.font);
    p->setPen(m_showActivity ? theme::activityColour(m_activity).darker(130) : theme::mutedInk());
    p->drawText(right.box, (right.onSpeedLine ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter, right.text);

    paintGauge(p, QRectF(kPad, kGaugeTop, w - 2 * kPad, kGaugeH), true);

    const QRectF info(kPad, kInfoTop, w - 2 * kPad, kInfoH);
    if (m_state == GaugeState::Overflow) {
        p->setFont(theme::diagramFont(10, true));
        p->setPen(theme::overflow());
        p->drawText(info, Qt::AlignLeft | Qt::AlignVCenter, m_excessText);
    } else {
        p->setFont(theme::diagramFont(9.5));
        p->setPen(theme::mutedInk());
        p->drawText(info, Qt::AlignLeft | Qt::AlignVCenter, m_usageText);
    }
    if (!right.onSpeedLine) {
        p->setFont(theme::diagramFont(9.5));
        p->setPen(theme::mutedInk());
        const QRectF line(kPad, kSpeedTop, w - 2 * kPad, kInfoH);
        const QString speed = tr("%1 TFLOP/s").arg(m_tflops, 0, 'g', 3);
        if (m_meshLabel.isEmpty()) {
            p->drawText(line, Qt::AlignLeft | Qt::AlignVCenter, speed);
        } else { // the mesh place first (what a plan's card is about), the speed right if it fits
            const double speedW = p->fontMetrics().horizontalAdvance(speed);
            const double labelW = p->fontMetrics().horizontalAdvance(m_meshLabel);
            p->setPen(theme::ink());
            p->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                        p->fontMetrics().elidedText(m_meshLabel, Qt::ElideRight, static_cast<int>(line.width())));
            if (labelW + speedW + 8 <= line.width()) {
                p->setPen(theme::mutedInk());
                p->drawText(line, Qt::AlignRight | Qt::AlignVCenter, speed);
            }
        }
    }
    if (static_cast<int>(m_tiles.size()) > m_tileItems.size()) {
        const QRectF more(m_rect.width() - kPad - ShardTileItem::kWidth,
                          kTilesTop + ShardTileItem::kHeight + ShardTileItem::kGap, ShardTileItem::kWidth,
                          ShardTileItem::kHeight);
        const QString text = tr("+%1").arg(static_cast<int>(m_tiles.size()) - m_tileItems.size());
        p->setFont(ShardTileItem::fittedTileFont(text, more.size()));
        p->drawText(more, Qt::AlignCenter, text);
    }
    if (m_tiles.empty()) {
        p->setFont(theme::diagramFont(9));
        p->setPen(theme::mutedInk());
        p->drawText(QRectF(kPad, kTilesTop, w - 2 * kPad, 2 * ShardTileItem::kHeight), Qt::AlignCenter,
                    tr("drop shards here"));
    }
}

void GpuCardItem::paintCompact(QPainter* p, double lod)
{
    // Zoomed out: the rank as a big number, the gauge, the tiles; no small print. Text sizes are
    // set in screen pixels so that the rank stays readable.
    const double w = m_rect.width();
    QFont big = theme::diagramFont(10, true);
    big.setPixelSize(std::max(8, static_cast<int>(std::min(kGaugeTop + kGaugeH, 17.0 / lod))));
    p->setFont(big);
    p->setPen(theme::ink());
    p->drawText(QRectF(0, 0, w, kCompactGaugeTop), Qt::AlignCenter, QString::number(m_rank));
    const QRectF gauge(kPad, kCompactGaugeTop, w - 2 * kPad, kTilesTop - 4 - kCompactGaugeTop);
    paintGauge(p, gauge, false);
    if (m_state == GaugeState::Overflow && lod > 0.2) {
        // the excess over the gauge, white on the red hatching
        QFont f = theme::diagramFont(10, true);
        f.setPixelSize(std::max(8, static_cast<int>(std::min(gauge.height() * 0.9, 12.0 / lod))));
        p->setFont(f);
        p->setPen(theme::overflow());
        p->setBrush(QColor(255, 255, 255, 230));
        const QString text = tr("+%1").arg(bytesText(m_owned + m_transient - m_capacity));
        const QFontMetricsF fm(f);
        const QRectF box(gauge.center() - QPointF(fm.horizontalAdvance(text) / 2 + 4, gauge.height() / 2),
                         QSizeF(fm.horizontalAdvance(text) + 8, gauge.height()));
        p->drawRoundedRect(box, 3, 3);
        p->drawText(box, Qt::AlignCenter, text);
    }
}

void GpuCardItem::paintGauge(QPainter* p, const QRectF& r, bool withText)
{
    p->setPen(Qt::NoPen);
    p->setBrush(theme::gaugeTrack());
    p->drawRoundedRect(r, 4, 4);
    // Segments by item, then the largest collective buffer hatched grey, scaled to the capacity;
    // when the peak is more than the GPU holds, scaled to the peak, so the bar is full and the red
    // frame and text say by how much.
    const double scale = static_cast<double>(std::max(m_owned + m_transient, m_capacity));
    double x = r.left();
    if (scale > 0) {
        for (const GaugeSegment& s : m_segments) {
            const double sw = r.width() * static_cast<double>(s.bytes) / scale;
            p->setBrush(s.colour);
            p->drawRect(QRectF(x, r.top(), sw, r.height()));
            x += sw;
        }
        if (m_transient > 0) {
            const double sw = r.width() * static_cast<double>(m_transient) / scale;
            p->setBrush(QBrush(theme::mutedInk(), Qt::Dense5Pattern));
            p->drawRect(QRectF(x, r.top(), sw, r.height()));
        }
    }
    if (m_state == GaugeState::Overflow && scale > 0) {
        // the part beyond the capacity, hatched in red
        const double capX = r.left() + r.width() * static_cast<double>(m_capacity) / scale;
        p->setBrush(QBrush(theme::overflow(), Qt::BDiagPattern));
        p->drawRect(QRectF(capX, r.top(), r.right() - capX, r.height()));
        p->setPen(QPen(theme::overflow(), 2));
        p->drawLine(QPointF(capX, r.top() - 3), QPointF(capX, r.bottom() + 3));
    }
    p->setBrush(Qt::NoBrush);
    p->setPen(QPen(m_state == GaugeState::Overflow ? theme::overflow() : gaugeColour().darker(110),
                   m_state == GaugeState::Overflow ? 2.5 : 1.2));
    p->drawRoundedRect(r, 4, 4);
    if (withText) {
        // text with a light halo so that it reads over any segment colour
        p->setFont(theme::diagramFont(9.5, true));
        const QString text = m_gaugeText;
        QPainterPath path;
        const QFontMetricsF fm(p->font());
        const QPointF at(r.center().x() - fm.horizontalAdvance(text) / 2, r.center().y() + fm.ascent() / 2 - 1.5);
        path.addText(at, p->font(), text);
        p->setPen(QPen(QColor(255, 255, 255, 230), 3.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p->setBrush(Qt::NoBrush);
        p->drawPath(path);
        p->setPen(Qt::NoPen);
        p->setBrush(theme::ink());
        p->drawPath(path);
    }
}

void GpuCardItem::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    // a plan's card can be dragged onto another (its TP group or stage moves); others ignore the press
    if (m_meshLabel.isEmpty() || event->button() != Qt::LeftButton) {
        event->ignore();
        return;
    }
    event->accept();
}

void GpuCardItem::mouseMoveEvent(QGraphicsSceneMouseEvent* event)
{
    if (m_meshLabel.isEmpty() || !(event->buttons() & Qt::LeftButton))
        return;
    const QPoint moved = event->screenPos() - event->buttonDownScreenPos(Qt::LeftButton);
    if (moved.manhattanLength() < QApplication::startDragDistance())
        return;
    const bool stage = event->modifiers() & Qt::ShiftModifier;
    // the card itself, as large as it is on screen, follows the pointer
    dragWithPicture(event->widget(), meshUnitMimeData({m_rank, stage ? MeshUnit::Stage : MeshUnit::TensorGroup}),
                    itemPixmap(*this, m_rect, onScreenScale(event->widget())), Qt::MoveAction, Qt::MoveAction);
}

void GpuCardItem::dragEnterEvent(QGraphicsSceneDragDropEvent* event)
{
    const auto unit = meshUnitFrom(event->mimeData());
    const bool shards = event->mimeData()->hasFormat(QString::fromLatin1(kShardMimeType));
    if (!shards && !(unit && unit->rank != m_rank && !m_meshLabel.isEmpty())) {
        event->ignore();
        return;
    }
    dragMoveEvent(event);
}

void GpuCardItem::dragMoveEvent(QGraphicsSceneDragDropEvent* event)
{
    if (meshUnitFrom(event->mimeData())) { // a plan's TP group or stage: it moves
        m_dropCopy = false;
        event->setDropAction(Qt::MoveAction);
        event->accept();
        m_dropTarget = true;
        update();
        return;
    }
    m_dropCopy = event->modifiers() & Qt::ControlModifier;
    event->setDropAction(m_dropCopy ? Qt::CopyAction : Qt::MoveAction);
    event->accept();
    m_dropTarget = true;
    update();
}

void GpuCardItem::dragLeaveEvent(QGraphicsSceneDragDropEvent*)
{
    m_dropTarget = false;
    update();
}

void GpuCardItem::dropEvent(QGraphicsSceneDragDropEvent* event)
{
    m_dropTarget = false;
    update();
    if (const auto unit = meshUnitFrom(event->mimeData())) {
        event->setDropAction(Qt::MoveAction);
        event->accept();
        m_scene->dropMeshUnit(unit->rank, m_rank, unit->unit);
        return;
    }
    const QList<ShardRef> refs = shardRefsFrom(event->mimeData());
    if (refs.isEmpty()) {
        event->ignore();
        return;
    }
    const bool copy = event->modifiers() & Qt::ControlModifier;
    event->setDropAction(copy ? Qt::CopyAction : Qt::MoveAction);
    event->accept();
    m_scene->dropShards(refs, m_rank, copy);
}

void GpuCardItem::contextMenuEvent(QGraphicsSceneContextMenuEvent* event)
{
    m_scene->showGpuMenu(m_rank, event->screenPos());
    event->accept();
}

void GpuCardItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent*) { emit m_scene->gpuActivated(m_rank); }

} // namespace shardlab::gui

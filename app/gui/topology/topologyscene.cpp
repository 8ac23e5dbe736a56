#include "topology/topologyscene.h"
#include "i18n/language.h"

#include "document/document.h"
#include "document/edits.h"
#include "document/livefeedback.h"
#include "common/glossary.h"
#include "common/labels.h"
#include "style/theme.h"
#include "topology/gpucarditem.h"
#include "topology/linkitem.h"
#include "topology/shardtileitem.h"
#include "topology/switchitem.h"

#include "shardlab/plan/parallel_plan.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsPathItem>
#include <QGuiApplication>
#include <QLineF>
#include <QMap>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <map>

namespace shardlab::gui {

TopologyScene::TopologyScene(Document* document, LiveFeedback* feedback, QObject* parent)
    : QGraphicsScene(parent), m_document(document), m_feedback(feedback)
{
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    connect(feedback, &LiveFeedback::updated, this, &TopologyScene::update);
    update(document->scenario(), feedback->current());
}

TopologyScene::~TopologyScene()
{
    clearWaitArrows();
    qDeleteAll(m_retired);
}

GpuCardItem* TopologyScene::card(int rank) const
{
    return rank >= 0 && rank < static_cast<int>(m_cards.size()) ? m_cards[static_cast<size_t>(rank)] : nullptr;
}

LinkItem* TopologyScene::linkItem(int index) const
{
    return index >= 0 && index < static_cast<int>(m_links.size()) ? m_links[static_cast<size_t>(index)] : nullptr;
}

QList<ShardRef> TopologyScene::selectedShards() const
{
    QList<ShardRef> refs;
    for (QGraphicsItem* item : selectedItems())
        if (item->type() == ShardTileItem::Type) {
            const auto* tile = static_cast<ShardTileItem*>(item);
            refs << ShardRef{tile->info().item, tile->info().shard, tile->rank()};
        }
    return refs;
}

void TopologyScene::update(const Scenario& scenario, const Feedback& feedback)
{
    if (!m_built || !(scenario.topology == m_topology))
        rebuild(scenario);
    refreshMesh(scenario);
    refreshOwnership(scenario, feedback);
}

QColor TopologyScene::stageColour(int stage)
{
    // Paul Tol's "light" scheme without its orange and pink (communication and wait, palette.h):
    // a stage's stripe never reads as a kind of time; the card's words say the stage anyway.
    static const QColor colours[] = {QColor(0x77, 0xAA, 0xDD), QColor(0x44, 0xBB, 0x99), QColor(0xBB, 0xCC, 0x33),
                                     QColor(0xEE, 0xDD, 0x88), QColor(0x99, 0xDD, 0xFF), QColor(0xAA, 0xAA, 0x00),
                                     QColor(0xDD, 0xDD, 0xDD)};
    return colours[static_cast<size_t>(stage) % std::size(colours)];
}

void TopologyScene::refreshMesh(const Scenario& scenario)
{
    // a plan's scenario: each GPU's pipeline stage, TP rank and data-parallel replica (a mesh that no
    // longer covers the ranks, after a GPU was added or removed, is not drawn)
    const bool drawn = scenario.mesh && scenario.mesh->ranks() == static_cast<long long>(m_cards.size());
    ParallelPlan plan;
    if (drawn) {
        const ScenarioMesh& m = *scenario.mesh;
        plan.tp = m.tp;
        plan.cp = m.cp;
        plan.pp = m.pp;
        plan.dp = m.dp;
        plan.order = meshOrderFromText(m.order).value_or(kDefaultMeshOrder);
    }
    for (GpuCardItem* card : m_cards) {
        const int place = drawn ? scenario.mesh->placeOf(card->rank()) : -1;
        if (place < 0) {
            card->setMesh(QString(), QColor());
            continue;
        }
        const MeshCoordinate at = meshCoordinate(plan, place); // the place this GPU plays (ScenarioMesh::gpus)
        QString label = tr("stage %1 \u00b7 TP %2").arg(at.pp).arg(at.tp);
        if (plan.cp > 1)
            label += tr(" \u00b7 CP %1").arg(at.cp);
        label += tr(" \u00b7 DP %1").arg(at.dp);
        card->setMesh(label, stageColour(at.pp));
    }
}

QString TopologyScene::pairClassNote(int v) const
{
    // The nvidia-smi class of the GPUs that meet at this switch, when it is the one they use.
    const Topology& t = m_topology;
    std::vector<int> below;
    for (const Link& l : t.links) {
        const auto a = t.vertexOf(l.a), b = t.vertexOf(l.b);
        if (!a || !b || (*a != v && *b != v))
            continue;
        const int other = *a == v ? *b : *a;
        if (t.isGpu(other))
            below.push_back(other);
        else if (t.switches[static_cast<size_t>(other - t.rankCount())].kind == SwitchKind::PcieSwitch
                 && t.switches[static_cast<size_t>(v - t.rankCount())].kind == SwitchKind::Cpu)
            for (const Link& m : t.links) {
                const auto c = t.vertexOf(m.a), d = t.vertexOf(m.b);
                if (c && d && (*c == other || *d == other) && t.isGpu(*c == other ? *d : *c))
                    below.push_back(*c == other ? *d : *c);
            }
    }
    std::sort(below.begin(), below.end());
    below.erase(std::unique(below.begin(), below.end()), below.end());
    if (below.size() < 2)
        return {};
    std::map<PathClass, std::pair<int, int>> seen;
    for (size_t i = 0; i < below.size(); ++i)
        for (size_t j = i + 1; j < below.size(); ++j) {
            const PairClass& pc = m_pairs[static_cast<size_t>(below[i])][static_cast<size_t>(below[j])];
            seen.emplace(pc.cls, std::pair<int, int>(below[i], below[j]));
        }
    const SwitchKind kind = t.switches[static_cast<size_t>(v - t.rankCount())].kind;
    // a CPU's own class is the one between GPUs under different switches (PHB), not PIX
    for (PathClass want : {PathClass::NvLink, PathClass::Phb, PathClass::Node, PathClass::Pix, PathClass::Pxb}) {
        if ((kind == SwitchKind::NvSwitch) != (want == PathClass::NvLink))
            continue;
        if (kind == SwitchKind::PcieSwitch && want != PathClass::Pix && want != PathClass::Pxb)
            continue;
        if (kind == SwitchKind::Cpu && want != PathClass::Phb && want != PathClass::Node)
            continue;
        auto it = seen.find(want);
        if (it == seen.end())
            continue;
        const QString cls =
            qs(pathClassLabel(m_pairs[static_cast<size_t>(it->second.first)][static_cast<size_t>(it->second.second)]));
        return kind == SwitchKind::NvSwitch ? tr("every GPU pair %1").arg(cls) : tr("GPUs below: %1").arg(cls);
    }
    return {};
}

void TopologyScene::rebuild(const Scenario& scenario)
{
    clearWaitArrows();
    m_activity = {};
    clear(); // retired tiles are no longer in the scene: they wait for reapRetired()
    m_cards.clear();
    m_links.clear();
    m_switches.clear();
    m_topology = scenario.topology;
    m_built = true;
    const Topology& t = m_topology;
    m_layout = layoutTopology(t);
    m_pairs = classifyPairs(t);

    for (const NodeFrame& f : m_layout.nodes) {
        int gpus = 0;
        QString device;
        for (const Gpu& g : t.gpus)
            if (g.node == f.node) {
                ++gpus;
                device = device.isEmpty() || device == qs(g.name) ? qs(g.name) : tr("mixed GPUs");
            }
        addItem(new NodeFrameItem(f.rect, tr("Node %1  \u00b7  %2 \u00d7 %3").arg(f.node).arg(gpus).arg(device),
                                  tr("Node %1").arg(f.node)));
    }
    for (size_t i = 0; i < t.switches.size(); ++i) {
        const int v = t.rankCount() + static_cast<int>(i);
        auto* item = new SwitchItem(t.switches[i], m_layout.vertices[static_cast<size_t>(v)], pairClassNote(v));
        addItem(item);
        m_switches.push_back(item);
    }
    for (size_t i = 0; i < t.links.size(); ++i) {
        auto* item = new LinkItem(this, static_cast<int>(i), t.links[i], m_layout.links[i]);
        addItem(item);
        m_links.push_back(item);
    }
    for (int r = 0; r < t.rankCount(); ++r) {
        auto* card = new GpuCardItem(this, r, m_layout.vertices[static_cast<size_t>(r)].rect);
        const Gpu& g = t.gpus[static_cast<size_t>(r)];
        card->setDevice(qs(g.name), g.tflops, g.node);
        addItem(card);
        m_cards.push_back(card);
    }
    // each card's paths to the others, grouped by class: "NV18 to GPU 1-7", "NET to GPU 8-63"
    m_pathText.clear();
    for (int r = 0; r < t.rankCount(); ++r) {
        QMap<QString, std::vector<int>> paths;
        for (int o = 0; o < t.rankCount(); ++o)
            if (o != r)
                paths[qs(pathClassLabel(m_pairs[static_cast<size_t>(r)][static_cast<size_t>(o)]))].push_back(o);
        QString text;
        for (auto it = paths.cbegin(); it != paths.cend(); ++it)
            text += tr("<br>&nbsp;&nbsp;%1 to GPU %2").arg(it.key(), Labels::ranks(it.value()));
        m_pathText << text;
    }
    declutterLabels();
    setSceneRect(m_layout.bounds);
    emit layoutRebuilt();
}

bool TopologyScene::event(QEvent* event)
{
    const bool handled = QGraphicsScene::event(event);
    if (event->type() == QEvent::FontChange && m_built) {
        for (LinkItem* link : m_links)
            link->fontChanged();
        declutterLabels();
        QGraphicsScene::update();
    }
    return handled;
}

void TopologyScene::declutterLabels()
{
    // Hide labels with no room on their link, labels that would cover a card, a switch or an
    // earlier label, and labels that repeat an identical one close by (DGX-1's sixteen "NV1" arcs).
    constexpr double kRepeatDistance = 150;
    std::vector<QRectF> taken;
    for (const VertexPlace& p : m_layout.vertices)
        taken.push_back(p.rect.adjusted(-2, -2, 2, 2));
    std::vector<std::pair<QString, QPointF>> shown;
    for (LinkItem* link : m_links) {
        const QRectF r = link->labelRect();
        bool ok = link->labelFits();
        for (size_t i = 0; ok && i < taken.size(); ++i)
            ok = !taken[i].intersects(r);
        for (size_t i = 0; ok && i < shown.size(); ++i)
            ok = shown[i].first != link->label() || QLineF(shown[i].second, r.center()).length() >= kRepeatDistance;
        link->setLabelVisible(ok);
        if (ok) {
            taken.push_back(r.adjusted(-3, -2, 3, 2));
            shown.push_back({link->label(), r.center()});
        }
    }
}

void TopologyScene::refreshOwnership(const Scenario& scenario, const Feedback& feedback)
{
    const int n = static_cast<int>(m_cards.size());
    // per rank: bytes by item (gauge segments) and the shards it owns (tiles), in one pass
    std::vector<std::vector<GaugeSegment>> segments(static_cast<size_t>(n));
    std::vector<std::vector<TileInfo>> tiles(static_cast<size_t>(n));
    for (size_t i = 0; i < scenario.workload.items.size(); ++i) {
        const WorkloadItem& item = scenario.workload.items[i];
        const QColor colour = theme::itemColour(static_cast<int>(i));
        for (size_t k = 0; k < item.shards.size(); ++k) {
            const Shard& sh = item.shards[k];
            QString tip;
            for (int owner : sh.owners) {
                if (owner < 0 || owner >= n)
                    continue;
                auto& seg = segments[static_cast<size_t>(owner)];
                if (seg.empty() || seg.back().colour != colour)
                    seg.push_back({colour, 0});
                seg.back().bytes += sh.size;
                if (tip.isEmpty())
                    tip = tr("<b>%1</b>: %2 of %3<br>%4<br><i>Drag to another GPU to move it; Ctrl-drag to replicate "
                             "it.</i>")
                              .arg(Labels::shard(scenario, static_cast<int>(i), static_cast<int>(k)),
                                   bytesText(sh.size), bytesText(item.size),
                                   sh.owners.size() > 1 ? tr("replicated on GPUs %1").arg(Labels::ranks(sh.owners))
                                                        : tr("split: only this GPU holds it"));
                tiles[static_cast<size_t>(owner)].push_back(
                    {static_cast<int>(i), static_cast<int>(k), colour, QStringLiteral("#%1").arg(k), tip});
            }
        }
    }
    const auto& ranks = feedback.capacity.ranks;
    for (int r = 0; r < n; ++r) {
        GpuCardItem* card = m_cards[static_cast<size_t>(r)];
        if (r >= static_cast<int>(ranks.size()))
            continue;
        const RankMemory& rm = ranks[static_cast<size_t>(r)];
        card->setMemory(rm.owned, rm.transient, rm.capacity, std::move(segments[static_cast<size_t>(r)]));
        card->setTiles(tiles[static_cast<size_t>(r)]);
        const Gpu& g = scenario.topology.gpus[static_cast<size_t>(r)];
        // the card's place on a plan's mesh (refreshMesh() ran first), under its title
        const QString mesh =
            card->meshLabel().isEmpty()
                ? QString()
                : QStringLiteral("<br>") + card->meshLabel()
                      + tr("<br><i>Drag it onto another GPU to swap its TP group with that GPU's; with Shift, its "
                           "pipeline stage (also in its context menu).</i>");
        card->setToolTip(tr("<b>%1</b>: %2, %3 memory, %4 TFLOP/s, node %5<br>Owns %6 (%7 % of its memory); peak with "
                            "the largest collective buffer %11%8"
                            "<br>Paths to the other GPUs (as nvidia-smi topo -m names them):%9<br><br>%10")
                             .arg(Labels::gpu(r), qs(g.name), bytesText(g.memory))
                             .arg(g.tflops)
                             .arg(g.node)
                             .arg(bytesText(rm.owned))
                             .arg(rm.usedPct(), 0, 'f', 0)
                             .arg(rm.fits() ? QString()
                                            : tr("<br><font color='#c62828'><b>Does not fit: %1 too much.</b></font>")
                                                  .arg(bytesText(rm.peakExcess())),
                                  m_pathText.value(r), Glossary::gauge(), bytesText(rm.peak()))
                         + mesh);
    }
}

void TopologyScene::clearWaitArrows()
{
    for (auto* list : {&m_waitArrows, &m_waitBadges}) {
        for (QGraphicsItem* a : *list) {
            removeItem(a);
            delete a;
        }
        list->clear();
    }
}

QStringList TopologyScene::waitBadges() const
{
    QStringList out;
    for (QGraphicsItem* b : m_waitBadges)
        out << b->toolTip();
    return out;
}

void TopologyScene::addWaitArrow(int from, int to)
{
    // a dashed arrow from the waiting card to the card it waits for
    const QRectF a = m_cards[static_cast<size_t>(from)]->sceneBoundingRect(),
                 b = m_cards[static_cast<size_t>(to)]->sceneBoundingRect();
    const QPointF start(a.center().x(), a.top() + 8), end(b.center().x(), b.top() + 8);
    QPainterPath path(start);
    const double lift = 60 + 0.15 * std::abs(end.x() - start.x());
    path.cubicTo(start + QPointF(0, -lift), end + QPointF(0, -lift), end);
    auto* arrow = new QGraphicsPathItem(path);
    arrow->setPen(QPen(theme::activityColour(ActivityState::Wait), 4, Qt::DashLine, Qt::RoundCap));
    arrow->setZValue(5);
    arrow->setToolTip(tr("%1 waits for %2").arg(Labels::gpu(from), Labels::gpu(to)));
    auto* head = new QGraphicsPolygonItem(QPolygonF({end, end + QPointF(-9, -16), end + QPointF(9, -16)}), arrow);
    head->setBrush(theme::activityColour(ActivityState::Wait));
    head->setPen(Qt::NoPen);
    addItem(arrow);
    m_waitArrows.push_back(arrow);
}

void TopologyScene::addWaitBadge(int rank, int waiters)
{
    // Above the card, in screen pixels (ItemIgnoresTransformations): as readable with 64 tiny
    // cards as with 4 large ones.
    const QString text = tr("%n rank(s) wait for %1", nullptr, waiters).arg(Labels::gpu(rank));
    QFont font = QGuiApplication::font();
    font.setBold(true);
    const QFontMetricsF fm(font);
    const QRectF box(-fm.horizontalAdvance(text) / 2 - 8, -fm.height() - 12, fm.horizontalAdvance(text) + 16,
                     fm.height() + 8);
    auto* badge = new QGraphicsRectItem(box);
    badge->setFlag(QGraphicsItem::ItemIgnoresTransformations);
    badge->setBrush(theme::activityColour(ActivityState::Wait));
    badge->setPen(QPen(theme::activityColour(ActivityState::Wait).darker(140), 1));
    badge->setZValue(6);
    badge->setToolTip(text);
    auto* label = new QGraphicsSimpleTextItem(text, badge);
    label->setFont(font);
    label->setBrush(Qt::white);
    label->setPos(box.left() + 8, box.top() + 4);
    const QRectF card = m_cards[static_cast<size_t>(rank)]->sceneBoundingRect();
    badge->setPos(card.center().x(), card.top());
    addItem(badge);
    m_waitBadges.push_back(badge);
}

void TopologyScene::setActivity(const ActivitySnapshot& frame)
{
    const bool wasShown = !m_activity.empty();
    m_activity = frame;
    clearWaitArrows();
    if (wasShown != !frame.empty())
        emit activityShown(!frame.empty());
    if (frame.empty()) {
        for (GpuCardItem* c : m_cards)
            c->clearActivity();
        for (LinkItem* l : m_links)
            l->clearTraffic();
        return;
    }
    std::vector<std::pair<int, int>> waits; // (waiting rank, the rank it waits for)
    for (size_t r = 0; r < m_cards.size() && r < frame.ranks.size(); ++r) {
        const int waitsFor = r < frame.waitingFor.size() ? frame.waitingFor[r] : -1;
        m_cards[r]->setActivity(frame.ranks[r], waitsFor);
        if (frame.ranks[r] == ActivityState::Wait && waitsFor >= 0 && waitsFor < static_cast<int>(m_cards.size())
            && waitsFor != static_cast<int>(r))
            waits.emplace_back(static_cast<int>(r), waitsFor);
    }
    if (static_cast<int>(waits.size()) <= kMaxWaitArrows) {
        for (const auto& [from, to] : waits)
            addWaitArrow(from, to);
    } else {
        std::map<int, int> waiters; // by the rank waited for
        for (const auto& w : waits)
            ++waiters[w.second];
        for (const auto& [rank, count] : waiters)
            addWaitBadge(rank, count);
    }
    double maxBytes = 0;
    for (const LinkActivity& l : frame.links)
        maxBytes = std::max(maxBytes, l.bytesInFlight);
    // the dash phase advances with the clock so that consecutive frames show movement
    const double phase = frame.timeUs / 50.0;
    for (size_t i = 0; i < m_links.size(); ++i) {
        if (i < frame.links.size())
            m_links[i]->setTraffic(frame.links[i], maxBytes, phase);
        else
            m_links[i]->clearTraffic();
    }
}

void TopologyScene::dropShards(const QList<ShardRef>& refs, int rank, bool copy)
{
    report(Edits::dropShards(*m_document, refs, rank, copy));
}

void TopologyScene::dropMeshUnit(int fromRank, int toRank, MeshUnit unit)
{
    report(Edits::moveMeshUnit(*m_document, fromRank, toRank, unit));
}

void TopologyScene::report(const Status& status)
{
    if (!status)
        emit editFailed(i18n::engineError(status.error()));
}

void TopologyScene::retire(ShardTileItem* tile)
{
    if (tile->scene())
        removeItem(tile);
    tile->setParentItem(nullptr); // its card may go before it does
    m_retired.push_back(tile);
    if (!m_reapScheduled) {
        m_reapScheduled = true;
        QTimer::singleShot(0, this, &TopologyScene::reapRetired);
    }
}

void TopologyScene::reapRetired()
{
    // A tile replaced by the drop of its own drag is still on the stack of its mouse handler
    // until the button goes up: wait for that.
    if (QGuiApplication::mouseButtons() != Qt::NoButton) {
        QTimer::singleShot(100, this, &TopologyScene::reapRetired);
        return;
    }
    m_reapScheduled = false;
    qDeleteAll(m_retired);
    m_retired.clear();
}

} // namespace shardlab::gui

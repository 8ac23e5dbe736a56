// The topology diagram: GPU cards, switches, links and node frames laid out by layoutTopology(),
// kept in step with the document. A topology change rebuilds the scene; an ownership change only
// updates gauges and tiles (the 64-GPU benchmark relies on it). Shards dropped on a card become
// one undoable edit. setActivity() animates a run's playback on the same diagram.
#pragma once

#include "shardlab/sim/activity.h"
#include "document/shardref.h"
#include "shardlab/model/scenario.h"
#include "shardlab/plan/plan_scenario.h"
#include "shardlab/sim/topo_matrix.h"
#include "topology/topologylayout.h"

#include <QGraphicsScene>
#include <QList>
#include <QPoint>
#include <QStringList>

#include <vector>

class QGraphicsItem;

namespace shardlab::gui {

class Document;
class GpuCardItem;
class LinkItem;
class LiveFeedback;
class ShardTileItem;
class SwitchItem;
struct Feedback;

class TopologyScene : public QGraphicsScene {
    Q_OBJECT
public:
    TopologyScene(Document* document, LiveFeedback* feedback, QObject* parent = nullptr);
    ~TopologyScene() override;

    Document* document() const { return m_document; }
    const TopologyLayout& topologyLayout() const { return m_layout; }
    GpuCardItem* card(int rank) const;
    LinkItem* linkItem(int index) const;
    int cardCount() const { return static_cast<int>(m_cards.size()); }
    QList<ShardRef> selectedShards() const;
    // The last frame shown by setActivity(); empty when none.
    const ActivitySnapshot& activity() const { return m_activity; }
    // Arrows from waiting ranks to the rank they wait for (for tests and the legend): one per
    // waiting rank up to kMaxWaitArrows of them; beyond, none, and instead one badge above each
    // card waited for, saying how many wait for it (waitBadges()).
    static constexpr int kMaxWaitArrows = 8;
    int waitArrowCount() const { return static_cast<int>(m_waitArrows.size()); }
    QStringList waitBadges() const;

    // Drop handling and context menus (called by the items).
    void dropShards(const QList<ShardRef>& refs, int rank, bool copy);
    // A plan's GPU card dropped on another: their TP groups (Shift: pipeline stages) swap places.
    void dropMeshUnit(int fromRank, int toRank, MeshUnit unit);
    void showGpuMenu(int rank, const QPoint& screenPos);
    void showLinkMenu(int link, const QPoint& screenPos);
    void showShardMenu(const QList<ShardRef>& refs, const QPoint& screenPos);
    // Removes a tile from the scene now and deletes it once the current event is over (a tile can
    // be replaced while its own drag is still running).
    void retire(ShardTileItem* tile);

public slots:
    // Shows one instant of a run: each card's state (and whom a waiting rank waits for), each
    // link's traffic. An empty frame clears it.
    void setActivity(const shardlab::ActivitySnapshot& frame);
    // Opens the dialog that joins two parts of the machine with a new link.
    void connectDialog(int fromRank = -1);

protected:
    // QEvent::FontChange (presenter mode): labels measured again and decluttered at the new size.
    bool event(QEvent* event) override;

signals:
    void gpuActivated(int rank);
    void layoutRebuilt();
    void editFailed(const QString& message);
    void statusMessage(const QString& message);
    // The diagram started or stopped showing a run's activity (setActivity with a frame, or empty).
    void activityShown(bool shown);

private:
    void update(const Scenario& scenario, const Feedback& feedback);
    void rebuild(const Scenario& scenario);
    void refreshOwnership(const Scenario& scenario, const Feedback& feedback);
    void refreshMesh(const Scenario& scenario);

public:
    // The stripe colour of pipeline stage `stage` on a plan's GPU cards.
    static QColor stageColour(int stage);

private:
    void declutterLabels();
    void clearWaitArrows();
    void addWaitArrow(int from, int to);
    void addWaitBadge(int rank, int waiters);
    void report(const Status& status);
    void reapRetired();
    QString pairClassNote(int switchVertex) const;

    Document* m_document;
    LiveFeedback* m_feedback;
    Topology m_topology;
    bool m_built = false;
    TopologyLayout m_layout;
    std::vector<GpuCardItem*> m_cards;
    std::vector<LinkItem*> m_links;
    std::vector<SwitchItem*> m_switches;
    std::vector<QGraphicsItem*> m_waitArrows;
    std::vector<QGraphicsItem*> m_waitBadges; // text on screen pixels, whatever the zoom
    std::vector<ShardTileItem*> m_retired;
    bool m_reapScheduled = false;
    ActivitySnapshot m_activity;
    std::vector<std::vector<PairClass>> m_pairs;
    QStringList m_pathText; // by rank: its paths to the other GPUs, for the card's tooltip
};

} // namespace shardlab::gui

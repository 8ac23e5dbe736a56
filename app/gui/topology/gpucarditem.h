// A GPU in the diagram: rank, device, a memory gauge of what it owns and its peak (owned + the
// largest collective buffer, hatched grey) against what it holds (red with the excess in GB when
// the peak does not fit), compute speed, and a tile per shard it owns. Shards
// are dropped on it to give it ownership. During playback it shows what the rank is doing.
#pragma once

#include "shardlab/base/units.h"
#include "shardlab/plan/plan_scenario.h"
#include "shardlab/sim/activity.h"

#include <QColor>
#include <QFont>
#include <QGraphicsObject>
#include <QString>

#include <vector>

class QMimeData;

namespace shardlab::gui {

class ShardTileItem;
class TopologyScene;

struct TileInfo {
    int item = -1;
    int shard = -1;
    QColor colour;
    QString label;
    QString toolTip;
    bool operator==(const TileInfo&) const = default;
};

struct GaugeSegment {
    QColor colour;
    Bytes bytes = 0;
    bool operator==(const GaugeSegment&) const = default;
};

class GpuCardItem : public QGraphicsObject {
    Q_OBJECT
public:
    enum class GaugeState { Empty, Fits, NearlyFull, Overflow };
    static constexpr int kMaxTiles = 10; // two rows; more show as "+N"
    // Below this zoom a card is drawn compact: its rank as a number sized in screen pixels, the
    // gauge and the tiles, no small print.
    static constexpr double kCompactLod = 0.55;
    // Compact below kCompactLod, and wherever the card's small print would be too small to read
    // (theme::diagramTextReadable).
    static bool drawsCompactAt(double lod);

    GpuCardItem(TopologyScene* scene, int rank, const QRectF& rect);

    int rank() const { return m_rank; }
    void setDevice(const QString& name, double tflops, int node);
    // What the rank owns (by item, for the coloured segments) and the largest buffer a collective
    // adds (`transient`) against its capacity. The peak (owned + transient) decides whether it
    // fits; the text says how full it is, or how much is too much.
    void setMemory(Bytes owned, Bytes transient, Bytes capacity, std::vector<GaugeSegment> segments);
    void setTiles(const std::vector<TileInfo>& tiles);
    // The GPU's place on a plan's mesh ("stage 2 · TP 1 · DP 0"), drawn as a stripe in its
    // pipeline stage's colour along the card's top and as words on the speed line (the scene adds
    // it to the card's tooltip); "" for none.
    void setMesh(const QString& label, const QColor& stageColour);
    QString meshLabel() const { return m_meshLabel; }
    QColor meshColour() const { return m_meshColour; }
    void setActivity(ActivityState state, int waitingFor);
    void clearActivity();
    bool showsActivity() const { return m_showActivity; }
    int waitingFor() const { return m_waitingFor; }

    GaugeState gaugeState() const { return m_state; }
    QString gaugeText() const { return m_gaugeText; }
    QString excessText() const { return m_excessText; }
    QColor gaugeColour() const;
    const std::vector<TileInfo>& tiles() const { return m_tiles; }
    QList<ShardTileItem*> tileItems() const { return m_tileItems; }
    ActivityState activity() const { return m_activity; }
    QString activityText() const;
    // What the header shows right of the title (the activity while a run plays, else the device)
    // and in which font: the font shrinks down to 75% before the text is elided. An activity that
    // still does not fit there (presenter mode's larger text: "communicating", "waits for GPU 3")
    // takes the speed's line under the gauge instead, the card's whole width.
    struct HeaderRight {
        QString text;
        QFont font;
        QRectF box;
        bool onSpeedLine = false;
    };
    HeaderRight headerRight() const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void dragEnterEvent(QGraphicsSceneDragDropEvent* event) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent* event) override;
    void dragLeaveEvent(QGraphicsSceneDragDropEvent* event) override;
    void dropEvent(QGraphicsSceneDragDropEvent* event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void paintFull(QPainter* p);
    void paintCompact(QPainter* p, double lod);
    void paintGauge(QPainter* p, const QRectF& r, bool withText);
    void layoutTiles();

    TopologyScene* m_scene;
    int m_rank;
    QRectF m_rect;
    QString m_device;
    double m_tflops = 0;
    Bytes m_owned = 0, m_transient = 0, m_capacity = 0;
    std::vector<GaugeSegment> m_segments;
    GaugeState m_state = GaugeState::Empty;
    QString m_gaugeText, m_usageText, m_excessText;
    std::vector<TileInfo> m_tiles;
    QList<ShardTileItem*> m_tileItems;
    ActivityState m_activity = ActivityState::Idle;
    int m_waitingFor = -1;
    bool m_showActivity = false;
    bool m_dropTarget = false;
    bool m_dropCopy = false;
    QString m_meshLabel;
    QColor m_meshColour;
};

} // namespace shardlab::gui

// The view on the diagram: wheel to zoom at the pointer, middle button (or Space + drag) to pan,
// drag on the background to select shard tiles, and fit-to-window, which it keeps doing on resize
// and layout changes until the user zooms by hand.
#pragma once

#include <QGraphicsView>

namespace shardlab::gui {

class ActivityLegend;
class TopologyScene;

class TopologyView : public QGraphicsView {
    Q_OBJECT
public:
    explicit TopologyView(TopologyScene* scene, QWidget* parent = nullptr);
    double zoom() const;
    // The legend of the cards' colours, shown while the diagram plays a run back.
    ActivityLegend* activityLegend() const { return m_legend; }

public slots:
    void zoomIn();
    void zoomOut();
    void fitToWindow();

signals:
    void zoomChanged(double zoom);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override; // keeps the legend in its corner
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;

private:
    void zoomBy(double factor);
    bool m_autoFit = true;
    bool m_panning = false;
    ActivityLegend* m_legend = nullptr;
};

} // namespace shardlab::gui

// The "Editor" page: the topology diagram on the left; on the right the workload & shards, the
// step program, the machine and the per-rank capacity, above the live feedback (balance and
// warnings), which stays in view whatever tab is open.
#pragma once

#include <QWidget>

class QTabWidget;
class QToolBar;

namespace shardlab::gui {

class CapacityModel;
class Document;
class FeedbackPanel;
class LiveFeedback;
class ProgramPanel;
class TopologyPanel;
class TopologyScene;
class TopologyView;
class WorkloadPanel;

class EditorPage : public QWidget {
    Q_OBJECT
public:
    explicit EditorPage(Document* document, QWidget* parent = nullptr);

    LiveFeedback* feedback() const { return m_feedback; }
    TopologyScene* scene() const { return m_scene; }
    TopologyView* view() const { return m_view; }
    WorkloadPanel* workloadPanel() const { return m_workload; }
    ProgramPanel* programPanel() const { return m_program; }
    TopologyPanel* topologyPanel() const { return m_topology; }
    FeedbackPanel* feedbackPanel() const { return m_feedbackPanel; }
    CapacityModel* capacityModel() const { return m_capacity; }
    QToolBar* diagramToolBar() const { return m_toolBar; }
    // Workload & shards, step program, machine, capacity per GPU (in that order).
    QTabWidget* sideTabs() const { return m_sideTabs; }

signals:
    void editFailed(const QString& message);
    void statusMessage(const QString& message);

private:
    LiveFeedback* m_feedback;
    TopologyScene* m_scene;
    TopologyView* m_view = nullptr;
    QToolBar* m_toolBar = nullptr;
    QTabWidget* m_sideTabs = nullptr;
    WorkloadPanel* m_workload = nullptr;
    ProgramPanel* m_program = nullptr;
    TopologyPanel* m_topology = nullptr;
    FeedbackPanel* m_feedbackPanel = nullptr;
    CapacityModel* m_capacity = nullptr;
};

} // namespace shardlab::gui

// The machine tab: which machine this is, a button to pick another, the GPUs (device, memory,
// speed: editable) and the links (class, bundle, bandwidth: editable), with add/remove/connect.
#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace shardlab::gui {

class Document;
class GpuModel;
class LinkModel;
class TopologyScene;

class TopologyPanel : public QWidget {
    Q_OBJECT
public:
    TopologyPanel(Document* document, TopologyScene* scene, QWidget* parent = nullptr);
    GpuModel* gpuModel() const { return m_gpus; }
    LinkModel* linkModel() const { return m_links; }
    int currentGpu() const;

public slots:
    void pickMachine();
    void addGpu();
    void removeGpu();
    void removeLink();
    void selectGpu(int rank);

signals:
    void editFailed(const QString& message);

private:
    Document* m_document;
    TopologyScene* m_scene;
    GpuModel* m_gpus;
    LinkModel* m_links;
    QLabel* m_machine = nullptr;
    QTableView* m_gpuView = nullptr;
    QTableView* m_linkView = nullptr;
};

} // namespace shardlab::gui

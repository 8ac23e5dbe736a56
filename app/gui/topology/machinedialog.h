// Picks a machine: a built-in preset, optionally resized to N GPUs (fewer: its first N; more: a
// cluster of copies of its first node on a network, scaleOut()).
#pragma once

#include "shardlab/model/topology.h"

#include <QDialog>

class QLabel;
class QListWidget;
class QSpinBox;

namespace shardlab::gui {

class MachineDialog : public QDialog {
    Q_OBJECT
public:
    explicit MachineDialog(int currentGpus, QWidget* parent = nullptr);
    // The preset at `gpus` GPUs, as the dialog builds it.
    static Topology build(const std::string& presetId, int gpus);
    Topology topology() const;
    void select(const QString& presetId, int gpus);

private:
    void presetChanged();
    void describe();

    QListWidget* m_list = nullptr;
    QSpinBox* m_gpus = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace shardlab::gui

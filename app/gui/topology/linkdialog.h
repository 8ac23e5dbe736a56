// Joins two parts of the machine with a new link: the two ends, the class, and figures that
// default to the class's typical values (presets.h typicalLink()).
#pragma once

#include "shardlab/model/topology.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;

namespace shardlab::gui {

class LinkDialog : public QDialog {
    Q_OBJECT
public:
    LinkDialog(const Topology& topology, int fromVertex, QWidget* parent = nullptr);
    Link link() const;

private:
    void kindChanged();
    void validate();

    const Topology& m_topology;
    QComboBox* m_a = nullptr;
    QComboBox* m_b = nullptr;
    QComboBox* m_kind = nullptr;
    QSpinBox* m_count = nullptr;
    QDoubleSpinBox* m_bandwidth = nullptr;
    QDoubleSpinBox* m_latency = nullptr;
    QLabel* m_help = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace shardlab::gui

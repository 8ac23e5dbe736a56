// Dialogs of the workload panel: a new item (name, kind, size), and splitting an item into shards
// (evenly into N, or custom sizes that must add up to the item).
#pragma once

#include "shardlab/model/workload.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace shardlab::gui {

class NewItemDialog : public QDialog {
    Q_OBJECT
public:
    NewItemDialog(const Workload& workload, QWidget* parent = nullptr);
    WorkloadItem item() const;

private:
    void validate();
    const Workload& m_workload;
    QLineEdit* m_name = nullptr;
    QComboBox* m_kind = nullptr;
    QLineEdit* m_size = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

class SplitDialog : public QDialog {
    Q_OBJECT
public:
    SplitDialog(const WorkloadItem& item, int ranks, QWidget* parent = nullptr);
    // The new shards (owners are filled in by the edit); empty when the input is invalid.
    std::vector<Shard> shards() const;
    void setEven(int n);
    void setCustom(const QString& sizes);

private:
    void validate();
    const WorkloadItem& m_item;
    QRadioButton* m_even = nullptr;
    QRadioButton* m_custom = nullptr;
    QSpinBox* m_count = nullptr;
    QLineEdit* m_sizes = nullptr;
    QLabel* m_status = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace shardlab::gui

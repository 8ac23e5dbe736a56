// The form that edits one step of the program: operation, name, item, work or size, ranks,
// root/peer, buckets, overlap and algorithm. Each change is one undoable edit; typing into one
// field merges into a single undo step.
#pragma once

#include "shardlab/model/scenario.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace shardlab::gui {

class Document;

class OpEditor : public QWidget {
    Q_OBJECT
public:
    explicit OpEditor(Document* document, QWidget* parent = nullptr);
    void setStep(int index);
    int step() const { return m_index; }

    // Widgets, for tests and keyboard focus.
    QComboBox* kindBox() const { return m_kind; }
    QLineEdit* ranksEdit() const { return m_ranks; }
    QLineEdit* sizeEdit() const { return m_bytes; }
    QLineEdit* workEdit() const { return m_flops; }
    QSpinBox* bucketsBox() const { return m_buckets; }
    QComboBox* algorithmBox() const { return m_algorithm; }

public slots:
    // Opens the "Which collective?" helper and applies its answer to this step.
    void askWhichCollective();

signals:
    void editFailed(const QString& message);

private:
    void load();
    void commit(const QString& field, const std::function<bool(Op&)>& change);
    void updateVisibility(OpKind kind);

    Document* m_document;
    int m_index = -1;
    bool m_loading = false;
    QLabel* m_title = nullptr;
    QComboBox* m_kind = nullptr;
    QPushButton* m_which = nullptr;
    QLineEdit* m_name = nullptr;
    QComboBox* m_item = nullptr;
    QLineEdit* m_flops = nullptr;
    QLineEdit* m_bytes = nullptr;
    QLineEdit* m_ranks = nullptr;
    QSpinBox* m_root = nullptr;
    QSpinBox* m_peer = nullptr;
    QSpinBox* m_buckets = nullptr;
    QCheckBox* m_overlap = nullptr;
    QComboBox* m_algorithm = nullptr;
    QList<QWidget*> m_computeOnly, m_collectiveOnly, m_rootOnly, m_pairOnly, m_groupOnly;
};

} // namespace shardlab::gui

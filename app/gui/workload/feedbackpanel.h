// Live feedback while editing: one line on balance, the engine's plain-language warnings (a rank
// that overflows, unbalanced ownership, bytes nobody owns), and the per-rank capacity table.
// Updated on every edit by LiveFeedback.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;
class QTableView;

namespace shardlab {
struct Scenario;
}

namespace shardlab::gui {

class CapacityModel;
class LiveFeedback;
struct Feedback;

class FeedbackPanel : public QWidget {
    Q_OBJECT
public:
    explicit FeedbackPanel(LiveFeedback* feedback, QWidget* parent = nullptr);
    CapacityModel* capacityModel() const { return m_model; }
    QStringList warnings() const { return m_warnings; }
    QString balanceText() const;
    QTableView* table() const { return m_table; }

private:
    void refresh(const Scenario& scenario, const Feedback& feedback);
    CapacityModel* m_model;
    QLabel* m_balance = nullptr;
    QListWidget* m_list = nullptr;
    QTableView* m_table = nullptr;
    QStringList m_warnings;
};

} // namespace shardlab::gui

// Live feedback while editing: one line on balance and the engine's plain-language warnings (a
// rank that overflows, unbalanced ownership, bytes nobody owns). Updated on every edit by
// LiveFeedback; the per-rank figures are in CapacityModel.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;

namespace shardlab {
struct Scenario;
}

namespace shardlab::gui {

class LiveFeedback;
struct Feedback;

class FeedbackPanel : public QWidget {
    Q_OBJECT
public:
    explicit FeedbackPanel(LiveFeedback* feedback, QWidget* parent = nullptr);
    QStringList warnings() const { return m_warnings; }
    QString balanceText() const;

private:
    void refresh(const Scenario& scenario, const Feedback& feedback);
    QLabel* m_balance = nullptr;
    QListWidget* m_list = nullptr;
    QStringList m_warnings;
};

} // namespace shardlab::gui

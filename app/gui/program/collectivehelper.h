// "Which collective?": asks what the next step needs (the sum on one root, the sum everywhere, a
// slice of the sum, the concatenation, a copy of one rank's data) and names the collective that
// delivers exactly that (collectiveFor(), the course's rule: choose it from its consumer).
#pragma once

#include "shardlab/model/collectives.h"

#include <QDialog>

class QButtonGroup;
class QCheckBox;
class QLabel;
class QPushButton;

namespace shardlab::gui {

class CollectiveHelper : public QDialog {
    Q_OBJECT
public:
    explicit CollectiveHelper(QWidget* parent = nullptr);
    void setNeed(Need need, bool unequalPieces = false);
    Need need() const;
    bool unequalPieces() const;
    // The collective for the current answer.
    OpKind chosen() const;
    QString answerText() const;

private:
    void update();
    QButtonGroup* m_needs = nullptr;
    QCheckBox* m_unequal = nullptr;
    QLabel* m_answer = nullptr;
    QLabel* m_explain = nullptr;
    QPushButton* m_use = nullptr;
};

} // namespace shardlab::gui

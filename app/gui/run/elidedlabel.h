// A one-line label that never widens its window: text longer than the room it is given is drawn
// elided in the middle (a path keeps its start and its file name), and the whole text is its
// tooltip. The run bar's status ("Profiling /long/path/prog --args…", "Measured run read from
// FILE") uses it, so that a long command or path cannot push the window past a 1366 px screen.
#pragma once

#include <QLabel>

namespace shardlab::gui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    // What is drawn where the whole text does not fit (also what tests read).
    QString shownText() const;
    // A tooltip of its own, shown whether the text is cut or not (the run bar's "live unavailable"
    // explains why); empty: the whole text where it is cut.
    void setExplanation(const QString& tip) { m_explanation = tip; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QString m_explanation;
};

} // namespace shardlab::gui

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
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
};

} // namespace shardlab::gui

#include "run/elidedlabel.h"

#include "common/plaintext.h"

#include <QEvent>
#include <QPainter>
#include <QStyle>

namespace shardlab::gui {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText);
}

QString ElidedLabel::shownText() const
{
    const int room = contentsRect().width();
    return fontMetrics().elidedText(text(), Qt::ElideMiddle, room);
}

// At least a few characters' room, never the whole text's: the layout gives it what is left.
QSize ElidedLabel::minimumSizeHint() const
{
    const QSize full = QLabel::minimumSizeHint();
    return {fontMetrics().horizontalAdvance(QStringLiteral("Mmmm\u2026")), full.height()};
}

QSize ElidedLabel::sizeHint() const
{
    const QSize full = QLabel::sizeHint();
    return {std::min(full.width(), fontMetrics().horizontalAdvance(QLatin1Char('M')) * 30), full.height()};
}

void ElidedLabel::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    style()->drawItemText(&p, contentsRect(), int(alignment()), palette(), isEnabled(), shownText(), foregroundRole());
}

// The whole text as the tooltip whenever it changes (only where it is cut).
bool ElidedLabel::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip)
        setToolTip(!m_explanation.isEmpty() ? m_explanation : shownText() == text() ? QString() : plainToolTip(text()));
    return QLabel::event(e);
}

} // namespace shardlab::gui

#include "style/axislabels.h"

#include <QFontMetrics>

#include "timeline/qcustomplot_include.h"

namespace shardlab::gui {
namespace {

// The label the view set, kept while the axis shows a fitted one.
constexpr const char* kWholeLabel = "shardlabWholeLabel";
constexpr const char* kShownLabel = "shardlabShownLabel";

int axisLength(const QCPAxis* axis)
{
    const QRect r = axis->axisRect()->rect();
    return axis->orientation() == Qt::Vertical ? r.height() : r.width();
}

QString wholeLabel(const QCPAxis* axis)
{
    // A label set by the view since the last fit is the new whole label.
    const QString shown = axis->property(kShownLabel).toString();
    if (axis->label() != shown || !axis->property(kWholeLabel).isValid())
        return axis->label();
    return axis->property(kWholeLabel).toString();
}

void layOut(QCustomPlot* plot)
{
    QCPLayout* layout = plot->plotLayout();
    layout->update(QCPLayoutElement::upPreparation);
    layout->update(QCPLayoutElement::upMargins);
    layout->update(QCPLayoutElement::upLayout);
}

void fitPlot(QCustomPlot* plot)
{
    if (plot->width() <= 0 || plot->height() <= 0)
        return;
    layOut(plot);
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            const QString whole = wholeLabel(axis);
            if (whole.isEmpty())
                continue;
            const QString shown = fittedAxisLabel(axis, axisLength(axis));
            axis->setProperty(kWholeLabel, whole);
            axis->setProperty(kShownLabel, shown);
            if (axis->label() != shown)
                axis->setLabel(shown);
        }
}

} // namespace

QString fittedAxisLabel(const QCPAxis* axis, int length)
{
    const QString whole = wholeLabel(axis);
    const QFontMetrics fm(axis->labelFont());
    if (length <= 0 || fm.horizontalAdvance(whole) <= length)
        return whole;
    // Two lines, broken at the space nearest the middle.
    int best = -1;
    for (int i = 0; i < whole.size(); ++i)
        if (whole[i] == QLatin1Char(' ') && (best < 0 || std::abs(i - whole.size() / 2) < std::abs(best - whole.size() / 2)))
            best = i;
    QStringList lines = best < 0 ? QStringList{whole} : QStringList{whole.left(best), whole.mid(best + 1)};
    for (QString& line : lines)
        line = fm.elidedText(line, Qt::ElideRight, length);
    return lines.join(QLatin1Char('\n'));
}

void keepAxisLabelsWhole(QCustomPlot* plot)
{
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { fitPlot(plot); });
}

QStringList clippedAxisLabels(QCustomPlot* plot)
{
    QStringList out;
    layOut(plot);
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible() || axis->label().isEmpty())
                continue;
            const QFontMetrics fm(axis->labelFont());
            for (const QString& line : axis->label().split(QLatin1Char('\n')))
                if (fm.horizontalAdvance(line) > axisLength(axis))
                    out << QStringLiteral("%1: %2").arg(plot->objectName(), axis->label());
        }
    return out;
}

} // namespace shardlab::gui

#include "style/axislabels.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

#include "timeline/qcustomplot_include.h"

namespace shardlab::gui {
namespace {

// The label the view set, kept while the axis shows a fitted one.
constexpr const char* kWholeLabel = "shardlabWholeLabel";
constexpr const char* kShownLabel = "shardlabShownLabel";
constexpr const char* kWantedFont = "shardlabWantedLabelFont";
constexpr const char* kShownFont = "shardlabShownLabelFont";

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

// Ticks on a vertical axis need a line and a half of their font each: on a short plot in
// presenter mode's large fonts "125 100 75 50 25 0" ran into each other. The axis asks its ticker
// for as many ticks as fit (at most the count the view chose, kept in a property), at least two.
// Log axes keep their powers (setLogAxis).
constexpr const char* kWantedTicks = "shardlabWantedTickCount";
constexpr double kTickSpacingLines = 1.5;

void fitTicks(QCPAxis* axis)
{
    if (axis->orientation() != Qt::Vertical || !axis->visible() || !axis->tickLabels() || !axis->ticker()
        || axis->scaleType() == QCPAxis::stLogarithmic || dynamic_cast<QCPAxisTickerLog*>(axis->ticker().data()))
        return;
    if (!axis->property(kWantedTicks).isValid())
        axis->setProperty(kWantedTicks, axis->ticker()->tickCount());
    const int wanted = axis->property(kWantedTicks).toInt();
    const double line = QFontMetricsF(axis->tickLabelFont()).height();
    const int fits = static_cast<int>(axisLength(axis) / (kTickSpacingLines * line));
    const int count = std::clamp(fits, 2, std::max(2, wanted));
    if (axis->ticker()->tickCount() != count)
        axis->ticker()->setTickCount(count);
}

void fitPlot(QCustomPlot* plot)
{
    if (plot->width() <= 0 || plot->height() <= 0)
        return;
    layOut(plot);
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes())
            fitTicks(axis);
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            const QString whole = wholeLabel(axis);
            if (whole.isEmpty())
                continue;
            // the font the view (or presenter mode) set, unless it is the one a fit chose
            const QFont wanted =
                axis->property(kShownFont).value<QFont>() == axis->labelFont() && axis->property(kWantedFont).isValid()
                    ? axis->property(kWantedFont).value<QFont>()
                    : axis->labelFont();
            const FittedLabel shown = fitAxisLabel(whole, wanted, axisLength(axis));
            axis->setProperty(kWholeLabel, whole);
            axis->setProperty(kShownLabel, shown.text);
            axis->setProperty(kWantedFont, wanted);
            axis->setProperty(kShownFont, shown.font);
            if (axis->label() != shown.text)
                axis->setLabel(shown.text);
            if (axis->labelFont() != shown.font)
                axis->setLabelFont(shown.font);
        }
}

} // namespace

FittedLabel fitAxisLabel(const QString& whole, const QFont& wanted, int length)
{
    if (length <= 0 || QFontMetrics(wanted).horizontalAdvance(whole) <= length)
        return {whole, wanted};
    // Two lines, broken where the longer of them is shortest: at a space (dropped), or between
    // two characters of a script written without spaces (Chinese: "每个 Rank 每步的时间").
    auto cjk = [](QChar c) { return c.unicode() >= 0x2E80 && c.unicode() <= 0x9FFF; };
    auto twoLines = [&](const QFontMetrics& fm) {
        QStringList lines{whole};
        int bestWidth = fm.horizontalAdvance(whole);
        for (int i = 1; i < whole.size(); ++i) {
            const bool space = whole[i] == QLatin1Char(' ');
            if (!space && !cjk(whole[i - 1]) && !cjk(whole[i]))
                continue;
            const QString a = whole.left(i).trimmed(), b = whole.mid(i).trimmed();
            const int width = std::max(fm.horizontalAdvance(a), fm.horizontalAdvance(b));
            if (!a.isEmpty() && !b.isEmpty() && width < bestWidth) {
                bestWidth = width;
                lines = QStringList{a, b};
            }
        }
        return std::pair{lines, bestWidth};
    };
    // Then, if two lines are still too long, a smaller font, down to 70%; past that, an ellipsis.
    QFont font = wanted;
    for (double scale : {1.0, 0.9, 0.8, 0.7}) {
        if (wanted.pointSizeF() > 0)
            font.setPointSizeF(wanted.pointSizeF() * scale);
        else if (wanted.pixelSize() > 0)
            font.setPixelSize(qRound(wanted.pixelSize() * scale));
        const QFontMetrics fm(font);
        auto [lines, width] = twoLines(fm);
        if (width <= length || scale == 0.7) {
            for (QString& line : lines)
                line = fm.elidedText(line, Qt::ElideRight, length);
            return {lines.join(QLatin1Char('\n')), font};
        }
    }
    return {whole, wanted};
}

void keepAxisLabelsWhole(QCustomPlot* plot)
{
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { fitPlot(plot); });
}

QStringList crowdedTickLabels(QCustomPlot* plot)
{
    QStringList out;
    plot->replot(QCustomPlot::rpImmediateRefresh); // the tick vectors of the layout as it is now
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible() || !axis->tickLabels() || axis->orientation() != Qt::Vertical)
                continue;
            const QVector<double> ticks = axis->tickVector();
            const double line = QFontMetricsF(axis->tickLabelFont()).height();
            for (int i = 1; i < ticks.size(); ++i) {
                const double gap = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
                if (gap < line) {
                    out << QStringLiteral("%1: ticks %2 and %3 are %4 px apart, their labels %5 px high")
                               .arg(plot->objectName())
                               .arg(ticks[i - 1])
                               .arg(ticks[i])
                               .arg(gap, 0, 'f', 1)
                               .arg(line, 0, 'f', 1);
                    break;
                }
            }
        }
    return out;
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

#include "style/plotstyle.h"

#include "style/axislabels.h"

#include "shardlab/base/units.h"

#include <QHeaderView>
#include <QTableView>

#include "timeline/qcustomplot_include.h"

namespace shardlab::gui {

void stylePlot(QCustomPlot* plot)
{
    QFont axisFont = plot->font();
    axisFont.setPointSizeF(11);
    QFont labelFont = axisFont;
    labelFont.setPointSizeF(12);
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        axis->setTickLabelFont(axisFont);
        axis->setLabelFont(labelFont);
        axis->setBasePen(QPen(Qt::black, 1.5));
        axis->setTickPen(QPen(Qt::black, 1.5));
        axis->setSubTickPen(QPen(Qt::black, 1));
        axis->grid()->setPen(QPen(QColor(200, 200, 200), 1, Qt::DotLine));
    }
    plot->legend->setFont(axisFont);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->legend->setBorderPen(QPen(QColor(180, 180, 180)));
    plot->setAntialiasedElements(QCP::aeAll);
    plot->setMinimumHeight(220);
    keepAxisLabelsWhole(plot);
}

QCPBars* addStackedBars(QCustomPlot* plot, const QString& name, const QColor& color, QCPBars* below)
{
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setBrush(color);
    bars->setPen(QPen(color.darker(130), 1));
    bars->setWidth(0.7);
    if (below)
        bars->moveAbove(below);
    return bars;
}

void styleTable(QTableView* table)
{
    QFont f = table->font();
    f.setPointSizeF(11);
    table->setFont(f);
    table->horizontalHeader()->setFont(f);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setAlternatingRowColors(true);
}

void legendOnTop(QCustomPlot* plot)
{
    plot->legend->setVisible(true);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend); // takes it out of the axis rect's inset layout
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setMargins(QMargins(4, 2, 4, 2));
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
}

QString binarySizeLabel(double bytes)
{
    return QString::fromStdString(formatBinaryBytes(static_cast<Bytes>(bytes + 0.5)));
}

namespace {
// Log ticks labelled as binary sizes (powers of two from the log ticker).
class SizeTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return binarySizeLabel(tick); }
};
} // namespace

void setLogAxis(QCPAxis* axis, double base)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker = base == 2 ? QSharedPointer<QCPAxisTickerLog>(new SizeTicker)
                                                        : QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
    // sizes: a tick every 4x (8 B, 32 B, ... 1 GiB), thinned by the ticker to what fits
    ticker->setLogBase(base == 2 ? 4 : base);
    ticker->setSubTickCount(base == 2 ? 1 : 8);
    ticker->setTickCount(base == 2 ? 10 : 6);
    axis->setTicker(ticker);
    if (base != 2)
        axis->setNumberFormat(QStringLiteral("gb"));
}

} // namespace shardlab::gui

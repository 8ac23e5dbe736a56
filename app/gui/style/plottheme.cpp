#include "style/plottheme.h"

#include "timeline/qcustomplot_include.h"

#include <memory>
#include <vector>

namespace shardlab::gui::plottheme {

namespace {

QFont scaled(QFont f, double factor)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * factor);
    else if (f.pixelSize() > 0)
        f.setPixelSize(qRound(f.pixelSize() * factor));
    return f;
}

QPen recoloured(QPen pen, const QColor& colour)
{
    QColor c = colour;
    c.setAlpha(pen.color().alpha());
    pen.setColor(c);
    return pen;
}

} // namespace

std::function<void()> apply(QCustomPlot* plot, bool dark, double fontScale)
{
    auto undo = std::make_shared<std::vector<std::function<void()>>>();
    // Sets a value now and remembers the old one; a part of the plot deleted meanwhile (a plot
    // rebuilds its legend) is skipped.
    QPointer<QCustomPlot> guard(plot);
    // the legend's font and colour are its items' too (QCPLegend::setFont, setTextColor)
    auto set = [&](QObject* target, auto get, auto put, auto value) {
        auto old = get();
        put(value);
        undo->push_back([alive = QPointer<QObject>(target), put, old] {
            if (alive)
                put(old);
        });
    };
    const QColor ink = dark ? QColor(Qt::white) : QColor(Qt::black);
    const QColor grid = dark ? QColor(0x60, 0x60, 0x60) : QColor(0xB0, 0xB0, 0xB0);

    if (dark) {
        const QBrush black(QColor(0x0A, 0x0A, 0x0A));
        const QVariant oldProperty = plot->property("shardlabBackground");
        plot->setBackground(black);
        plot->setProperty("shardlabBackground", QVariant::fromValue(black)); // exports put this back
        undo->push_back([guard, oldProperty] {
            if (!guard)
                return;
            guard->setProperty("shardlabBackground", oldProperty);
            guard->setBackground(oldProperty.canConvert<QBrush>() ? oldProperty.value<QBrush>() : QBrush(Qt::white));
        });
    }
    // Larger fonts need a taller plot, or its axis has room for one or two tick labels only (the
    // Diagnosis chart in presenter mode: "125 100 75 50 25 0" in 100 px); the page scrolls instead.
    if (fontScale > 1)
        set(
            plot, [plot] { return plot->minimumHeight(); }, [plot](int h) { plot->setMinimumHeight(h); },
            qRound(plot->minimumHeight() * fontScale));
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* a : rect->axes()) {
            set(
                a, [a] { return a->labelFont(); }, [a](const QFont& f) { a->setLabelFont(f); },
                scaled(a->labelFont(), fontScale));
            set(
                a, [a] { return a->tickLabelFont(); }, [a](const QFont& f) { a->setTickLabelFont(f); },
                scaled(a->tickLabelFont(), fontScale));
            if (!dark)
                continue;
            set(
                a, [a] { return a->basePen(); }, [a](const QPen& p) { a->setBasePen(p); },
                recoloured(a->basePen(), ink));
            set(
                a, [a] { return a->tickPen(); }, [a](const QPen& p) { a->setTickPen(p); },
                recoloured(a->tickPen(), ink));
            set(
                a, [a] { return a->subTickPen(); }, [a](const QPen& p) { a->setSubTickPen(p); },
                recoloured(a->subTickPen(), ink));
            set(
                a, [a] { return a->labelColor(); }, [a](const QColor& c) { a->setLabelColor(c); }, ink);
            set(
                a, [a] { return a->tickLabelColor(); }, [a](const QColor& c) { a->setTickLabelColor(c); }, ink);
            QCPGrid* g = a->grid();
            set(
                g, [g] { return g->pen(); }, [g](const QPen& p) { g->setPen(p); }, recoloured(g->pen(), grid));
        }
    if (dark) {
        // Series drawn in ink (the speed-up, the model's figures, the ideal line) would vanish on
        // black: a dark pen or brush becomes light grey; the categories' colours read on both.
        const QColor light(0xD8, 0xD8, 0xD8);
        // only greys: a category's colour (compute blue is dark too) keeps its meaning
        auto tooDark = [](const QColor& c) { return c.alpha() > 0 && c.lightness() < 130 && c.hslSaturation() < 40; };
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable* p = plot->plottable(i);
            if (tooDark(p->pen().color()) && p->pen().style() != Qt::NoPen)
                set(
                    p, [p] { return p->pen(); }, [p](const QPen& pen) { p->setPen(pen); }, recoloured(p->pen(), light));
            if (tooDark(p->brush().color()) && p->brush().style() != Qt::NoBrush) {
                QBrush b = p->brush();
                b.setColor(light);
                set(
                    p, [p] { return p->brush(); }, [p](const QBrush& v) { p->setBrush(v); }, b);
            }
            if (auto* g = qobject_cast<QCPGraph*>(p); g && tooDark(g->scatterStyle().pen().color())) {
                QCPScatterStyle st = g->scatterStyle();
                st.setPen(recoloured(st.pen(), light));
                if (st.brush().style() != Qt::NoBrush && tooDark(st.brush().color()))
                    st.setBrush(light);
                set(
                    g, [g] { return g->scatterStyle(); }, [g](const QCPScatterStyle& v) { g->setScatterStyle(v); }, st);
            }
        }
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && tooDark(text->color()))
                set(
                    text, [text] { return text->color(); }, [text](const QColor& c) { text->setColor(c); }, light);
    }
    if (QCPLegend* legend = plot->legend) {
        set(
            legend, [legend] { return legend->font(); }, [legend](const QFont& f) { legend->setFont(f); },
            scaled(legend->font(), fontScale));
        if (dark) {
            set(
                legend, [legend] { return legend->brush(); }, [legend](const QBrush& b) { legend->setBrush(b); },
                QBrush(QColor(0x0A, 0x0A, 0x0A, 230)));
            set(
                legend, [legend] { return legend->borderPen(); }, [legend](const QPen& p) { legend->setBorderPen(p); },
                QPen(QColor(0x90, 0x90, 0x90)));
            set(
                legend, [legend] { return legend->textColor(); },
                [legend](const QColor& c) { legend->setTextColor(c); }, ink);
        }
    }
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true))
        if (auto* title = qobject_cast<QCPTextElement*>(element)) {
            set(
                title, [title] { return title->font(); }, [title](const QFont& f) { title->setFont(f); },
                scaled(title->font(), fontScale));
            if (dark)
                set(
                    title, [title] { return title->textColor(); }, [title](const QColor& c) { title->setTextColor(c); },
                    ink);
        }
    plot->replot(QCustomPlot::rpQueuedReplot);
    return [undo, guard] {
        for (auto it = undo->rbegin(); it != undo->rend(); ++it)
            (*it)();
        if (guard)
            guard->replot(QCustomPlot::rpQueuedReplot);
    };
}

} // namespace shardlab::gui::plottheme

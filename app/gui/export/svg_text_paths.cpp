// SVG text as outlines: QSvgGenerator writes each text as a <text> element naming its font, which
// another machine (a slide deck opened on the lecture-hall PC, a report converted elsewhere) draws
// in whatever font it has, at other widths: labels then overflow their boxes. Here every <text>
// becomes a <path> with the outline of its glyphs in the font QSvgGenerator named, placed where
// the text was, with its fill; everything else is copied token by token.
#include "export/figure_exporter.h"

#include <QPainterPath>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <vector>

namespace shardlab::gui {

namespace {

// The font attributes an element sets or inherits from its enclosing <g>.
struct FontAttributes {
    QString family, size, weight, style;
};

FontAttributes inherit(const FontAttributes& parent, const QXmlStreamAttributes& a)
{
    FontAttributes f = parent;
    if (a.hasAttribute(QStringLiteral("font-family")))
        f.family = a.value(QStringLiteral("font-family")).toString();
    if (a.hasAttribute(QStringLiteral("font-size")))
        f.size = a.value(QStringLiteral("font-size")).toString();
    if (a.hasAttribute(QStringLiteral("font-weight")))
        f.weight = a.value(QStringLiteral("font-weight")).toString();
    if (a.hasAttribute(QStringLiteral("font-style")))
        f.style = a.value(QStringLiteral("font-style")).toString();
    return f;
}

QFont fontOf(const FontAttributes& f)
{
    QFont font;
    QString family = f.family.trimmed();
    family.remove(QLatin1Char('\'')).remove(QLatin1Char('"'));
    if (!family.isEmpty())
        font.setFamilies(family.split(QLatin1Char(','), Qt::SkipEmptyParts));
    // QSvgGenerator writes sizes in the SVG's user units (pixels at its resolution), with or
    // without "px"; "pt" is converted at 96 pixels per inch, as SVG defines it.
    QString size = f.size.trimmed();
    double factor = 1.0;
    if (size.endsWith(QLatin1String("pt"))) {
        factor = 96.0 / 72.0;
        size.chop(2);
    } else if (size.endsWith(QLatin1String("px"))) {
        size.chop(2);
    }
    bool ok = false;
    const double px = size.toDouble(&ok) * factor;
    font.setPixelSize(ok && px > 0 ? std::max(1, qRound(px)) : 12);
    if (bool numeric = false; !f.weight.isEmpty()) {
        const int w = f.weight.toInt(&numeric);
        if (numeric)
            font.setWeight(static_cast<QFont::Weight>(std::clamp(w, 1, 1000)));
        else if (f.weight == QLatin1String("bold"))
            font.setWeight(QFont::Bold);
    }
    font.setItalic(f.style == QLatin1String("italic") || f.style == QLatin1String("oblique"));
    // outlines at the glyphs' own shapes: no hinting toward a screen's pixel grid
    font.setHintingPreference(QFont::PreferNoHinting);
    return font;
}

QString number(double v) { return QString::number(v, 'f', 2); }

QString pathData(const QPainterPath& path)
{
    QString d;
    d.reserve(path.elementCount() * 16);
    for (int i = 0; i < path.elementCount(); ++i) {
        const QPainterPath::Element e = path.elementAt(i);
        if (e.type == QPainterPath::MoveToElement) {
            d += QLatin1Char('M') + number(e.x) + QLatin1Char(' ') + number(e.y);
        } else if (e.type == QPainterPath::LineToElement) {
            d += QLatin1Char('L') + number(e.x) + QLatin1Char(' ') + number(e.y);
        } else if (e.type == QPainterPath::CurveToElement && i + 2 < path.elementCount()) {
            const QPainterPath::Element c2 = path.elementAt(i + 1), end = path.elementAt(i + 2);
            d += QLatin1Char('C') + number(e.x) + QLatin1Char(' ') + number(e.y) + QLatin1Char(' ') + number(c2.x)
                 + QLatin1Char(' ') + number(c2.y) + QLatin1Char(' ') + number(end.x) + QLatin1Char(' ')
                 + number(end.y);
            i += 2;
        }
    }
    return d;
}

// The attributes a <text> passes on to its outline: paint and placement, not font or layout.
void copyPaint(QXmlStreamWriter& out, const QXmlStreamAttributes& a)
{
    for (const QXmlStreamAttribute& attr : a) {
        const QStringView name = attr.qualifiedName();
        if (name == QLatin1String("fill") || name == QLatin1String("fill-opacity") || name == QLatin1String("opacity")
            || name == QLatin1String("transform") || name == QLatin1String("clip-path")
            || name == QLatin1String("stroke") || name == QLatin1String("stroke-width")
            || name == QLatin1String("stroke-opacity"))
            out.writeAttribute(attr.qualifiedName().toString(), attr.value().toString());
    }
}

} // namespace

QByteArray FigureExporter::textToPaths(const QByteArray& svg)
{
    QXmlStreamReader in(svg);
    QByteArray bytes;
    QXmlStreamWriter out(&bytes);
    std::vector<FontAttributes> fonts{FontAttributes{}};
    while (!in.atEnd()) {
        const QXmlStreamReader::TokenType token = in.readNext();
        if (in.hasError())
            break;
        if (token == QXmlStreamReader::StartElement && in.name() == QLatin1String("text")) {
            const QXmlStreamAttributes a = in.attributes();
            const FontAttributes f = inherit(fonts.back(), a);
            const double x = a.value(QStringLiteral("x")).toDouble(), y = a.value(QStringLiteral("y")).toDouble();
            const QString text = in.readElementText(QXmlStreamReader::IncludeChildElements);
            if (text.trimmed().isEmpty())
                continue;
            QPainterPath outline;
            outline.addText(x, y, fontOf(f), text);
            out.writeStartElement(QStringLiteral("path"));
            copyPaint(out, a);
            out.writeAttribute(QStringLiteral("fill-rule"), QStringLiteral("nonzero"));
            out.writeAttribute(QStringLiteral("d"), pathData(outline));
            out.writeEndElement();
            continue;
        }
        if (token == QXmlStreamReader::StartElement) {
            fonts.push_back(inherit(fonts.back(), in.attributes()));
            // element names as written (the writer's own namespace handling would prefix them
            // all, "n1:svg", which some slide programs do not read)
            out.writeStartElement(in.qualifiedName().toString());
            for (const QXmlStreamNamespaceDeclaration& ns : in.namespaceDeclarations())
                out.writeAttribute(ns.prefix().isEmpty() ? QStringLiteral("xmlns")
                                                         : QStringLiteral("xmlns:") + ns.prefix(),
                                   ns.namespaceUri().toString());
            for (const QXmlStreamAttribute& attr : in.attributes())
                out.writeAttribute(attr.qualifiedName().toString(), attr.value().toString());
            continue;
        }
        if (token == QXmlStreamReader::EndElement) {
            if (fonts.size() > 1)
                fonts.pop_back();
            out.writeEndElement();
            continue;
        }
        out.writeCurrentToken(in);
    }
    // what cannot be read back is left as it was: the text stays text
    return in.hasError() ? svg : bytes;
}

} // namespace shardlab::gui

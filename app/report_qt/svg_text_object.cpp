#include "svg_text_object.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>
#include <vector>

namespace shardlab::reportqt {

void SvgTextObject::install(QTextDocument* document)
{
    document->documentLayout()->registerHandler(kObjectType, new SvgTextObject(document));
}

int SvgTextObject::replaceImages(QTextDocument* document, const QHash<QString, QByteArray>& figures)
{
    struct Hit {
        int position;
        int length;
        QString id;
        QSizeF size;
    };
    std::vector<Hit> hits;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isImageFormat())
                continue;
            const QTextImageFormat image = fragment.charFormat().toImageFormat();
            if (!image.name().startsWith(QLatin1String("figure:")))
                continue;
            const QString id = image.name().mid(7);
            if (figures.contains(id))
                hits.push_back({fragment.position(), fragment.length(), id, QSizeF(image.width(), image.height())});
        }
    // From the end, so that earlier positions stay valid.
    std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.position > b.position; });
    for (const Hit& h : hits) {
        QTextCursor cursor(document);
        cursor.setPosition(h.position);
        cursor.setPosition(h.position + h.length, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setObjectType(kObjectType);
        format.setProperty(kSvgData, figures.value(h.id));
        format.setProperty(kSvgSize, h.size);
        cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
    }
    return static_cast<int>(hits.size());
}

QSizeF SvgTextObject::intrinsicSize(QTextDocument* doc, int, const QTextFormat& format)
{
    QSizeF size = format.property(kSvgSize).toSizeF();
    // Never wider than the text column: scale down, keeping the aspect ratio.
    const qreal column = doc->textWidth() > 0 ? doc->textWidth() - 2 * doc->documentMargin() : size.width();
    if (size.width() > column && size.width() > 0)
        size *= column / size.width();
    return size;
}

void SvgTextObject::drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format)
{
    QSvgRenderer renderer(format.property(kSvgData).toByteArray());
    if (renderer.isValid())
        renderer.render(painter, rect);
}

} // namespace shardlab::reportqt

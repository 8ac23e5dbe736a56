// Draws an SVG figure inside a QTextDocument as vectors: QTextDocument reads no SVG, so the
// report's <img src="figure:ID"> placeholders are replaced by text objects of this type, which
// QSvgRenderer paints on whatever device the document is drawn on (a PDF page, a widget).
#pragma once

#include <QObject>
#include <QTextObjectInterface>

class QTextDocument;

namespace shardlab::reportqt {

class SvgTextObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    static constexpr int kObjectType = QTextFormat::UserObject + 1;
    static constexpr int kSvgData = QTextFormat::UserProperty + 1; // QByteArray
    static constexpr int kSvgSize = QTextFormat::UserProperty + 2; // QSizeF in layout units

    // Registers a handler on `document` (which owns it).
    static void install(QTextDocument* document);
    // Replaces every image named "figure:ID" by the SVG `figures` holds for ID, keeping the
    // image's width and height. Returns how many were replaced.
    static int replaceImages(QTextDocument* document, const QHash<QString, QByteArray>& figures);

    QSizeF intrinsicSize(QTextDocument* doc, int posInDocument, const QTextFormat& format) override;
    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument* doc, int posInDocument,
                    const QTextFormat& format) override;

private:
    using QObject::QObject;
};

} // namespace shardlab::reportqt

// Reads a Qt Linguist .ts file: each message's context, source, state and translation(s).
#pragma once

#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>
#include <QXmlStreamReader>

namespace shardlab::test {

struct TsMessage {
    QString context;
    QString source;
    QString type; // "" (finished), "unfinished", "vanished", "obsolete"
    bool numerus = false;
    QStringList translations; // one, or one per plural form
};

struct TsFile {
    QString language;
    QList<TsMessage> messages;
    QString error;
    explicit operator bool() const { return error.isEmpty(); }
};

inline TsFile readTsFile(const QString& path)
{
    TsFile out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.error = path + QStringLiteral(": ") + file.errorString();
        return out;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage* current = nullptr;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QStringLiteral("TS")) {
                out.language = xml.attributes().value(QStringLiteral("language")).toString();
            } else if (name == QStringLiteral("name") && !current) {
                context = xml.readElementText();
            } else if (name == QStringLiteral("message")) {
                out.messages.append(TsMessage{});
                current = &out.messages.last();
                current->context = context;
                current->numerus = xml.attributes().value(QStringLiteral("numerus")) == QStringLiteral("yes");
            } else if (current && name == QStringLiteral("source")) {
                current->source = xml.readElementText();
            } else if (current && name == QStringLiteral("translation")) {
                current->type = xml.attributes().value(QStringLiteral("type")).toString();
                if (!current->numerus)
                    current->translations << xml.readElementText();
            } else if (current && name == QStringLiteral("numerusform")) {
                current->translations << xml.readElementText();
            }
        } else if (xml.isEndElement() && xml.name() == QStringLiteral("message")) {
            current = nullptr;
        }
    }
    if (xml.hasError())
        out.error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return out;
}

} // namespace shardlab::test

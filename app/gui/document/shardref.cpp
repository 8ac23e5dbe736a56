#include "document/shardref.h"

#include <QMimeData>
#include <QStringList>

namespace shardlab::gui {

QMimeData* shardMimeData(const QList<ShardRef>& refs)
{
    QStringList lines;
    for (const ShardRef& r : refs)
        lines << QStringLiteral("%1,%2,%3").arg(r.item).arg(r.shard).arg(r.fromRank);
    auto* mime = new QMimeData;
    mime->setData(QString::fromLatin1(kShardMimeType), lines.join(QLatin1Char('\n')).toUtf8());
    return mime;
}

QList<ShardRef> shardRefsFrom(const QMimeData* mime)
{
    QList<ShardRef> refs;
    if (!mime || !mime->hasFormat(QString::fromLatin1(kShardMimeType)))
        return refs;
    const QString text = QString::fromUtf8(mime->data(QString::fromLatin1(kShardMimeType)));
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.split(QLatin1Char(','));
        if (f.size() != 3)
            continue;
        bool ok[3] = {};
        const ShardRef r{f[0].toInt(&ok[0]), f[1].toInt(&ok[1]), f[2].toInt(&ok[2])};
        if (ok[0] && ok[1] && ok[2] && r.item >= 0 && r.shard >= 0 && r.fromRank >= -1)
            refs << r;
    }
    return refs;
}

} // namespace shardlab::gui

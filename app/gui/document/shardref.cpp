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

QMimeData* meshUnitMimeData(const MeshUnitRef& ref)
{
    auto* mime = new QMimeData;
    mime->setData(QString::fromLatin1(kMeshUnitMimeType),
                  QByteArray::number(ref.rank) + (ref.unit == MeshUnit::Stage ? " 1" : " 0"));
    return mime;
}

std::optional<MeshUnitRef> meshUnitFrom(const QMimeData* mime)
{
    if (!mime || !mime->hasFormat(QString::fromLatin1(kMeshUnitMimeType)))
        return std::nullopt;
    const QList<QByteArray> parts = mime->data(QString::fromLatin1(kMeshUnitMimeType)).split(' ');
    bool rankOk = false, unitOk = false;
    const int rank = parts.value(0).toInt(&rankOk);
    const int unit = parts.value(1).toInt(&unitOk);
    if (parts.size() != 2 || !rankOk || !unitOk || rank < 0 || (unit != 0 && unit != 1))
        return std::nullopt;
    return MeshUnitRef{rank, unit == 1 ? MeshUnit::Stage : MeshUnit::TensorGroup};
}

} // namespace shardlab::gui

#include "program/programmodel.h"

#include "document/document.h"
#include "common/glossary.h"
#include "common/labels.h"

namespace shardlab::gui {

ProgramModel::ProgramModel(Document* document, QObject* parent) : SnapshotTableModel(ColumnCount, parent)
{
    connect(document, &Document::scenarioChanged, this, &ProgramModel::refresh);
    refresh(document->scenario());
}

QString ProgramModel::ranksText(const Scenario& s, const Op& op)
{
    if (op.kind == OpKind::SendRecv)
        return tr("%1 \u2192 %2").arg(op.root).arg(op.peer);
    QString text = op.group.empty() ? tr("all") : Labels::ranks(op.group);
    if (op.kind == OpKind::Reduce || op.kind == OpKind::Broadcast)
        text += tr(", root %1").arg(op.root);
    (void)s;
    return text;
}

QString ProgramModel::sizeText(const Scenario& s, const Op& op)
{
    if (op.kind == OpKind::Compute)
        return qs(formatFlops(op.flops));
    return bytesText(s.bytesOf(op));
}

void ProgramModel::refresh(const Scenario& scenario)
{
    std::vector<Row> rows;
    for (const Op& op : scenario.program)
        rows.push_back({op, ranksText(scenario, op), sizeText(scenario, op)});
    replaceRows(m_rows, std::move(rows));
}

QVariant ProgramModel::data(const QModelIndex& index, int role) const
{
    if (!inRange(index, m_rows.size()))
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    const Op& op = r.op;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Number: return index.row() + 1;
        case Step: return Labels::op(op.kind);
        case Name: return qs(op.name.empty() ? opName(op.kind) : op.name);
        case Item: return qs(op.item);
        case Ranks: return r.ranks;
        case Size: return r.size;
        case Buckets: return op.buckets;
        case Overlap: return op.overlap ? tr("overlapped") : QString();
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Buckets: return Glossary::buckets();
        case Overlap: return Glossary::overlap();
        case Size:
            return op.kind == OpKind::Compute
                       ? tr("Work over the whole item; each GPU does the share it owns.")
                       : tr("Bytes of the collective, in nccl-tests' convention (the full buffer).");
        default: return Glossary::op(op.kind);
        }
    }
    if (role == Qt::TextAlignmentRole
        && (index.column() == Number || index.column() == Size || index.column() == Buckets))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QStringList ProgramModel::headers() const
{
    return {tr("#"), tr("Operation"), tr("Name"), tr("Item"), tr("Ranks"), tr("Size"), tr("Buckets"), tr("Overlap")};
}

} // namespace shardlab::gui

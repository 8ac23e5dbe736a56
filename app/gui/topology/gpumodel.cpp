#include "topology/gpumodel.h"
#include "i18n/language.h"

#include "document/document.h"
#include "document/edits.h"
#include "common/glossary.h"
#include "common/labels.h"

namespace shardlab::gui {

GpuModel::GpuModel(Document* document, QObject* parent) : SnapshotTableModel(ColumnCount, parent), m_document(document)
{
    connect(document, &Document::scenarioChanged, this,
            [this](const Scenario& s) { replaceRows(m_gpus, s.topology.gpus); });
    m_gpus = document->scenario().topology.gpus;
}

QVariant GpuModel::data(const QModelIndex& index, int role) const
{
    if (!inRange(index, m_gpus.size()))
        return {};
    const Gpu& g = m_gpus[static_cast<size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case Rank: return Labels::gpu(index.row());
        case Device: return qs(g.name);
        case Memory: return bytesText(g.memory);
        case Tflops: return role == Qt::EditRole ? QVariant(g.tflops) : QVariant(QString::number(g.tflops, 'g', 4));
        case Node: return tr("%1 / socket %2").arg(g.node).arg(g.socket);
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Memory: return tr("What this GPU holds. Double-click to change (e.g. 16 GB, 80 GB).");
        case Tflops: return Glossary::tflops();
        case Rank: return Glossary::rank();
        default: return qs(g.id);
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Memory || index.column() == Tflops))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QStringList GpuModel::headers() const { return {tr("Rank"), tr("Device"), tr("Memory"), tr("TFLOP/s"), tr("Node")}; }

Qt::ItemFlags GpuModel::flags(const QModelIndex& index) const
{
    if (!inRange(index, m_gpus.size()))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == Device || index.column() == Memory || index.column() == Tflops)
        f |= Qt::ItemIsEditable;
    return f;
}

bool GpuModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !inRange(index, m_gpus.size()))
        return false;
    Status st;
    if (index.column() == Device)
        st = Edits::setGpuName(*m_document, index.row(), value.toString());
    else if (index.column() == Memory) {
        auto size = parseSize(value.toString().toStdString());
        st = size ? Edits::setGpuMemory(*m_document, index.row(), *size) : Status(size.error());
    } else if (index.column() == Tflops) {
        bool ok = false;
        const double v = value.toDouble(&ok);
        st = ok ? Edits::setGpuTflops(*m_document, index.row(), v)
                : Status(badInput(i18n::appWorded(tr("expected a number of TFLOP/s"))));
    } else
        return false;
    if (!st)
        emit editFailed(i18n::engineError(st.error()));
    return st.ok();
}

LinkModel::LinkModel(Document* document, QObject* parent)
    : SnapshotTableModel(ColumnCount, parent), m_document(document)
{
    connect(document, &Document::scenarioChanged, this,
            [this](const Scenario& s) { replaceRows(m_links, s.topology.links); });
    m_links = document->scenario().topology.links;
}

QVariant LinkModel::data(const QModelIndex& index, int role) const
{
    if (!inRange(index, m_links.size()))
        return {};
    const Link& l = m_links[static_cast<size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case From: return qs(l.a);
        case To: return qs(l.b);
        case Class: return Labels::linkKind(l.kind);
        case Count: return l.count;
        case Bandwidth:
            return role == Qt::EditRole ? QVariant(l.bandwidthGBps) : QVariant(qs(formatBandwidth(l.bandwidthGBps)));
        case Latency: return qs(formatMicros(l.latencyUs));
        }
    }
    if (role == Qt::ToolTipRole)
        return Glossary::link(l.kind);
    if (role == Qt::TextAlignmentRole && index.column() >= Count)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QStringList LinkModel::headers() const
{
    return {tr("From"), tr("To"), tr("Class"), tr("Links"), tr("Bandwidth"), tr("Latency")};
}

Qt::ItemFlags LinkModel::flags(const QModelIndex& index) const
{
    if (!inRange(index, m_links.size()))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const Link& l = m_links[static_cast<size_t>(index.row())];
    if (index.column() == Bandwidth || (index.column() == Count && l.kind == LinkKind::NvLink))
        f |= Qt::ItemIsEditable;
    return f;
}

bool LinkModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !inRange(index, m_links.size()))
        return false;
    bool ok = false;
    Status st;
    if (index.column() == Bandwidth) {
        const double v = value.toDouble(&ok);
        st = ok ? Edits::setLinkBandwidth(*m_document, index.row(), v)
                : Status(badInput(i18n::appWorded(tr("expected a bandwidth in GB/s"))));
    } else if (index.column() == Count) {
        const int v = value.toInt(&ok);
        st = ok ? Edits::setLinkCount(*m_document, index.row(), v)
                : Status(badInput(i18n::appWorded(tr("expected a number of links"))));
    } else
        return false;
    if (!st)
        emit editFailed(i18n::engineError(st.error()));
    return st.ok();
}

} // namespace shardlab::gui

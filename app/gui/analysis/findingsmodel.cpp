#include "analysis/findingsmodel.h"

#include "style/numbers.h"

#include <QBrush>
#include <QColor>

namespace shardlab::gui {

FindingsModel::FindingsModel(QObject* parent) : QAbstractListModel(parent) {}

void FindingsModel::setFindings(std::vector<Finding> findings)
{
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_findings.size());
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Finding& f = m_findings[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return QString((f.severity == Severity::Problem ? tr("Problem: ") : tr("Warning: "))
                       + QString::fromStdString(f.title));
    case Qt::ToolTipRole: return QString::fromStdString(f.sentence);
    case Qt::ForegroundRole:
        return QBrush(f.severity == Severity::Problem ? QColor(0xD5, 0x5E, 0x00) : QColor(0x8A, 0x5A, 0x00));
    }
    return {};
}

RankEvidenceModel::RankEvidenceModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankEvidenceModel::setEvidence(std::vector<RankEvidence> ranks, bool hang, int highlight)
{
    beginResetModel();
    m_ranks = std::move(ranks);
    m_hang = hang;
    m_highlight = highlight;
    endResetModel();
}

int RankEvidenceModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_ranks.size());
}
int RankEvidenceModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RankEvidenceModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const RankEvidence& e = m_ranks[static_cast<size_t>(index.row())];
    if (role == Qt::BackgroundRole && e.rank == m_highlight)
        return QBrush(QColor(255, 236, 200));
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(index.column() == Device || index.column() == State
                                       ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                       : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    auto ms = [](double v) { return numbers::ms(v); };
    switch (index.column()) {
    case Rank: return e.rank;
    case Device: return QString::fromStdString(e.device);
    case Compute: return ms(e.computeMs);
    case Comm: return ms(e.commMs);
    case Wait: return ms(e.waitMs);
    case TimesLast: return e.timesLast;
    case Work: return QString(QString::number(e.workShare * 100, 'f', 1) + QStringLiteral(" %"));
    case Slowdown: return QString::number(e.slowdown, 'f', 2);
    case Socket: return QStringLiteral("%1/%2").arg(e.node).arg(e.socket);
    case RingIn: return QString::number(std::min(e.ringInGBps, e.ringOutGBps), 'f', 1);
    case LastCompleted: return m_hang ? QVariant(e.lastCompleted) : QVariant(QString());
    case State: return QString::fromStdString(e.state);
    }
    return {};
}

QVariant RankEvidenceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Rank: return tr("rank");
        case Device: return tr("device");
        case Compute: return tr("compute (ms)");
        case Comm: return tr("comm (ms)");
        case Wait: return tr("wait (ms)");
        case TimesLast: return tr("last");
        case Work: return tr("work");
        case Slowdown: return tr("slowdown");
        case Socket: return tr("node/socket");
        case RingIn: return tr("ring link (GB/s)");
        case LastCompleted: return tr("last collective #");
        case State: return tr("state");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TimesLast: return tr("How many blocking collectives this rank reached last (the others waited for it)");
        case Work: return tr("Its share of the program's compute work; an even split is 1/n");
        case Slowdown: return tr("A per-rank factor on compute time: thermal throttling or a slower card");
        case RingIn: return tr("The slower of the routes from its ring predecessor and to its successor");
        case LastCompleted:
            return tr("The sequence number of its last completed collective, as a flight recorder counts");
        }
    }
    return {};
}

} // namespace shardlab::gui

#include "sandbox/hanggridmodel.h"

#include "i18n/language.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>

namespace shardlab::gui {

namespace {
// Okabe-Ito tones, light enough for black text on a projector.
QColor completedColour() { return QColor(0xCF, 0xEB, 0xDF); } // bluish green, light
QColor stuckColour() { return QColor(0xFC, 0xE3, 0xB0); }     // orange, light
QColor differsColour() { return QColor(0xF5, 0xB7, 0x9C); }   // vermillion, light
} // namespace

void HangGridModel::setReport(const std::optional<HangReport>& report, int ranks)
{
    beginResetModel();
    m_report = report;
    m_ranks = report ? ranks : 0;
    m_first = 0;
    m_count = 0;
    if (m_report) {
        int maxLast = -1;
        for (int r = 0; r < m_ranks; ++r)
            maxLast = std::max(maxLast, lastCompleted(r));
        // the window ends one past the furthest rank: the collective nobody completed
        const int last = maxLast + 1;
        m_first = std::max(0, last - kWindow + 1);
        m_count = last - m_first + 1;
    }
    endResetModel();
}

int HangGridModel::lastCompleted(int rank) const
{
    if (!m_report || rank < 0 || rank >= static_cast<int>(m_report->lastCompleted.size()))
        return -1;
    return m_report->lastCompleted[static_cast<size_t>(rank)];
}

QString HangGridModel::pending(int rank) const
{
    if (!m_report || rank < 0 || rank >= static_cast<int>(m_report->pending.size()))
        return {};
    return i18n::engineText(m_report->pendingMessage(static_cast<size_t>(rank)));
}

bool HangGridModel::left(int rank) const
{
    // both engines say "finished iteration N and left" of a rank that is no longer in a collective
    return rank >= 0 && m_report && static_cast<size_t>(rank) < m_report->pending.size()
           && m_report->pending[static_cast<size_t>(rank)].starts_with("finished"); // the engine's English
}

HangGridModel::Cell HangGridModel::cell(int rank, int sequence) const
{
    const int last = lastCompleted(rank);
    if (sequence <= last)
        return Cell::Completed;
    if (sequence > last + 1)
        return Cell::NotReached;
    if (m_report && m_report->firstMismatchRank == rank)
        return left(rank) ? Cell::Left : Cell::Differs;
    return left(rank) ? Cell::Left : Cell::Stuck;
}

int HangGridModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_ranks; }

int HangGridModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_report ? 0 : kFixedBefore + m_count + 1;
}

QVariant HangGridModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_report)
        return {};
    const int rank = index.row();
    const int col = index.column();
    const bool first = m_report->firstMismatchRank == rank;
    if (col == 0) {
        if (role == Qt::DisplayRole)
            return first ? tr("rank %1\nfirst mismatch").arg(rank) : tr("rank %1").arg(rank);
        if (role == Qt::FontRole && first) {
            QFont f;
            f.setBold(true);
            return f;
        }
        if (role == Qt::BackgroundRole && first)
            return QBrush(differsColour());
        if (role == Qt::ToolTipRole && first)
            return tr("The first rank whose call differs from what the rest of its group called, or that never called");
        return {};
    }
    if (col == 1) {
        if (role == Qt::DisplayRole)
            return lastCompleted(rank) < 0 ? tr("none") : QStringLiteral("#%1").arg(lastCompleted(rank));
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignCenter);
        return {};
    }
    if (col == kFixedBefore + m_count) {
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return pending(rank);
        return {};
    }
    const int sequence = m_first + col - kFixedBefore;
    const Cell c = cell(rank, sequence);
    switch (role) {
    case Qt::DisplayRole:
        switch (c) {
        case Cell::Completed: return tr("done");
        case Cell::Stuck: return tr("stuck");
        case Cell::Differs: return tr("differs");
        case Cell::Left: return tr("never called");
        case Cell::NotReached: return QString();
        }
        return {};
    case Qt::BackgroundRole:
        switch (c) {
        case Cell::Completed: return QBrush(completedColour());
        case Cell::Stuck: return QBrush(stuckColour());
        case Cell::Differs:
        case Cell::Left: return QBrush(differsColour());
        case Cell::NotReached: return {};
        }
        return {};
    case Qt::ForegroundRole: return c == Cell::NotReached ? QVariant() : QVariant(QBrush(Qt::black));
    case Qt::TextAlignmentRole: return int(Qt::AlignCenter);
    case Qt::ToolTipRole:
        switch (c) {
        case Cell::Completed: return tr("Rank %1 completed its collective #%2").arg(rank).arg(sequence);
        case Cell::Stuck:
            return tr("Rank %1 called its collective #%2 and waits for the others: %3")
                .arg(rank)
                .arg(sequence)
                .arg(pending(rank));
        case Cell::Differs:
            return tr("Rank %1 called its collective #%2 differently from its group: %3")
                .arg(rank)
                .arg(sequence)
                .arg(pending(rank));
        case Cell::Left:
            return tr("Rank %1 never called collective #%2: %3").arg(rank).arg(sequence).arg(pending(rank));
        case Cell::NotReached: return {};
        }
        return {};
    default: return {};
    }
}

QVariant HangGridModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool sequenceColumn = section >= kFixedBefore && section < kFixedBefore + m_count;
    if (role == Qt::DisplayRole) {
        if (section == 0)
            return tr("Rank");
        if (section == 1)
            return tr("Last completed");
        if (sequenceColumn)
            return QStringLiteral("#%1").arg(m_first + section - kFixedBefore);
        if (section == kFixedBefore + m_count)
            return tr("What it is doing");
    }
    if (role == Qt::ToolTipRole) {
        if (section == 1)
            return tr("The sequence number of the rank's last completed collective (each rank counts its collectives "
                      "from #0)");
        if (sequenceColumn)
            return tr("Each rank's collective #%1, counted from #0: NCCL matches the calls on a communicator in this "
                      "order")
                .arg(m_first + section - kFixedBefore);
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace shardlab::gui

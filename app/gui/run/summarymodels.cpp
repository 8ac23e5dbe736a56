#include "run/summarymodels.h"

#include "style/numbers.h"
#include "style/theme.h"

#include <QBrush>
#include <QFont>

namespace shardlab::gui {

namespace {

QString ms(double v) { return numbers::ms(v); }

} // namespace

void RankTableModel::setSummary(const Summary& summary)
{
    beginResetModel();
    m_rows = summary.perRank;
    m_straggler = summary.straggler;
    m_memoryKnown = summary.memoryKnown;
    endResetModel();
}

int RankTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RankTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RankTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RankBreakdown& r = m_rows[static_cast<size_t>(index.row())];
    const bool straggler = m_straggler && *m_straggler == r.rank;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Rank: return straggler ? tr("%1 (straggler)").arg(r.rank) : QString::number(r.rank);
        case Device: return QString::fromStdString(r.device);
        case Compute: return ms(r.computeMs);
        case Comm: return ms(r.commMs);
        case Wait: return ms(r.waitMs);
        // a profiled program's memory is not known: a dash, not "0 B" (Summary::memoryKnown)
        case Owned: return m_memoryKnown ? QString::fromStdString(formatBytes(r.owned)) : QStringLiteral("\u2013");
        case Memory:
            if (!m_memoryKnown)
                return QStringLiteral("\u2013");
            return tr("%1 of %2")
                .arg(QString::fromStdString(formatBytes(r.peakMemory)),
                     QString::fromStdString(formatBytes(r.capacity)));
        case TimesLast: return r.timesLast;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Compute)
        return QVariant::fromValue(index.column() == Owned || index.column() == Memory || index.column() == TimesLast
                                       ? Qt::AlignCenter
                                       : Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && straggler) {
        QFont f;
        f.setBold(true);
        return f;
    }
    // the diagram's and the editor legend's red for "does not fit" (it was orange here: issue 29)
    if (role == Qt::ForegroundRole && index.column() == Memory && !r.fits)
        return QBrush(theme::overflow());
    if (role == Qt::ToolTipRole && index.column() == Memory && !r.fits)
        return r.owned > r.capacity
                   ? tr("Rank %1 owns more than its GPU holds").arg(r.rank)
                   : tr("Rank %1's peak (what it owns plus its largest collective buffer) is more than "
                        "its GPU holds")
                         .arg(r.rank);
    if (role == Qt::ToolTipRole && index.column() == Rank)
        return QString::fromStdString(r.device);
    return {};
}

QVariant RankTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Rank: return tr("Rank");
        case Device: return tr("Device");
        case Compute: return tr("Compute");
        case Comm: return tr("Comm");
        case Wait: return tr("Wait");
        case Owned: return tr("Owned");
        case Memory: return tr("Peak memory");
        case TimesLast: return tr("Last");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Compute: return tr("Time computing, per iteration (averaged over the iterations)");
        case Comm:
            return tr("Exposed communication per iteration: time the compute stream is blocked in a collective "
                      "(communication hidden behind compute is not counted)");
        case Wait: return tr("Time idle at synchronisation points per iteration, waiting for the last rank to arrive");
        case Owned: return tr("What the scenario places on this rank: the shards it owns");
        case Memory:
            return tr("Peak memory: what the rank owns plus its largest temporary buffer, against its GPU's memory "
                      "(measured use on a live run). The peak decides whether the rank fits.");
        case TimesLast: return tr("How many collectives this rank arrived at last, making the others wait");
        }
    }
    return {};
}

void ComparisonModel::setComparison(const RunComparison& c)
{
    beginResetModel();
    m_rows = c.phases;
    PhaseComparison step;
    step.op = -1;
    step.name = tr("whole step").toStdString();
    step.measuredMs = c.measuredStepMs;
    step.simulatedMs = c.simulatedStepMs;
    step.errorPct = c.stepErrorPct;
    m_rows.push_back(step);
    endResetModel();
}

void ComparisonModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PhaseComparison& p = m_rows[static_cast<size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Phase: return QString::fromStdString(p.name);
        case Measured: return ms(p.measuredMs);
        case Simulated: return ms(p.simulatedMs);
        case Error: return p.errorPct ? tr("%1%").arg(*p.errorPct, 0, 'f', 1) : tr("n/a");
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Phase)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && p.op < 0) {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Phase: return tr("Phase");
        case Measured: return tr("Measured");
        case Simulated: return tr("Simulated");
        case Error: return tr("Error");
        }
    }
    if (role == Qt::ToolTipRole && (section == Measured || section == Simulated))
        return tr("Mean time of one instance of the phase, in ms");
    if (role == Qt::ToolTipRole && section == Error)
        return tr("(simulated - measured) / measured: positive when the model predicts the phase slower than it ran");
    return {};
}

} // namespace shardlab::gui

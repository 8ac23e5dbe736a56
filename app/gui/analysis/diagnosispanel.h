// The diagnosis panel: the handbook's findings for a run, each with what to check first (and what
// the run shows) and its evidence: the per-rank table, the collectives' bandwidth and, for "no
// speed-up", the scaling curve.
#pragma once

#include "shardlab/analysis/diagnosis.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QListView;
class QTableView;
class QTextBrowser;

namespace shardlab::gui {

class FindingsModel;
class RankEvidenceModel;

class DiagnosisPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosisPanel(QWidget* parent = nullptr);

    void setFindings(std::vector<Finding> findings, const QString& runSentence);
    void setBusy(const QString& message);
    FindingsModel* findingsModel() const { return m_findings; }
    RankEvidenceModel* evidenceModel() const { return m_evidence; }
    QString detailText() const;
    void selectFinding(int row);
    QCustomPlot* rankPlot() const { return m_ranks; }

private:
    void showFinding(int row);
    void plotRanks(const std::vector<RankEvidence>& ranks, int highlight);

    FindingsModel* m_findings = nullptr;
    RankEvidenceModel* m_evidence = nullptr;
    QLabel* m_headline = nullptr;
    QListView* m_list = nullptr;
    QTextBrowser* m_detail = nullptr;
    QTableView* m_table = nullptr;
    QCustomPlot* m_ranks = nullptr;
};

} // namespace shardlab::gui

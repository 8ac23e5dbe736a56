// What the editor shows about the current ownership, computed by the engine once per edit:
// per-rank capacity, balance, and plain-language warnings (capacity.h). Every view that shows
// feedback listens to updated() instead of recomputing it.
#pragma once

#include "shardlab/model/capacity.h"
#include "shardlab/model/scenario.h"

#include <QObject>
#include <QStringList>

namespace shardlab::gui {

class Document;

struct Feedback {
    CapacityReport capacity;
    OwnershipGaps gaps;
    // Overflows and imbalance first (capacityOf), then unowned bytes.
    QStringList warnings() const;
};

class LiveFeedback : public QObject {
    Q_OBJECT
public:
    // Ownership more unbalanced than this (max vs mean) is worth a warning.
    static constexpr double kImbalanceThresholdPct = 10.0;

    explicit LiveFeedback(Document* document, QObject* parent = nullptr);
    const Feedback& current() const { return m_feedback; }
    const Scenario& scenario() const;

signals:
    void updated(const shardlab::Scenario& scenario, const shardlab::gui::Feedback& feedback);

private:
    void recompute(const Scenario& scenario);
    Document* m_document;
    Feedback m_feedback;
};

} // namespace shardlab::gui

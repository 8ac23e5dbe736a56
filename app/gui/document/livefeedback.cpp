#include "document/livefeedback.h"

#include "document/document.h"
#include "common/labels.h"

namespace shardlab::gui {

QStringList Feedback::warnings() const
{
    QStringList out;
    for (const std::string& w : capacity.warnings)
        out << qs(w);
    for (const std::string& g : gaps.messages)
        out << qs(g);
    return out;
}

LiveFeedback::LiveFeedback(Document* document, QObject* parent) : QObject(parent), m_document(document)
{
    connect(document, &Document::scenarioChanged, this, &LiveFeedback::recompute);
    m_feedback.capacity = capacityOf(document->scenario(), kImbalanceThresholdPct);
    m_feedback.gaps = ownershipGaps(document->scenario());
}

const Scenario& LiveFeedback::scenario() const
{
    return m_document->scenario();
}

void LiveFeedback::recompute(const Scenario& scenario)
{
    m_feedback.capacity = capacityOf(scenario, kImbalanceThresholdPct);
    m_feedback.gaps = ownershipGaps(scenario);
    emit updated(scenario, m_feedback);
}

} // namespace shardlab::gui

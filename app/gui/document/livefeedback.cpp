#include "document/livefeedback.h"

#include "document/document.h"
#include "common/labels.h"
#include "i18n/language.h"

namespace shardlab::gui {

QStringList Feedback::warnings() const
{
    // the engine's warnings, worded in the interface language
    QStringList out;
    for (const Message& w : capacity.warningMessages)
        out << i18n::engineText(w);
    for (const Message& g : gaps.wordings)
        out << i18n::engineText(g);
    return out;
}

LiveFeedback::LiveFeedback(Document* document, QObject* parent) : QObject(parent), m_document(document)
{
    connect(document, &Document::scenarioChanged, this, &LiveFeedback::recompute);
    m_feedback.capacity = capacityOf(document->scenario(), kImbalanceThresholdPct);
    m_feedback.gaps = ownershipGaps(document->scenario());
}

const Scenario& LiveFeedback::scenario() const { return m_document->scenario(); }

void LiveFeedback::recompute(const Scenario& scenario)
{
    m_feedback.capacity = capacityOf(scenario, kImbalanceThresholdPct);
    m_feedback.gaps = ownershipGaps(scenario);
    emit updated(scenario, m_feedback);
}

} // namespace shardlab::gui

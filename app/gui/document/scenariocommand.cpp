#include "document/scenariocommand.h"

#include "document/document.h"

namespace shardlab::gui {

namespace {
// All mergeable commands share one id; mergeWith() then compares their keys.
constexpr int kMergeableId = 0x5348;
} // namespace

ScenarioCommand::ScenarioCommand(Document* document, const QString& text, Scenario before, Scenario after,
                                 QString mergeKey)
    : QUndoCommand(text), m_document(document), m_before(std::move(before)), m_after(std::move(after)),
      m_mergeKey(std::move(mergeKey))
{
}

void ScenarioCommand::undo() { m_document->setScenarioFromCommand(m_before); }

void ScenarioCommand::redo() { m_document->setScenarioFromCommand(m_after); }

int ScenarioCommand::id() const { return m_mergeKey.isEmpty() ? -1 : kMergeableId; }

bool ScenarioCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = dynamic_cast<const ScenarioCommand*>(other);
    if (!next || next->m_mergeKey != m_mergeKey || next->m_document != m_document)
        return false;
    m_after = next->m_after;
    setText(next->text());
    return true;
}

} // namespace shardlab::gui

#include "document/document.h"

#include "document/scenariocommand.h"

#include <QFileInfo>
#include <QUndoStack>

namespace shardlab::gui {

Document::Document(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this))
{
    m_undo->setUndoLimit(1000);
    connect(m_undo, &QUndoStack::cleanChanged, this, &Document::updateModified);
}

Document::~Document() = default;

QString Document::displayName() const { return m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName(); }

bool Document::isModified() const { return m_unsavedBaseline || !m_undo->isClean(); }

void Document::reset(Scenario scenario, const QString& path, bool modified)
{
    m_undo->clear();
    m_scenario = std::move(scenario);
    m_unsavedBaseline = modified;
    if (m_path != path) {
        m_path = path;
        emit filePathChanged(m_path);
    }
    updateModified();
    emit documentReset();
    emit scenarioChanged(m_scenario);
}

void Document::markSaved(const QString& path)
{
    m_unsavedBaseline = false;
    m_undo->setClean();
    if (m_path != path) {
        m_path = path;
        emit filePathChanged(m_path);
    }
    updateModified();
}

Status Document::apply(const QString& text, const std::function<void(Scenario&)>& change, const QString& mergeKey)
{
    Scenario next = m_scenario;
    change(next);
    if (next == m_scenario)
        return {};
    if (Status st = validateScenario(next); !st)
        return st;
    m_undo->push(new ScenarioCommand(this, text, m_scenario, std::move(next), mergeKey));
    return {};
}

void Document::setScenarioFromCommand(const Scenario& scenario)
{
    m_scenario = scenario;
    emit scenarioChanged(m_scenario);
}

void Document::updateModified()
{
    const bool modified = isModified();
    if (modified == m_lastModified)
        return;
    m_lastModified = modified;
    emit modifiedChanged(modified);
}

} // namespace shardlab::gui

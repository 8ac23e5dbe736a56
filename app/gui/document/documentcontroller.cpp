#include "document/documentcontroller.h"

#include "document/autosave.h"
#include "document/document.h"
#include "document/prompter.h"
#include "document/recentfiles.h"
#include "common/labels.h"
#include "i18n/language.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/model/presets.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>

namespace shardlab::gui {

DocumentController::DocumentController(Document* document, Prompter* prompter, RecentFiles* recent, QObject* parent)
    : QObject(parent), m_document(document), m_prompter(prompter), m_recent(recent)
{
}

Scenario DocumentController::blankScenario()
{
    Scenario s;
    s.name = tr("Untitled scenario").toStdString();
    s.topology = *preset("teaching-4x16gb-pcie");
    return s;
}

bool DocumentController::newDocument()
{
    if (!maybeSave())
        return false;
    m_document->reset(blankScenario(), QString());
    emit statusMessage(tr("New scenario"));
    return true;
}

bool DocumentController::open()
{
    if (!maybeSave())
        return false;
    const QString start =
        m_document->filePath().isEmpty() ? QDir::homePath() : QFileInfo(m_document->filePath()).path();
    const QString path = m_prompter->askOpenPath(start);
    return !path.isEmpty() && openPath(path, false);
}

bool DocumentController::openPath(const QString& path, bool askToSave)
{
    if (askToSave && !maybeSave())
        return false;
    auto loaded = loadScenario(path.toStdString());
    if (!loaded) {
        m_prompter->showError(
            tr("Cannot open scenario"),
            tr("\"%1\" could not be opened. Your current document is unchanged.").arg(QFileInfo(path).fileName()),
            i18n::engineError(loaded.error()));
        if (!QFileInfo::exists(path))
            m_recent->remove(path);
        return false;
    }
    m_document->reset(namedIn(std::move(*loaded), i18n::engineLanguage()), QFileInfo(path).absoluteFilePath());
    m_recent->add(path);
    emit statusMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool DocumentController::openExample(const QString& path, bool askToSave)
{
    if (askToSave && !maybeSave())
        return false;
    auto loaded = loadScenario(path.toStdString());
    if (!loaded) {
        m_prompter->showError(tr("Cannot open example"),
                              tr("The example \"%1\" could not be opened. Your current document is unchanged.")
                                  .arg(QFileInfo(path).fileName()),
                              i18n::engineError(loaded.error()));
        return false;
    }
    // in Chinese, a shipped example opens with its Chinese names (the file's name_zh)
    m_document->reset(namedIn(std::move(*loaded), i18n::engineLanguage()), QString());
    emit statusMessage(tr("Opened the example %1; save it to keep your changes.").arg(QFileInfo(path).fileName()));
    return true;
}

bool DocumentController::openMade(Scenario scenario, const QString& what, bool askToSave)
{
    if (askToSave && !maybeSave())
        return false;
    m_document->reset(namedIn(std::move(scenario), i18n::engineLanguage()), QString());
    emit statusMessage(tr("Opened %1 as a new scenario; save it to keep it.").arg(what));
    return true;
}

bool DocumentController::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    return saveTo(m_document->filePath());
}

bool DocumentController::saveAs()
{
    QString suggestion = m_document->filePath();
    if (suggestion.isEmpty())
        suggestion = QDir(QDir::homePath())
                         .filePath(qs(m_document->scenario().name).replace(QLatin1Char('/'), QLatin1Char('-'))
                                   + QStringLiteral(".shardlab.json"));
    QString path = m_prompter->askSavePath(suggestion);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
        path += QStringLiteral(".shardlab.json");
    return saveTo(path);
}

bool DocumentController::saveTo(const QString& path)
{
    if (Status st = saveScenario(m_document->scenario(), path.toStdString()); !st) {
        m_prompter->showError(tr("Cannot save scenario"),
                              tr("\"%1\" could not be written. Your document is still open and unchanged.")
                                  .arg(QFileInfo(path).fileName()),
                              i18n::engineError(st.error()));
        return false;
    }
    m_document->markSaved(QFileInfo(path).absoluteFilePath());
    m_recent->add(path);
    emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool DocumentController::maybeSave()
{
    if (!m_document->isModified())
        return true;
    switch (m_prompter->askSaveChanges(m_document->displayName())) {
    case Prompter::SaveChoice::Save: return save();
    case Prompter::SaveChoice::Discard: return true;
    case Prompter::SaveChoice::Cancel: return false;
    }
    return false;
}

bool DocumentController::offerRecovery(Autosave& autosave)
{
    const QList<AutosaveEntry> orphans = autosave.findOrphans();
    if (orphans.isEmpty())
        return false;
    const AutosaveEntry& newest = orphans.first();
    const QString what = newest.originalPath.isEmpty()
                             ? tr("an untitled scenario (\"%1\")").arg(newest.name)
                             : QStringLiteral("\"%1\"").arg(QDir::toNativeSeparators(newest.originalPath));
    const QString question = tr("ShardLab did not close normally. Recover the unsaved changes to %1, autosaved at %2?")
                                 .arg(what, QLocale().toString(newest.savedAt.toLocalTime(), QLocale::ShortFormat));
    bool recovered = false;
    if (m_prompter->askRecover(question)) {
        auto loaded = Autosave::load(newest);
        if (loaded) {
            m_document->reset(std::move(*loaded), newest.originalPath, true);
            emit statusMessage(tr("Recovered unsaved changes; save them to keep them."));
            recovered = true;
        } else {
            m_prompter->showError(tr("Cannot recover"), tr("The autosaved scenario could not be read."),
                                  i18n::engineError(loaded.error()));
        }
    }
    for (const AutosaveEntry& e : orphans)
        Autosave::discard(e);
    return recovered;
}

} // namespace shardlab::gui

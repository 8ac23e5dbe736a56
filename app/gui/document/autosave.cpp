#include "document/autosave.h"

#include "document/document.h"
#include "common/labels.h"
#include "shardlab/base/file_io.h"
#include "shardlab/io/scenario_io.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QUuid>

namespace shardlab::gui {

namespace {
const QString kScenarioSuffix = QStringLiteral(".shardlab.json");
const QString kMetaSuffix = QStringLiteral(".meta.json");
const QString kLockSuffix = QStringLiteral(".lock");
} // namespace

Autosave::Autosave(Document* document, const QString& dir, QObject* parent)
    : QObject(parent), m_document(document), m_dir(dir),
      m_id(QStringLiteral("session-") + QUuid::createUuid().toString(QUuid::Id128).left(12))
{
    QDir().mkpath(m_dir);
    m_lock = std::make_unique<QLockFile>(QDir(m_dir).filePath(m_id + kLockSuffix));
    m_lock->setStaleLockTime(0); // stale only when the process that holds it is gone
    m_lock->tryLock(0);
    m_timer.setInterval(kDefaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_pending)
            (void)saveNow();
    });
    connect(m_document, &Document::scenarioChanged, this, [this] { m_pending = true; });
    connect(m_document, &Document::modifiedChanged, this, [this](bool modified) {
        if (!modified)
            removeOwnFiles();
    });
    m_timer.start();
}

Autosave::~Autosave()
{
    removeOwnFiles();
    m_lock->unlock();
}

QString Autosave::defaultDir()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
        .filePath(QStringLiteral("autosave"));
}

Status Autosave::write(const QString& dir, const QString& id, const Scenario& scenario, const QString& originalPath)
{
    const QDir d(dir);
    if (Status st = writeFileAtomically(d.filePath(id + kScenarioSuffix).toStdString(), serializeScenario(scenario));
        !st)
        return st;
    const QJsonObject meta{{QStringLiteral("original"), originalPath},
                           {QStringLiteral("name"), qs(scenario.name)},
                           {QStringLiteral("saved"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
    return writeFileAtomically(d.filePath(id + kMetaSuffix).toStdString(),
                               QJsonDocument(meta).toJson(QJsonDocument::Compact).toStdString());
}

Status Autosave::saveNow()
{
    m_pending = false;
    if (!m_document->isModified()) {
        removeOwnFiles();
        return {};
    }
    return write(m_dir, m_id, m_document->scenario(), m_document->filePath());
}

void Autosave::removeOwnFiles()
{
    const QDir d(m_dir);
    QFile::remove(d.filePath(m_id + kScenarioSuffix));
    QFile::remove(d.filePath(m_id + kMetaSuffix));
}

QList<AutosaveEntry> Autosave::findOrphans() const
{
    QList<AutosaveEntry> out;
    const QDir d(m_dir);
    for (const QString& file : d.entryList({QStringLiteral("*") + kScenarioSuffix}, QDir::Files)) {
        const QString id = file.left(file.size() - kScenarioSuffix.size());
        if (id == m_id)
            continue;
        QLockFile lock(d.filePath(id + kLockSuffix));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue; // its session is still running
        lock.unlock();
        AutosaveEntry e;
        e.scenarioPath = d.filePath(file);
        QFile metaFile(d.filePath(id + kMetaSuffix));
        if (metaFile.open(QIODevice::ReadOnly)) {
            const QJsonObject meta = QJsonDocument::fromJson(metaFile.readAll()).object();
            e.originalPath = meta.value(QStringLiteral("original")).toString();
            e.name = meta.value(QStringLiteral("name")).toString();
            e.savedAt = QDateTime::fromString(meta.value(QStringLiteral("saved")).toString(), Qt::ISODateWithMs);
        }
        if (!e.savedAt.isValid())
            e.savedAt = QFileInfo(e.scenarioPath).lastModified();
        out << e;
    }
    std::sort(out.begin(), out.end(),
              [](const AutosaveEntry& a, const AutosaveEntry& b) { return a.savedAt > b.savedAt; });
    return out;
}

Result<Scenario> Autosave::load(const AutosaveEntry& entry) { return loadScenario(entry.scenarioPath.toStdString()); }

void Autosave::discard(const AutosaveEntry& entry)
{
    const QString base = entry.scenarioPath.left(entry.scenarioPath.size() - kScenarioSuffix.size());
    QFile::remove(entry.scenarioPath);
    QFile::remove(base + kMetaSuffix);
    QFile::remove(base + kLockSuffix);
}

} // namespace shardlab::gui

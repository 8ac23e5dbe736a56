#include "document/recentfiles.h"

#include "common/recentlist.h"

#include <QFileInfo>
#include <QSettings>

namespace shardlab::gui {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QObject* parent) : QObject(parent)
{
    m_files = QSettings().value(kKey).toStringList();
    while (m_files.size() > kMax)
        m_files.removeLast();
}

void RecentFiles::add(const QString& path)
{
    putFirst(m_files, QFileInfo(path).absoluteFilePath(), kMax);
    store();
}

void RecentFiles::remove(const QString& path)
{
    if (m_files.removeAll(QFileInfo(path).absoluteFilePath()) > 0)
        store();
}

void RecentFiles::clear()
{
    m_files.clear();
    store();
}

void RecentFiles::store()
{
    QSettings().setValue(kKey, m_files);
    emit changed(m_files);
}

} // namespace shardlab::gui

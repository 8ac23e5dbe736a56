// The most recently opened or saved files, kept in QSettings ("recentFiles"), newest first.
#pragma once

#include <QObject>
#include <QStringList>

namespace shardlab::gui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 8;
    explicit RecentFiles(QObject* parent = nullptr);
    QStringList files() const { return m_files; }
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

signals:
    void changed(const QStringList& files);

private:
    void store();
    QStringList m_files;
};

} // namespace shardlab::gui

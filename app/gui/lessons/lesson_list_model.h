// The lessons as a list model: "3. Balanced ownership: 14/10 or 12/12" in the chosen language,
// with the lesson's id, course part and scenario paths as roles.
#pragma once

#include "shardlab/lessons/lessons.h"

#include <QAbstractListModel>

#include <vector>

namespace shardlab::gui {

class LessonListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        CourseRole,
        ScenarioPathRole,
        CompareScenarioPathRole,
    };

    explicit LessonListModel(QObject* parent = nullptr);

    void setLessons(std::vector<Lesson> lessons);
    const std::vector<Lesson>& lessons() const { return m_lessons; }
    const Lesson* lessonAt(int row) const;
    int rowOf(const QString& id) const; // -1 if none

    void setLanguage(Language language);
    Language language() const { return m_language; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    std::vector<Lesson> m_lessons;
    Language m_language = Language::English;
};

// Converts the engine's UTF-8 text for widgets.
inline QString qstr(const std::string& s) { return QString::fromStdString(s); }

} // namespace shardlab::gui

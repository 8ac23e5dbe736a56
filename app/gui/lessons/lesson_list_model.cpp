#include "lessons/lesson_list_model.h"

namespace shardlab::gui {

LessonListModel::LessonListModel(QObject* parent) : QAbstractListModel(parent) {}

void LessonListModel::setLessons(std::vector<Lesson> lessons)
{
    beginResetModel();
    m_lessons = std::move(lessons);
    endResetModel();
}

const Lesson* LessonListModel::lessonAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_lessons.size()) ? &m_lessons[static_cast<size_t>(row)] : nullptr;
}

int LessonListModel::rowOf(const QString& id) const
{
    for (size_t i = 0; i < m_lessons.size(); ++i)
        if (qstr(m_lessons[i].id) == id)
            return static_cast<int>(i);
    return -1;
}

void LessonListModel::setLanguage(Language language)
{
    if (language == m_language)
        return;
    m_language = language;
    if (!m_lessons.empty())
        Q_EMIT dataChanged(index(0), index(rowCount() - 1), {Qt::DisplayRole, Qt::ToolTipRole, CourseRole});
}

int LessonListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_lessons.size());
}

QVariant LessonListModel::data(const QModelIndex& index, int role) const
{
    const Lesson* l = index.isValid() && !index.parent().isValid() ? lessonAt(index.row()) : nullptr;
    if (!l)
        return {};
    switch (role) {
    case Qt::DisplayRole: return tr("%1. %2").arg(l->order).arg(qstr(l->title.in(m_language)));
    case Qt::ToolTipRole: return qstr(l->summary.in(m_language));
    case IdRole: return qstr(l->id);
    case CourseRole: return qstr(l->course.in(m_language));
    case ScenarioPathRole: return qstr(l->scenarioPath().lexically_normal().string());
    case CompareScenarioPathRole:
        return l->compareScenario.empty() ? QString() : qstr(l->compareScenarioPath().lexically_normal().string());
    default: return {};
    }
}

QHash<int, QByteArray> LessonListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "lessonId");
    names.insert(CourseRole, "course");
    names.insert(ScenarioPathRole, "scenarioPath");
    names.insert(CompareScenarioPathRole, "compareScenarioPath");
    return names;
}

} // namespace shardlab::gui

// Shared by the GUI tests: example scenarios, a scripted Prompter, and drag-and-drop onto the
// diagram through the view's real drop handling (QDragEnterEvent / QDragMoveEvent / QDropEvent).
#pragma once

#include "document/prompter.h"
#include "document/shardref.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/model/presets.h"
#include "topology/gpucarditem.h"
#include "topology/topologyview.h"

#include <QApplication>
#include <QDropEvent>
#include <QMimeData>
#include <QTest>

#include <memory>
#include <string>

namespace shardlab::gui::test {

inline Scenario loadExample(const std::string& file)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/" + file);
    if (!s)
        qFatal("%s", s.error().message.c_str());
    return namedIn(std::move(*s), Language::English); // as the app opens it in English
}

// Four 16 GB cards on PCIe and one 24 GB item in a single shard that no GPU holds yet.
inline Scenario fourCardsOneItem(Bytes size = 24'000'000'000ULL)
{
    Scenario s;
    s.name = "test";
    s.topology = *preset("teaching-4x16gb-pcie");
    s.workload.items.push_back({"model", ItemKind::Parameters, size, {Shard{0, size, {}}}});
    return s;
}

// Answers the controller's questions from fields the test sets, and records what it was shown.
class ScriptedPrompter : public Prompter {
public:
    SaveChoice saveChoice = SaveChoice::Discard;
    QString openPath, savePath;
    bool recover = true;
    int saveQuestions = 0;
    QStringList errors; // "title | text | details"

    SaveChoice askSaveChanges(const QString&) override
    {
        ++saveQuestions;
        return saveChoice;
    }
    QString askOpenPath(const QString&) override { return openPath; }
    QString askSavePath(const QString&) override { return savePath; }
    bool askRecover(const QString&) override { return recover; }
    void showError(const QString& title, const QString& text, const QString& details) override
    {
        errors << title + QStringLiteral(" | ") + text + QStringLiteral(" | ") + details;
    }
};

// Drops `mime` on the view at the centre of `card`, as a drag from another widget would: enter,
// move, drop. Returns whether the drop was accepted. The view takes a copy of nothing: `mime` must
// live until the call returns.
inline bool dropOnCard(TopologyView* view, GpuCardItem* card, QMimeData* mime,
                       Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    const QPoint at = view->mapFromScene(card->sceneBoundingRect().center());
    const Qt::DropActions actions = Qt::MoveAction | Qt::CopyAction;
    QDragEnterEvent enter(at, actions, mime, Qt::LeftButton, modifiers);
    QApplication::sendEvent(view->viewport(), &enter);
    QDragMoveEvent move(at, actions, mime, Qt::LeftButton, modifiers);
    QApplication::sendEvent(view->viewport(), &move);
    if (!move.isAccepted())
        return false;
    QDropEvent drop(QPointF(at), actions, mime, Qt::LeftButton, modifiers);
    QApplication::sendEvent(view->viewport(), &drop);
    return drop.isAccepted();
}

} // namespace shardlab::gui::test

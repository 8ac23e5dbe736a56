#include "shell/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {

QString plain(QString text) { return text.remove(QLatin1Char('&')).remove(QChar(0x2026)).trimmed(); }

void addMenu(QTreeWidgetItem* section, const QMenu* menu)
{
    for (QAction* a : menu->actions()) {
        if (a->menu()) {
            addMenu(section, a->menu());
            continue;
        }
        if (a->shortcuts().isEmpty() || a->text().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        auto* row = new QTreeWidgetItem(section, {plain(a->text()), keys.join(QStringLiteral(", "))});
        row->setToolTip(0, a->toolTip());
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(const QMenuBar* menus, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Keyboard shortcuts"));
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("What"), tr("Keys")});
    m_tree->setRootIsDecorated(false);
    m_tree->setAlternatingRowColors(true);
    for (QAction* top : menus->actions()) {
        if (!top->menu())
            continue;
        auto* section = new QTreeWidgetItem(m_tree, {plain(top->text())});
        addMenu(section, top->menu());
        if (section->childCount() == 0)
            delete section;
    }
    auto addSection = [this](const QString& title, const QList<QPair<QString, QString>>& keys) {
        auto* section = new QTreeWidgetItem(m_tree, {title});
        for (const auto& [what, key] : keys)
            new QTreeWidgetItem(section, {what, key});
    };
    addSection(tr("Playback (on the Run page; anywhere in presenter mode)"),
               {{tr("Play or pause"), tr("Space")},
                {tr("Step to the next / previous event"), tr("Right / Left")},
                {tr("Faster / slower"), tr("+ / -")},
                {tr("Go to the beginning / end of the run"), tr("Home / End")}});
    addSection(tr("Timeline"), {{tr("Zoom at the pointer"), tr("Mouse wheel")},
                                {tr("Pan"), tr("Drag")},
                                {tr("Fit the whole run"), tr("F")},
                                {tr("Move the playback there"), tr("Double-click")},
                                {tr("Select a span and its collective on every rank"), tr("Click")}});
    addSection(tr("Topology diagram"), {{tr("Zoom at the pointer"), tr("Mouse wheel")},
                                        {tr("Pan"), tr("Middle button drag, or Space + drag")},
                                        {tr("Give a shard to a GPU / move it"), tr("Drag the tile")},
                                        {tr("Replicate a shard"), tr("Ctrl + drag the tile")}});
    addSection(tr("Presenter mode"), {{tr("Leave presenter mode"), tr("Esc or F11")}});
    m_tree->expandAll();
    for (int c = 0; c < 2; ++c)
        m_tree->resizeColumnToContents(c);
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* section = m_tree->topLevelItem(i);
        section->setFirstColumnSpanned(true);
        QFont f = section->font(0);
        f.setBold(true);
        section->setFont(0, f);
    }

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tree);
    layout->addWidget(buttons);
    resize(720, 680);
}

QStringList ShortcutsDialog::rows() const
{
    QStringList out;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* section = m_tree->topLevelItem(i);
        for (int k = 0; k < section->childCount(); ++k)
            out << section->text(0) + QStringLiteral(" | ") + section->child(k)->text(0) + QStringLiteral(" | ")
                       + section->child(k)->text(1);
    }
    return out;
}

} // namespace shardlab::gui

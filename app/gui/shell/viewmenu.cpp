// The View menu (pages, the lessons, presenter mode and its theme) and the main toolbar.
#include "shell/mainwindow.h"

#include "run/runpage.h"
#include "shell/presentermode.h"
#include "shell/projectorview.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>

namespace shardlab::gui {

void MainWindow::addPageAction(int index)
{
    QWidget* page = m_pages->widget(index);
    const QString title = m_pages->tabText(index);
    QList<QKeySequence> keys;
    if (index < 9)
        keys << QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + index));
    QAction* a = addNamedAction(m_pagesMenu, QStringLiteral("view.page%1").arg(index), title,
                                tr("Show the %1 page").arg(title), keys);
    connect(a, &QAction::triggered, this, [this, page] { m_pages->setCurrentWidget(page); });
}

void MainWindow::buildViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setToolTipsVisible(true);
    m_pagesMenu = view;
    for (int i = 0; i < m_pages->count(); ++i)
        addPageAction(i);
    view->addSeparator();

    QAction* lessons = m_lessonsDock->toggleViewAction();
    lessons->setObjectName(QStringLiteral("view.lessons"));
    lessons->setText(tr("&Lessons"));
    lessons->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    lessons->setToolTip(tr("The guided lessons of the course beside the pages: each opens its scenario, walks "
                           "through steps and checks your answers"));
    view->addAction(lessons);
    view->addSeparator();

    QAction* presenter =
        addNamedAction(view, QStringLiteral("view.presenter"), tr("&Presenter mode"),
                       tr("Full screen, large fonts and a high-contrast theme for a projector; the "
                          "keyboard drives the playback (Help > Keyboard shortcuts). F11 or Esc leaves"),
                       {QKeySequence(Qt::Key_F11)});
    presenter->setCheckable(true);
    presenter->setIcon(style()->standardIcon(QStyle::SP_DesktopIcon));
    connect(presenter, &QAction::toggled, m_presenter, &PresenterMode::setActive);
    connect(m_presenter, &PresenterMode::activeChanged, presenter, &QAction::setChecked);

    QAction* projector = addNamedAction(view, QStringLiteral("view.projector"), tr("Pro&jector view"),
                                        tr("The diagram and the timeline of the run together on the whole screen, the "
                                           "lesson's step as a large caption: for the back of a lecture hall. Esc or "
                                           "Shift+F11 closes it"),
                                        {QKeySequence(Qt::SHIFT | Qt::Key_F11)});
    projector->setCheckable(true);
    connect(projector, &QAction::toggled, this, &MainWindow::setProjectorShown);

    QMenu* theme = view->addMenu(tr("Presenter &theme"));
    theme->setToolTipsVisible(true);
    auto* themes = new QActionGroup(this);
    QAction* light = addNamedAction(theme, QStringLiteral("view.themeLight"), tr("&Light, high contrast"),
                                    tr("Black on white: for bright rooms"));
    QAction* dark = addNamedAction(theme, QStringLiteral("view.themeDark"), tr("&Dark, high contrast"),
                                   tr("White on black: for dark rooms and glaring projectors"));
    for (QAction* a : {light, dark}) {
        a->setCheckable(true);
        themes->addAction(a);
    }
    (m_presenter->theme() == PresenterMode::Theme::Dark ? dark : light)->setChecked(true);
    connect(light, &QAction::triggered, this, [this] { m_presenter->setTheme(PresenterMode::Theme::Light); });
    connect(dark, &QAction::triggered, this, [this] { m_presenter->setTheme(PresenterMode::Theme::Dark); });
}

void MainWindow::buildToolBar()
{
    m_toolBar = addToolBar(tr("Main"));
    m_toolBar->setObjectName(QStringLiteral("mainToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->setMovable(false);
    QAction* run = action(QStringLiteral("run.run"));
    run->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    QAction* cancel = action(QStringLiteral("run.cancel"));
    cancel->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_toolBar->addAction(run);
    m_toolBar->addAction(cancel);
    m_toolBar->addSeparator();
    m_toolBar->addAction(action(QStringLiteral("view.lessons")));
    m_toolBar->addAction(action(QStringLiteral("view.presenter")));
}

} // namespace shardlab::gui

namespace shardlab::gui {

ProjectorView* MainWindow::projector() const { return m_projector; }

void MainWindow::setProjectorShown(bool shown)
{
    if (shown == !m_projector.isNull())
        return;
    QAction* toggle = action(QStringLiteral("view.projector"));
    if (!shown) {
        m_projector->close(); // deletes itself
        return;
    }
    // in presenter mode the application's font is already larger, and the dark theme's diagram is black
    const bool presenting = m_presenter && m_presenter->isActive();
    const bool dark = presenting && m_presenter->theme() == PresenterMode::Theme::Dark;
    m_projector =
        new ProjectorView(topologyScene(), m_run, m_lessons, this, presenting ? PresenterMode::kFontScale : 1.0, dark);
    connect(m_projector, &ProjectorView::closed, this, [toggle] {
        const QSignalBlocker quiet(toggle);
        toggle->setChecked(false);
    });
    const QSignalBlocker quiet(toggle);
    toggle->setChecked(true);
    m_projector->showOn(this);
}

} // namespace shardlab::gui

// Presenter mode (View > Presenter mode, F11, the toolbar): the window full screen, every font
// larger (widgets, plots), a high-contrast light or dark theme (palette, plots, diagram
// background), and the playback keys (Space, arrows, +/-, Home/End) working anywhere in the
// window. Leaving (F11, Esc) puts back the window's layout, fonts, palette and plots exactly. The
// theme is remembered across sessions (QSettings "presenter/theme").
#pragma once

#include <QFont>
#include <QObject>
#include <QPalette>
#include <QPointer>

#include <functional>
#include <utility>
#include <vector>

class QShortcut;
class QWidget;

namespace shardlab::gui {

class MainWindow;

class PresenterMode : public QObject {
    Q_OBJECT
public:
    enum class Theme { Light, Dark };
    // Fonts grow by this much: 10 pt becomes 15 pt, readable from the back of a lecture hall.
    static constexpr double kFontScale = 1.5;
    // The topology diagram's text grows by less: its cards keep their layout, and their rows have
    // room for text 1.3 times the plain size (a card's 9.5 pt info line becomes 12.4 pt in an
    // 18-unit row).
    static constexpr double kDiagramTextScale = 1.3;
    // Diagram text smaller than this on screen is not drawn (compact cards, no link labels).
    static constexpr double kDiagramMinTextPx = 12;

    explicit PresenterMode(MainWindow* window);
    ~PresenterMode() override;

    bool isActive() const { return m_active; }
    Theme theme() const { return m_theme; }
    static QPalette palette(Theme theme);
    static QString themeKey(Theme theme); // "light", "dark" (the stored setting)

public slots:
    void setActive(bool on);
    void toggle() { setActive(!m_active); }
    // Also while presenting: the new theme is applied at once.
    void setTheme(shardlab::gui::PresenterMode::Theme theme);

signals:
    void activeChanged(bool active);
    void themeChanged(shardlab::gui::PresenterMode::Theme theme);

private:
    void enter();
    void leave();
    // The Lessons dock hidden, saying so, where it does not fit beside the pages.
    void putAwayLessons();
    void applyLook();
    void undoLook();
    void whitenIcons();

    MainWindow* m_window;
    bool m_active = false;
    Theme m_theme = Theme::Light;
    QShortcut* m_escape = nullptr;
    QMetaObject::Connection m_lessonsShown; // while presenting: the Lessons dock shown goes below the pages
    // what leaving puts back
    QByteArray m_geometry;
    QByteArray m_state;
    Qt::WindowStates m_windowState;
    QFont m_appFont;
    QPalette m_appPalette;
    QString m_styleName; // the application's style before presenter mode wrapped it
    std::vector<std::pair<QPointer<QWidget>, QFont>> m_fonts; // widgets with fonts of their own
    std::vector<std::function<void()>> m_undo;                // plots, views
};

} // namespace shardlab::gui

#include "shell/presentermode.h"

#include "shell/dockfit.h"
#include "shell/tabbarfit.h"

#include "shell/mainwindow.h"
#include "style/plottheme.h"
#include "timeline/qcustomplot_include.h"
#include "run/playbackbar.h"
#include "run/runpage.h"
#include "style/theme.h"
#include "style/timelinestyle.h"

#include <QApplication>
#include <QComboBox>
#include <QGraphicsView>
#include <QPainter>
#include <QProxyStyle>
#include <QDockWidget>
#include <QScreen>
#include <QStatusBar>
#include <QSettings>
#include <QShortcut>
#include <QStyleFactory>
#include <QStyleOption>
#include <QTimer>
#include <QTabBar>
#include <QAction>
#include <QToolButton>

namespace shardlab::gui {

namespace {
const char* const kThemeSetting = "presenter/theme";

// Fusion outlines a check box and a radio button a shade darker than the window: on the dark
// theme's near-black window the box cannot be seen. This outlines them again in the palette's mid
// grey wherever the window is dark.
class VisibleIndicators : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;
    void drawPrimitive(PrimitiveElement pe, const QStyleOption* opt, QPainter* p, const QWidget* w) const override
    {
        QProxyStyle::drawPrimitive(pe, opt, p, w);
        if ((pe != PE_IndicatorCheckBox && pe != PE_IndicatorRadioButton)
            || opt->palette.color(QPalette::Window).lightness() > 96)
            return;
        p->save();
        p->setRenderHint(QPainter::Antialiasing, pe == PE_IndicatorRadioButton);
        p->setPen(QPen(opt->palette.color(QPalette::Mid), 1));
        p->setBrush(Qt::NoBrush);
        const QRectF r = QRectF(opt->rect).adjusted(0.5, 0.5, -0.5, -0.5);
        if (pe == PE_IndicatorCheckBox)
            p->drawRect(r);
        else
            p->drawEllipse(r);
        p->restore();
    }
};

// Widgets that do not follow a change of the application's font by themselves. A widget with a
// style sheet: its style resolves its font once, against its parent's font at that moment (a style change, a new style
// sheet). So presenter mode's larger font did not reach the labels with style sheets (the lessons'
// welcome note and steps, the run page's "live unavailable"), and a style change while it was in
// force (leaving restores the application's style) left them at presenter size after leaving.
// Setting each style sheet again, parents first, resolves them against the fonts in force now.
// A combo box forgets its cached minimum size on a style change but not on a font change: the
// playback's speed box kept its presenter width after leaving and widened the run page by 80 px.
void refollowApplicationFont(QWidget* root)
{
    const QList<QWidget*> widgets = root->findChildren<QWidget*>(); // parents before their children
    for (QWidget* w : widgets) {
        if (!w->styleSheet().isEmpty())
            w->setStyleSheet(w->styleSheet());
        if (qobject_cast<QComboBox*>(w)) {
            QEvent measureAgain(QEvent::StyleChange);
            QCoreApplication::sendEvent(w, &measureAgain);
            w->updateGeometry();
        }
    }
}
} // namespace

PresenterMode::PresenterMode(MainWindow* window) : QObject(window), m_window(window)
{
    const QString stored = QSettings().value(QLatin1String(kThemeSetting)).toString();
    m_theme = stored == themeKey(Theme::Dark) ? Theme::Dark : Theme::Light;
    m_escape = new QShortcut(QKeySequence(Qt::Key_Escape), window);
    m_escape->setContext(Qt::WindowShortcut);
    m_escape->setEnabled(false);
    connect(m_escape, &QShortcut::activated, this, [this] { setActive(false); });
}

PresenterMode::~PresenterMode() = default;

QString PresenterMode::themeKey(Theme theme)
{
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

QPalette PresenterMode::palette(Theme theme)
{
    // Pure black and white for text and backgrounds (contrast 21:1), one saturated accent.
    QPalette p;
    const bool dark = theme == Theme::Dark;
    const QColor text = dark ? QColor(Qt::white) : QColor(Qt::black);
    const QColor window = dark ? QColor(0x0A, 0x0A, 0x0A) : QColor(Qt::white);
    const QColor base = dark ? QColor(Qt::black) : QColor(Qt::white);
    const QColor alternate = dark ? QColor(0x1C, 0x1C, 0x1C) : QColor(0xEE, 0xEE, 0xEE);
    const QColor button = dark ? QColor(0x26, 0x26, 0x26) : QColor(0xE4, 0xE4, 0xE4);
    const QColor highlight = dark ? QColor(0xFF, 0xD0, 0x40) : QColor(0x00, 0x3E, 0x9C);
    const QColor highlighted = dark ? QColor(Qt::black) : QColor(Qt::white);
    const QColor disabled = dark ? QColor(0x9A, 0x9A, 0x9A) : QColor(0x5A, 0x5A, 0x5A);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, dark ? QColor(0xFF, 0x80, 0x80) : QColor(0xB0, 0x00, 0x00));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, highlighted);
    p.setColor(QPalette::ToolTipBase, dark ? QColor(0x20, 0x20, 0x20) : QColor(0xFF, 0xFF, 0xE0));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Link, dark ? QColor(0x80, 0xC8, 0xFF) : QColor(0x00, 0x3E, 0x9C));
    p.setColor(QPalette::Light, dark ? QColor(0x50, 0x50, 0x50) : QColor(Qt::white));
    p.setColor(QPalette::Midlight, dark ? QColor(0x3A, 0x3A, 0x3A) : QColor(0xD0, 0xD0, 0xD0));
    p.setColor(QPalette::Mid, dark ? QColor(0x80, 0x80, 0x80) : QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Dark, dark ? QColor(0xB0, 0xB0, 0xB0) : QColor(0x40, 0x40, 0x40));
    p.setColor(QPalette::Shadow, dark ? QColor(0xC0, 0xC0, 0xC0) : QColor(Qt::black));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

void PresenterMode::setActive(bool on)
{
    if (on == m_active)
        return;
    if (on)
        enter();
    else
        leave();
    m_active = on;
    m_escape->setEnabled(on);
    emit activeChanged(on);
}

void PresenterMode::setTheme(Theme theme)
{
    if (theme == m_theme)
        return;
    m_theme = theme;
    QSettings().setValue(QLatin1String(kThemeSetting), themeKey(theme));
    if (m_active) {
        undoLook();
        applyLook();
    }
    emit themeChanged(theme);
}

void PresenterMode::enter()
{
    m_geometry = m_window->saveGeometry();
    m_state = m_window->saveState();
    m_windowState = m_window->windowState();
    m_appFont = QApplication::font();
    m_appPalette = QApplication::palette();
    m_styleName = QApplication::style()->name();
    QApplication::setStyle(new VisibleIndicators(QStyleFactory::create(m_styleName))); // before the palette
    applyLook();
    m_window->runPage()->setShortcutScope(m_window);
    m_window->runPage()->favourTimeline(true);
    // Full screen is the window manager's to grant: a bare X server (a kiosk, a lecture room's
    // projector PC without a desktop) has none, and the window would keep its size, even one
    // larger than the projector's screen. So the window first covers the screen it is on itself
    // (before asking: a geometry set afterwards would end the full-screen state), then asks.
    if (QScreen* screen = m_window->screen()) {
        m_window->setGeometry(screen->geometry());
        // The larger fonts widen the pages. Where the lesson no longer fits beside them it is put
        // away while presenting, saying so: below the pages it took the height the run's timeline
        // needs to show every rank to a room (on a 1366x768 projector a 4-rank run had one lane
        // in four named). View > Lessons (Ctrl+L) brings it back below the pages, a quarter of
        // the screen tall; leaving restores the layout.
        // (Again once the pages have their presenter sizes: the run page's side panel measures its
        // labels in the next turn of the event loop.)
        putAwayLessons();
        QTimer::singleShot(0, this, [this] {
            if (m_active)
                putAwayLessons();
        });
        QDockWidget* lessons = m_window->lessonsDock();
        m_lessonsShown = connect(lessons, &QDockWidget::visibilityChanged, this, [this](bool visible) {
            if (visible && m_active)
                if (const QScreen* s = m_window->screen())
                    dockfit::fitBesideOrBelow(m_window, m_window->lessonsDock(), s->geometry().width(), 25);
        });
    }
    m_window->showFullScreen();
}

void PresenterMode::putAwayLessons()
{
    QDockWidget* lessons = m_window->lessonsDock();
    const QScreen* screen = m_window->screen();
    if (!screen || dockfit::fitsBeside(m_window, lessons, screen->geometry().width()))
        return;
    lessons->hide();
    m_window->statusBar()->showMessage(tr("Lessons put away while presenting: the run needs the screen. View > "
                                          "Lessons (Ctrl+L) shows them below the pages."),
                                       10000);
}

void PresenterMode::leave()
{
    disconnect(m_lessonsShown);
    m_window->runPage()->setShortcutScope(nullptr);
    m_window->runPage()->favourTimeline(false);
    QApplication::setStyle(m_styleName);
    undoLook();
    m_window->setWindowState(m_windowState);
    m_window->restoreGeometry(m_geometry);
    m_window->restoreState(m_state);
    // Once more when the pages have their plain minimum sizes: some follow the fonts in the next
    // turn of the event loop (the run page's side panel measures its labels with style sheets),
    // and a layout restored while they were still presenter-sized squeezed the Lessons dock or
    // widened the window.
    QTimer::singleShot(0, this, [this] {
        if (m_active)
            return;
        m_window->restoreGeometry(m_geometry);
        m_window->restoreState(m_state);
    });
}

void PresenterMode::applyLook()
{
    const bool dark = m_theme == Theme::Dark;
    // Fonts a widget set for itself are scaled by hand (measured before the application font
    // grows, which the others follow).
    m_fonts.clear();
    // (only the main window's: a window of its own, such as the projector view, keeps the fonts it chose)
    for (QWidget* w : m_window->findChildren<QWidget*>())
        if (w->testAttribute(Qt::WA_SetFont) && w->window() == m_window)
            m_fonts.emplace_back(w, w->font());
    QFont larger = m_appFont;
    if (larger.pointSizeF() > 0)
        larger.setPointSizeF(larger.pointSizeF() * kFontScale);
    else
        larger.setPixelSize(qRound(larger.pixelSize() * kFontScale));
    QApplication::setPalette(palette(m_theme));
    theme::setDiagramTextScale(kDiagramTextScale); // before the font change the scenes react to
    theme::setDiagramMinTextPx(kDiagramMinTextPx);
    QApplication::setFont(larger);
    // the new font reaches the windows' widgets through posted events: deliver them now, so
    // that what follows measures and resolves against it
    QCoreApplication::sendPostedEvents();
    for (const auto& [widget, font] : m_fonts) {
        if (!widget)
            continue;
        QFont f = font;
        if (f.pointSizeF() > 0)
            f.setPointSizeF(font.pointSizeF() * kFontScale);
        else if (f.pixelSize() > 0)
            f.setPixelSize(qRound(font.pixelSize() * kFontScale));
        widget->setFont(f);
    }
    refollowApplicationFont(m_window);
    // crowded tab bars get the largest font at which every tab still shows
    for (QTabBar* bar : m_window->findChildren<QTabBar*>()) {
        // from its presenter size (just set) down to its plain size, and on a small screen a little less
        auto* fit = new TabBarFit(bar, 0.85 / kFontScale);
        m_undo.push_back([f = QPointer<TabBarFit>(fit)] { delete f.data(); });
    }
    timelinestyle::darkBackground() = dark;
    if (dark)
        whitenIcons();
    for (QCustomPlot* plot : m_window->findChildren<QCustomPlot*>())
        if (plot->window() == m_window)
            m_undo.push_back(plottheme::apply(plot, dark, kFontScale));
    for (QGraphicsView* view : m_window->findChildren<QGraphicsView*>()) {
        const QBrush old = view->backgroundBrush();
        view->setBackgroundBrush(dark ? QBrush(QColor(0x0A, 0x0A, 0x0A)) : QBrush(Qt::white));
        m_undo.push_back([v = QPointer<QGraphicsView>(view), old] {
            if (v)
                v->setBackgroundBrush(old);
        });
    }
}

void PresenterMode::whitenIcons()
{
    // the style's icons are dark: on black they are drawn white
    const QColor white(Qt::white);
    PlaybackBar* bar = m_window->runPage()->playbackBar();
    bar->setIconColour(white);
    m_undo.push_back([b = QPointer<PlaybackBar>(bar)] {
        if (b)
            b->setIconColour(QColor());
    });
    for (QAction* a : m_window->findChildren<QAction*>()) {
        if (a->icon().isNull())
            continue;
        const QIcon old = a->icon();
        a->setIcon(PlaybackBar::tinted(old, white));
        m_undo.push_back([action = QPointer<QAction>(a), old] {
            if (action)
                action->setIcon(old);
        });
    }
    for (QAbstractButton* b : m_window->findChildren<QAbstractButton*>()) {
        auto* tool = qobject_cast<QToolButton*>(b);
        if (b->icon().isNull() || bar->isAncestorOf(b) || (tool && tool->defaultAction()))
            continue;
        const QIcon old = b->icon();
        b->setIcon(PlaybackBar::tinted(old, white));
        m_undo.push_back([button = QPointer<QAbstractButton>(b), old] {
            if (button)
                button->setIcon(old);
        });
    }
}

void PresenterMode::undoLook()
{
    for (auto it = m_undo.rbegin(); it != m_undo.rend(); ++it)
        (*it)();
    m_undo.clear();
    timelinestyle::darkBackground() = false;
    QApplication::setPalette(m_appPalette);
    theme::setDiagramTextScale(1.0);
    theme::setDiagramMinTextPx(0);
    QApplication::setFont(m_appFont);
    QCoreApplication::sendPostedEvents(); // as in applyLook()
    for (const auto& [widget, font] : m_fonts)
        if (widget)
            widget->setFont(font);
    m_fonts.clear();
    refollowApplicationFont(m_window);
}

} // namespace shardlab::gui

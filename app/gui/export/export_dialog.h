// The dialog behind "Export figure…": format (PNG, SVG, PDF), resolution (1x, 2x or a custom
// DPI), larger fonts for print, a caption, the figure's shape (16:9, 4:3, 1:1 or the view's own),
// SVG text as outlines, and the file. The shape and the outlines are remembered (QSettings). Plus the two entry points
// the main window uses: export one view, or every view into a folder.
#pragma once

#include "export/figure_exporter.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace shardlab::gui {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // `suggestedPath` without or with a suffix; `isPlot` enables "larger fonts for print".
    explicit ExportDialog(const QString& suggestedPath, bool isPlot, QWidget* parent = nullptr);

    FigureExportOptions options() const;
    QString path() const; // with the suffix of the chosen format

    // Asks how and where, then exports `view`; reports errors in a message box. Returns the file
    // written (nothing when cancelled or failed), for the status line.
    // `format` preselects a format (the menu's "as PNG/SVG/PDF").
    static std::optional<QString> exportView(QWidget* view, const QString& name, QWidget* parent,
                                             std::optional<FigureFormat> format = std::nullopt);
    void setFormat(FigureFormat format);
    // Asks for a folder, then writes every view as PNG (2x), SVG and PDF; reports what it wrote.
    // Returns the folder written into (nothing when cancelled or failed).
    static std::optional<QString> exportAll(const QList<NamedView>& views, QWidget* parent);

private:
    void syncSuffix();
    void browse();
    QComboBox* m_format = nullptr;
    QComboBox* m_resolution = nullptr;
    QSpinBox* m_dpi = nullptr;
    QCheckBox* m_largerFonts = nullptr;
    QLineEdit* m_caption = nullptr;
    QComboBox* m_aspect = nullptr;
    QCheckBox* m_outlines = nullptr;
    QLineEdit* m_path = nullptr;
};

} // namespace shardlab::gui

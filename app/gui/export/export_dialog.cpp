#include "export/export_dialog.h"

#include "common/plaintext.h"
#include "i18n/language.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

#include "timeline/qcustomplot_include.h"

namespace shardlab::gui {

namespace {
// Fonts in exported plots grow by this much when "larger fonts for print" is on: a 9 pt tick
// label becomes about 12 pt, legible on a figure printed half a page wide.
constexpr double kPrintFontScale = 1.35;
} // namespace

ExportDialog::ExportDialog(const QString& suggestedPath, bool isPlot, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Export figure"));
    m_format = new QComboBox(this);
    m_format->addItem(tr("PNG image"), static_cast<int>(FigureFormat::Png));
    m_format->addItem(tr("SVG drawing (vector)"), static_cast<int>(FigureFormat::Svg));
    m_format->addItem(tr("PDF document (vector)"), static_cast<int>(FigureFormat::Pdf));
    m_format->setToolTip(tr("PNG for slides and chat; SVG and PDF stay sharp at any size when printed"));

    m_resolution = new QComboBox(this);
    m_resolution->addItem(tr("1x (as on screen)"), 1.0);
    m_resolution->addItem(tr("2x (presentation)"), 2.0);
    m_resolution->addItem(tr("Custom DPI"), 0.0);
    m_resolution->setCurrentIndex(1);
    m_resolution->setToolTip(tr("Pixels per screen pixel of the PNG; DPI (dots per inch) sets it for print"));
    m_dpi = new QSpinBox(this);
    m_dpi->setRange(24, 1536);
    m_dpi->setValue(300);
    m_dpi->setSuffix(tr(" DPI"));
    m_dpi->setEnabled(false);
    auto* resolutionRow = new QHBoxLayout;
    resolutionRow->addWidget(m_resolution, 1);
    resolutionRow->addWidget(m_dpi);

    m_largerFonts = new QCheckBox(tr("Larger fonts for print"), this);
    m_largerFonts->setEnabled(isPlot);
    m_largerFonts->setChecked(isPlot);
    m_largerFonts->setToolTip(
        tr("Enlarges axis labels, tick labels and the legend of plots in the exported file only"));

    m_caption = new QLineEdit(this);
    m_caption->setObjectName(QStringLiteral("caption"));
    m_caption->setPlaceholderText(tr("none (e.g. \"ZeRO-3 on 4 GPUs: one more all-gather per layer\")"));
    m_caption->setToolTip(tr("A title drawn above the figure, as on a slide"));
    m_aspect = new QComboBox(this);
    m_aspect->setObjectName(QStringLiteral("aspect"));
    m_aspect->addItem(tr("As on screen"), 0.0);
    m_aspect->addItem(tr("16:9 (widescreen slide)"), 16.0 / 9.0);
    m_aspect->addItem(tr("4:3 (classic slide)"), 4.0 / 3.0);
    m_aspect->addItem(tr("1:1 (square)"), 1.0);
    m_aspect->setToolTip(tr("The figure's width to height: plots are laid out again to fill it, other views "
                            "are centred on white"));
    m_outlines = new QCheckBox(tr("Text as outlines (looks the same on every machine)"), this);
    m_outlines->setToolTip(tr("SVG: every text drawn as the shape of its letters, so that a machine without "
                              "this font shows it unchanged; clear it to keep the text editable and searchable"));
    m_outlines->setObjectName(QStringLiteral("outlines"));
    const QSettings settings;
    m_aspect->setCurrentIndex(
        std::max(0, m_aspect->findData(settings.value(QStringLiteral("export/aspect"), 0.0).toDouble())));
    m_outlines->setChecked(settings.value(QStringLiteral("export/textAsPaths"), true).toBool());

    m_path = new QLineEdit(suggestedPath, this);
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Resolution:"), resolutionRow);
    form->addRow(QString(), m_largerFonts);
    form->addRow(tr("Caption:"), m_caption);
    form->addRow(tr("Shape:"), m_aspect);
    form->addRow(QString(), m_outlines);
    form->addRow(tr("File:"), pathRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        const bool png = m_format->currentData().toInt() == static_cast<int>(FigureFormat::Png);
        m_resolution->setEnabled(png);
        m_dpi->setEnabled(png && m_resolution->currentData().toDouble() == 0.0);
        m_outlines->setEnabled(m_format->currentData().toInt() == static_cast<int>(FigureFormat::Svg));
        syncSuffix();
    });
    connect(m_resolution, &QComboBox::currentIndexChanged, this,
            [this] { m_dpi->setEnabled(m_resolution->currentData().toDouble() == 0.0); });
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_path->text().trimmed().isEmpty()) {
            QMessageBox::warning(this, tr("Export figure"), tr("Choose a file to write."));
            return;
        }
        QSettings remembered;
        remembered.setValue(QStringLiteral("export/aspect"), m_aspect->currentData().toDouble());
        remembered.setValue(QStringLiteral("export/textAsPaths"), m_outlines->isChecked());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_outlines->setEnabled(m_format->currentData().toInt() == static_cast<int>(FigureFormat::Svg));
    syncSuffix();
}

FigureExportOptions ExportDialog::options() const
{
    FigureExportOptions o;
    o.format = static_cast<FigureFormat>(m_format->currentData().toInt());
    const double scale = m_resolution->currentData().toDouble();
    o.scale = scale > 0 ? scale : 1.0;
    o.dpi = scale > 0 ? 0 : m_dpi->value();
    o.fontScale = m_largerFonts->isEnabled() && m_largerFonts->isChecked() ? kPrintFontScale : 1.0;
    o.caption = m_caption->text().trimmed();
    o.aspect = m_aspect->currentData().toDouble();
    o.textAsPaths = m_outlines->isChecked();
    return o;
}

QString ExportDialog::path() const { return m_path->text().trimmed(); }

void ExportDialog::syncSuffix()
{
    const QString suffix = FigureExporter::suffix(static_cast<FigureFormat>(m_format->currentData().toInt()));
    QString p = m_path->text().trimmed();
    if (p.isEmpty())
        return;
    const QFileInfo info(p);
    if (FigureExporter::formatForPath(p))
        p.chop(info.suffix().size() + 1);
    m_path->setText(p + QLatin1Char('.') + suffix);
}

void ExportDialog::browse()
{
    const QString chosen =
        QFileDialog::getSaveFileName(this, tr("Export figure"), path(), tr("Figures (*.png *.svg *.pdf)"));
    if (chosen.isEmpty())
        return;
    if (auto f = FigureExporter::formatForPath(chosen))
        m_format->setCurrentIndex(m_format->findData(static_cast<int>(*f)));
    m_path->setText(chosen);
    syncSuffix();
}

void ExportDialog::setFormat(FigureFormat format)
{
    m_format->setCurrentIndex(m_format->findData(static_cast<int>(format)));
}

std::optional<QString> ExportDialog::exportView(QWidget* view, const QString& name, QWidget* parent,
                                                std::optional<FigureFormat> format)
{
    const bool isPlot = qobject_cast<QCustomPlot*>(view) != nullptr;
    ExportDialog dialog(QDir::home().filePath(FigureExporter::fileBaseName(name)), isPlot, parent);
    if (format)
        dialog.setFormat(*format);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    FigureExportOptions options = dialog.options();
    options.title = name;
    if (Status st = FigureExporter::exportView(view, dialog.path(), options); !st) {
        warnPlainText(parent, tr("Export figure"), i18n::engineError(st.error()));
        return std::nullopt;
    }
    return dialog.path();
}

std::optional<QString> ExportDialog::exportAll(const QList<NamedView>& views, QWidget* parent)
{
    const QString folder = QFileDialog::getExistingDirectory(parent, tr("Export all figures into"), QDir::homePath());
    if (folder.isEmpty())
        return std::nullopt;
    FigureExportOptions options;
    options.scale = 2.0;
    options.fontScale = kPrintFontScale;
    auto written =
        FigureExporter::exportAll(views, folder, {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf}, options);
    if (!written) {
        warnPlainText(parent, tr("Export all figures"), i18n::engineError(written.error()));
        return std::nullopt;
    }
    QMessageBox::information(parent, tr("Export all figures"),
                             tr("Wrote %n file(s) into %1.", nullptr, static_cast<int>(written->size())).arg(folder));
    return folder;
}

} // namespace shardlab::gui

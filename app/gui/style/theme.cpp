#include "style/theme.h"

#include <QApplication>

#include <algorithm>
#include <cmath>

namespace shardlab::gui::theme {

QColor itemColour(int itemIndex)
{
    // Okabe-Ito-like palette: distinguishable with the common colour-vision deficiencies.
    static const QColor palette[] = {
        QColor(0x00, 0x72, 0xb2),
        QColor(0xe6, 0x9f, 0x00),
        QColor(0x00, 0x9e, 0x73),
        QColor(0xcc, 0x79, 0xa7),
        QColor(0x56, 0xb4, 0xe9),
        QColor(0xd5, 0x5e, 0x00),
        QColor(0x7a, 0x5c, 0xc4),
        QColor(0x8c, 0x8c, 0x2a),
    };
    const int n = static_cast<int>(std::size(palette));
    return palette[((itemIndex % n) + n) % n];
}

QColor linkColour(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink:
        return QColor(0x3a, 0x8a, 0x12); // NVIDIA-ish green, darker for contrast
    case LinkKind::Pcie:
        return QColor(0x1f, 0x5f, 0xbf);
    case LinkKind::CrossSocket:
        return QColor(0xb2, 0x4a, 0x00);
    case LinkKind::Network:
        return QColor(0x6a, 0x3d, 0x9a);
    }
    return ink();
}

Qt::PenStyle linkStyle(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink:
    case LinkKind::Pcie:
        return Qt::SolidLine;
    case LinkKind::CrossSocket:
        return Qt::DashLine;
    case LinkKind::Network:
        return Qt::DashDotLine;
    }
    return Qt::SolidLine;
}

double linkWidth(double gbps)
{
    return std::clamp(1.5 + 1.3 * std::log2(std::max(gbps, 1.0) / 8.0), 1.5, 10.0);
}

QColor categoryColour(palette::Category category)
{
    const palette::Rgb c = palette::rgb(category);
    return QColor(c.r, c.g, c.b);
}

palette::Category activityCategory(ActivityState state)
{
    switch (state) {
    case ActivityState::Idle: return palette::Category::Idle;
    case ActivityState::Compute: return palette::Category::Compute;
    case ActivityState::Communicate: return palette::Category::Communication;
    case ActivityState::Wait: return palette::Category::Wait;
    case ActivityState::Paging: return palette::Category::Paging;
    }
    return palette::Category::Idle;
}

QColor activityColour(ActivityState state)
{
    return categoryColour(activityCategory(state));
}

QColor utilisationColour(double u)
{
    u = std::clamp(u, 0.0, 1.0);
    // 0: light blue, 0.5: amber, 1: red
    const QColor a(0x42, 0xa5, 0xf5), b(0xff, 0xb3, 0x00), c(0xd5, 0x00, 0x00);
    auto mix = [](const QColor& x, const QColor& y, double t) {
        return QColor::fromRgbF(static_cast<float>(x.redF() + (y.redF() - x.redF()) * t),
            static_cast<float>(x.greenF() + (y.greenF() - x.greenF()) * t),
            static_cast<float>(x.blueF() + (y.blueF() - x.blueF()) * t));
    };
    return u < 0.5 ? mix(a, b, u * 2) : mix(b, c, (u - 0.5) * 2);
}

QFont diagramFont(double pointSize, bool bold)
{
    QFont f = QApplication::font();
    f.setPointSizeF(pointSize);
    f.setBold(bold);
    return f;
}

} // namespace shardlab::gui::theme

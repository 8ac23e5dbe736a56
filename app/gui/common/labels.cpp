#include "common/labels.h"

#include "i18n/engineterms.h"

#include <QStringList>

#include <algorithm>
#include <optional>

namespace shardlab::gui {

QString Labels::gpu(int rank) { return tr("GPU %1").arg(rank); }

QString Labels::shard(const Scenario& s, int item, int shard)
{
    if (item < 0 || item >= static_cast<int>(s.workload.items.size()))
        return tr("shard");
    return tr("'%1' #%2").arg(qs(s.workload.items[static_cast<size_t>(item)].name)).arg(shard);
}

QString Labels::ranks(const std::vector<int>& ranks)
{
    std::vector<int> r = ranks;
    std::sort(r.begin(), r.end());
    QStringList parts;
    for (size_t i = 0; i < r.size();) {
        size_t j = i;
        while (j + 1 < r.size() && r[j + 1] == r[j] + 1)
            ++j;
        parts << (j > i + 1 ? QStringLiteral("%1-%2").arg(r[i]).arg(r[j]) : QString::number(r[i]));
        if (j == i + 1)
            parts << QString::number(r[j]);
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
}

QString Labels::op(OpKind kind) { return EngineTerms::op(kind); }

QString Labels::itemKind(ItemKind kind)
{
    switch (kind) {
    case ItemKind::Parameters: return tr("Parameters");
    case ItemKind::Gradients: return tr("Gradients");
    case ItemKind::OptimizerState: return tr("Optimizer state");
    case ItemKind::Activations: return tr("Activations");
    case ItemKind::Data: return tr("Data / batch");
    }
    return {};
}

QString Labels::linkKind(LinkKind kind) { return EngineTerms::linkLabel(kind); }

QString Labels::switchKind(SwitchKind kind)
{
    switch (kind) {
    case SwitchKind::NvSwitch: return tr("NVSwitch");
    case SwitchKind::PcieSwitch: return tr("PCIe switch");
    case SwitchKind::Cpu: return tr("CPU");
    case SwitchKind::Nic: return tr("NIC");
    case SwitchKind::NetworkSwitch: return tr("Network switch");
    }
    return {};
}

QString Labels::strategy(Strategy strategy)
{
    switch (strategy) {
    case Strategy::Replicate: return tr("Replicate everything");
    case Strategy::DataParallel: return tr("Data parallel");
    case Strategy::Zero1: return tr("ZeRO-1 (optimizer state sharded)");
    case Strategy::Zero2: return tr("ZeRO-2 (+ gradients sharded)");
    case Strategy::Zero3: return tr("ZeRO-3 / FSDP (everything sharded)");
    case Strategy::TensorParallel: return tr("Tensor parallel");
    case Strategy::PipelineParallel: return tr("Pipeline parallel");
    }
    return {};
}

std::optional<std::vector<int>> Labels::parseRanks(const QString& text)
{
    const QString t = text.trimmed();
    std::vector<int> out;
    if (t.isEmpty() || t.compare(tr("all"), Qt::CaseInsensitive) == 0
        || t.compare(QStringLiteral("all"), Qt::CaseInsensitive) == 0)
        return out;
    for (const QString& part : t.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList range = part.trimmed().split(QLatin1Char('-'));
        bool ok1 = false, ok2 = true;
        const int a = range.value(0).trimmed().toInt(&ok1);
        const int b = range.size() == 2 ? range.value(1).trimmed().toInt(&ok2) : a;
        if (range.size() > 2 || !ok1 || !ok2 || a < 0 || b < a || b - a > 100000)
            return std::nullopt;
        for (int r = a; r <= b; ++r)
            out.push_back(r);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace shardlab::gui

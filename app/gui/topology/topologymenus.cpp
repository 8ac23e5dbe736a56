// The diagram's context menus: on a GPU card, a link, or shard tiles.
#include "document/document.h"
#include "i18n/language.h"
#include "document/edits.h"
#include "common/labels.h"
#include "topology/linkdialog.h"
#include "topology/topologyscene.h"

#include "shardlab/base/physical_ranges.h"

#include <QGraphicsView>
#include <QInputDialog>
#include <QMenu>

namespace shardlab::gui {

namespace {
QWidget* viewOf(const QGraphicsScene* scene) { return scene->views().value(0); }
} // namespace

void TopologyScene::showGpuMenu(int rank, const QPoint& screenPos)
{
    const Scenario& s = m_document->scenario();
    if (rank < 0 || rank >= s.ranks())
        return;
    QWidget* parent = viewOf(this);
    QMenu menu(parent);
    const QString gpu = Labels::gpu(rank);
    menu.addAction(tr("Add a GPU like %1").arg(gpu), this,
                   [this, rank] { report(Edits::addGpuLike(*m_document, rank)); });
    QAction* remove =
        menu.addAction(tr("Remove %1").arg(gpu), this, [this, rank] { report(Edits::removeGpu(*m_document, rank)); });
    remove->setEnabled(s.ranks() > 1);
    menu.addSeparator();
    menu.addAction(tr("Memory of %1...").arg(gpu), this, [this, rank, parent] {
        const Gpu& g = m_document->scenario().topology.gpus[static_cast<size_t>(rank)];
        bool ok = false;
        const QString text = QInputDialog::getText(
            parent, tr("GPU memory"), tr("Memory of %1 (e.g. 16 GB, 80 GB, 141 GB):").arg(Labels::gpu(rank)),
            QLineEdit::Normal, bytesText(g.memory), &ok);
        if (!ok)
            return;
        auto size = parseSize(text.toStdString());
        if (!size)
            emit editFailed(i18n::engineError(size.error()));
        else
            report(Edits::setGpuMemory(*m_document, rank, *size));
    });
    menu.addAction(tr("Speed of %1...").arg(gpu), this, [this, rank, parent] {
        const Gpu& g = m_document->scenario().topology.gpus[static_cast<size_t>(rank)];
        bool ok = false;
        const double v = QInputDialog::getDouble(parent, tr("GPU speed"),
                                                 tr("Sustained compute rate of %1 in TFLOP/s:").arg(Labels::gpu(rank)),
                                                 g.tflops, kMinTflops, kMaxTflops, 2, &ok);
        if (ok)
            report(Edits::setGpuTflops(*m_document, rank, v));
    });
    menu.addAction(tr("Connect %1 to...").arg(gpu), this, [this, rank] { connectDialog(rank); });
    if (s.mesh && s.mesh->ranks() == s.ranks() && s.ranks() > 1) { // what dragging the card does, by the menu
        menu.addSeparator();
        for (const auto& entry :
             {std::pair{MeshUnit::TensorGroup, tr("Swap the TP group of %1 with that of GPU...").arg(gpu)},
              std::pair{MeshUnit::Stage, tr("Swap the pipeline stage of %1 with that of GPU...").arg(gpu)}})
            menu.addAction(entry.second, this, [this, rank, parent, unit = entry.first] {
                bool ok = false;
                const int to = QInputDialog::getInt(
                    parent, tr("Move on the mesh"),
                    unit == MeshUnit::Stage
                        ? tr("The GPU whose pipeline stage trades places with %1's:").arg(Labels::gpu(rank))
                        : tr("The GPU whose TP group trades places with %1's:").arg(Labels::gpu(rank)),
                    rank == 0 ? 1 : 0, 0, m_document->scenario().ranks() - 1, 1, &ok);
                if (ok)
                    dropMeshUnit(rank, to, unit);
            });
    }
    menu.addSeparator();
    QList<ShardRef> owned;
    for (size_t i = 0; i < s.workload.items.size(); ++i)
        for (size_t k = 0; k < s.workload.items[i].shards.size(); ++k)
            for (int o : s.workload.items[i].shards[k].owners)
                if (o == rank)
                    owned << ShardRef{static_cast<int>(i), static_cast<int>(k), rank};
    QAction* clear = menu.addAction(tr("Take every shard off %1").arg(gpu), this,
                                    [this, owned] { report(Edits::releaseShards(*m_document, owned)); });
    clear->setEnabled(!owned.isEmpty());
    menu.exec(screenPos);
}

void TopologyScene::showLinkMenu(int link, const QPoint& screenPos)
{
    const Scenario& s = m_document->scenario();
    if (link < 0 || link >= static_cast<int>(s.topology.links.size()))
        return;
    QWidget* parent = viewOf(this);
    const Link l = s.topology.links[static_cast<size_t>(link)];
    QMenu menu(parent);
    menu.addAction(tr("Bandwidth..."), this, [this, link, l, parent] {
        bool ok = false;
        const double v = QInputDialog::getDouble(parent, tr("Link bandwidth"), tr("Bandwidth per direction in GB/s:"),
                                                 l.bandwidthGBps, 0.01, 1e5, 2, &ok);
        if (ok)
            report(Edits::setLinkBandwidth(*m_document, link, v));
    });
    if (l.kind == LinkKind::NvLink)
        menu.addAction(tr("NVLink links in the bundle..."), this, [this, link, l, parent] {
            bool ok = false;
            const int v = QInputDialog::getInt(parent, tr("NVLink bundle"), tr("Links bundled (NV18 = 18):"), l.count,
                                               1, 1024, 1, &ok);
            if (ok)
                report(Edits::setLinkCount(*m_document, link, v));
        });
    menu.addAction(tr("Remove this link"), this, [this, link] { report(Edits::removeLink(*m_document, link)); });
    menu.exec(screenPos);
}

void TopologyScene::showShardMenu(const QList<ShardRef>& refs, const QPoint& screenPos)
{
    QMenu menu(viewOf(this));
    const ShardRef first = refs.value(0);
    menu.addAction(refs.size() == 1 ? tr("Take %1 off %2")
                                          .arg(Labels::shard(m_document->scenario(), first.item, first.shard),
                                               Labels::gpu(first.fromRank))
                                    : tr("Take %n shard(s) off their GPUs", nullptr, int(refs.size())),
                   this, [this, refs] { report(Edits::releaseShards(*m_document, refs)); });
    menu.exec(screenPos);
}

void TopologyScene::connectDialog(int fromRank)
{
    LinkDialog dialog(m_document->scenario().topology, fromRank, viewOf(this));
    if (dialog.exec() == QDialog::Accepted)
        report(Edits::addLink(*m_document, dialog.link()));
}

} // namespace shardlab::gui

// How long one ownership edit takes to reach every gauge and warning of the editor, on 64 GPUs
// (eight 8-GPU H200 nodes) with 256 shards: the edit, the undo command, capacityOf(), the
// diagram's gauges and tiles, the capacity table, the warnings and the other models; then the
// same plus a full repaint of the diagram. Offscreen (QT_QPA_PLATFORM=offscreen unless set).
//
//   build/bench/bench_gui_edit [edits=201]
#include "bench_common.h"
#include "document/document.h"
#include "document/edits.h"
#include "document/livefeedback.h"
#include "editor/editorpage.h"
#include "shardlab/model/presets.h"
#include "topology/gpucarditem.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"
#include "workload/feedbackpanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QUndoStack>

#include <cstdio>
#include <cstdlib>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

Scenario cluster()
{
    Scenario s;
    s.name = "bench: 64 GPUs, 256 shards";
    s.topology = scaleOut(*preset("h200-nvswitch-8"), 64);
    const struct {
        const char* name;
        ItemKind kind;
        double gb;
    } items[] = {{"parameters", ItemKind::Parameters, 640},
                 {"gradients", ItemKind::Gradients, 640},
                 {"optimizer state", ItemKind::OptimizerState, 1280},
                 {"activations", ItemKind::Activations, 2560}};
    for (const auto& it : items) {
        WorkloadItem item{it.name, it.kind, static_cast<Bytes>(it.gb * 1e9), {}};
        item.shards = evenShards(item.size, 64);
        for (int r = 0; r < 64; ++r)
            item.shards[static_cast<size_t>(r)].owners = {r};
        s.workload.items.push_back(item);
    }
    Op fwd;
    fwd.name = "forward";
    fwd.item = "activations";
    fwd.flops = 1e15;
    Op ar;
    ar.kind = OpKind::ReduceScatter;
    ar.item = "gradients";
    s.program = {fwd, ar};
    return s;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int edits = argc > 1 ? std::max(3, std::atoi(argv[1])) : 201;

    Document doc;
    doc.reset(cluster(), QString());
    EditorPage page(&doc);
    page.resize(1600, 1000);
    page.show();
    QApplication::processEvents();
    TopologyScene* scene = page.scene();
    if (scene->cardCount() != 64) {
        std::fprintf(stderr, "expected 64 cards, found %d\n", scene->cardCount());
        return 1;
    }

    std::vector<double> editMs, paintMs, undoMs;
    QElapsedTimer t;
    for (int i = 0; i < edits; ++i) {
        // move shard k of item i % 4 from its rank to the next one: two gauges, two tile rows,
        // the imbalance and its warning change
        const int item = i % 4, shard = (i * 7) % 64, from = shard, to = (shard + 1) % 64;
        t.start();
        const Status st = Edits::dropShards(doc, {ShardRef{item, shard, from}}, to, false);
        editMs.push_back(t.nsecsElapsed() / 1e6);
        if (!st) {
            std::fprintf(stderr, "edit failed: %s\n", st.error().message.c_str());
            return 1;
        }
        // check that the edit reached the diagram and the warnings
        const RankMemory& rm = page.feedback()->current().capacity.ranks[static_cast<size_t>(to)];
        if (scene->card(to)->gaugeText()
                != QStringLiteral("%1 / %2").arg(QString::fromStdString(formatBytes(rm.owned)),
                                                 QString::fromStdString(formatBytes(rm.capacity)))
            || page.feedbackPanel()->warnings().isEmpty()) {
            std::fprintf(stderr, "the edit did not reach the gauges or the warnings\n");
            return 1;
        }
        t.start();
        page.view()->viewport()->repaint();
        paintMs.push_back(t.nsecsElapsed() / 1e6);
        t.start();
        doc.undoStack()->undo();
        undoMs.push_back(t.nsecsElapsed() / 1e6);
        QApplication::processEvents();
    }

    std::printf("machine: %s\n", bench::machineDescription().c_str());
    std::printf("scenario: %d GPUs in %d nodes, %zu links, 256 shards; %d edits (each undone), offscreen\n",
                doc.scenario().ranks(), doc.scenario().topology.nodeCount(), doc.scenario().topology.links.size(),
                edits);
    std::printf("edit -> every gauge, tile, table and warning updated: median %.2f ms (target < 16 ms)\n",
                median(editMs));
    std::printf("undo of that edit:                                     median %.2f ms\n", median(undoMs));
    std::printf("full repaint of the diagram at fit-to-window:          median %.2f ms\n", median(paintMs));
    return median(editMs) < 16.0 ? 0 : 2;
}

// Where each part of a topology goes in the diagram: a pure function of the Topology, so that it
// is unit-tested without a scene and recomputed only when the machine changes.
//
// Each node (host) is a framed group laid out in rows, top to bottom: CPU sockets, PCIe switches
// (with their NICs beside them), the GPUs in rank order, NVSwitch fabrics as bars. A node with
// more than four GPUs over two CPU sockets is drawn as two mirrored halves, socket 0 on top and
// socket 1 upside down below, with what joins them in the middle (the NVSwitch bar, or DGX-1's
// GPU i to i+4 links): half as wide, so that an 8-GPU machine fills a window at a readable size.
// Direct GPU-GPU links within a row are arcs into the middle; the link between the two CPU sockets
// goes around the side. Nodes are arranged in a grid whose aspect suits a landscape window; the
// network fabric is a bar on top, reached from each NIC straight up or along a bus through the
// gaps between nodes.
#pragma once

#include "shardlab/model/topology.h"

#include <QPointF>
#include <QRectF>
#include <QVector>

#include <vector>

namespace shardlab::gui {

namespace layout {
inline constexpr double kCardWidth = 200, kCardHeight = 164;
inline constexpr double kCardGap = 44;
inline constexpr double kBoxWidth = 124, kBoxHeight = 46;
inline constexpr double kNicWidth = 64, kNicHeight = 36;
inline constexpr double kBarHeight = 36;
inline constexpr double kRowGap = 84;
inline constexpr double kFramePad = 28, kFrameTitle = 34;
inline constexpr double kNodeGap = 90; // between node frames (room for the bus)
} // namespace layout

enum class VertexShape { Card, Box, SmallBox, Bar };

struct VertexPlace {
    QRectF rect;
    VertexShape shape = VertexShape::Box;
    bool mirrored = false; // in the lower, upside-down half of a node: its links leave upwards
};

struct LinkRoute {
    // A polyline; with `curved`, exactly three points: start, quadratic control point, end.
    QVector<QPointF> points;
    bool curved = false;
    QPointF labelPos;
    double labelRoom = 0;         // length available for a label along the route
    bool labelOnVertical = false; // the label sits on a vertical segment (needs height, not width)
};

struct NodeFrame {
    int node = 0;
    QRectF rect;
};

struct TopologyLayout {
    std::vector<VertexPlace> vertices; // by vertex index: GPUs (ranks) first, then switches
    std::vector<LinkRoute> links;      // by index into Topology::links
    std::vector<NodeFrame> nodes;
    QRectF bounds;
};

TopologyLayout layoutTopology(const Topology& topology, double aspect = 1.6);

} // namespace shardlab::gui

#include "topology/topologylayout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace shardlab::gui {

using namespace layout;

namespace {

constexpr double kPitch = kCardWidth + kCardGap;
constexpr double kMargin = 40;
constexpr double kNicOffset = kBoxWidth / 2 + 14 + kNicWidth / 2;

// Depth below the GPU row of the arc that joins two GPUs `span` cards apart.
double arcDepth(int span) { return 34.0 + 34.0 * (std::max(span, 1) - 1); }

// Where the segment from the centre of `r` towards `target` leaves the rectangle.
QPointF boundaryToward(const QRectF& r, QPointF target)
{
    const QPointF c = r.center();
    const double dx = target.x() - c.x(), dy = target.y() - c.y();
    if (std::abs(dx) < 1e-9 && std::abs(dy) < 1e-9)
        return c;
    const double tx = std::abs(dx) < 1e-9 ? 1e300 : (r.width() / 2) / std::abs(dx);
    const double ty = std::abs(dy) < 1e-9 ? 1e300 : (r.height() / 2) / std::abs(dy);
    const double t = std::min(tx, ty);
    return {c.x() + dx * t, c.y() + dy * t};
}

double length(QPointF a, QPointF b) { return std::hypot(b.x() - a.x(), b.y() - a.y()); }

struct Adjacent {
    int vertex;
    int link;
};

// The layout of one node in its own coordinates (origin = top-left of its frame).
struct NodeLocal {
    int node = 0;
    std::map<int, VertexPlace> places;
    double width = 0, height = 0;
};

// The members of one row group: a whole node, or one socket's half of a split node.
struct Half {
    std::vector<int> gpus, cpus, pcie, nics, others;
};

class Layouter {
public:
    explicit Layouter(const Topology& t) : m_t(t), m_adj(static_cast<size_t>(t.vertexCount()))
    {
        for (size_t i = 0; i < t.links.size(); ++i) {
            const auto a = t.vertexOf(t.links[i].a), b = t.vertexOf(t.links[i].b);
            if (!a || !b)
                continue;
            m_adj[static_cast<size_t>(*a)].push_back({*b, static_cast<int>(i)});
            m_adj[static_cast<size_t>(*b)].push_back({*a, static_cast<int>(i)});
        }
    }

    std::optional<SwitchKind> kindOf(int v) const
    {
        if (m_t.isGpu(v))
            return std::nullopt;
        return m_t.switches[static_cast<size_t>(v - m_t.rankCount())].kind;
    }
    int socketOf(int v) const
    {
        return m_t.isGpu(v) ? m_t.gpus[static_cast<size_t>(v)].socket
                            : m_t.switches[static_cast<size_t>(v - m_t.rankCount())].socket;
    }
    const std::vector<Adjacent>& adj(int v) const { return m_adj[static_cast<size_t>(v)]; }

    NodeLocal layoutNode(int node, const std::vector<int>& members) const;

private:
    // Places a half's rows from `y` on: CPU, PCIe (+ NICs), GPUs; `mirrored` reverses the order.
    // Returns the y below the half; `right` grows to the rightmost edge.
    double placeHalf(const Half& h, bool mirrored, double y, NodeLocal& out, double& right) const;
    // Depth needed below (or above) a row of cards for the arcs between them.
    double arcRoom(const std::vector<int>& gpus, const std::map<int, VertexPlace>& places) const;

    const Topology& m_t;
    std::vector<std::vector<Adjacent>> m_adj;
};

// Pushes boxes of one row apart (sorted by centre) so that none overlaps its left neighbour.
void spreadRow(std::vector<std::pair<int, double>>& row, const std::map<int, double>& widths, double minLeft)
{
    std::sort(row.begin(), row.end(), [](auto& a, auto& b) { return a.second < b.second; });
    double right = minLeft - 16;
    for (auto& [v, x] : row) {
        const double w = widths.at(v);
        x = std::max(x, right + 16 + w / 2);
        right = x + w / 2;
    }
}

double Layouter::placeHalf(const Half& h, bool mirrored, double y, NodeLocal& out, double& right) const
{
    std::map<int, double> x;
    for (size_t i = 0; i < h.gpus.size(); ++i)
        x[h.gpus[i]] = kFramePad + kCardWidth / 2 + static_cast<double>(i) * kPitch;
    const double gpuRight = h.gpus.empty() ? kFramePad : x[h.gpus.back()] + kCardWidth / 2;
    auto inHalf = [&](int v, const std::vector<int>& list) {
        return std::find(list.begin(), list.end(), v) != list.end();
    };
    auto meanOfPlaced = [&](int v, auto&& accept) -> std::optional<double> {
        double sum = 0;
        int n = 0;
        for (const Adjacent& a : adj(v))
            if (x.count(a.vertex) && accept(a.vertex)) {
                sum += x[a.vertex];
                ++n;
            }
        return n ? std::optional<double>(sum / n) : std::nullopt;
    };
    // PCIe switches above their GPUs, CPUs above their switches (or GPUs); two passes so that a
    // switch that reaches GPUs only through another switch still finds its place.
    for (int pass = 0; pass < 2; ++pass) {
        for (int v : h.pcie)
            if (!x.count(v))
                if (auto m = meanOfPlaced(v, [&](int u) { return pass == 1 || m_t.isGpu(u); }))
                    x[v] = *m;
        for (int v : h.cpus)
            if (!x.count(v))
                if (auto m = meanOfPlaced(v, [&](int u) { return m_t.isGpu(u) || inHalf(u, h.pcie); }))
                    x[v] = *m;
    }
    double nextFree = gpuRight + 40;
    auto append = [&](int v, double w) {
        x[v] = nextFree + w / 2;
        nextFree += w + 24;
    };
    for (int v : h.pcie)
        if (!x.count(v))
            append(v, kBoxWidth);
    for (int v : h.cpus)
        if (!x.count(v))
            append(v, kBoxWidth);
    // NICs beside their parent switch (or CPU), alternating right and left
    std::map<int, int> nicsOf;
    for (int v : h.nics) {
        std::optional<int> parent;
        for (const Adjacent& a : adj(v))
            if (x.count(a.vertex) && (inHalf(a.vertex, h.pcie) || inHalf(a.vertex, h.cpus))) {
                parent = a.vertex;
                break;
            }
        if (!parent) {
            append(v, kNicWidth);
            continue;
        }
        const int k = nicsOf[*parent]++;
        const double side = k % 2 == 0 ? 1.0 : -1.0;
        x[v] = x[*parent] + side * (kNicOffset + (k / 2) * (kNicWidth + 12));
    }
    for (int v : h.others)
        append(v, kBoxWidth);

    std::map<int, double> widths;
    std::vector<std::pair<int, double>> cpuRow, pcieRow;
    for (int v : h.cpus) {
        widths[v] = kBoxWidth;
        cpuRow.push_back({v, x[v]});
    }
    for (const std::vector<int>* list : {&h.pcie, &h.nics, &h.others})
        for (int v : *list) {
            widths[v] = list == &h.nics ? kNicWidth : kBoxWidth;
            pcieRow.push_back({v, x[v]});
        }
    spreadRow(cpuRow, widths, kFramePad);
    spreadRow(pcieRow, widths, kFramePad);
    right = std::max(right, gpuRight);

    auto placeBoxes = [&](const std::vector<std::pair<int, double>>& row, double top) {
        for (const auto& [v, cx] : row) {
            const bool nic = kindOf(v) == SwitchKind::Nic;
            const double w = nic ? kNicWidth : kBoxWidth, hgt = nic ? kNicHeight : kBoxHeight;
            out.places[v] = {QRectF(cx - w / 2, top + (kBoxHeight - hgt) / 2, w, hgt),
                             nic ? VertexShape::SmallBox : VertexShape::Box, mirrored};
            right = std::max(right, cx + w / 2);
        }
    };
    auto placeCards = [&](double top) {
        for (int v : h.gpus)
            out.places[v] = {QRectF(x[v] - kCardWidth / 2, top, kCardWidth, kCardHeight), VertexShape::Card, mirrored};
    };
    if (!mirrored) {
        if (!cpuRow.empty()) {
            placeBoxes(cpuRow, y);
            y += kBoxHeight + kRowGap;
        }
        if (!pcieRow.empty()) {
            placeBoxes(pcieRow, y);
            y += kBoxHeight + kRowGap;
        }
        placeCards(y);
        return y + kCardHeight;
    }
    placeCards(y);
    y += kCardHeight;
    if (!pcieRow.empty()) {
        placeBoxes(pcieRow, y + kRowGap);
        y += kRowGap + kBoxHeight;
    }
    if (!cpuRow.empty()) {
        placeBoxes(cpuRow, y + kRowGap);
        y += kRowGap + kBoxHeight;
    }
    return y;
}

double Layouter::arcRoom(const std::vector<int>& gpus, const std::map<int, VertexPlace>& places) const
{
    double room = 0;
    for (int v : gpus)
        for (const Adjacent& a : adj(v))
            if (std::find(gpus.begin(), gpus.end(), a.vertex) != gpus.end()) {
                const double dx = places.at(a.vertex).rect.center().x() - places.at(v).rect.center().x();
                room = std::max(room, arcDepth(static_cast<int>(std::lround(std::abs(dx) / kPitch))) + 16);
            }
    return room;
}

NodeLocal Layouter::layoutNode(int node, const std::vector<int>& members) const
{
    NodeLocal out;
    out.node = node;
    Half halves[2];
    std::vector<int> bars;
    int gpusOn[2] = {0, 0};
    for (int v : members)
        if (m_t.isGpu(v))
            ++gpusOn[socketOf(v) == 0 ? 0 : 1];
    const bool split = gpusOn[0] > 0 && gpusOn[1] > 0 && gpusOn[0] + gpusOn[1] > 4;
    for (int v : members) {
        Half& h = halves[split && socketOf(v) != 0 ? 1 : 0];
        const auto k = kindOf(v);
        if (!k)
            h.gpus.push_back(v);
        else if (*k == SwitchKind::Cpu)
            h.cpus.push_back(v);
        else if (*k == SwitchKind::PcieSwitch)
            h.pcie.push_back(v);
        else if (*k == SwitchKind::Nic)
            h.nics.push_back(v);
        else if (*k == SwitchKind::NvSwitch)
            bars.push_back(v);
        else
            h.others.push_back(v);
    }

    double right = kFramePad + kBoxWidth;
    double y = placeHalf(halves[0], false, kFramePad + kFrameTitle, out, right);
    const double topArcs = arcRoom(halves[0].gpus, out.places);
    // the bottom half's arcs rise into the middle: measure them on a trial placement
    double bottomArcs = 0;
    if (split) {
        NodeLocal trial;
        double r = 0;
        placeHalf(halves[1], true, 0, trial, r);
        bottomArcs = arcRoom(halves[1].gpus, trial.places);
    }
    y += topArcs;
    if (!bars.empty()) {
        y += topArcs > 0 ? 24 : kRowGap;
        std::vector<int> allGpus = halves[0].gpus;
        allGpus.insert(allGpus.end(), halves[1].gpus.begin(), halves[1].gpus.end());
        for (size_t b = 0; b < bars.size(); ++b) {
            double lo = 1e300, hi = -1e300;
            for (const Adjacent& a : adj(bars[b]))
                if (out.places.count(a.vertex) && m_t.isGpu(a.vertex)) {
                    lo = std::min(lo, out.places[a.vertex].rect.left());
                    hi = std::max(hi, out.places[a.vertex].rect.right());
                }
            if (split)
                for (int g : halves[1].gpus)
                    for (const Adjacent& a : adj(g))
                        if (a.vertex == bars[b]) {
                            lo = std::min(lo, kFramePad);
                            hi = std::max(hi,
                                          kFramePad + static_cast<double>(halves[1].gpus.size()) * kPitch - kCardGap);
                        }
            if (lo > hi) {
                lo = kFramePad;
                hi = std::max(right, kFramePad + kBoxWidth);
            }
            out.places[bars[b]] = {QRectF(lo, y, hi - lo, kBarHeight), VertexShape::Bar, false};
            right = std::max(right, hi);
            y += kBarHeight + (b + 1 < bars.size() ? 24 : 0);
        }
        if (split)
            y += bottomArcs > 0 ? 24 + bottomArcs : kRowGap;
    } else if (split) {
        // no fabric between the halves: their direct links and arcs share the middle
        y += std::max(kRowGap * 1.5, bottomArcs + (topArcs > 0 ? 20 : 0));
    }
    if (split)
        y = placeHalf(halves[1], true, y, out, right);
    out.width = right + kFramePad;
    out.height = y + kFramePad;
    return out;
}

} // namespace

TopologyLayout layoutTopology(const Topology& t, double aspect)
{
    TopologyLayout out;
    const int nv = t.vertexCount();
    out.vertices.resize(static_cast<size_t>(nv));
    out.links.resize(t.links.size());
    if (nv == 0)
        return out;
    Layouter lay(t);

    std::map<int, std::vector<int>> byNode;
    std::vector<int> global;
    for (int v = 0; v < nv; ++v) {
        const int node = t.nodeOf(v);
        (node < 0 ? global : byNode[node]).push_back(v);
    }
    std::vector<NodeLocal> locals;
    double cellW = 0, cellH = 0;
    for (auto& [node, members] : byNode) {
        locals.push_back(lay.layoutNode(node, members));
        cellW = std::max(cellW, locals.back().width);
        cellH = std::max(cellH, locals.back().height);
    }

    // grid of nodes: the column count whose overall shape is closest to `aspect`
    const int n = static_cast<int>(locals.size());
    const bool fabric = !global.empty();
    int cols = std::max(n, 1);
    double best = 1e300;
    for (int c = 1; c <= std::max(n, 1); ++c) {
        const int rows = (n + c - 1) / c;
        const double w = c * cellW + (c - 1) * kNodeGap;
        const double h = rows * cellH + (rows - 1) * kNodeGap + (fabric ? kBarHeight + kNodeGap : 0);
        const double score = std::abs(std::log((w / h) / aspect));
        if (score < best - 1e-9) {
            best = score;
            cols = c;
        }
    }
    const int rows = n == 0 ? 0 : (n + cols - 1) / cols;
    bool anySplit = false;
    for (const NodeLocal& nl : locals)
        for (const auto& [v, place] : nl.places)
            anySplit = anySplit || place.mirrored;
    // NICs reach the fabric along a bus when a straight line up would cross other parts
    const bool bus = fabric && (rows > 1 || anySplit);
    const double left = kMargin + (bus ? kNodeGap : 0);
    const double top = kMargin + (fabric ? (kBarHeight + 24) * static_cast<double>(global.size()) + kNodeGap - 24 : 0);

    std::map<int, QRectF> frameOf;
    for (int i = 0; i < n; ++i) {
        const NodeLocal& nl = locals[static_cast<size_t>(i)];
        const QPointF origin(left + (i % cols) * (cellW + kNodeGap), top + (i / cols) * (cellH + kNodeGap));
        const QRectF frame(origin, QSizeF(nl.width, nl.height));
        out.nodes.push_back({nl.node, frame});
        frameOf[nl.node] = frame;
        for (const auto& [v, place] : nl.places)
            out.vertices[static_cast<size_t>(v)] = {place.rect.translated(origin), place.shape, place.mirrored};
    }
    const double fullLeft = kMargin, fullRight = left + cols * cellW + (cols - 1) * kNodeGap;
    for (size_t g = 0; g < global.size(); ++g) {
        const int v = global[g];
        const double y = kMargin + static_cast<double>(g) * (kBarHeight + 24);
        if (lay.kindOf(v) == SwitchKind::NetworkSwitch || lay.kindOf(v) == SwitchKind::NvSwitch)
            out.vertices[static_cast<size_t>(v)] = {QRectF(fullLeft, y, fullRight - fullLeft, kBarHeight),
                                                    VertexShape::Bar, false};
        else
            out.vertices[static_cast<size_t>(v)] = {QRectF(fullLeft, y, kBoxWidth, kBarHeight), VertexShape::Box,
                                                    false};
    }

    // routes
    for (size_t i = 0; i < t.links.size(); ++i) {
        const auto va = t.vertexOf(t.links[i].a), vb = t.vertexOf(t.links[i].b);
        if (!va || !vb)
            continue;
        const VertexPlace& pa = out.vertices[static_cast<size_t>(*va)];
        const VertexPlace& pb = out.vertices[static_cast<size_t>(*vb)];
        LinkRoute& route = out.links[i];
        if (pa.shape == VertexShape::Card && pb.shape == VertexShape::Card && t.nodeOf(*va) == t.nodeOf(*vb)
            && std::abs(pa.rect.top() - pb.rect.top()) < 1) {
            // an arc into the middle of the node (below the row, or above a mirrored row); endpoints
            // spread along the card's edge by direction
            const double dx = pb.rect.center().x() - pa.rect.center().x();
            const int span = static_cast<int>(std::lround(std::abs(dx) / kPitch));
            const double spread = kCardWidth / 2 - 24;
            const double off = std::clamp(dx / kPitch * 18.0, -spread, spread);
            const double edge = pa.mirrored ? pa.rect.top() : pa.rect.bottom();
            const QPointF s(pa.rect.center().x() + off, edge);
            const QPointF e(pb.rect.center().x() - off, edge);
            const double depth = pa.mirrored ? -arcDepth(span) : arcDepth(span);
            route.points = {s, QPointF((s.x() + e.x()) / 2, s.y() + 2 * depth), e};
            route.curved = true;
            route.labelPos = QPointF((s.x() + e.x()) / 2, s.y() + depth);
            route.labelRoom = std::abs(dx);
            continue;
        }
        const VertexPlace* bar = pa.shape == VertexShape::Bar ? &pa : pb.shape == VertexShape::Bar ? &pb : nullptr;
        if (bar) {
            const VertexPlace& other = bar == &pa ? pb : pa;
            const QRectF& o = other.rect;
            const double bx = std::clamp(o.center().x(), bar->rect.left() + 12, bar->rect.right() - 12);
            const bool above = o.center().y() < bar->rect.center().y();
            const QPointF onBar(bx, above ? bar->rect.top() : bar->rect.bottom());
            const QPointF fromOther(o.center().x(), above ? o.bottom() : o.top());
            const bool fabricBar = t.nodeOf(bar == &pa ? *va : *vb) < 0;
            if (fabricBar && bus && frameOf.count(t.nodeOf(bar == &pa ? *vb : *va))) {
                // along the bus: to the channel above the node (below it, from the mirrored half),
                // left to the gap between node columns, up to the fabric
                const QRectF frame = frameOf[t.nodeOf(bar == &pa ? *vb : *va)];
                const double channel = other.mirrored ? frame.bottom() + kNodeGap / 2 : frame.top() - kNodeGap / 2;
                const double trunk = frame.left() - kNodeGap / 2;
                const QPointF start(o.center().x(), other.mirrored ? o.bottom() : o.top());
                route.points = {start, QPointF(start.x(), channel), QPointF(trunk, channel),
                                QPointF(trunk, bar->rect.bottom())};
            } else {
                route.points = {fromOther, QPointF(fromOther.x(), onBar.y())};
            }
            route.labelPos = (route.points[0] + route.points[1]) / 2;
            route.labelRoom = length(route.points[0], route.points[1]);
            route.labelOnVertical = true;
            if (bar == &pa)
                std::reverse(route.points.begin(), route.points.end());
            continue;
        }
        if (lay.kindOf(*va) == SwitchKind::Cpu && lay.kindOf(*vb) == SwitchKind::Cpu && pa.mirrored != pb.mirrored
            && frameOf.count(t.nodeOf(*va))) {
            // the two sockets of a split node: around the right side, clear of everything between
            const double side = frameOf[t.nodeOf(*va)].right() - kFramePad / 2;
            const QPointF a(pa.rect.right(), pa.rect.center().y()), b(pb.rect.right(), pb.rect.center().y());
            route.points = {a, QPointF(side, a.y()), QPointF(side, b.y()), b};
            route.labelPos = QPointF(side, (a.y() + b.y()) / 2);
            route.labelRoom = std::abs(b.y() - a.y());
            route.labelOnVertical = true;
            continue;
        }
        const QPointF a = boundaryToward(pa.rect, pb.rect.center());
        const QPointF b = boundaryToward(pb.rect, pa.rect.center());
        route.points = {a, b};
        route.labelPos = (a + b) / 2;
        route.labelRoom = length(a, b);
        route.labelOnVertical = std::abs(b.x() - a.x()) < 1;
    }

    QRectF bounds;
    for (const VertexPlace& p : out.vertices)
        bounds = bounds.united(p.rect);
    for (const NodeFrame& f : out.nodes)
        bounds = bounds.united(f.rect);
    for (const LinkRoute& r : out.links)
        for (const QPointF& p : r.points)
            bounds = bounds.united(QRectF(p, QSizeF(1, 1)));
    out.bounds = bounds.adjusted(-kMargin, -kMargin, kMargin, kMargin);
    return out;
}

} // namespace shardlab::gui

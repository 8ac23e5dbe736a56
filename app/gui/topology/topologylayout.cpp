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
double arcDepth(int span) { return 30.0 + 26.0 * (std::max(span, 1) - 1); }

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

class Layouter {
public:
    explicit Layouter(const Topology& t)
        : m_t(t)
        , m_adj(static_cast<size_t>(t.vertexCount()))
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
    const std::vector<Adjacent>& adj(int v) const { return m_adj[static_cast<size_t>(v)]; }

    NodeLocal layoutNode(int node, const std::vector<int>& members) const;

private:
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

NodeLocal Layouter::layoutNode(int node, const std::vector<int>& members) const
{
    NodeLocal out;
    out.node = node;
    std::vector<int> gpus, cpus, pcie, nics, bars, others;
    for (int v : members) {
        const auto k = kindOf(v);
        if (!k)
            gpus.push_back(v);
        else if (*k == SwitchKind::Cpu)
            cpus.push_back(v);
        else if (*k == SwitchKind::PcieSwitch)
            pcie.push_back(v);
        else if (*k == SwitchKind::Nic)
            nics.push_back(v);
        else if (*k == SwitchKind::NvSwitch)
            bars.push_back(v);
        else
            others.push_back(v);
    }
    std::map<int, double> x;
    for (size_t i = 0; i < gpus.size(); ++i)
        x[gpus[i]] = kFramePad + kCardWidth / 2 + static_cast<double>(i) * kPitch;
    const double gpuRight = gpus.empty() ? kFramePad + kBoxWidth : x[gpus.back()] + kCardWidth / 2;

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
    auto any = [](int) { return true; };
    auto isGpu = [&](int v) { return m_t.isGpu(v); };
    // PCIe switches above their GPUs, CPUs above their switches (or GPUs), two passes so that a
    // switch that only reaches GPUs through another switch still finds its place.
    std::vector<int> unplaced;
    for (int pass = 0; pass < 2; ++pass) {
        for (int v : pcie)
            if (!x.count(v))
                if (auto m = pass == 0 ? meanOfPlaced(v, isGpu) : meanOfPlaced(v, any))
                    x[v] = *m;
        for (int v : cpus)
            if (!x.count(v))
                if (auto m = meanOfPlaced(v, [&](int u) { return m_t.isGpu(u) || kindOf(u) == SwitchKind::PcieSwitch; }))
                    x[v] = *m;
    }
    double nextFree = gpuRight + 40;
    for (int v : pcie)
        if (!x.count(v)) {
            x[v] = nextFree + kBoxWidth / 2;
            nextFree += kBoxWidth + 24;
        }
    for (int v : cpus)
        if (!x.count(v)) {
            x[v] = nextFree + kBoxWidth / 2;
            nextFree += kBoxWidth + 24;
        }
    // NICs beside their parent switch (or CPU), alternating right and left
    std::map<int, int> nicsOf;
    for (int v : nics) {
        std::optional<int> parent;
        for (const Adjacent& a : adj(v))
            if (x.count(a.vertex) && (kindOf(a.vertex) == SwitchKind::PcieSwitch || kindOf(a.vertex) == SwitchKind::Cpu)) {
                parent = a.vertex;
                break;
            }
        if (!parent) {
            x[v] = nextFree + kNicWidth / 2;
            nextFree += kNicWidth + 24;
            continue;
        }
        const int k = nicsOf[*parent]++;
        const double side = k % 2 == 0 ? 1.0 : -1.0;
        x[v] = x[*parent] + side * (kNicOffset + (k / 2) * (kNicWidth + 12));
    }
    for (int v : others) {
        x[v] = nextFree + kBoxWidth / 2;
        nextFree += kBoxWidth + 24;
    }

    std::map<int, double> widths;
    for (int v : cpus)
        widths[v] = kBoxWidth;
    for (int v : pcie)
        widths[v] = kBoxWidth;
    for (int v : others)
        widths[v] = kBoxWidth;
    for (int v : nics)
        widths[v] = kNicWidth;
    std::vector<std::pair<int, double>> cpuRow, pcieRow;
    for (int v : cpus)
        cpuRow.push_back({v, x[v]});
    for (int v : pcie)
        pcieRow.push_back({v, x[v]});
    for (int v : nics)
        pcieRow.push_back({v, x[v]});
    for (int v : others)
        pcieRow.push_back({v, x[v]});
    spreadRow(cpuRow, widths, kFramePad);
    spreadRow(pcieRow, widths, kFramePad);

    double y = kFramePad + kFrameTitle;
    double right = gpuRight;
    if (!cpuRow.empty()) {
        for (auto& [v, cx] : cpuRow) {
            out.places[v] = {QRectF(cx - kBoxWidth / 2, y, kBoxWidth, kBoxHeight), VertexShape::Box};
            right = std::max(right, cx + kBoxWidth / 2);
        }
        y += kBoxHeight + kRowGap;
    }
    if (!pcieRow.empty()) {
        for (auto& [v, cx] : pcieRow) {
            const bool nic = kindOf(v) == SwitchKind::Nic;
            const double w = nic ? kNicWidth : kBoxWidth, h = nic ? kNicHeight : kBoxHeight;
            out.places[v] = {QRectF(cx - w / 2, y + (kBoxHeight - h) / 2, w, h), nic ? VertexShape::SmallBox : VertexShape::Box};
            right = std::max(right, cx + w / 2);
        }
        y += kBoxHeight + kRowGap;
    }
    for (int v : gpus)
        out.places[v] = {QRectF(x[v] - kCardWidth / 2, y, kCardWidth, kCardHeight), VertexShape::Card};
    y += kCardHeight;
    // room for the arcs of direct GPU-GPU links
    double arcs = 0;
    for (int v : gpus)
        for (const Adjacent& a : adj(v))
            if (m_t.isGpu(a.vertex) && m_t.nodeOf(a.vertex) == node) {
                const int span = static_cast<int>(std::lround(std::abs(x[a.vertex] - x[v]) / kPitch));
                arcs = std::max(arcs, arcDepth(span) + 16);
            }
    y += arcs;
    if (!bars.empty()) {
        y += arcs > 0 ? 24 : kRowGap;
        for (int v : bars) {
            double lo = 1e300, hi = -1e300;
            for (const Adjacent& a : adj(v))
                if (m_t.isGpu(a.vertex) && x.count(a.vertex)) {
                    lo = std::min(lo, x[a.vertex] - kCardWidth / 2);
                    hi = std::max(hi, x[a.vertex] + kCardWidth / 2);
                }
            if (lo > hi) {
                lo = kFramePad;
                hi = gpuRight;
            }
            out.places[v] = {QRectF(lo, y, hi - lo, kBarHeight), VertexShape::Bar};
            y += kBarHeight + 24;
        }
        y -= 24;
    }
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
    const bool bus = fabric && rows > 1;
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
            out.vertices[static_cast<size_t>(v)] = {place.rect.translated(origin), place.shape};
    }
    const double fullLeft = kMargin, fullRight = left + cols * cellW + (cols - 1) * kNodeGap;
    for (size_t g = 0; g < global.size(); ++g) {
        const int v = global[g];
        const double y = kMargin + static_cast<double>(g) * (kBarHeight + 24);
        if (lay.kindOf(v) == SwitchKind::NetworkSwitch || lay.kindOf(v) == SwitchKind::NvSwitch)
            out.vertices[static_cast<size_t>(v)] = {QRectF(fullLeft, y, fullRight - fullLeft, kBarHeight), VertexShape::Bar};
        else
            out.vertices[static_cast<size_t>(v)] = {QRectF(fullLeft, y, kBoxWidth, kBarHeight), VertexShape::Box};
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
            // an arc below the GPU row; endpoints spread along each card's bottom edge by direction
            const double dx = pb.rect.center().x() - pa.rect.center().x();
            const int span = static_cast<int>(std::lround(std::abs(dx) / kPitch));
            const double spread = kCardWidth / 2 - 24;
            const double off = std::clamp(dx / kPitch * 18.0, -spread, spread);
            const QPointF s(pa.rect.center().x() + off, pa.rect.bottom());
            const QPointF e(pb.rect.center().x() - off, pb.rect.bottom());
            const double depth = arcDepth(span);
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
                // along the bus: up to the channel above the node, left to the gap, up to the fabric
                const QRectF frame = frameOf[t.nodeOf(bar == &pa ? *vb : *va)];
                const double channel = frame.top() - kNodeGap / 2;
                const double trunk = frame.left() - kNodeGap / 2;
                route.points = {fromOther, QPointF(fromOther.x(), channel), QPointF(trunk, channel),
                                QPointF(trunk, bar->rect.bottom())};
            } else {
                route.points = {fromOther, QPointF(fromOther.x(), onBar.y())};
            }
            if (bar == &pa)
                std::reverse(route.points.begin(), route.points.end());
            route.labelPos = (route.points[0] + route.points[1]) / 2;
            route.labelRoom = length(route.points[0], route.points[1]);
            continue;
        }
        const QPointF a = boundaryToward(pa.rect, pb.rect.center());
        const QPointF b = boundaryToward(pb.rect, pa.rect.center());
        route.points = {a, b};
        route.labelPos = (a + b) / 2;
        route.labelRoom = length(a, b);
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

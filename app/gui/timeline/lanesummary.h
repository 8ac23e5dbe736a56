// A lane's multi-resolution summary: how much of each time bin every span kind covers, in bins
// of binUs(0) and coarser levels of twice the width each (a mipmap of coverage). The level of
// detail pass (timelinelod.h) reads a zoomed-out lane from it, a few bins per pixel column,
// instead of searching millions of spans. Kept up to date while spans are appended: a span
// adds to the finest bins it covers (amortised: a lane's spans of one kind do not overlap, so
// they cover each bin once), the coarser levels are summed again from the first changed bin on
// (finish()), and the finest level is halved whenever it would hold more bins than a quarter
// of the lane's spans (or 1,024), so that the summary costs at most 8 bytes a span (4 floats a
// bin, twice the finest level in all) and a bin holds 4 spans or more on average. No Qt.
#pragma once

#include "shardlab/model/run_result.h"

#include <array>
#include <cstddef>
#include <vector>

namespace shardlab::gui {

class LaneSummary {
public:
    // Coverage in microseconds by SpanKind, and [3]: of the compute, unified-memory paging.
    using Bin = std::array<float, 4>;
    static constexpr size_t kPaging = 3;

    void add(SpanKind kind, bool paging, double beginUs, double endUs);
    // Brings the coarser levels up to date with what add() changed.
    void finish();

    bool empty() const { return m_levels.empty() || m_levels[0].empty(); }
    int levels() const { return static_cast<int>(m_levels.size()); }
    double originUs() const { return m_origin; }
    double binUs(int level) const { return m_binUs * static_cast<double>(size_t{1} << level); }
    const std::vector<Bin>& level(int l) const { return m_levels[static_cast<size_t>(l)]; }
    // Coverage of [aUs, bUs) from `level`'s bins, a bin cut by an edge counted by the share of
    // it inside (as if its spans were spread evenly over it): exact when the edges fall on the
    // level's bin boundaries.
    Bin coverage(int level, double aUs, double bUs) const;
    size_t bytes() const;

private:
    void halveFinest();

    double m_origin = 0;
    double m_binUs = 0; // width of a finest bin; 0 until the first span
    size_t m_spans = 0;
    size_t m_dirtyFrom = static_cast<size_t>(-1); // finest bins from here on changed since finish()
    std::vector<std::vector<Bin>> m_levels;
};

} // namespace shardlab::gui

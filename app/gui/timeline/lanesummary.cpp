#include "timeline/lanesummary.h"

#include <algorithm>
#include <cmath>

namespace shardlab::gui {

namespace {

constexpr size_t kMinFinestBins = 1024;
constexpr size_t kSpansPerBin = 4;
constexpr size_t kCoarsestBins = 16; // levels stop once one holds no more bins than this

} // namespace

void LaneSummary::add(SpanKind kind, bool paging, double beginUs, double endUs)
{
    if (!(endUs > beginUs))
        return;
    if (m_binUs == 0) {
        // the first span: bins as wide as it (to a power of two), from a multiple of that width
        m_binUs = std::exp2(std::floor(std::log2(std::max(endUs - beginUs, 1e-3))));
        m_origin = std::min(0.0, std::floor(beginUs / m_binUs) * m_binUs);
        m_levels.assign(1, {});
    }
    ++m_spans;
    std::vector<Bin>* finest = &m_levels[0];
    // what ends beyond the bins there may be: halve the finest level while it would hold more
    // than its share (halving keeps each bin's coverage: it only sums neighbours)
    const size_t cap = std::max(kMinFinestBins, m_spans / kSpansPerBin);
    while (static_cast<size_t>(std::max(0.0, (endUs - m_origin) / m_binUs)) + 1 > cap) {
        halveFinest();
        finest = &m_levels[0];
    }
    const double b = std::max(beginUs, m_origin); // earlier than the first span: counted from the origin
    if (!(endUs > b))
        return;
    const size_t first = static_cast<size_t>((b - m_origin) / m_binUs);
    const size_t last = static_cast<size_t>((endUs - m_origin) / m_binUs);
    if (finest->size() <= last)
        finest->resize(last + 1, Bin{});
    const size_t k = static_cast<size_t>(kind);
    for (size_t g = first; g <= last; ++g) {
        const double lo = m_origin + static_cast<double>(g) * m_binUs;
        const double us = std::min(endUs, lo + m_binUs) - std::max(b, lo);
        if (us <= 0)
            continue;
        (*finest)[g][k] += static_cast<float>(us);
        if (paging)
            (*finest)[g][kPaging] += static_cast<float>(us);
    }
    m_dirtyFrom = std::min(m_dirtyFrom, first);
}

void LaneSummary::halveFinest()
{
    std::vector<Bin>& f = m_levels[0];
    std::vector<Bin> half((f.size() + 1) / 2, Bin{});
    for (size_t g = 0; g < f.size(); ++g)
        for (size_t k = 0; k < 4; ++k)
            half[g / 2][k] += f[g][k];
    f = std::move(half);
    m_binUs *= 2;
    m_dirtyFrom = 0; // every coarser level is another one now
    m_levels.resize(1);
}

void LaneSummary::finish()
{
    if (empty() || m_dirtyFrom == static_cast<size_t>(-1))
        return;
    size_t from = m_dirtyFrom;
    for (size_t l = 1;; ++l) {
        if (m_levels[l - 1].size() <= kCoarsestBins) {
            m_levels.resize(l);
            break;
        }
        if (m_levels.size() <= l)
            m_levels.emplace_back(); // before taking references into m_levels
        const std::vector<Bin>& fine = m_levels[l - 1];
        std::vector<Bin>& coarse = m_levels[l];
        from /= 2;
        coarse.resize((fine.size() + 1) / 2, Bin{});
        for (size_t g = from; g < coarse.size(); ++g) {
            const Bin& x = fine[2 * g];
            const Bin y = 2 * g + 1 < fine.size() ? fine[2 * g + 1] : Bin{};
            for (size_t k = 0; k < 4; ++k)
                coarse[g][k] = x[k] + y[k];
        }
    }
    m_dirtyFrom = static_cast<size_t>(-1);
}

LaneSummary::Bin LaneSummary::coverage(int l, double aUs, double bUs) const
{
    Bin c{};
    if (empty() || l < 0 || l >= levels() || !(bUs > aUs))
        return c;
    const std::vector<Bin>& bins = level(l);
    const double w = binUs(l);
    const double fa = std::max(0.0, (aUs - m_origin) / w), fb = (bUs - m_origin) / w;
    if (fb <= 0)
        return c;
    const size_t first = static_cast<size_t>(fa);
    const size_t last = std::min(bins.size(), static_cast<size_t>(std::ceil(fb)));
    for (size_t g = first; g < last; ++g) {
        // the share of bin g inside [a, b)
        const double share = std::min(fb, static_cast<double>(g + 1)) - std::max(fa, static_cast<double>(g));
        if (share <= 0)
            continue;
        for (size_t k = 0; k < 4; ++k)
            c[k] += static_cast<float>(bins[g][k] * share);
    }
    return c;
}

size_t LaneSummary::bytes() const
{
    size_t n = 0;
    for (const auto& l : m_levels)
        n += l.capacity() * sizeof(Bin);
    return n;
}

} // namespace shardlab::gui

// Fitting a CostProfile to measurements: decomposition by probing, Nelder-Mead in log space,
// then per-collective corrections (calibration.h and docs/analysis.md give the method).
#include "shardlab/analysis/calibration.h"
#include "shardlab/analysis/calibration_bounds.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/analysis/collective_path.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>

namespace shardlab {

namespace {

constexpr int kProtocols = 3;
constexpr int kClasses = 4;
constexpr double kPrior = 1e-4; // weight of ln(v / v0)^2 per parameter
constexpr double kFree = 1e12;  // a factor that makes a term vanish in a probe

// What one sample's time is made of (see calibration.h, step 1).
struct Design {
    size_t sample = 0;
    int steps = 0;
    // steps x the longest route's link latencies, and the time of a ring's receive-only last step
    // that its memory takes whatever the link (w x moved / (0.85 HBM k): docs/cost-model.md, 3)
    double wireUs = 0;
    double routeUs = 0;               // the first part alone: steps x the route's latency
    int overlapSteps = 0;             // a ring's steps inside one node, where LL128's latency hides
    int hopClass = 0;                 // LinkKind of the slowest class on the pattern
    std::array<double, kClasses> x{}; // us at nominal bandwidth if only class c limited the bytes
    double logMeasured = 0;
};

// `base` with every latency removed and every protocol at full bandwidth; the link efficiencies
// stay, so that routes (widest paths over derated links) are the ones `base` would use.
CostProfile probeProfile(const CostProfile& base, double bandwidthFactor)
{
    CostProfile p = base;
    p.name = "probe";
    p.launchUs = 0;
    p.corrections.clear();
    for (ProtocolParams& pp : p.protocol)
        pp = {0, bandwidthFactor};
    for (LinkClassParams& l : p.link)
        l.hopUs = {0, 0, 0};
    return p;
}

std::vector<int> firstRanks(int n)
{
    std::vector<int> g(static_cast<size_t>(n));
    std::iota(g.begin(), g.end(), 0);
    return g;
}

// Probes the cost model on the first `ranks` GPUs for every sample with that rank count. The
// bytes are charged to the class of the link that limits the pattern under `base`, at that
// class's nominal rate (x = time at base's efficiency x base's efficiency); a fit that moves
// the bottleneck to another class is caught by the second pass, which decomposes again.
void decompose(const CalibrationData& data, const CostProfile& base, int ranks, std::vector<Design>& out,
               std::vector<Message>& notes)
{
    const Topology topo = data.topology.firstGpus(ranks);
    const std::vector<int> group = firstRanks(ranks);
    CostModel chooser(topo, base);
    CostModel latency(topo, probeProfile(base, kFree));
    // the same without HBM bandwidths: no memory-bound last step, the route latencies alone
    Topology noMemory = topo;
    for (Gpu& g : noMemory.gpus)
        g.memBandwidthGBps = 0;
    CostModel route(noMemory, probeProfile(base, kFree));
    const bool oneNode =
        std::all_of(topo.gpus.begin(), topo.gpus.end(), [&](const Gpu& g) { return g.node == topo.gpus.front().node; });
    // the bandwidth probe runs Simple alone (LL and LL128 made vanishingly slow): a ring's LL128
    // steps would hide their route latency behind the data and take it out of the difference
    CostProfile bandwidthProbe = probeProfile(base, 1.0);
    bandwidthProbe.protocol[static_cast<int>(Protocol::LL)].bandwidthFactor = 1.0 / kFree;
    bandwidthProbe.protocol[static_cast<int>(Protocol::LL128)].bandwidthFactor = 1.0 / kFree;
    CostModel bandwidth(topo, bandwidthProbe);
    std::vector<std::unique_ptr<CostModel>> hop;
    for (int c = 0; c < kClasses; ++c) {
        CostProfile h = probeProfile(base, kFree);
        h.link[static_cast<size_t>(c)].hopUs = {1, 1, 1};
        hop.push_back(std::make_unique<CostModel>(topo, h));
    }
    for (size_t i = 0; i < data.samples.size(); ++i) {
        const CalibrationSample& s = data.samples[i];
        if (s.ranks != ranks)
            continue;
        const Algorithm algo = chooser.collective(s.kind, s.bytes, group).algorithm;
        if (algo == Algorithm::Hierarchical) {
            notes.push_back(Message("calibration.note.hierarchical")
                                .with("collective", opName(s.kind))
                                .with("gpus", ranks)
                                .with("size", formatBinaryBytes(s.bytes)));
            continue;
        }
        const CollectiveCost wire = latency.collective(s.kind, s.bytes, group, algo);
        Design d;
        d.sample = i;
        d.steps = wire.steps;
        d.wireUs = wire.timeUs;
        d.routeUs = route.collective(s.kind, s.bytes, group, algo).timeUs;
        d.overlapSteps = algo == Algorithm::Ring && oneNode ? wire.steps : 0;
        double bestHop = -1;
        for (int c = 0; c < kClasses; ++c) {
            const double extra =
                hop[static_cast<size_t>(c)]->collective(s.kind, s.bytes, group, algo).timeUs - wire.timeUs;
            if (extra > bestHop) {
                bestHop = extra;
                d.hopClass = c;
            }
        }
        const CollectiveCost bw = bandwidth.collective(s.kind, s.bytes, group, algo);
        if (bw.bottleneckLink >= 0) {
            const int c = static_cast<int>(topo.links[static_cast<size_t>(bw.bottleneckLink)].kind);
            d.x[static_cast<size_t>(c)] =
                std::max(0.0, bw.timeUs - wire.timeUs) * base.link[static_cast<size_t>(c)].efficiency;
        }
        d.logMeasured = std::log(s.measuredUs);
        out.push_back(d);
    }
}

// The parameters being fitted, and how they map into a profile.
struct Layout {
    std::vector<int> hopClasses; // fitted per-step latencies (3 protocols each)
    std::vector<int> bwClasses;  // fitted efficiencies
    int size() const
    {
        return kProtocols + kProtocols * static_cast<int>(hopClasses.size()) + static_cast<int>(bwClasses.size()) + 2;
    }

    std::vector<double> read(const CostProfile& p) const
    {
        std::vector<double> v;
        for (int k = 0; k < kProtocols; ++k)
            v.push_back(p.protocol[static_cast<size_t>(k)].baseUs);
        for (int c : hopClasses)
            for (int k = 0; k < kProtocols; ++k)
                v.push_back(p.link[static_cast<size_t>(c)].hopUs[static_cast<size_t>(k)]);
        for (int c : bwClasses)
            v.push_back(p.link[static_cast<size_t>(c)].efficiency);
        v.push_back(p.protocol[static_cast<int>(Protocol::LL)].bandwidthFactor);
        v.push_back(p.protocol[static_cast<int>(Protocol::LL128)].bandwidthFactor);
        return v;
    }
    void write(const std::vector<double>& v, CostProfile& p) const
    {
        size_t i = 0;
        for (int k = 0; k < kProtocols; ++k)
            p.protocol[static_cast<size_t>(k)].baseUs = v[i++];
        for (int c : hopClasses)
            for (int k = 0; k < kProtocols; ++k)
                p.link[static_cast<size_t>(c)].hopUs[static_cast<size_t>(k)] = v[i++];
        for (int c : bwClasses)
            p.link[static_cast<size_t>(c)].efficiency = v[i++];
        p.protocol[static_cast<int>(Protocol::LL)].bandwidthFactor = v[i++];
        p.protocol[static_cast<int>(Protocol::LL128)].bandwidthFactor = v[i++];
    }
};

// The decomposed model (calibration.h, step 1): the fastest protocol's time.
double predict(const CostProfile& p, const Design& d)
{
    double bwUs = 0;
    for (int c = 0; c < kClasses; ++c)
        if (d.x[static_cast<size_t>(c)] > 0)
            bwUs = std::max(bwUs, d.x[static_cast<size_t>(c)] / p.link[static_cast<size_t>(c)].efficiency);
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < kProtocols; ++k) {
        const ProtocolParams& pp = p.protocol[static_cast<size_t>(k)];
        const double hop = p.link[static_cast<size_t>(d.hopClass)].hopUs[static_cast<size_t>(k)];
        double t = p.launchUs + pp.baseUs + d.steps * hop + d.wireUs + bwUs / pp.bandwidthFactor;
        // a ring's LL128 steps inside a node cost only the latency their data does not cover
        // (the cost model's ll128IntraStepUs): max(0, hop + route - one step's data)
        if (k == static_cast<int>(Protocol::LL128) && d.overlapSteps > 0 && d.steps > 0) {
            const double route = d.routeUs / d.steps, stepData = bwUs / pp.bandwidthFactor / d.steps;
            t += d.overlapSteps * (std::max(0.0, hop + route - stepData) - hop - route);
        }
        best = std::min(best, t);
    }
    return best;
}

// Nelder-Mead (Lagarias et al. 1998 coefficients), restarted from its best point.
template <class F>
std::vector<double> nelderMead(F&& f, std::vector<double> x0, int maxEvaluations)
{
    const size_t n = x0.size();
    int evaluations = 0;
    double best = f(x0);
    for (int restart = 0; restart < 4 && evaluations < maxEvaluations; ++restart) {
        const double step = restart == 0 ? 0.3 : 0.1;
        std::vector<std::vector<double>> pts(n + 1, x0);
        std::vector<double> val(n + 1);
        for (size_t i = 0; i < n; ++i)
            pts[i + 1][i] += step;
        for (size_t i = 0; i <= n; ++i) {
            val[i] = f(pts[i]);
            ++evaluations;
        }
        while (evaluations < maxEvaluations) {
            std::vector<size_t> order(n + 1);
            std::iota(order.begin(), order.end(), 0);
            std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return val[a] < val[b]; });
            const size_t lo = order.front(), hi = order.back(), next = order[n - 1];
            if (val[hi] - val[lo] <= 1e-14 * (std::fabs(val[lo]) + 1e-14))
                break;
            std::vector<double> centroid(n, 0.0);
            for (size_t i = 0; i <= n; ++i)
                if (i != hi)
                    for (size_t k = 0; k < n; ++k)
                        centroid[k] += pts[i][k] / static_cast<double>(n);
            auto along = [&](double t) {
                std::vector<double> p(n);
                for (size_t k = 0; k < n; ++k)
                    p[k] = centroid[k] + t * (pts[hi][k] - centroid[k]);
                return p;
            };
            std::vector<double> r = along(-1.0);
            const double fr = f(r);
            ++evaluations;
            if (fr < val[lo]) {
                std::vector<double> e = along(-2.0);
                const double fe = f(e);
                ++evaluations;
                if (fe < fr) {
                    pts[hi] = e;
                    val[hi] = fe;
                } else {
                    pts[hi] = r;
                    val[hi] = fr;
                }
            } else if (fr < val[next]) {
                pts[hi] = r;
                val[hi] = fr;
            } else {
                std::vector<double> c = fr < val[hi] ? along(-0.5) : along(0.5);
                const double fc = f(c);
                ++evaluations;
                if (fc < std::min(fr, val[hi])) {
                    pts[hi] = c;
                    val[hi] = fc;
                } else {
                    for (size_t i = 0; i <= n; ++i)
                        if (i != lo) {
                            for (size_t k = 0; k < n; ++k)
                                pts[i][k] = pts[lo][k] + 0.5 * (pts[i][k] - pts[lo][k]);
                            val[i] = f(pts[i]);
                            ++evaluations;
                        }
                }
            }
        }
        const size_t lo = static_cast<size_t>(std::min_element(val.begin(), val.end()) - val.begin());
        if (val[lo] < best) {
            best = val[lo];
            x0 = pts[lo];
        }
    }
    return x0;
}

} // namespace

std::vector<AccuracyRow> predictSamples(const Topology& topology, const std::vector<CalibrationSample>& samples,
                                        const CostProfile& before, const CostProfile& after)
{
    CostProfile plain = after;
    plain.corrections.clear();
    std::map<int, std::array<std::unique_ptr<CostModel>, 3>> models;
    std::vector<AccuracyRow> rows;
    for (const CalibrationSample& s : samples) {
        auto& m = models[s.ranks];
        if (!m[0]) {
            const Topology t = topology.firstGpus(s.ranks);
            m[0] = std::make_unique<CostModel>(t, before);
            m[1] = std::make_unique<CostModel>(t, plain);
            m[2] = std::make_unique<CostModel>(t, after);
        }
        const std::vector<int> group = firstRanks(s.ranks);
        AccuracyRow r;
        r.kind = s.kind;
        r.ranks = s.ranks;
        r.bytes = s.bytes;
        r.measuredUs = s.measuredUs;
        r.startUs = m[0]->collective(s.kind, s.bytes, group).timeUs;
        r.fittedUs = m[1]->collective(s.kind, s.bytes, group).timeUs;
        r.calibratedUs = m[2]->collective(s.kind, s.bytes, group).timeUs;
        rows.push_back(r);
    }
    computeErrors(rows);
    return rows;
}

void computeErrors(std::vector<AccuracyRow>& rows)
{
    // error = (predicted - measured) / measured x 100: positive when the model is too slow
    auto pct = [](double predicted, double measured) {
        return measured > 0 ? (predicted - measured) / measured * 100 : 0.0;
    };
    for (AccuracyRow& r : rows) {
        r.startErrorPct = pct(r.startUs, r.measuredUs);
        r.fittedErrorPct = pct(r.fittedUs, r.measuredUs);
        r.calibratedErrorPct = pct(r.calibratedUs, r.measuredUs);
    }
}

Result<CalibrationResult> fitProfile(const CalibrationData& data, const CalibrationOptions& options)
{
    if (Status st = validateTopology(data.topology); !st)
        return st.error();
    CalibrationResult result;
    result.topologyName = data.topology.name;
    std::vector<CalibrationSample> samples;
    std::set<int> rankCounts;
    for (const CalibrationSample& s : data.samples) {
        if (!isCollective(s.kind) || s.kind == OpKind::Compute)
            return badInput(Message("calibration.error.sample_not_collective").with("op", opName(s.kind)));
        if (s.ranks < 2 || s.ranks > data.topology.rankCount())
            return badInput(Message("calibration.error.sample_ranks")
                                .with("op", opName(s.kind))
                                .with("ranks", s.ranks)
                                .with("count", data.topology.rankCount()));
        if (!(s.measuredUs > 0) || !std::isfinite(s.measuredUs) || s.bytes == 0) {
            result.notes.push_back(Message("calibration.note.no_time")
                                       .with("collective", opName(s.kind))
                                       .with("size", formatBinaryBytes(s.bytes)));
            continue;
        }
        samples.push_back(s);
        rankCounts.insert(s.ranks);
    }
    if (samples.size() < 3)
        return badInput(Message("calibration.error.too_few_samples").with("count", std::to_string(samples.size())));
    CalibrationData usable = data;
    usable.samples = samples;

    // 1. decompose and 2. fit, twice: the second pass decomposes with the first pass's profile,
    // whose efficiencies may route or limit the patterns differently.
    CostProfile fitted = options.start;
    fitted.corrections.clear();
    std::set<int> hopSeen, bwSeen;
    std::vector<Message> decompositionNotes;
    for (int pass = 0; pass < 2; ++pass) {
        std::vector<Design> designs;
        decompositionNotes.clear();
        for (int r : rankCounts)
            decompose(usable, fitted, r, designs, decompositionNotes);
        if (designs.empty())
            break;
        Layout layout;
        hopSeen.clear();
        bwSeen.clear();
        for (const Design& d : designs) {
            hopSeen.insert(d.hopClass);
            for (int c = 0; c < kClasses; ++c)
                if (d.x[static_cast<size_t>(c)] > 0)
                    bwSeen.insert(c);
        }
        layout.hopClasses.assign(hopSeen.begin(), hopSeen.end());
        layout.bwClasses.assign(bwSeen.begin(), bwSeen.end());
        // the prior pulls towards the starting profile in both passes
        const std::vector<double> prior = layout.read(options.start);
        std::vector<double> u0(prior.size()), uStart(prior.size());
        const std::vector<double> current = layout.read(fitted);
        for (size_t i = 0; i < prior.size(); ++i) {
            u0[i] = std::log(std::max(prior[i], 1e-3));
            uStart[i] = std::log(std::max(current[i], 1e-3));
        }
        CostProfile trial = fitted;
        auto objective = [&](const std::vector<double>& u) {
            std::vector<double> v(u.size());
            double penalty = 0;
            for (size_t i = 0; i < u.size(); ++i) {
                v[i] = std::exp(u[i]);
                penalty += (u[i] - u0[i]) * (u[i] - u0[i]);
            }
            layout.write(v, trial);
            double sum = 0;
            for (const Design& d : designs) {
                const double e = std::log(predict(trial, d)) - d.logMeasured;
                sum += e * e;
            }
            return sum + kPrior * penalty;
        };
        const std::vector<double> u = nelderMead(objective, uStart, 4000 * static_cast<int>(uStart.size()));
        std::vector<double> v(u.size());
        for (size_t i = 0; i < u.size(); ++i)
            v[i] = std::exp(u[i]);
        layout.write(v, fitted);
    }
    for (Message& note : decompositionNotes)
        result.notes.push_back(std::move(note));
    for (int c = 0; c < kClasses; ++c) {
        const bool lat = hopSeen.count(c) > 0, band = bwSeen.count(c) > 0;
        if (lat || band)
            result.classes.push_back({static_cast<LinkKind>(c), lat, band, fitted.link[static_cast<size_t>(c)]});
    }
    for (int c = 0; c < kClasses; ++c)
        if (!bwSeen.count(c) && !hopSeen.count(c))
            result.notes.push_back(Message("calibration.note.link_not_crossed")
                                       .with("link", linkShortMessage(static_cast<LinkKind>(c)))
                                       .with("profile", options.start.name));

    // 4. compute
    std::set<std::string> rated;
    for (const Gpu& g : data.topology.gpus) {
        auto it = data.measuredTflops.find(g.name);
        if (it == data.measuredTflops.end() || !rated.insert(g.name).second)
            continue;
        if (g.tflops > 0 && it->second > 0)
            fitted.computeEfficiency[g.name] = it->second / g.tflops;
        else
            result.notes.push_back(Message("calibration.note.no_nominal").with("gpu", g.name));
    }
    if (data.measuredTflops.empty())
        result.notes.push_back(Message("calibration.note.no_compute").with("profile", options.start.name));

    // 3. correct: measured / fitted at each measured size, per collective and rank count
    result.rows = predictSamples(data.topology, samples, options.start, fitted);
    if (options.corrections) {
        std::map<CorrectionKey, std::map<Bytes, std::vector<double>>> ratios;
        for (const AccuracyRow& r : result.rows)
            ratios[CorrectionKey(r.kind, r.ranks)][r.bytes].push_back(r.measuredUs / r.fittedUs);
        for (auto& [key, bySize] : ratios) {
            std::vector<CorrectionPoint> pts;
            bool needed = false;
            for (auto& [bytes, f] : bySize) {
                // several measurements of one size: their geometric mean
                double logSum = 0;
                for (double x : f)
                    logSum += std::log(x);
                const double factor = std::clamp(std::exp(logSum / static_cast<double>(f.size())), 1e-3, 1e3);
                needed = needed || std::fabs(factor - 1) > 0.005;
                pts.push_back({bytes, factor});
            }
            if (needed)
                fitted.corrections[key] = pts;
        }
    }
    fitted.name = options.name;
    char source[256];
    std::snprintf(source, sizeof source, "calibrated on %s (%s): %zu collective timings, %zu GPU rate%s",
                  data.host.empty() ? "this machine" : data.host.c_str(), data.topology.name.c_str(), samples.size(),
                  data.measuredTflops.size(), data.measuredTflops.size() == 1 ? "" : "s");
    fitted.source = source;
    result.profile = fitted;
    result.rows = predictSamples(data.topology, samples, options.start, fitted);
    std::vector<double> s, f, c;
    for (const AccuracyRow& r : result.rows) {
        s.push_back(r.startErrorPct);
        f.push_back(r.fittedErrorPct);
        c.push_back(r.calibratedErrorPct);
    }
    result.start = errorStats(s);
    result.fitted = errorStats(f);
    result.calibrated = errorStats(c);
    // a fit outside physical bounds is refused, never saved over a good profile
    if (Status st = checkCalibratedProfile(result.profile, samples.size()); !st)
        return st.error();
    return result;
}

} // namespace shardlab

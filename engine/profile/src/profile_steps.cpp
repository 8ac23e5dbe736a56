#include "shardlab/profile/profile_steps.h"

#include "shardlab/profile/profile_match.h"

#include <algorithm>
#include <map>
#include <set>

namespace shardlab {

namespace {

// The steps of calls[0, n): the whole of it repeats to its end (no wrap-up).
std::optional<StepPattern> stepsUpTo(const std::vector<CollectiveKey>& calls, size_t n, bool recordsEndEarly)
{
    if (n < kMinSteps)
        return std::nullopt;
    // pi[i]: the longest proper border of the reversed sequence's first i+1 calls.
    const auto rev = [&](size_t i) -> const CollectiveKey& { return calls[n - 1 - i]; };
    std::vector<size_t> pi(n, 0);
    for (size_t i = 1; i < n; ++i) {
        size_t k = pi[i - 1];
        while (k > 0 && !(rev(i) == rev(k)))
            k = pi[k - 1];
        if (rev(i) == rev(k))
            ++k;
        pi[i] = k;
    }
    // The longest suffix (m calls) that repeats often enough.
    for (size_t m = n; m >= kMinSteps; --m) {
        const size_t period = m - pi[m - 1];
        const size_t steps = m / period;
        const size_t tail = m % period;
        if (steps < kMinSteps || (tail != 0 && !recordsEndEarly))
            continue;
        return StepPattern{n - m, period, steps, tail, calls.size() - n};
    }
    return std::nullopt;
}

} // namespace

std::optional<StepPattern> findSteps(const std::vector<CollectiveKey>& calls, bool recordsEndEarly)
{
    std::optional<StepPattern> best;
    const size_t cuts = recordsEndEarly ? 0 : std::min(kMaxWrapUp, calls.size());
    for (size_t cut = 0; cut <= cuts && calls.size() - cut >= kMinSteps; ++cut)
        if (const auto p = stepsUpTo(calls, calls.size() - cut, recordsEndEarly))
            if (!best || p->steps * p->period > best->steps * best->period)
                best = p;
    return best;
}

} // namespace shardlab

namespace shardlab {

std::optional<JobSteps> findJobSteps(const MatchedProfile& profile, bool recordsEndEarly)
{
    const size_t opsCount = profile.ops.size();
    const auto keyOf = [&](const MatchedOp& m) {
        return CollectiveKey{m.kind, m.bytes, m.root, profile.comms[static_cast<size_t>(m.comm)].hash, m.peer};
    };
    // Each rank's operations (matched ones, in its own order) and its steps.
    std::vector<std::vector<int>> mine(static_cast<size_t>(profile.ranks));
    std::vector<StepPattern> pattern(static_cast<size_t>(profile.ranks));
    std::optional<size_t> steps;
    for (int r = 0; r < profile.ranks; ++r) {
        std::vector<CollectiveKey> keys;
        for (const RankOp& t : profile.rankOps[static_cast<size_t>(r)])
            if (t.matched >= 0) {
                mine[static_cast<size_t>(r)].push_back(t.matched);
                keys.push_back(keyOf(profile.ops[static_cast<size_t>(t.matched)]));
            }
        const std::optional<StepPattern> p = findSteps(keys, recordsEndEarly);
        if (!p || (steps && *steps != p->steps))
            return std::nullopt;
        steps = p->steps;
        pattern[static_cast<size_t>(r)] = *p;
    }
    if (!steps)
        return std::nullopt;
    // Each operation's step, and its place in that step on each member: they must agree.
    JobSteps out;
    out.iteration.assign(opsCount, -2);
    std::vector<std::vector<std::pair<int, int>>> placeOn(opsCount); // (rank, place in its step)
    for (int r = 0; r < profile.ranks; ++r) {
        const StepPattern& p = pattern[static_cast<size_t>(r)];
        const auto& list = mine[static_cast<size_t>(r)];
        for (size_t i = 0; i < list.size(); ++i) {
            const bool wrapUp = i >= list.size() - p.wrapUp;
            const int iteration = i < p.prefix ? -1
                                  : wrapUp     ? static_cast<int>(*steps) + 1
                                               : static_cast<int>((i - p.prefix) / p.period);
            int& known = out.iteration[static_cast<size_t>(list[i])];
            if (known != -2 && known != iteration)
                return std::nullopt;
            known = iteration;
            placeOn[static_cast<size_t>(list[i])].push_back(
                {r, i < p.prefix || wrapUp ? -1 : static_cast<int>((i - p.prefix) % p.period)});
        }
    }
    // The first step's operations in one order that keeps every rank's: Kahn's algorithm, the
    // earliest free operation first.
    std::vector<int> firstStep;
    for (size_t i = 0; i < opsCount; ++i)
        if (out.iteration[i] == 0)
            firstStep.push_back(static_cast<int>(i));
    std::map<int, std::vector<int>> next;
    std::map<int, int> before;
    for (int i : firstStep)
        before[i] = 0;
    for (int r = 0; r < profile.ranks; ++r) {
        int previous = -1;
        for (int i : mine[static_cast<size_t>(r)]) {
            if (out.iteration[static_cast<size_t>(i)] != 0)
                continue;
            if (previous >= 0) {
                next[previous].push_back(i);
                ++before[i];
            }
            previous = i;
        }
    }
    const auto later = [&](int a, int b) {
        return profile.ops[static_cast<size_t>(a)].orderNs > profile.ops[static_cast<size_t>(b)].orderNs;
    };
    std::vector<int> ready;
    for (int i : firstStep)
        if (before[i] == 0)
            ready.push_back(i);
    std::map<std::pair<int, int>, int> slotOfPlace; // (rank, place in its step) -> slot
    int slots = 0;
    while (!ready.empty()) {
        std::sort(ready.begin(), ready.end(), later);
        const int i = ready.back();
        ready.pop_back();
        for (const auto& place : placeOn[static_cast<size_t>(i)])
            slotOfPlace[place] = slots;
        ++slots;
        for (int j : next[i])
            if (--before[j] == 0)
                ready.push_back(j);
    }
    if (slots != static_cast<int>(firstStep.size()))
        return std::nullopt;
    // Every step's operations take the slots of the first step's at the same places.
    out.slot.assign(opsCount, -1);
    std::vector<std::set<int>> used(*steps + 1);
    for (size_t i = 0; i < opsCount; ++i) {
        if (out.iteration[i] < 0) {
            ++out.pattern.prefix;
            continue;
        }
        if (out.iteration[i] == static_cast<int>(*steps) + 1) {
            ++out.pattern.wrapUp;
            continue;
        }
        int slot = -1;
        for (const auto& place : placeOn[i]) {
            const auto it = slotOfPlace.find(place);
            if (it == slotOfPlace.end() || (slot >= 0 && slot != it->second))
                return std::nullopt;
            slot = it->second;
        }
        const size_t j = static_cast<size_t>(out.iteration[i]);
        if (j > *steps || !used[j].insert(slot).second)
            return std::nullopt;
        out.slot[i] = slot;
    }
    for (size_t j = 0; j < *steps; ++j)
        if (used[j].size() != static_cast<size_t>(slots))
            return std::nullopt;
    out.pattern.period = static_cast<size_t>(slots);
    out.pattern.steps = *steps;
    out.pattern.tail = used[*steps].size();
    if (out.pattern.tail > 0 && !recordsEndEarly)
        return std::nullopt;
    return out;
}

} // namespace shardlab

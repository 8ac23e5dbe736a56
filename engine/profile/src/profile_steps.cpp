#include "shardlab/profile/profile_steps.h"

#include <algorithm>

namespace shardlab {

std::optional<StepPattern> findSteps(const std::vector<CollectiveKey>& calls, bool recordsEndEarly)
{
    const size_t n = calls.size();
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
        return StepPattern{n - m, period, steps, tail};
    }
    return std::nullopt;
}

} // namespace shardlab

// OMPEval peer for benchmarks/bench_sampler.py: Monte Carlo deals per second of OMPEval's
// EquityCalculator on a spot given as ranges (OMPEval's own syntax; no weights), no board.
//
// Build (the bench script does this): g++ -O3 -march=native -std=c++11 -pthread -I$OMPEVAL_DIR
//   ompeval_equity.cpp $OMPEVAL_DIR/omp/{EquityCalculator,CombinedRange,CardRange,HandEvaluator}.cpp
// Usage: ompeval_equity SECONDS THREADS RANGE1 RANGE2 ...
//   prints "<deals> <wall seconds> <process CPU seconds> <equity 1> ... <equity n>". Its deals are steps of a random
//   walk (one player's combo changes between consecutive deals), not independent deals.
#include "omp/EquityCalculator.h"
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    if (argc < 5) { std::fprintf(stderr, "usage: %s SECONDS THREADS RANGE1 RANGE2 ...\n", argv[0]); return 2; }
    double seconds = std::atof(argv[1]);
    unsigned threads = (unsigned)std::atoi(argv[2]);
    std::vector<omp::CardRange> ranges;
    for (int i = 3; i < argc; ++i) ranges.emplace_back(std::string(argv[i]));
    omp::EquityCalculator eq;
    std::clock_t cpu = std::clock();
    eq.setTimeLimit(seconds);
    if (!eq.start(ranges, 0, 0, false, 0.0, nullptr, 0.2, threads)) { std::fprintf(stderr, "start failed\n"); return 2; }
    eq.wait();
    auto r = eq.getResults();
    double cpu_seconds = double(std::clock() - cpu) / CLOCKS_PER_SEC;
    std::printf("%llu %.6f %.6f", (unsigned long long)r.hands, r.time, cpu_seconds);
    for (unsigned i = 0; i < r.players; ++i) std::printf(" %.6f", r.equity[i]);
    std::printf("\n");
    return 0;
}

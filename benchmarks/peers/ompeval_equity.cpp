// OMPEval peer for benchmarks/bench_sampler.py (Monte Carlo) and benchmarks/bench_enumeration.py (exact
// enumeration): OMPEval's EquityCalculator on a spot given as ranges (OMPEval's own syntax; no weights).
//
// Build (the bench scripts do this): g++ -O3 -march=native -std=c++11 -pthread -I$OMPEVAL_DIR
//   ompeval_equity.cpp $OMPEVAL_DIR/omp/{EquityCalculator,CombinedRange,CardRange,HandEvaluator}.cpp
// Usage: ompeval_equity SECONDS THREADS RANGE1 RANGE2 ...
//   Monte Carlo for SECONDS; prints "<deals> <wall seconds> <process CPU seconds> <equity 1> ... <equity n>".
//   Its deals are steps of a random walk (one player's combo changes between consecutive deals), not
//   independent deals.
// Usage: ompeval_equity --enumerate REPEATS THREADS BOARD DEAD RANGE1 RANGE2 ...
//   exact enumeration (BOARD, DEAD: cards such as Ts7h2c, or "-" for none), REPEATS times in this process;
//   prints one line per run: "<wall seconds> <process CPU seconds> <equity 1> ... <equity n>", the times
//   around start() and wait() only (not the process start).
#include "omp/EquityCalculator.h"
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static void print_equities(const omp::EquityCalculator::Results& r)
{
    for (unsigned i = 0; i < r.players; ++i) std::printf(" %.12f", r.equity[i]);
    std::printf("\n");
}

static int enumerate(int argc, char** argv)
{
    int repeats = std::atoi(argv[2]);
    unsigned threads = (unsigned)std::atoi(argv[3]);
    uint64_t board = std::strcmp(argv[4], "-") ? omp::CardRange::getCardMask(argv[4]) : 0;
    uint64_t dead = std::strcmp(argv[5], "-") ? omp::CardRange::getCardMask(argv[5]) : 0;
    std::vector<omp::CardRange> ranges;
    for (int i = 6; i < argc; ++i) ranges.emplace_back(std::string(argv[i]));
    for (int run = 0; run < repeats; ++run) {
        omp::EquityCalculator eq;
        std::clock_t cpu = std::clock();
        auto started = std::chrono::steady_clock::now();
        if (!eq.start(ranges, board, dead, true, 0.0, nullptr, 0.2, threads)) { std::fprintf(stderr, "start failed\n"); return 2; }
        eq.wait();
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        double cpu_seconds = double(std::clock() - cpu) / CLOCKS_PER_SEC;
        auto r = eq.getResults();
        std::printf("%.6f %.6f", wall, cpu_seconds);
        print_equities(r);
    }
    return 0;
}

int main(int argc, char** argv)
{
    if (argc >= 8 && !std::strcmp(argv[1], "--enumerate")) return enumerate(argc, argv);
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
    print_equities(r);
    return 0;
}

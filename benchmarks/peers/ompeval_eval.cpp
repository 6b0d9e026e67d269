// OMPEval peer for benchmarks/bench_evaluator.py: one-thread 7-card evaluations per second.
//
// Build (the bench script does this): g++ -O3 -march=native -std=c++11 -I$OMPEVAL_DIR
//   ompeval_eval.cpp $OMPEVAL_DIR/omp/HandEvaluator.cpp -o ompeval_eval
// Usage: ompeval_eval HANDS.bin N REPEATS OUT.bin
//   HANDS.bin: N rows of 7 uint8 card ids (4 * rank + suit, rank 0 = deuce), the same hands our
//   kernel evaluates; prints "<best seconds> <checksum>" and writes the N uint16 OMPEval ranks to
//   OUT.bin so the script can check that both evaluators order the hands identically.
#include "omp/HandEvaluator.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv)
{
    if (argc != 5) { std::fprintf(stderr, "usage: %s HANDS.bin N REPEATS OUT.bin\n", argv[0]); return 2; }
    size_t n = std::strtoull(argv[2], nullptr, 10);
    int repeats = std::atoi(argv[3]);
    std::vector<uint8_t> hands(n * 7);
    FILE* in = std::fopen(argv[1], "rb");
    if (!in || std::fread(hands.data(), 1, hands.size(), in) != hands.size()) { std::perror("read"); return 2; }
    std::fclose(in);
    omp::HandEvaluator eval;
    std::vector<uint16_t> ranks(n);
    double best = 1e30;
    uint64_t checksum = 0;
    for (int r = 0; r < repeats; ++r) {
        auto started = std::chrono::steady_clock::now();
        const uint8_t* h = hands.data();
        for (size_t i = 0; i < n; ++i, h += 7) {
            omp::Hand hand = omp::Hand::empty() + h[0] + h[1] + h[2] + h[3] + h[4] + h[5] + h[6];
            ranks[i] = eval.evaluate(hand);
        }
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (seconds < best) best = seconds;
        checksum = 0;
        for (size_t i = 0; i < n; ++i) checksum += ranks[i];
    }
    FILE* out = std::fopen(argv[4], "wb");
    if (!out || std::fwrite(ranks.data(), 2, n, out) != n) { std::perror("write"); return 2; }
    std::fclose(out);
    std::printf("%.6f %llu\n", best, (unsigned long long)checksum);
    return 0;
}

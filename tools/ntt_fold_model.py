#!/usr/bin/env python3
"""Model of the CUDA H step's folded inverse transform (coset shift and 1/n in the roots), in plain Python
integers over BLS12-381's Fr: the block-pass plan of cuda_ntt.cu (passes of at most 9
stages, six-step column twiddles omega_N^-(c brev_k(p)) after each pass), with the coset
shift g^(2^b) multiplied into the odd branch of the stage that decides bit b of the output
index, and a constant k in the first pass's column twiddles (column 0: times k). Checks
that the result is the bit-reversed coefficients times g^j k (coset) or times k (plain),
against a direct O(n^2) inverse DFT. It models the design the kernels implement, written
before they were built; the kernels themselves are checked against the CPU by
cuzk_gpu_check. Usage: tools/ntt_fold_model.py (about a minute)."""
import random

r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
g = 7
def root(log):  # primitive 2^log root
    return pow(g, (r - 1) >> log, r)
def brev(x, bits):
    return int(bin(x)[2:].zfill(bits)[::-1], 2) if bits else 0
def plan(log_n):
    np_ = (log_n + 8) // 9
    return [log_n // np_ + (1 if i < log_n % np_ else 0) for i in range(np_)]
def idif_folded(a, log_n, k_const, coset):
    n = 1 << log_n
    a = a[:]
    wi = pow(root(log_n), r - 2, r)
    done = 0
    ks = plan(log_n)
    for i, k in enumerate(ks):
        log_s = log_n - done - k
        S = 1 << log_s; M = 1 << k; N = S * M
        for gidx in range(n // N):
            for c in range(S):
                pos = [gidx * N + c + S * p for p in range(M)]
                y = [a[q] for q in pos]
                for s in reversed(range(k)):
                    h = 1 << s
                    w2h = pow(root(s + 1), r - 2, r)  # omega_2h^-1
                    b = log_n - 1 - s - log_s
                    kap = pow(g, 1 << b, r) if coset else 1
                    for st in range(0, M, 2 * h):
                        for e in range(h):
                            u, v = y[st + e], y[st + e + h]
                            y[st + e] = (u + v) % r
                            y[st + e + h] = (u - v) * pow(w2h, e, r) * kap % r
                # column twiddle omega_N^-(c brev_k(p)), pass 0 scaled by k; column 0: k
                wN = pow(root(log_s + k), r - 2, r)
                for p in range(M):
                    f = pow(wN, c * brev(p, k), r)
                    if i == 0:
                        f = f * k_const % r
                    y[p] = y[p] * f % r
                for p in range(M):
                    a[pos[p]] = y[p]
        done += k
    return a
bad = 0
for log_n in (4, 5, 10, 11):
    n = 1 << log_n
    vals = [random.randrange(r) for _ in range(n)]
    wi = pow(root(log_n), r - 2, r); ninv = pow(n, r - 2, r)
    coef = [sum(vals[i] * pow(wi, i * j, r) for i in range(n)) * ninv % r for j in range(n)]
    want = [coef[brev(pos, log_n)] * pow(g, brev(pos, log_n), r) % r for pos in range(n)]
    got = idif_folded(vals, log_n, ninv, True)
    print(log_n, plan(log_n), "coset ok" if got == want else "COSET MISMATCH")
    want2 = [coef[brev(pos, log_n)] for pos in range(n)]
    got2 = idif_folded(vals, log_n, ninv, False)
    print(log_n, "plain ok" if got2 == want2 else "PLAIN MISMATCH")
    bad += (got != want) + (got2 != want2)
raise SystemExit(1 if bad else 0)

#!/usr/bin/env python3
"""Shared-memory bank conflicts of the CUDA NTT block passes' exchanges (cuda_ntt_block.cu,
the default plan: two elements a thread, 9 stages, 256 threads per sub-transform).
Between rounds whose positions differ in a thread-index bit that is a lane bit, threads
trade by shuffles; the other exchanges go through shared memory, one 32-bit limb per
access, at nb_pad(slot). For the plain thread order (tt = thread) and the warp-major one
(tt's low 3 bits the warp's), with padding of one word in 8 or in 16,
prints the average and worst number of distinct words a warp's access puts in one bank
(1: no conflict). Usage: tools/ntt_bank_model.py (a second)."""
K, E, T = 9, 1, 256
W = K - E - 5  # warp bits of tt in the warp-major order


def ls(r):  # the round's lowest position bit, nb_round::ls
    return K - E * r - E if K - E * r > E else 0


def pos(tt, l, j):  # nb_pos
    return ((tt >> l) << (l + E)) + (tt & ((1 << l) - 1)) + (j << l)


def order(t, warp_major):  # nb_order::tt
    return ((t & 31) << W) | (t >> 5) if warp_major else t


def lane_bit(m, warp_major):  # nb_order::lane_bit
    lo = W if warp_major else 0
    return m - lo if lo <= m < lo + 5 else -1


for warp_major in (False, True):
    for shift in (3, 4):
        degrees = []
        for r in range(1, K):
            m = min(ls(r - 1), ls(r))
            if lane_bit(m, warp_major) >= 0:
                continue  # shuffles
            for l in (ls(r - 1), ls(r)):  # the puts, then the gets
                for j in range(2):
                    for w in range(T // 32):
                        banks = {}
                        for lane in range(32):
                            q = pos(order(w * 32 + lane, warp_major), l, j)
                            q += q >> shift
                            banks.setdefault(q % 32, set()).add(q)
                        degrees.append(max(len(v) for v in banks.values()))
        print("%-10s pad 1/%-2d: %d warp accesses, conflict degree avg %.2f, worst %d" %
              ("warp-major" if warp_major else "plain", 1 << shift, len(degrees),
               sum(degrees) / len(degrees), max(degrees)))

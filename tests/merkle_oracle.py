#!/usr/bin/env python3
"""Roots of fixed Merkle trees, computed independently of cuzk and compared
with `test_merkle_por --roots`.

Poseidon comes from shared/reference/verify/poseidon_ref.py (plain Python,
neptune's "Correct" mode), SHA-256 from hashlib.  Compound trees are built the
way the merkletree crate does it: base trees over consecutive runs of leaves,
a sub-tree root = H(its base trees' roots) (MerkleTree::from_trees), a top
root = H(the sub-trees' roots) (from_sub_trees).

usage: merkle_oracle.py TEST_MERKLE_POR_BINARY REFERENCE_VERIFY_DIR
"""
import functools
import hashlib
import subprocess
import sys


def main():
    binary, ref_dir = sys.argv[1], sys.argv[2]
    sys.path.insert(0, ref_dir)
    import poseidon_ref

    # H() re-derives constants per call; cache them per width (same values)
    poseidon_ref.constants = functools.lru_cache(maxsize=None)(poseidon_ref.constants)
    poseidon_ref.mds = functools.lru_cache(maxsize=None)(poseidon_ref.mds)

    def h_poseidon(children):
        xs = [int.from_bytes(c, "little") for c in children]
        assert all(x < poseidon_ref.p for x in xs)
        return poseidon_ref.H(xs)[0].to_bytes(32, "little")

    def h_sha256(children):
        d = bytearray(hashlib.sha256(b"".join(children)).digest())
        d[31] &= 0x3F
        return bytes(d)

    def base_root(h, arity, leaves):
        row = list(leaves)
        while len(row) > 1:
            assert len(row) % arity == 0
            row = [h(row[i:i + arity]) for i in range(0, len(row), arity)]
        return row[0]

    def root(h, base, sub, top, leaves):
        if sub == 0:
            return base_root(h, base, leaves)
        if top == 0:
            per = len(leaves) // sub
            return h([base_root(h, base, leaves[i * per:(i + 1) * per]) for i in range(sub)])
        per = len(leaves) // top
        return h([root(h, base, sub, 0, leaves[i * per:(i + 1) * per]) for i in range(top)])

    out = subprocess.run([binary, "--roots"], check=True, capture_output=True, text=True).stdout
    lines = out.strip().splitlines()
    if not lines:
        print("no roots printed")
        return 1
    bad = 0
    for line in lines:
        name, shape, n, got = line.split()
        base, sub, top = (int(x) for x in shape.split("-"))
        n = int(n)
        leaves = []
        for i in range(n):
            d = bytearray(hashlib.sha256(b"cuzk merkle leaf" + i.to_bytes(4, "little")).digest())
            d[31] &= 0x3F
            leaves.append(bytes(d))
        h = h_poseidon if name == "poseidon" else h_sha256
        want = root(h, base, sub, top, leaves).hex()
        ok = want == got
        bad += not ok
        print(f"{name} {shape} {n} leaves: {'OK' if ok else 'MISMATCH'} {got}" +
              ("" if ok else f" want {want}"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

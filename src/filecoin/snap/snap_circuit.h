/* The SnapDeals (empty sector update) partition circuit: rust-fil-proofs
 * storage-proofs-update src/circuit.rs (EmptySectorUpdateCircuit) and
 * gadgets.rs; docs/SNAPDEALS.md 4.  Allocation and constraint order are
 * upstream's:
 *
 *   k_and_h_select = k | h_select << pbl: alloc, inputize (input 1), its
 *     pbl + 6 low bits with one packing row; partition = pack(k bits);
 *   comm_r_old, comm_d_new, comm_r_new: alloc + inputize (inputs 2..4);
 *   phi = P2c(comm_d_new, comm_r_old);
 *   comm_c, root_r_old, root_r_new, apex_leafs[A], partition_path[pbl];
 *   P2(comm_c, root_r_old) == comm_r_old, the same for root_r_new;
 *   apex_por: the apex tree over apex_leafs (SHA-256 pairs, row by row),
 *     its root up the partition path (bits k) to comm_d_new;
 *   gen_challenge_bits: per digest j, digest_index = D k + j, P2c(comm_r_new,
 *     index), its 255 bits, rand_bits per challenge;
 *   per challenge t (r1cs_segment SNAP_SEGMENT_CHALLENGE, t; c_bits = its
 *     random bits then k's bits):
 *     c_high = sum over s of pack(top hs[s] bits) * h_select[s];
 *     rho = P2c(phi, c_high); leaf_r_old, leaf_d_new;
 *     leaf_r_new = leaf_r_old + leaf_d_new * rho;
 *     tree R old path (leaf_r_old -> root_r_old), tree R new path
 *     (leaf_r_new -> root_r_new), apex_leaf = select(apex_leafs, the apex
 *     bits of c), tree D path of the low L_ap levels (leaf_d_new -> apex_leaf).
 * P2 is Poseidon arity 2 (MerkleTree tag), P2c the generation tag 2^40.
 * Public inputs: 4 (snap_public_inputs). */
#ifndef CUZK_FILECOIN_SNAP_CIRCUIT_H
#define CUZK_FILECOIN_SNAP_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/proof_types.h"
#include "gadget/por.h"
#include "r1cs/cs.h"

#define SNAP_PUBLIC_INPUTS 4
/* r1cs_segment kind of one challenge's sub-circuit (index = challenge). */
#define SNAP_SEGMENT_CHALLENGE 1

typedef struct {
    fc_update_proof p;
    por_shape tree_r;     /* Poseidon, all bits levels */
    por_shape tree_d_low; /* SHA-256 binary, the L_ap levels below the apex leaves */
    unsigned l_ap;        /* bits - partition_bits - apex_bits */
    size_t r_siblings;    /* por_shape_siblings(tree_r) */
    int poseidon;         /* the Poseidon variant (below) */
} snap_shape;

/* From a registered update proof id (0..4), or from a node count upstream
 * allows (test sizes 2^5 .. 2^10, 2^19 too).  0, or -1 if unknown. */
int snap_shape_for_id(snap_shape *out, uint64_t id);
int snap_shape_for_nodes(snap_shape *out, uint64_t nodes);

/* storage-proofs-update's Poseidon variant (src/poseidon/, "not audited"; no
 * registered proof, Curio cannot ask for it; docs/SNAPDEALS.md 4.5), for
 * count tests: one partition of C x P challenges (p.challenges), input 1 is
 * h_select alone, tree D new is a Poseidon tree of tree R's shape (path_d
 * holds C x r_siblings), no apex tree; the partition is an unconstrained 0. */
int snap_shape_poseidon_for_nodes(snap_shape *out, uint64_t nodes);

/* One partition's witness, flat arrays (C = challenges, A = apex leaves,
 * sr = r_siblings, pbl = partition bits):
 *   apex_leaves[A]        tree D row bits - pbl - apex_bits, entries [k A, (k+1) A)
 *   partition_path[pbl]   tree D siblings of the apex root's ascent, lowest first
 *                         (the top pbl siblings of any challenge's tree D path)
 *   leaf_r_old[C], leaf_d_new[C]
 *   path_r_old[C*sr], path_r_new[C*sr]  tree R siblings, element by element
 *                         from the leaf (7 per base level, then sub, then top)
 *   path_d[C*l_ap]        the l_ap lowest tree D siblings of each challenge
 * The challenges are not part of it: the circuit derives them from
 * comm_r_new and k.
 * From partition k's vanilla PartitionProof (docs/SNAPDEALS.md 2) and the
 * request: comm_c = comm_c; root_r_old / root_r_new = challenge_proofs[0]
 * .proof_r_old / proof_r_new .root; apex_leaves = apex_leafs;
 * partition_path = challenge_proofs[0].proof_d_new's path elements
 * bits - pbl .. bits - 1 (their one hash each); per challenge t:
 * leaf_r_old = proof_r_old.leaf, leaf_d_new = proof_d_new.leaf, path_r_old /
 * path_r_new = every path element's hashes in order (base, sub, top),
 * path_d = proof_d_new's elements 0 .. l_ap - 1.  The circuit does not read
 * the index fields or proof_r_new.leaf (it computes it), nor the tree D
 * siblings between l_ap and bits - pbl: the vanilla verifier must check
 * those (upstream's circuit asserts the partition paths agree). */
typedef struct {
    unsigned k; /* partition */
    unsigned h; /* one of p.hs */
    fr comm_r_old, comm_d_new, comm_r_new;
    fr comm_c, root_r_old, root_r_new;
    const fr *apex_leaves;
    const fr *partition_path;
    const fr *leaf_r_old, *leaf_d_new;
    const fr *path_r_old, *path_r_new;
    const fr *path_d;
} snap_witness;

typedef struct {
    size_t apex_leaves, partition_path, leaves, path_r, path_d; /* path_r: per tree */
} snap_witness_sizes;
void snap_witness_sizes_get(const snap_shape *s, snap_witness_sizes *out);

/* Synthesizes one partition.  w = NULL is the blank circuit (every value
 * unknown; the cs must not want values).  Returns 0, or -1 for a bad shape
 * or witness (k >= partitions, h not allowed; nothing synthesized); the rest
 * is the cs's sticky error. */
int snap_circuit_synthesize(r1cs_cs *cs, const snap_shape *s, const snap_witness *w);

/* The circuit cut for parallel witness generation (docs/PCE.md s.5):
 * snap_circuit_synthesize is snap_prefix_synth, then per challenge t the
 * segment mark (SNAP_SEGMENT_CHALLENGE, t) and snap_challenge_synth.  A
 * challenge reads only what the prefix hands on here and its own values. */
typedef struct {
    gnum phi, roots[2], comm_d;
    gnum *apex;      /* [A] apex leaves */
    gnum *part_path; /* [pbl] */
    gbool *top_bits; /* [pbl + FC_UPDATE_HS]: k's bits, then h_select's */
    gbool *c_bits;   /* [C * bits]: challenge t's random bits, then k's */
} snap_prefix;

/* Everything before the first challenge.  0 with *x filled
 * (snap_prefix_free), or -1 as snap_circuit_synthesize (x then empty). */
int snap_prefix_synth(r1cs_cs *cs, const snap_shape *s, const snap_witness *w, snap_prefix *x);
void snap_prefix_free(snap_prefix *x);
/* gnums of scratch a challenge needs for its paths. */
size_t snap_path_scratch(const snap_shape *s);
/* Challenge t's sub-circuit (not its segment mark); path: its own scratch
 * of snap_path_scratch(s) entries.  May run concurrently for different t on
 * different views: x is only read. */
int snap_challenge_synth(r1cs_cs *cs, const snap_shape *s, const snap_witness *w,
                         const snap_prefix *x, unsigned t, gnum *path);

/* The constraint count (input rows excluded) by docs/SNAPDEALS.md 4.4's model. */
uint64_t snap_circuit_constraints(const snap_shape *s);

#endif

/* Expander parents of the SDR graph (filecoin-facts §3.12 "Expander parents";
 * rust-fil-proofs stacked/vanilla/graph.rs correspondent).
 *
 * Parent i (0..7) of node v is t div 8 with t = permute(8v + i) over the
 * Feistel domain [0, 8*nodes).  API 1.1/1.2 divide the u64; API 1.0 first
 * truncates t to u32 (differs only for 32/64 GiB, where t reaches 2^33+).
 * Expander parents index the previous layer: they are not filtered and may be
 * >= v. */
#ifndef CUZK_FILECOIN_EXPANDER_H
#define CUZK_FILECOIN_EXPANDER_H

#include <stdint.h>

#include "filecoin/sdr/feistel.h"

enum { FC_EXP_DEGREE = 8 };

/* f must permute [0, 8*nodes); node < nodes. */
void fc_expander_parents(uint32_t out[FC_EXP_DEGREE], const fc_feistel *f, uint32_t node,
                         int legacy_v1);

#endif

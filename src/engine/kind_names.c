/* The wire kinds' names and default priorities (include/cuzk/engine.h), from
 * the kind table (filecoin/kinds.h).  A file of their own: engine/config.c's
 * defaults stay free of the table, so the config parser's fuzz target
 * (tests/fuzz/fuzz_config.c) links without every kind's circuit. */
#include "cuzk/engine.h"
#include "filecoin/kinds.h"

const char *cuzk_kind_name(cuzk_proof_kind k) {
    const fc_kind *row = fc_kind_by_wire((int)k);
    return row ? row->wire_name : "unspecified";
}

const char *cuzk_kind_label(cuzk_proof_kind k) {
    const fc_kind *row = fc_kind_by_wire((int)k);
    return row ? row->wire_label : "unspecified";
}

cuzk_priority cuzk_kind_default_priority(cuzk_proof_kind k) {
    const fc_kind *row = fc_kind_by_wire((int)k);
    return row ? (cuzk_priority)row->wire_priority : CUZK_PRIORITY_NORMAL;
}

pragma circom 2.0.0;
// circomlib's Poseidon(2), compiled with --O2 (240 constraints: domain 2^8, the
// whole committed ptau).  Its constants are BN254's: a test load only.
include "circomlib/circuits/poseidon.circom";
template P() {
    signal input a;
    signal input b;
    signal output h;
    component p = Poseidon(2);
    p.inputs[0] <== a;
    p.inputs[1] <== b;
    h <== p.out;
}
component main {public [a]} = P();

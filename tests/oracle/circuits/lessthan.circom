pragma circom 2.0.0;
// circomlib's LessThan(32) (Num2Bits inside), two public inputs and one output.
include "circomlib/circuits/comparators.circom";
template Lt() {
    signal input a;
    signal input b;
    signal input c;
    signal output out;
    component lt = LessThan(32);
    lt.in[0] <== a;
    lt.in[1] <== b;
    out <== lt.out * c;
}
component main {public [a, b]} = Lt();

pragma circom 2.0.0;
// Mul(N): t[0] = a*b, t[i+1] = t[i]^2 + b, c = t[N]; b public (oracles.md section 4.1).
template Mul(N) {
    signal input a;
    signal input b;
    signal output c;
    signal t[N+1];
    t[0] <== a*b;
    for (var i = 0; i < N; i++) { t[i+1] <== t[i]*t[i] + b; }
    c <== t[N];
}
component main {public [b]} = Mul(5);

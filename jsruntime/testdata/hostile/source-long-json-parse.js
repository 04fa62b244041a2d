// goja's JSON.parse could not be interrupted (tens of millions of characters ran seconds past a
// 1 s budget), so text was once refused past 2^20 structural tokens or 32 MiB. The goja fork's
// parser polls the interrupt flag every 4,096 values and every 4 MiB of a string: parsing 48 MiB
// of text over and over ends at the budget, with no size refused below the heap.
// expect: timeout
// config: compute=500ms wall=1500ms heap=1GiB serial
const text = "[" + ('"' + "x".repeat(3069) + '",').repeat(1 << 14) + "1]";
for (;;) JSON.parse(text);

// The fill guard clamps with Math.min/Math.max captured before the program ran: a program that
// replaces them (so that the clamped end is undefined, which fill reads as "to the end") must
// still be refused a one-step allocation of 2**30 elements.
// expect: value: "RangeError: Invalid array length"
// config: compute=300ms wall=3s
Math.min = () => undefined;
Math.max = () => undefined;
try {
  new Array(2 ** 30).fill(0);
  return "allocated";
} catch (e) {
  return e.name + ": " + e.message;
}

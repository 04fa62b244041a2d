return [
  (1.005).toFixed(2), (0.1 + 0.2).toString(), (123.456).toPrecision(4), (1e21).toString(), (1e-7).toString(),
  (255).toString(16), (255).toString(2), Number("0x1f"), parseFloat("3.14abc"), Number(""), Number(" 12 "),
  Math.round(-0.5), Math.round(2.5), (2 ** 53 + 1).toString(), (123456789).toExponential(2),
  Number.MAX_SAFE_INTEGER, (0.000001234).toPrecision(2), (-1.5).toFixed(0), String(-0), [0, -0].map((x) => Object.is(x, -0)),
].map(String).join(" | ");

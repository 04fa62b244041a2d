// Values a model returns without thinking about JSON: undefined members, dates, NaN, toJSON.
const scores: number[] = [];
const avg = scores.reduce((a, b) => a + b, 0) / scores.length;
class Money {
  constructor(public cents: number, public currency: string) {}
  toJSON() { return `${(this.cents / 100).toFixed(2)} ${this.currency}`; }
}
return {
  count: scores.length,
  average: avg,
  note: undefined,
  when: new Date(Date.UTC(2024, 0, 15, 9, 30)),
  price: new Money(1999, "EUR"),
  ratio: Infinity,
  list: [1, undefined, 3],
};

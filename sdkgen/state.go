package sdkgen

// StateGlobal is the global through which a program reaches the values kept between runs.
const StateGlobal = "state"

// StateDeclaration declares the state binding: values kept between runs, JSON values under
// string keys. A typecheck sees it always (the binding is always there; without a store its
// operations fail saying how to get one); a prompt carries it (StateSection) only where a
// store is configured.
const StateDeclaration = `/** Values kept between runs: JSON values (as JSON.stringify makes them) under keys of 1 to 128 bytes. Failures reject with a StateError. */
declare const state: {
  /** The value stored under key; undefined when there is none. */
  get<T = any>(key: string): Promise<T | undefined>;
  /** Stores value under key, replacing any value; rejects when the state would exceed its size cap. */
  set(key: string, value: unknown): Promise<void>;
  /** Removes key (no error when it is missing). */
  delete(key: string): Promise<void>;
  /** Every key, in ascending order. */
  keys(): Promise<string[]>;
};
/** The error a state operation rejects with; operation is the one that failed ("get", "set", "delete", "keys"). */
declare class StateError extends Error {
  readonly operation: string;
}`

// StateSection is the paragraph a prompt appends to the SDK section where programs have a
// state store.
const StateSection = "Programs also have `state`, which keeps JSON values between runs:\n\n```ts\n" + StateDeclaration + "\n```"

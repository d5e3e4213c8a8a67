// same.ts: the type tests' check that two types are one, `same<A, B>(true)`: it fails to compile when they differ
// (either way, and `any` included, which `extends` alone would let through).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const same = <A, B>(proof: Equal<A, B>) => proof;

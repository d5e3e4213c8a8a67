// items.ts: the 50 items of the items pages, the same on every request (and for the reference and the JSON API), so
// that what a request costs is rendering them. Not a *.server.ts module: the partly prerendered page's shell has them
// in its component, in the browser too.
export interface Item {
  id: number;
  name: string;
  price: string;
  stock: number;
}

const MAKES = ["Sturdy", "Light", "Compact", "Quiet", "Bright", "Classic", "Folding", "Spare", "Travel", "Solid oak"];
const THINGS = [
  "desk lamp",
  "reading chair",
  "kettle",
  "notebook",
  "backpack",
  "wall clock",
  "tea mug",
  "umbrella",
  "bicycle bell",
];

export const ITEMS: readonly Item[] = Array.from({ length: 50 }, (_, i) => ({
  id: i + 1,
  name: `${MAKES[i % MAKES.length]} ${THINGS[i % THINGS.length]}`,
  price: `€${9 + ((i * 37) % 90)}.${String((i * 13) % 100).padStart(2, "0")}`,
  stock: (i * 7) % 23,
}));

// server-plugins.ts: preloaded into every bench server (`bun --preload`), as main.ts does before it loads the app:
// what components import (the home page's logo) resolves to its hashed /assets/ URL, in Brisk's pages and the
// reference's alike.
import { importedAssets } from "../../src/server/assets/imported-assets.ts";

Bun.plugin(importedAssets());

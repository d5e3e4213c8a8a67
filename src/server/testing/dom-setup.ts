// dom-setup.ts (brisk/test): the preload of a DOM test run: happy-dom's window as the globals, and React's act
// environment. `bun run test:app` runs an app's `*.dom.test.tsx` files with it, `bun run test:dom` the
// framework's; never in a run of server tests, where happy-dom's Response & co would replace Bun's.
import { GlobalRegistrator } from "@happy-dom/global-registrator";

GlobalRegistrator.register({ url: "http://localhost:3000/" });
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

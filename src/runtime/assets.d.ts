// Stylesheets are bundled by Bun.build; importing one only adds it to the client build.
declare module "*.css";

// An imported image or font is its hashed URL under /assets/, the same on both sides (server/imported-assets.ts).
declare module "*.svg" {
  const url: string;
  export default url;
}
declare module "*.png" {
  const url: string;
  export default url;
}
declare module "*.jpg" {
  const url: string;
  export default url;
}
declare module "*.webp" {
  const url: string;
  export default url;
}
declare module "*.woff2" {
  const url: string;
  export default url;
}

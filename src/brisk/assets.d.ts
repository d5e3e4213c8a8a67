// Stylesheets are bundled by Bun.build; importing one only adds it to the client build.
declare module "*.css";

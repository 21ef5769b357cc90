// Browser code imports its stylesheets and templates as text (esbuild's `text` loader).
declare module "*.css" {
  const css: string;
  export default css;
}

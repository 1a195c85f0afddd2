// Bundles the UI into dist/: index.html, app.js (the pages and uPlot), app.css. Run by
// `make webui` after `npm ci`; the C++ build embeds dist/ into the spindle binary.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

mkdirSync("dist", { recursive: true });
await build({
  entryPoints: { app: "src/main.js" },
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  outdir: "dist",
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync("src/index.html", "dist/index.html");

import { defineConfig } from "vite";

// Served by Daedalus at /table/ (api/app.py mounts web/dist there), same origin as the API.
export default defineConfig({
  base: "/table/",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
});

// The demo shop is a handful of static pages; Vite bundles their scripts (and the pay elements) into
// demo/dist, which the demo backend serves.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (name: string): string => fileURLToPath(new URL(`./shop/${name}.html`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./shop', import.meta.url)),
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: { index: page('index'), cart: page('cart'), order: page('order'), return: page('return'), orders: page('orders') },
    },
  },
});

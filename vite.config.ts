import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Exact match only: deep imports of @blueprintjs/icons still resolve to the package.
    alias: [{ find: /^@blueprintjs\/icons$/, replacement: fileURLToPath(new URL('./build/blueprintIcons.js', import.meta.url)) }],
  },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT || '8081'}` },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
  },
})

import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The wallet and chain code (@solana/*, the demo wallet) and the API client are reached only through dynamic imports
// (src/app/bootstrap.ts), so they land in lazily loaded chunks and the first screen stays small (ENVIRONMENT.md).
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
})

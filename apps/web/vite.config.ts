import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// In development (`vite` on its own port) the API and the uploaded images (notice bodies link /uploads/…) come from
// the server.
const server = 'http://127.0.0.1:3000'

// The wallet and chain code (@solana/*, the demo wallet) and the API client are reached only through dynamic imports
// (src/app/bootstrap.ts), so they land in lazily loaded chunks and the first screen stays small (ENVIRONMENT.md).
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': server, '/uploads': server },
  },
})

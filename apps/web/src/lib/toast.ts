import { createStore } from './store.ts'

export type ToastKind = 'info' | 'success' | 'error'
export interface Toast {
  id: number
  text: string
  kind: ToastKind
}

/** How long a toast stays (docs/product.md#constants-and-timings). */
export const TOAST_MS = 2000
/** Default duration of the general message helper (docs/product.md#constants-and-timings). */
export const MESSAGE_MS = 1500

const store = createStore<readonly Toast[]>([])
let lastId = 0

/** The general message helper: the one way anything shows a toast. */
export function showMessage(text: string, kind: ToastKind = 'info', duration = MESSAGE_MS) {
  const id = ++lastId
  store.set([...store.get(), { id, text, kind }])
  setTimeout(() => store.set(store.get().filter((toast) => toast.id !== id)), duration)
}

export const toast = {
  success: (text: string) => showMessage(text, 'success', TOAST_MS),
  error: (text: string) => showMessage(text, 'error', TOAST_MS),
}

export const useToasts = store.use

import { type ComponentType, lazy, useState } from 'react'

export type Load = () => Promise<{ default: ComponentType }>

/** A screen's chunk: loaded when asked for (preload), the screen itself once it is here. */
export interface ScreenChunk {
  preload: Load
  loaded: ComponentType | undefined
  /** The screen through lazy(): suspends until the chunk is here. */
  Lazy: ComponentType
}

/**
 * A lazily loaded screen (the export `name` of the module `load` imports) whose chunk can be asked for before React
 * renders it (preloadScreen).
 */
export function screenChunk(load: () => Promise<Record<string, ComponentType>>, name: string): ScreenChunk {
  // One import for both: React's lazy() asking again would walk the chunk's preload list a second time.
  let loading: ReturnType<Load> | undefined
  const chunk: ScreenChunk = {
    preload: () => {
      loading ??= load().then(
        (exports) => {
          chunk.loaded = exports[name] as ComponentType
          return { default: chunk.loaded }
        },
        (error: unknown) => {
          loading = undefined // a failed fetch is asked for again next time
          throw error
        },
      )
      return loading
    },
    loaded: undefined,
    Lazy: lazy(() => chunk.preload()),
  }
  return chunk
}

/**
 * A screen: itself once its chunk is here, else through lazy(). lazy() alone suspends on its first render even then
 * (Preact's learns that its import resolved only in a `then` of its own), so the page's first render would draw the
 * loading fallback, remove it and render the screen in a second pass, all in one long task.
 */
export function ScreenOf({ chunk }: { chunk: ScreenChunk }) {
  // Chosen when mounted, and kept: switching from Lazy to the screen itself later would mount the screen again.
  const [Loaded] = useState(() => chunk.loaded)
  return Loaded ? <Loaded /> : <chunk.Lazy />
}
